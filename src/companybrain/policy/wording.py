"""How people write ownership and decisions, in one place for the proposer and the verifier:
which words state ownership, which make a named person a previous owner or deny it, and which
table columns and field names hold an owner. Matching runs over mention templates
(policy/mentions.py): folded words with `<p:ID>`/`<s:ID>` markers."""

from __future__ import annotations

import re
from functools import lru_cache

from companybrain.policy.mentions import CLAUSE_END, PERSON, SERVICE, Template, marker

# Words that state ownership, or a change of it, somewhere in a sentence.
_CUE = re.compile(
    r"\b(?:own|owns|owned|owning|owner|owners|ownership|co owns?|co owners?"
    r"|(?:take|takes|took|taken|taking) (?:(?:it|the|<s:[a-z0-9._-]+>) )*over"
    r"|hand(?:s|ed|ing)?\b.*\bover|handover"
    r"|hand(?:s|ed|ing)? (?:\S+ ){1,4}?to|transfer|transfers|transferred|transferring"
    r"|point of contact|review contact|contact person|poc|inherit|inherits|inherited"
    r"|belongs? to)\b"
)
# In a clause, these make a named person a previous owner ("used to own", "previously").
_PAST = re.compile(
    r"\b(?:used to|previously|formerly|former|no longer|not any ?more|anymore|ex|old owner"
    r"|previous owner|prior owner|outgoing|was owned|were owned|was the owner|was its owner"
    r"|had owned|once owned|originally|handed over from|in the past"
    r"|step(?:s|ped|ping)? down|resign(?:s|ed|ing)?)\b"
)
# In a clause, these deny it ("does not own", "isn't the owner", "never").
_NEGATION = re.compile(
    r"\b(?:not|never|nobody|no one|neither|nor|doesn t|don t|didn t|isn t|wasn t|aren t|won t"
    r"|cannot)\b"
)
# In a clause, these make it a supposition or a doubt ("if Aria owns it", "whether Aria
# owns it", "maybe Aria owns it"), not a statement that the person owns it.
_SUPPOSED = re.compile(
    r"\b(?:if|unless|whether|maybe|perhaps|possibly|suppose|supposing|assuming|in case"
    r"|doubt|doubts|wonder|wonders|wondering)\b"
)
# "may" the modal, not the month: "as of 1 May 2026 Kofi owns it", "from May 2026", "in May".
_MAY = (
    r"(?<!\d )(?<!\d[snrt][tdh] )(?<!\bin )(?<!\bof )(?<!\bfrom )(?<!\bsince )"
    r"(?<!\buntil )(?<!\bstarting )may(?! \d)"
)
# Before a person in a clause, these make it a proposal or a request ("we propose Kofi as
# owner", "please hand it over to Kofi", "we plan to transfer it to Kofi"), not a statement.
_WANTED = re.compile(
    r"\b(?:propose|proposes|proposing|suggest|suggests|suggesting|recommend|recommends"
    r"|recommending|nominate|nominates|please(?! note| be aware| remember)|request to"
    r"|requests to|requesting|(?:plan|plans|planned|planning|want|wants|wanted|would like"
    r"|intend|intends|hope|hopes) to"
    # a modal before the hand-over: "we should transfer it to Kofi", "could move to Kofi"
    rf"|should|could|might|{_MAY}|would|must|ought to)\b"
)
# In a sentence, these say that what it reports is not so: "Kofi says Lena owns the gateway,
# which is wrong", "It is a myth that Lena owns the gateway".
_DISPUTED = re.compile(
    r"\b(?:which|that|this) (?:is|was|s) (?:(?:just|simply|completely|plain) )?(?:wrong"
    r"|incorrect|not true|untrue|false|outdated|out of date|no longer true|not the case"
    r"|a myth|a mistake)\b"
    r"|\b(?:it is|it s|it was) (?:a myth|not true|untrue|false|wrong|incorrect) that\b"
    r"|\b(?:myth|rumou?r|misconception) that\b|\brumou?r(?:s)? (?:has|have) it\b"
    r"|\b(?:it is|it s) rumou?red\b|\brumou?redly\b"
    # "Kofi, who says Bo owns it, is wrong", "Kofi says Bo owns it, but he is mistaken"
    r"|\b(?:says|said|claims|claimed|thinks|thought|believes|believed|insists|insisted)\b"
    r".*\b(?:is|was|are|were|s) (?:(?:just|simply|completely|plain|clearly) )?(?:wrong"
    r"|mistaken|incorrect)\b"
)
# Straight after a person, the "s" of a possessive and a word: what is named is theirs (a
# team, a successor, a deputy), not them. "Kofi's the owner" is "Kofi is": not read so.
_WHOSE = re.compile(
    r"s (?!(?:the|a|an|now|still|also|been|being|taken|taking|owning|handing|going|got)\b)"
    r"([^\W_]+)"
)
# Straight after a person, a modal makes it what should, could or might be, not what is:
# "Aria should own the gateway", "Kofi could take it over" ("will own" states a change).
_MODAL_AFTER = re.compile(
    r"^(?:(?:also|then|probably|really|eventually|perhaps)\s+)?(?:should|could|might"
    r"|may(?! \d)|would|must|ought to|can)\b"
)
# Straight after a person, these make it a guess, or what they want, are asked or refuse to
# take on, not what is: "Cora probably owns the gateway", "Cora wants to own it", "Cora was
# asked to take over the gateway", "Cora refused to own it".
_UNSURE_AFTER = re.compile(
    r"^(?:(?:also|then|now|really|still) )?(?:probably|likely|presumably|apparently"
    r"|supposedly|allegedly|reportedly|seemingly|possibly)\b"
    r"|^(?:(?:also|then|now|really|still|has|have|had|was|were|is|are|been) )*(?:wants?|wanted"
    r"|hopes?|hoped|plans?|planned|intends?|intended|asks?|asked|refuses?|refused|declines?"
    r"|declined|offers?|offered|proposes?|proposed|volunteers?|volunteered|expects?|expected"
    r"|wish|wishes|wished|tries|tried|would like) to (?:\S+ ){0,2}?(?:own|take|be|become"
    r"|get|have|keep|run)\b"
)
# Before a person, these with a verb in the present make a condition of it, not a fact:
# "once Yuki owns flagd, ...", "when Kofi takes over the gateway, ..." ("when Kofi took
# over the gateway in May" says he did).
_UNTIL_THEN = re.compile(r"\b(?:when|whenever|once|after|before|as soon as|until)$")
_PRESENT = re.compile(
    r"(?:(?:now|also|fully|formally|officially) )*(?:owns|own|takes over"
    r"|take over|is|are|becomes|become|gets|get)\b"
)
# The punctuation that ends a sentence. A clause of a sentence ending with "?" that starts
# with one of these words asks ("Does Aria own it?", "is Aria the owner?"); one worded as a
# statement ("pretty sure Aria owns it now? not 100%") still says it, however unsure.
_SENTENCE_END = frozenset(".!?")
_ASKING = frozenset(
    (  # noqa: SIM905 (a word list reads better as words)
        "does do did is are was were will would shall should can could may might must has "
        "have had who whom whose what which"
    ).split()
)
# Right before a person, these make them the one someone else replaces as owner.
_REPLACED = re.compile(
    r"\b(?:replaces|replaced|replacing|succeeds|succeeded|succeeding|relieves|relieved"
    r"|relieving|stands in for|stood in for)$"
)
# After a person, these make them the giver of a transfer, not its receiver.
_GIVES = re.compile(
    r"\b(?:hand|hands|handed|handing|transfer|transfers|transferred|passes"
    r"|passing|passed|gives|giving|gave|reassigns|reassigned)\b"
)
# After a person, in the rest of the sentence and before any service is named, these hand
# what they were given on to someone else: "moved from Lena to Kofi and back to Lena",
# "transfers to Ben, then to Cora", "Ben took it over, and Aria took it back". The one it
# moved on from is a previous owner; the last one named owns it.
_ON_TO = (
    r"(?:back|then|later|afterwards|subsequently|thereafter|returned|returns|reverted"
    r"|reverts)(?: (?:back|over|on|again|then|later|it|ownership|was|is|has|been|moved|moves"
    r"|went|goes|passed|passes|handed|transferred|transfers|returned|reverted))*? to"
    r" <p:(?P<next>[a-z0-9._-]+)>"
)
_TAKEN_BACK = (
    r"<p:(?P<taker>[a-z0-9._-]+)> (?:(?!<)\S+ ){0,2}?(?:took|takes|take|taken|taking|got"
    r"|gets|get|getting|gotten) (?:(?:it|them|ownership|that|this) )?back\b"
)
_HANDED_ON = re.compile(rf"\b{_ON_TO}|{_TAKEN_BACK}")
# Straight after a person, a simple past "owned" is history ("Greta owned the event bus").
_OWNED_THEN = re.compile(r"^(?:(?:also|once|originally|briefly) )?owned\b")
_SPLIT_WORDS = {"and", "but", "while", "whereas", "although", "though", "so", "then", "until"}
_RELATIVE = {"who", "whom", "which"}
_APPOSITIVE = {"the", "a", "an", "our", "their", "its", "his", "her"}

DECISION_WORDING = re.compile(
    r"\b(?:we will|we ll|we shall|we are going to|we decided|we ve decided|we have decided"
    r"|let s decide|let us decide|decided to|the decision is|decision|we adopt|we chose"
    r"|we choose)\b"
)


# An owner cell or `Owner:` value that says there is no owner ("(vacant, see PLAT-77)").
_VACANT = re.compile(
    r"^\W*(?:vacant|vacancy|unassigned|not assigned|unowned|unstaffed|nobody|no one|no owner"
    r"|none|tbd|tba|to be (?:decided|assigned|confirmed)|n a|open position)\b"
)


def names_only(key: Template) -> bool:
    """Is a key or cell (a template) one service's name, with at most an article before it?"""
    words = [t for t in key.tokens if t not in CLAUSE_END]
    return len(words) in (1, 2) and words[-1].startswith("<s:") and words[:-1] in ([], ["the"])


def says_vacant(value: str) -> bool:
    """Does an owner cell or field value say the service has no owner? (Folded as names
    are: case and punctuation do not matter.)"""
    return bool(_VACANT.search(" ".join(re.sub(r"[^\w(]+", " ", value.casefold()).split())))


def states_ownership(text: str) -> bool:
    """Does this (folded) text use ownership wording?"""
    return bool(_CUE.search(text))


def column_role(header: str) -> str | None:
    """'service', 'owner' or 'previous' for a table header cell (lower case), else None.
    A directory's header is read again for every row it holds: short ones are kept."""
    return _kept_role(header) if len(header) <= 200 else _role(header)


def _role(header: str) -> str | None:
    h = " ".join(re.sub(r"[^\w ]", " ", header).split())
    if re.search(r"\b(?:previous|former|old|outgoing|prior|ex)\b", h) and "owner" in h:
        return "previous"
    if re.search(r"\b(?:backup|deputy|secondary|alternate)\b", h):
        return None
    if re.search(r"\b(?:since|until|date|effective)\b", h):
        return None  # "Owner since": when, not who ("1 May 2026" names no "May")
    if re.search(r"\b(?:owner|owners|owned by|point of contact|review contact|poc)\b", h):
        return "owner"
    if re.search(r"\bownership$|^ownership (?:of|for)\b", h):  # "Billing gateway ownership"
        return "owner"  # ("Ownership transfer": when)
    if re.search(r"\b(?:service|system|component)\b", h):
        return "service"
    return None


_kept_role = lru_cache(maxsize=512)(_role)


def field_role(key: str) -> str | None:
    """'owner' or 'previous' for the key of a `Key: value` line, else None."""
    return column_role(key) if column_role(key) in {"owner", "previous"} else None


def standing(quote: Template, owner: str) -> tuple[str, str] | None:
    """Does the quote name `owner` as a previous owner, as someone who does not own it, or
    only in a question or a supposition? Returns (check, "as ...") or None. A person named
    several times stands if any mention stands."""
    me = marker(PERSON, owner)
    verdicts: list[tuple[str, str] | None] = []
    for sentence, asked in _sentences(quote):
        if (disputed := _DISPUTED.search(sentence.text)) and me in sentence.tokens:
            verdicts.append(("not_asserted", f"in what it disputes ({disputed.group()!r})"))
            continue
        clauses = _clauses(sentence)
        # where each mention stands in the whole sentence (clauses keep the tokens' order)
        places = iter(i for i, token in enumerate(sentence.tokens) if token == me)
        service = next((t for t in sentence.tokens if t.startswith("<s:")), None)
        for clause in clauses:
            for at, token in enumerate(clause):
                if token != me:
                    continue
                rest = sentence.tokens[next(places) + 1 :]
                # "Does Kofi own it?", "Hi, is Kofi the owner?", "Who owns it, Kofi?"
                asking = next((c[0] for c in (clause, clauses[0]) if c[0] in _ASKING), None)
                if asked and asking:
                    verdicts.append(("not_asserted", f"in a question ({asking!r} ... '?')"))
                else:
                    verdicts.append(_mention(clause, at) or _handed_on(rest, owner, service))
    if not verdicts or any(v is None for v in verdicts):
        return None
    return next(v for v in verdicts if v is not None)


def owned_before(quote: Template, owner: str, service: str) -> tuple[str, str] | None:
    """Does a relative clause say that `owner` owned `service` before ("Kofi, who owned the
    billing gateway, now owns the ledger")? `standing` reads the clause for the person,
    whatever service it names; this reads it for the service. Returns (check, "as ...")."""
    if " who " not in quote.text and " which " not in quote.text:
        return None  # (most sentences)
    me, it = marker(PERSON, owner), marker(SERVICE, service)
    for m in _OWNED_BEFORE.finditer(quote.text):
        if m.group("p") == me and it in _SERVICES.findall(m.group("slist")):
            return "previous_owner", "as a previous owner ('who owned')"
    return None


# One pattern for every person and service (one built for each pair was compiled again
# and again once there were more pairs than the regular-expression cache holds).
_OWNED_BEFORE = re.compile(
    r"(?P<p><p:[^>]+>) (?:who|which) (?:once |formerly |previously |originally )?(?:owned"
    r"|had owned|used to own|was the owner of) (?:the |our |its )?"
    r"(?P<slist>(?:<s:[^>]+> (?:and (?:the )?)?)*<s:[^>]+>)"
)
_SERVICES = re.compile(r"<s:[^>]+>")


def alternative(quote: Template, service: str) -> tuple[str, str] | None:
    """Does the quote name `service` only as one of alternatives ("owns the search index or
    the billing gateway, I forget which", "either the billing gateway or the ledger")?
    Then whoever it names owns one of them, not it. Returns (check, "as ...") or None."""
    if " or " not in quote.text and "either" not in quote.text:
        return None
    me = marker(SERVICE, service)
    if any(me in (m.group("a"), m.group("b")) for m in _ALTERNATIVE.finditer(quote.text)):
        return "not_asserted", "with the service as one of alternatives ('or')"
    return None


_ALTERNATIVE = re.compile(
    r"(?=(?P<a><s:[^>]+>) or\b|\b(?:either|or) (?:the |our |its )?(?P<b><s:[^>]+>))"
)


def hedged(quote: Template, owner: str, *, to_come: bool = False) -> tuple[str, str] | None:
    """Does every sentence naming `owner` hedge what it says, in the clause naming them or
    by what a clause naming no one starts with ("Rumour: Cora owns the billing gateway.",
    "Cora owns it (not confirmed).", "..., pending approval.", "Reportedly, Cora owns
    it."), make it a condition ("Unless vetoed, Cora owns it.") or narrow it to a part of
    where the service runs ("In the test environment, Cora owns it.")? Then it reports
    what is heard or not settled, or less than who owns the service. Returns (check,
    "as ...") or None. For a change still to come (`to_come`: "transfers to Bo, pending
    approval", "Once approved, ... transfers"), what it waits for is left to when it
    starts: the claim is kept with its start unclear (policy/effective.py)."""
    me = marker(PERSON, owner)
    found: tuple[str, str] | None = None
    for sentence, _ in _sentences(quote):
        if me not in sentence.tokens:
            continue
        said = " ".join(sentence.tokens)
        if not _MAY_HEDGE.search(said):
            return None  # (most sentences: no need to read their clauses)
        if m := _HEDGE_LABEL.match(said):
            found = "not_asserted", f"in what it labels as unsettled ({m.group().strip()!r})"
            continue
        for clause in _clauses(sentence):
            text = " ".join(clause)
            m = _CONDITION.match(text)
            if m and not (to_come and _AWAITED.match(m.group())):  # "Unless vetoed, ..."
                found = "not_asserted", f"under a condition ({m.group()!r})"
                break
            mine = me in clause
            if not mine and any(t.startswith("<p:") for t in clause):
                continue  # another's clause: "Cora owns it, and Kofi's move is pending review"
            if not mine:  # a clause naming no one hedges only by what it starts with: not
                text = _LEAD.sub("", text)  # "; the budget is pending approval"
            m = (_HEDGE.search if mine else _HEDGE.match)(text) or _HEDGE_ALONE.match(text)
            if m and not (to_come and _AWAITED.match(m.group())):
                found = "not_asserted", f"in what it hedges as unsettled ({m.group()!r})"
                break
            if (m := _SCOPE.search(text) if mine else _SCOPE.match(text)) and (
                mine or text[m.end() :] in ("", " only")  # not "for dev questions ask Bo"
            ):
                found = "not_asserted", f"for less than the whole service ({m.group()!r})"
                break
        else:
            return None
    return found


# Words that may hedge a sentence (a cheap test before its clauses are read).
_MAY_HEDGE = re.compile(
    r"confirm|verif|rumou?r|official|final|approv|pending|awaiting|subject to|tbc|sign|agreed"
    r"|apparently|reportedly|supposedly|allegedly|seemingly|ostensibly|hearsay|gossip"
    r"|tentativ|speculat|guess|unless|provid|assuming|supposing|condition|contingent|event"
    r"|goes|objects|stag|test|sandbox|dev|qa|uat|prod|canary|demo|lab|beta|pilot|region"
    r"|data ?cent|zone|tenant|market|environment|cluster|eu|apac|emea|latam|asia|america"
    r"|draft|propos|suggest|idea|hypothes|assum|seems|appears|word"
)
# A sentence starting with a label saying that it is unsettled: "Rumour: ...",
# "Unconfirmed: ...", "Office gossip: ...", "Draft: ...", "Proposal: ...".
_HEDGE_LABEL = re.compile(
    r"^(?:[^\W_]+ ){0,2}?(?:rumou?rs?|unconfirmed|unverified|speculation|hearsay|gossip|guess"
    r"|tbc|unofficial|unofficially|tentative|not (?:yet )?confirmed|draft|proposal|proposed"
    r"|suggestion|idea|hypothesis|assumption) :"
)
# In a clause, these say that what it states is not settled, or only heard ("not confirmed",
# "pending approval", "reportedly").
_HEDGE = re.compile(
    r"\b(?:not (?:yet |been |officially |formally )*(?:confirmed|verified|official|final"
    r"|finali[sz]ed|approved|signed off|agreed)|unconfirmed|unverified|unofficial(?:ly)?|tbc"
    r"|(?:to|yet to) be (?:confirmed|verified|approved|agreed|signed off|finali[sz]ed)"
    r"|(?:pending|awaiting|subject to) (?:\S+ ){0,3}?(?:approval|confirmation|sign off"
    r"|signoff|review|agreement|vote|decision|ratification|verification)"
    r"|apparently|reportedly|supposedly|allegedly|rumou?redly|seemingly|ostensibly"
    r"|tentative(?:ly)?|it seems|it appears|word is|word has it)\b"
)
# What a change still to come may wait for: when it starts is then unclear, not whether.
_AWAITED = re.compile(r"pending|awaiting|subject to|once|as soon as")
# A clause that makes the sentence a condition, not a fact: "Unless vetoed, Cora owns the
# billing gateway.", "If approved, ...", "..., provided the board agrees." ("If you need
# access, Cora owns it" is who to ask.)
_CONDITION = re.compile(
    r"(?:unless|provided|providing|assuming|supposing|on condition|conditional on"
    r"|contingent on|in the event)\b"
    r"|(?:if|once|when|as soon as) (?:it is |it s |this is |that is )?(?:approved|accepted"
    r"|agreed|confirmed|signed off|ratified|granted|cleared|not vetoed|vetoed|rejected)\b"
    r"|(?:if|once|when|as soon as) (?:\S+ ){0,2}?(?:approval|sign off|signoff|confirmation"
    r"|ratification) (?:is |comes |goes )"
    r"|if (?:all|everything) goes (?:well|to plan)|if (?:nobody|no one) objects"
)
# In a clause, these narrow what it says to an environment or a region: "In the test
# environment, Cora owns the billing gateway.", "... in staging", "... for the EU region"
# ("in production" and "in all environments" are the service itself).
_SCOPE = re.compile(
    r"\b(?:in|on|for|within) (?:the |our |its |their |a |an )?(?!(?:all|every|each|any|both)\b)"
    r"(?:\S+ ){0,2}?(?:(?:staging|stage|test|testing|sandbox|dev|development|qa|uat|preprod"
    r"|pre prod|pre production|non production|nonprod|non prod|canary|demo|lab|beta|pilot)"
    r"(?: (?:environments?|envs?|clusters?|instances?|stack|tier|setup|deployment))?"
    r"|regions?|data ?cent(?:er|re)s?|datacenters?|availability zones?|tenants?|markets?"
    r"|environments?|clusters?|eu|apac|emea|latam|europe|asia|americas)\b"
)
# Words a clause naming no one may start with before what hedges the sentence ("this is
# still unconfirmed", "but only in staging", "the move is pending approval"; not "the
# budget is pending approval").
_LEAD = re.compile(
    r"^(?:(?:this|that|it|which|s|is|was|still|yet|only|just|but|though|although|currently"
    r"|now|all|as|of|and|the|move|change|transfer|handover|hand over|reassignment|switch"
    r"|decision|ownership) )*"
)
# A clause of hedge words alone: "(rumour)", ", just a rumour", "(speculation)",
# "(proposed)".
_HEDGE_ALONE = re.compile(
    r"(?:(?:just|only|a|an|unconfirmed|unverified|pure|office) )*(?:rumou?rs?|hearsay|gossip"
    r"|speculation|guess|guesswork|proposed|proposal|draft|suggested|suggestion)$"
)


# Straight after the services someone is said to own, these make them the owner of a part
# of the service, not of it: "owns the billing gateway's dashboards" (the "s" of a
# possessive), "owns the billing gateway runbook", "owns the billing gateway on-call",
# "owns the billing gateway staging cluster".
PART = re.compile(
    r" (?:s|runbooks?|dashboards?|alerts?|alerting|metrics|logs|logging|monitoring|on ?call"
    r"|pager|rotation|docs?|documentation|wiki|repo|repository|codebase|tests?|config"
    r"|configuration|deploys?|deployments?|pipelines?|releases?|rollouts?|migration"
    r"|upgrade|incidents?|outage|postmortem|tickets?|backlog|roadmap|budget|project|work"
    r"|team|integration|client|sdk|schema|certificates?|certs|review|audit|spec|design|rfc"
    r"|staging|sandbox|dev|qa|uat|preprod|canary|clusters?|environments?|envs?|instances?"
    r"|regions?|replicas?|database|db|nodes?|servers?|hosts?|frontend|backend)"
    r"(?!\S)"
)
# Straight before a service, these name an environment or a region of it: "owns the
# staging billing gateway", "the EU billing gateway".
_SCOPED_BEFORE = re.compile(
    r"\b(?:staging|sandbox|test|testing|dev|development|qa|uat|preprod|canary|demo|lab|beta"
    r"|pilot|non production|nonprod|eu|uk|apac|emea|latam|european|regional) $"
)


def scoped_cell(cell: Template) -> bool:
    """Does a table cell naming a service name an environment or a region of it beside
    the name ("Billing Gateway (staging)", "EU Billing Gateway")?"""
    return _CELL_SCOPE.search(cell.text) is not None


_CELL_SCOPE = re.compile(
    r"(?<!<)\b(?:staging|sandbox|test|testing|dev|qa|uat|preprod|canary|demo|beta|pilot"
    r"|non production|nonprod|eu|uk|apac|emea|latam|regions?|clusters?|environments?|envs?"
    r"|instances?|tenants?)\b(?![^<]*>)"
)


# After a service, these name its owner, not a part of it ("the billing gateway's owner",
# "the billing gateway review contact").
_ITS_OWNER = re.compile(
    r" (?:s )?(?:(?:new|current|sole|primary|main|acting|interim|co|temporary) )?(?:owner"
    r"|owners|ownership|point of contact|review contact|contact person|poc)\b"
)


def part_owned(quote: Template, owner: str, service: str) -> tuple[str, str] | None:
    """Does every sentence naming `owner` and `service` name a part of the service at
    each mention of it ("Cora owns the billing gateway staging cluster", "... the billing
    gateway's dashboards", "... the staging billing gateway")? Then the person owns that
    part, not the service, as the rules read it. Returns (check, "as ...") or None."""
    me, it = marker(PERSON, owner), marker(SERVICE, service)
    found: tuple[str, str] | None = None
    for sentence, _ in _sentences(quote):
        if me not in sentence.tokens or it not in sentence.tokens:
            continue
        text = sentence.text
        at = [(m.start(), m.end()) for m in re.finditer(re.escape(it), text)]
        parts = [
            _SCOPED_BEFORE.search(text, 0, start) or PART.match(text, end) for start, end in at
        ]
        if not all(parts) or any(_ITS_OWNER.match(text, end) for _, end in at):
            return None
        words = next(p.group().strip() for p in parts if p)
        found = "no_ownership_statement", f"as the owner of a part of it ({words!r})"
    return found


# In a table's owner cell, these say the service has no owner yet, whoever the cell names
# beside ("unassigned (ask Kofi)", "TBD (Kofi proposed)").
_UNOWNED = re.compile(
    r"\b(?:unassigned|vacant|unowned|unclaimed|tbd|tba|tbc|none|nobody|proposed|nominated"
    r"|candidate)\b"
)


def asks_whose(quote: Template, service: str) -> bool:
    """Does the quote ask, or tell that someone asked, who owns `service` ("Cora asked who
    owns the billing gateway")? A "who" straight after a person describes them ("Cora, who
    owns the billing gateway, ...")."""
    owned = rf"(?:the )?{re.escape(marker(SERVICE, service))}"
    return (
        re.search(rf"(?<!> )\bwho (?:\S+ ){{0,2}}?{_ASKED_WHOSE} {owned}", quote.text) is not None
    )


_ASKED_WHOSE = r"(?:owns|own|owned|is the owner of|takes over|took over|will take over)"


def cell_standing(cell: Template, owner: str) -> tuple[str, str] | None:
    """`standing` for a table's owner cell, which also names no owner when it holds a "?"
    ("Kofi?") or says that there is none yet."""
    me = marker(PERSON, owner)
    if me not in cell.tokens or cell.tokens == (me,):
        return None  # (a cell of their name alone, as most are, says nothing more)
    if said := standing(cell, owner) or hedged(cell, owner):  # "Kofi (unconfirmed)"
        return said
    if "?" in cell.tokens:
        return "not_asserted", "with a question mark"
    if m := _UNOWNED.search(cell.text):
        return "not_asserted", f"beside {m.group()!r}"
    return None


def _mention(clause: list[str], at: int) -> tuple[str, str] | None:
    """What the words around one mention say about that person: from the previous person
    named in the clause up to the next one, so that one person's "no longer" is not
    read as another's."""
    prev = max((i for i in range(at) if clause[i].startswith("<p:")), default=-1)
    nxt = next((i for i in range(at + 1, len(clause)) if clause[i].startswith("<p:")), None)
    near = " ".join(clause[prev + 1 : at])
    after = " ".join(clause[at + 1 : nxt])
    if re.search(r"\bfrom(?: the)?(?: previous| old| former)?(?: owner)?$", near):
        return "previous_owner", "as the one ownership moves away from"
    if m := _REPLACED.search(near):  # "Bo replaced Kofi as owner of the billing gateway"
        return "previous_owner", f"as the one replaced ({m.group()!r})"
    if re.search(r"\b(?:was|were|previously|formerly|ex|prev|before)$", near):
        return "previous_owner", f"as a previous owner ({near.rsplit(' ', 1)[-1]!r})"
    scope = f"{near} {after}"
    if m := _NEGATION.search(scope):
        return "negated", f"as someone who does not own it ({m.group()!r})"
    if m := _PAST.search(scope) or _OWNED_THEN.search(after):
        return "previous_owner", f"as a previous owner ({m.group()!r})"
    if nxt is not None and _GIVES.search(after) and re.search(r"\bto$", after):
        return "previous_owner", "as the one handing it over to someone else"
    # "either Aria or Ben owns it", "| Aria or Ben |": which?
    if m := re.search(r"\b(?:either|or)$", near) or re.search(r"\bor$", after if nxt else ""):
        return "not_asserted", f"as one of alternatives ({m.group()!r})"
    if m := _WHOSE.match(after):  # "owned by Kofi's team", "taken over by Kofi's successor"
        return "no_ownership_statement", f"as the one whose {m.group(1)} is meant ({m.group()!r})"
    if m := _WANTED.search(near):
        return "not_asserted", f"as what is proposed or asked for ({m.group()!r})"
    if m := _MODAL_AFTER.match(after):
        return "not_asserted", f"as what should or might be, not what is ({m.group()!r})"
    if m := _UNSURE_AFTER.match(after):
        return "not_asserted", f"as what may be so or is wanted, not what is ({m.group()!r})"
    if (m := _UNTIL_THEN.search(near)) and _PRESENT.match(after):  # "once Yuki owns it, ..."
        return "not_asserted", f"in a condition ({m.group()!r})"
    if m := _SUPPOSED.search(scope):
        return "not_asserted", f"in a supposition ({m.group()!r})"
    return None


def _handed_on(rest: tuple[str, ...], owner: str, service: str | None) -> tuple[str, str] | None:
    """Does the rest of the sentence after a mention of `owner` hand what it is about
    (`service`, the first one the sentence names) on to someone else ("to Kofi and back to
    Lena", "Kofi took over the gateway, and Lena took it back")?"""
    text = " ".join(t for t in rest if t not in CLAUSE_END)
    for m in _HANDED_ON.finditer(text):
        if any(s != service for s in re.findall(r"<s:[^>]+>", text[: m.end()])):
            return None  # "to Kofi and the ledger to Lena": another service's move
        if (m.group("next") or m.group("taker")) != owner:
            words = re.sub(r"<p:([^>]+)>", r"\1", m.group())
            return "previous_owner", f"as someone it moved on from ({words!r})"
    return None


def _sentences(quote: Template) -> list[tuple[Template, bool]]:
    """The quote's sentences, each with whether it is a question (ends with "?")."""
    out: list[tuple[Template, bool]] = []
    current: list[str] = []
    for token in (*quote.tokens, "."):
        current.append(token)
        if token in _SENTENCE_END:
            out.append((Template(tuple(current)), token == "?"))
            current = []
    return out


def _clauses(quote: Template) -> list[list[str]]:
    """Clauses split at punctuation and at joining words; a relative clause or an appositive
    ("Aria, who used to own it", "Aria, the former owner") stays with the person it
    describes."""
    out: list[list[str]] = []
    for part in quote.clauses():
        if out and (
            part[0] in _RELATIVE or (part[0] in _APPOSITIVE and out[-1][-1].startswith("<p:"))
        ):
            out[-1] = out[-1] + part
            continue
        current: list[str] = []
        for token in part:
            if token in _SPLIT_WORDS and current:
                out.append(current)
                current = []
            else:
                current.append(token)
        if current:
            out.append(current)
    return out
