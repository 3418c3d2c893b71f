"""Which question type a question is, and what it is about. Two routers with one interface:
`rules` (offline, deterministic, the default) and `model` (an OpenAI-compatible tool call
that picks one read-only tool and a subject from an enum of ids in the graph; it never
writes Cypher). Code then checks the choice: the subject must be named in the question
(grounding), otherwise NOT_IN_GRAPH, whatever the model mapped it to."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from companybrain.ask.catalog import (
    DECISION,
    PERSON,
    PROJECT,
    SERVICE,
    TEAM,
    Catalog,
    Entity,
    Mention,
)
from companybrain.ask.repo import topic
from companybrain.config import Settings
from companybrain.errors import ModelError
from companybrain.llm.client import ModelClient, function_tool, refused
from companybrain.model.answer import Refusal, RefusalCode
from companybrain.policy import search_rank
from companybrain.policy.text import NameSet, fold_name, names_in, near_names, straight_quotes

log = logging.getLogger(__name__)
NO_MODEL = "no model is configured (set BRAIN_MODEL and BRAIN_MODEL_BASE_URL)"

TOOLS = ("owner_of", "who_knows", "trace_decision", "person_or_team", "search_records")
SUBJECT_TYPES: dict[str, tuple[str, ...]] = {
    "owner_of": (SERVICE, PROJECT),
    "who_knows": (SERVICE, PROJECT),
    "trace_decision": (DECISION,),
    "person_or_team": (PERSON, TEAM),
}
MIN_DECISION_OVERLAP = 2  # significant words a question shares with a decision it names


@dataclass(frozen=True)
class Route:
    tool: str | None
    subject: Entity | None = None
    query: str | None = None  # search_records
    sign_off: bool = False  # "who should sign off X": owners to ask for review
    refusal: Refusal | None = None
    by: str = "rules"


class Router(Protocol):
    name: str

    def route(self, question: str, catalog: Catalog) -> Route: ...


# -- what kind of question ------------------------------------------------------------------

# Whether something is approved, or who may approve it: the records never say.
_APPROVAL_STATUS = re.compile(
    r"\b(?:is|are|was|were|has|have|had|did|got)\b[^?]*\b(?:approved|signed[- ]off|cleared)\b"
    r"|\b(?:approve|approves|approving|approval|authori[sz]es?|authority\s+to)\b"
    r"|\b(?:can|could|would|will)\s+you\s+sign[- ]off\b|^\s*sign[- ]off\b",
    re.I,
)
# "Who should sign off / review X?": the owners to ask for review.
_SIGN_OFF = re.compile(
    r"\bwho\b[^?]*\b(?:sign(?:s|ed)?[- ]off|review(?:s)?|to\s+ask|should\s+i\s+ask)\b",
    re.I,
)
_REVIEW = re.compile(r"\bwho\b[^?]*\b(?:sign(?:s|ed)?[- ]off|review(?:s)?)\b", re.I)
# "Find ...", "Show me ...": a request to search, unless it goes on to ask who ("show me who
# owns X", "find the owner of X" ask who owns X)
_SEARCH_VERB = re.compile(
    r"^\s*(?:please\s+)?(?:search|find|look\s*up|grep|show\s+me)\b"
    r"(?!\s+(?:who|whom|whose|(?:the\s+)?(?:owners?|experts?)\s+(?:of|on|for))\b)",
    re.I,
)
_SEARCH = re.compile(
    r"\b(?:records?|documents?|docs|tickets?|messages?)\s+(?:about|mentioning|on|for|that\s+mention)\b"
    # "what do the records say about who owns X" asks who owns X: owner_of weighs them
    r"|\bwhat\s+do\s+(?:the\s+)?records\s+say\b(?!\s+(?:about\s+)?(?:who|whom|whose)\b)",
    re.I,
)
# A question that begins "who" asks for a person, not for records, whatever it says after
# ("Who owns the billing gateway? I saw tickets about it.")
_ASKS_WHO = re.compile(r"^\s*(?:who|whom|whose|who's)\b", re.I)
_OWNER = re.compile(
    r"\b(?:own|owns|owned|owner|owners|ownership|responsible\s+for|in\s+charge\s+of"
    r"|review\s+contact|point\s+of\s+contact|maintainer|maintains|accountable\s+for"
    r"|on\s+the\s+hook\s+for|dri|directly\s+responsible|look(?:s|ed|ing)?\s+after)\b",
    re.I,
)
_EXPERT = re.compile(
    r"\b(?:knows?|knew|expert|experts|expertise|experience|familiar|worked\s+on|can\s+help"
    r"|understands?|go-to)\b",
    re.I,
)
_DECISION = re.compile(
    r"^\s*why\b|\b(?:replaced|superseded|supersedes|replaces|motivated|decided|decision|"
    r"adr-\d+)\b|\bwhy\b",
    re.I,
)
_PERSON = re.compile(
    r"^\s*who\s+(?:is|'s|was)\b|^\s*who's\b|\btell\s+me\s+about\b|\bteam\b|\bmembers?\b"
    r"|\bwho\s+(?:works?|is)\s+(?:on|in|for)\b|\bwho\s+leads\b|\bwho\s+are\b",
    re.I,
)


# Ownership questions that ask for someone other than the owner on one day: a former, first,
# next or backup owner, everyone but one, who does not own it, when it moved, how many there
# were, or who would own it if something changed. owner_of names the one owner on a day;
# answered, any of these would put the current owner forward as something it is not.
_OTHER_OWNER = re.compile(
    r"\b(?:previous|former|prior|old|original|first|earliest|initial|next|future|incoming"
    r"|outgoing|backup|back-up|deputy|secondary|alternate|interim|acting)\s+owners?\b"
    r"|\b(?:besides|other\s+than|apart\s+from|except|ever|no\s+longer)\b"
    # the first, an earlier, a stand-in or a second owner, in other words ("who owned it
    # first", "who else owns it", "who co-owns it")
    r"|\bfirst\s+own(?:ed|er|ers)\b|\bowned\b[^?.!;]*\bfirst\b|\bowner\s+first\b"
    r"|\b(?:at\s+first|in\s+the\s+beginning|prior(?!\s+to)|temporarily|who\s+else|jointly"
    r"|co-?own(?:s|ed|ers?)?|shares?\s+ownership)\b"
    # over a span rather than on a day: "longer", "the longest", "always", "usually"
    r"|\b(?:longer|longest|the\s+most(?=\s*(?:[?.!,;]|$))|always|usually|mostly"
    r"|most\s+of\s+the\s+time|typically|generally)\b"
    # (a gap of a few spaces at most: a name set aside between them, "Isn't Kofi the owner",
    # is a question whether, not who does not)
    r"|\b(?:doesn't|does\s+not|don't|do\s+not|didn't|did\s+not|never|isn't|is\s+not|aren't"
    r"|are\s+not|wasn't|was\s+not|not) {1,3}(?:the\s+|an?\s+)?(?:owns?|owners?|responsible"
    r"|in\s+charge|maintains?|maintainers?)\b"
    r"|^\s*(?:when|how\s+long|how\s+many|how\s+often)\b"
    # a hypothetical: who would own it if something changed ("if Kofi leaves"), but not an
    # "if" that asks whether ("check if Kofi owns it")
    r"|(?<!check\s)(?<!see\s)(?<!know\s)(?<!ask\s)(?<!wonder\s)(?<!wondering\s)(?<!me\s)"
    r"\b(?:what\s+if|if|suppose|supposing|assuming|imagine|unless|were\s+to)\b"
    r"(?!\s+(?:any|anyone|anybody|so|known|possible|you\s+know)\b)[^,;:?!.]*",
    re.I,
)
_OWNERSHIP_WORDS = re.compile(
    r"\b(?:own|owns|owned|owner|owners|ownership|took\s+over|take\s+over|takes\s+over"
    r"|taken\s+over|handed|hand\s+over|handover)\b",
    re.I,
)


def plain(question: str, names: NameSet | Iterable[str] = ()) -> str:
    """The question with a possessive "own" and the `names` it uses (services, people...)
    blanked out, every other character in its place: "Who owns First Mile?" does not ask for
    the first owner, and words a check finds are quoted from the question itself. A name of
    one word is set aside only where it is capitalised: the verb in "who will own it when
    Will leaves" is not the person Will (whose id, "will", is a name too)."""

    def blank(m: re.Match[str]) -> str:
        one_word = not re.search(r"\s", m.group())
        return m.group() if one_word and not m.group()[0].isupper() else " " * len(m.group())

    text = _POSSESSIVE_OWN.sub(lambda m: " " * len(m.group()), question)
    present = NameSet.of(names).present(question)
    for name in sorted(present, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", blank, text, flags=re.I)
    return text


def _words(question: str, m: re.Match[str] | None) -> str | None:
    return " ".join(question[m.start() : m.end()].split()) if m else None


def other_than_owner(question: str, names: NameSet | Iterable[str] = ()) -> str | None:
    """The words by which an ownership question asks for something other than who owns the
    subject on one day, else None. `names`: what the question may name (see `plain`)."""
    text = plain(question, names)
    if not (_OWNERSHIP_WORDS.search(text) or _OWNER.search(text) or is_sign_off(text)):
        return None
    return _words(question, _OTHER_OWNER.search(text))


# "Who will own the billing gateway?" with no day: answered as of now, it named today's
# owner over a change control already recorded for later. The engine refuses it when no day
# is named (in the question or by --as-of).
_FUTURE_OWNER = re.compile(
    r"(?:\bwill|'ll|\bshall|\bgoing\s+to|\bgonna)\s+(?:be\s+)?(?:the\s+)?"
    r"(?:own|owns|owner|owners|owning|take\s+over|taking\s+over|responsible|in\s+charge"
    r"|maintain|maintainer|maintaining)\b",
    re.I,
)


def future_owner(question: str, names: NameSet | Iterable[str] = ()) -> str | None:
    """The words by which an ownership question asks who will own something, else None."""
    return _words(question, _FUTURE_OWNER.search(plain(straight_quotes(question), names)))


def future_owner_refusal(words: str) -> Refusal:
    return Refusal(
        RefusalCode.OUT_OF_SCOPE,
        f'the question asks "{words}" and names no day: the records say who owns it on a day, '
        "and a change may be recorded for later. Ask about one specific day, for example "
        '"who will own it on 2026-12-01"',
    )


# "Who owns X per the wiki?": an answer weighs every record by its authority; answered, it
# would give the change control's owner as if it were the wiki's.
_ONE_KIND = re.compile(
    r"\b(?:(?:per|according\s+to|as\s+(?:per|stated\s+in)|based\s+on|going\s+by)\s+"
    r"(?:the\s+|our\s+|a\s+|an\s+|that\s+|this\s+)?"
    r"|(?:in|from)\s+(?:the|our|that|this)\s+)"  # "in chat" may only say where a thing is
    r"(?:(?:latest|last|newest|most\s+recent"
    r"|recent|current|old|older|original|first|new)\s+)?"
    r"(?:wiki|chat|slack|e-?mail|(?:service\s+)?directory|runbook|ticket|change\s+control"
    r"|comment|adr|doc|docs|documentation)s?(?:\s+(?:page|message|thread|entry|record)s?)?\b",
    re.I,
)


_SAYS = r"(?:according\s+to|per|as\s+per|as\s+told\s+by|in\s+the\s+words\s+of)"


def one_kind_of_record(question: str, names: NameSet | Iterable[str] = ()) -> str | None:
    """The words by which an ownership question asks what one kind of record says."""
    text = plain(question, names)
    if not _OWNERSHIP_WORDS.search(text):
        return None
    return _words(question, _ONE_KIND.search(text))


# "Who is the billing gateway owner's manager?", "Who leads the team that owns it?": a
# question about someone beside the owner. Answered, it named the owner as that person.
_BESIDE = r"(?:manager|boss|lead|leader|head|director|supervisor|team|group|email|e-mail|phone)"
_ABOUT_THE_OWNER = re.compile(
    rf"\bowners?(?:['’]s|s['’])\s+{_BESIDE}s?\b"
    rf"|\b{_BESIDE}s?\s+(?:of|for)\s+(?:the\s+|its\s+|their\s+)?(?:[\w-]+\s+){{0,4}}?owners?\b"
    rf"|\b{_BESIDE}s?\s+(?:that|which|who)\s+owns?\b"
    r"|\b(?:what|which)\s+(?:team|group)\s+(?:is|are|was|were)\b[^?]*\bowners?\b"
    r"|\bowners?\b[^?]*\breports?\s+to\b",
    re.I,
)


def about_the_owner(question: str, names: NameSet | Iterable[str] = ()) -> str | None:
    """The words by which an ownership question asks about someone beside the owner (their
    manager, their team's lead), else None."""
    return _words(question, _ABOUT_THE_OWNER.search(plain(question, names)))


def about_the_owner_refusal(words: str) -> Refusal:
    return Refusal(
        RefusalCode.OUT_OF_SCOPE,
        f'the question asks "{words}": the records answer who owns a service or project, '
        "not who stands beside the owner. Ask who owns it, then who that person or their "
        "team is",
    )


# "Who doesn't know the ledger service?": answered, the experts were given as the people who
# do not know it.
_NOT_KNOWING = re.compile(
    r"\b(?:doesn't|does\s+not|don't|do\s+not|didn't|did\s+not|never|no\s+longer|not) {1,3}"
    r"(?:\w+ {1,3})?(?:know|knows|knew|known|work|works|worked|understands?|familiar)\b"
    r"|\bno\s+(?:experience|expertise|knowledge)\b",
    re.I,
)


def not_knowing(question: str, names: NameSet | Iterable[str] = ()) -> str | None:
    """The words by which an expertise question asks who does not know a subject."""
    text = plain(question, names)
    if question_type(text) != "who_knows":
        return None
    return _words(question, _NOT_KNOWING.search(text))


# "Who knows the ledger service besides Darius?": answered, the experts were listed with
# Darius first, the one the asker set aside.
_OTHER_EXPERT = re.compile(
    r"\b(?:besides|beside|other\s+than|apart\s+from|aside\s+from|except|excluding"
    r"|not\s+counting|who\s+else|anyone\s+else|anybody\s+else|someone\s+else|somebody\s+else)\b",
    re.I,
)


def other_than_expert(question: str, names: NameSet | Iterable[str] = ()) -> str | None:
    """The words by which an expertise question sets someone aside ("besides Darius",
    "who else"), else None."""
    text = plain(question, names)
    if question_type(text) != "who_knows" or not (m := _OTHER_EXPERT.search(text)):
        return None
    # with whom it sets aside, as the question wrote it ("besides Darius", "except for D.")
    whom = re.match(r"(?:[ \t]+(?:for[ \t]+)?[\w.'’-]+){0,3}", question[m.end() :])
    end = m.end() + (whom.end() if whom and not m.group().lower().endswith("else") else 0)
    return re.sub(r"\s+(?:and|or)$", "", " ".join(question[m.start() : end].split()))


# "Who knows the ledger service the least?", "Who worked on it first?", "Who on the
# platform team knows it?": answered, the experts ranked most first, from every team, were
# given as the least, the first, or the platform team's.
_EXPERT_RANK = re.compile(
    r"\b(?:least|fewest|worst|first|earliest|latest|newest|most\s+recent(?:ly)?"
    r"|second|third|fourth|next\s+best|new\s+hires?)\b",
    re.I,
)


_SENTENCE_END = re.compile(r"(?<=[.?!])\s+")
# "I'm on the data team.", "We work in Platform.", "My team is Data."
_ASKER_SAYS = re.compile(
    r"\s*(?:(?:i'm|i\s+am|im|we're|we\s+are)(?:\s+(?:now|currently|also))?"
    r"\s+(?:on|in|from|with|part\s+of|a\s+member\s+of|new\s+(?:to|on|in))"
    r"|(?:i|we)\s+(?:work|sit)\s+(?:on|in|for|with)|(?:my|our)\s+team\s+is)\b",
    re.I,
)


def expert_beyond_rank(question: str, catalog: Catalog) -> str | None:
    """What an expertise question asks for other than the people who know a subject best
    (its words "least", "first"..., quoted, or those on a team it names), else None."""
    text = plain(question, catalog.name_set())
    if question_type(text) != "who_knows":
        return None
    if m := _EXPERT_RANK.search(text):
        return f'"{_words(question, m)}"'
    # (a team beside the subject: one named alone is no subject, as routing says; one in
    # a sentence where the asker says who they are, "I'm on the data team.", asks nothing)
    asking = " ".join(s for s in _SENTENCE_END.split(question) if not _ASKER_SAYS.match(s))
    teams = named_as(asking, catalog, TEAM)
    if teams and named_as(question, catalog, SERVICE, PROJECT):
        return f"those on the {teams[0].entity.name} team"
    return None


def expert_beyond_rank_refusal(what: str) -> Refusal:
    """`what`: the words the question asks for, quoted, or the team it names."""
    return Refusal(
        RefusalCode.OUT_OF_SCOPE,
        f"the question asks for {what}: the records rank everyone who knows a subject by "
        "what they did on it, most first, not by team or by time. Ask who knows it; the "
        "answer lists each person with what they did",
    )


def other_expert_refusal(words: str) -> Refusal:
    return Refusal(
        RefusalCode.OUT_OF_SCOPE,
        f'the question asks "{words}": the records rank everyone who knows a subject, and '
        "an answer lists them all. Ask who knows it; the answer ranks each person with what "
        "they did on it",
    )


def not_knowing_refusal(words: str) -> Refusal:
    return Refusal(
        RefusalCode.OUT_OF_SCOPE,
        f'the question asks "{words}": the records name who knows a subject, ranked by what '
        "they did on it, never who does not. Ask who knows it",
    )


def one_kind_refusal(words: str, what: str = "one kind of record") -> Refusal:
    return Refusal(
        RefusalCode.OUT_OF_SCOPE,
        f'the question asks what {what} says ("{words}"): an answer weighs every '
        "record by its authority. Ask who owns it; the answer lists what the other records "
        "say as outranked",
    )


def one_persons_word(question: str, catalog: Catalog) -> str | None:
    """The words by which an ownership question asks what one person says ("who owns it
    according to Kofi?"): answered, the owner was given as if that person said so."""
    if not (_OWNERSHIP_WORDS.search(question) or _OWNER.search(question)):
        return None
    for mention in catalog.mentions(question, PERSON):
        for name in mention.entity.names:
            said = re.compile(rf"\b{_SAYS}\s+{re.escape(name)}(?!\w)", re.I)
            if found := said.search(question):
                return _words(question, found)
    return None


def other_owner_refusal(words: str) -> Refusal:
    return Refusal(
        RefusalCode.OUT_OF_SCOPE,
        f'the question asks "{words}": the records answer only who owns a service or '
        "project on one specific day. Ask who owned it on that day, for example "
        '"who owned it on 2026-09-25"',
    )


def approval_status(question: str) -> bool:
    """Asks whether something is approved, or asks us to approve it: never answerable."""
    return bool(_APPROVAL_STATUS.search(question))


def is_sign_off(question: str) -> bool:
    return bool(_SIGN_OFF.search(question))


# "its own FalkorDB", "our own tooling": a possessive, not ownership.
_POSSESSIVE_OWN = re.compile(r"\b(?:its|their|our|my|your|his|her)\s+own\b", re.I)


def question_type(question: str, *, search_verb: bool = True) -> str | None:
    """`search_verb`: whether a leading "search", "find"... asks to search (not when it
    begins a name: "Search Index owner?")."""
    question = _POSSESSIVE_OWN.sub(" ", question)
    if (search_verb and _SEARCH_VERB.search(question)) or (
        _SEARCH.search(question) and not _ASKS_WHO.search(question)
    ):
        return "search_records"
    if (
        _OWNER.search(question)
        or _REVIEW.search(question)
        # "who to ask" is the owner to ask for review, unless it asks who knows ("Who
        # knows the ledger service? Not sure who to ask.")
        or (is_sign_off(question) and not _EXPERT.search(question))
    ):
        return "owner_of"
    if _EXPERT.search(question):
        return "who_knows"
    if _DECISION.search(question):
        return "trace_decision"
    if _PERSON.search(question):
        return "person_or_team"
    return None


# -- grounding -------------------------------------------------------------------------------


def grounded(question: str, entity: Entity, catalog: Catalog) -> bool:
    """Is the subject named in the question, by name or alias? A decision is named by its
    id, or by at least two significant words of its title and statement."""
    if entity.type == DECISION:
        if names_in(question, (entity.id,)):
            return True
        return catalog.decision_overlap(question, entity) >= MIN_DECISION_OVERLAP
    return names_in(question, entity.names)


def query_grounded(question: str, query: str) -> bool:
    words = fold_name(query).split()
    return bool(words) and all(w in fold_name(question).split() for w in words)


def asks_beyond_its_type(question: str, catalog: Catalog) -> Refusal | None:
    """The refusal for an ownership or expertise question that asks something no answer of
    its type gives (another owner than the one on a day, what one record or person says, who
    stands beside the owner, who does not know): answered, it would put the owner or the
    experts forward as that. A search asserts nothing, so it is not asked of one."""
    names = catalog.name_set()
    if words := other_than_owner(question, names):
        return other_owner_refusal(words)
    if words := one_kind_of_record(question, names):
        return one_kind_refusal(words)
    if words := one_persons_word(question, catalog):
        return one_kind_refusal(words, "one person")
    if words := about_the_owner(question, names):
        return about_the_owner_refusal(words)
    if words := not_knowing(question, names):
        return not_knowing_refusal(words)
    if words := other_than_expert(question, names):
        return other_expert_refusal(words)
    if words := expert_beyond_rank(question, catalog):
        return expert_beyond_rank_refusal(words)
    return None


def out_of_scope(question: str, why: str) -> Route:
    return Route(None, refusal=Refusal(RefusalCode.OUT_OF_SCOPE, why))


APPROVAL_MESSAGE = (
    "the records hold review contacts, not approval authority: whether a release may go "
    "ahead, and who may decide it, is not recorded. Ask who owns it to find whom to ask "
    "for review"
)
WHO_DECIDED_MESSAGE = (
    "the question asks who: the records say why a decision was made and what replaced it, "
    "not who made or wrote it. Ask why it was made or what replaced it"
)
NO_TYPE_MESSAGE = (
    "no question type fits: ask who owns a service or project, who knows it, why a decision "
    "was made, who a person or team is, or search the records"
)


# -- the rules router ------------------------------------------------------------------------


class RulesRouter:
    name = "rules"

    def route(self, question: str, catalog: Catalog) -> Route:
        question = straight_quotes(question)  # "doesn’t own" as typed on a phone
        if approval_status(question):
            return out_of_scope(question, APPROVAL_MESSAGE)
        tool = question_type(question, search_verb=not _verb_begins_a_name(question, catalog))
        if tool != "search_records" and (refusal := asks_beyond_its_type(question, catalog)):
            return Route(None, refusal=refusal)
        if (
            tool == "person_or_team"
            and re.search(r"\btell\s+me\s+about\b", question, re.I)
            and not named_as(question, catalog, PERSON, TEAM)
        ):
            tool = "search_records"
        if tool is None:
            # a question naming only a person or team is about them; one that also names a
            # service, project or decision ("Did Amara take over the audit log?") asks
            # something else about it, which a profile does not answer
            if catalog.mentions(question, PERSON, TEAM) and not catalog.mentions(
                question, SERVICE, PROJECT, DECISION
            ):
                tool = "person_or_team"
            else:
                return out_of_scope(question, NO_TYPE_MESSAGE)
        if tool == "search_records":
            query = search_terms(question)
            if not query:
                return Route(
                    tool, refusal=Refusal(RefusalCode.NOT_IN_GRAPH, "nothing to search for")
                )
            return Route(tool, query=query)
        if tool == "trace_decision":
            if _ASKS_WHO.search(question):  # "Who wrote ADR-009?": the chain names no one
                return out_of_scope(question, WHO_DECIDED_MESSAGE)
            return _route_decision(question, catalog)
        return _route_named(tool, question, catalog)


def _verb_begins_a_name(question: str, catalog: Catalog) -> bool:
    """Is the question's leading search verb the first word of a longer name it uses
    ("Search Index owner?", the service "Search Index")?"""
    verb = _SEARCH_VERB.match(question)
    if verb is None or fold_name(verb.group()).startswith("please"):
        return False
    verb_end = 1 + len(fold_name(verb.group()))  # in " folded question ", as mentions count
    return any(
        m.start == 1 and m.end > verb_end
        for m in catalog.mentions(question, SERVICE, PROJECT, PERSON, TEAM)
    )


_NAMED = (SERVICE, PROJECT, PERSON, TEAM)


def named_as(question: str, catalog: Catalog, *types: str) -> list[Mention]:
    """The mentions of entities of `types`, leaving out a name inside a longer one of any
    other kind: "Who is the payments api?" names the service Payments API, not the
    Payments team."""
    named = catalog.mentions(question, *types, *(t for t in _NAMED if t not in types))
    return [m for m in named if m.entity.type in types]


def _route_named(tool: str, question: str, catalog: Catalog) -> Route:
    types = SUBJECT_TYPES[tool]
    mentions = named_as(question, catalog, *types)
    sign_off = tool == "owner_of" and is_sign_off(question)
    if tool == "person_or_team" and re.search(r"\bteam\b", question, re.I):
        teams = [m for m in mentions if m.entity.type == TEAM]
        mentions = teams or mentions
    if types == (SERVICE, PROJECT) and re.search(r"\bteams?\b", question, re.I):
        # "Who owns the Ledger team?": the team called Ledger, not the service of that name
        unteamed = question
        for team in catalog.mentions(question, TEAM):
            for name in team.entity.names:
                said = rf"(?<!\w){re.escape(name)}\s+teams?\b"
                unteamed = re.sub(said, " ", unteamed, flags=re.I)
        outside_teams = {m.entity.id for m in catalog.mentions(unteamed, *types)}
        mentions = [m for m in mentions if m.entity.id in outside_teams]
    if types == (SERVICE, PROJECT):
        # a service is more specific than the project it belongs to; a project it does not
        # belong to is a second subject ("Halyard and the secrets vault")
        services = {m.entity.id for m in mentions if m.entity.type == SERVICE}
        preferred = [
            m
            for m in mentions
            if m.entity.type == SERVICE or not services & set(m.entity.extra.get("services", ()))
        ]
    else:
        preferred = [m for m in mentions if m.entity.type == types[0]] or mentions
    distinct = list(dict.fromkeys(m.entity for m in preferred))
    if not distinct:
        near = near_names(question, ((e.name, n) for e in catalog.of(*types) for n in e.names))
        others = catalog.mentions(question, PERSON, TEAM, DECISION)
        if types == (SERVICE, PROJECT) and (named := others):
            # "What does Kofi own?", "Who owns ADR-009?": it names something the graph
            # knows, in a question no type answers (saying it names nothing known is false)
            labels = [m.entity.id if m.entity.type == DECISION else m.entity.name for m in named]
            who = " and ".join(dict.fromkeys(labels))
            refusal = person_not_subject(who, tool)
            if near:  # "Who owns the data wharehouse?" names the Data team, nearly a service
                refusal = not_in_graph(question, tool, near)
            return Route(tool, sign_off=sign_off, refusal=refusal)
        if types == (PERSON, TEAM) and (named := catalog.mentions(question, SERVICE, PROJECT)):
            # "Who is the tech lead for the billing gateway?": a service, not a person
            what = " and ".join(dict.fromkeys(m.entity.name for m in named))
            return Route(tool, refusal=subject_not_person(what))
        return Route(tool, sign_off=sign_off, refusal=not_in_graph(question, tool, near))
    if len(distinct) > 1:
        names = " and ".join(e.name for e in distinct)
        return Route(
            tool,
            refusal=Refusal(
                RefusalCode.OUT_OF_SCOPE, f"the question names {names}; ask about one at a time"
            ),
        )
    if types == (SERVICE, PROJECT) and (other := unknown_beside(question, catalog, preferred)):
        # "Who knows the search index and the zeppelin?": answered for the search index
        # alone, the second subject passed over without a word
        return Route(
            tool,
            refusal=Refusal(
                RefusalCode.NOT_IN_GRAPH,
                f'the question names {distinct[0].name} and "{other}", which the graph does '
                f"not know; ask about {distinct[0].name} alone if you mean it",
            ),
        )
    return Route(tool, subject=distinct[0], sign_off=sign_off)


# "<subject> and the zeppelin", "the zeppelin or <subject>" (in folded text: no punctuation)
_AND_AFTER = re.compile(r" (?:and|or|plus|as well as) ((?:the|our|a|an) (\w+)) ")
_AND_BEFORE = re.compile(r" ((?:the|our|a|an) (\w+)) (?:and|or) (?:(?:the|our|a|an) )?$")


def unknown_beside(question: str, catalog: Catalog, mentions: list[Mention]) -> str | None:
    """The words ("the zeppelin") by which a question joins a second subject to one of
    `mentions` with "and" or "or", where that second one names nothing the graph knows;
    else None."""
    folded = f" {fold_name(question)} "
    known = catalog.mentions(question, *_NAMED, DECISION)
    for m in mentions:
        after = _AND_AFTER.match(folded, m.end)
        before = _AND_BEFORE.search(folded[: m.start])
        for found in (after, before):
            if found and not any(k.start <= found.start(2) < k.end for k in known):
                return found.group(1)
    return None


def route_decision_as_of(question: str, catalog: Catalog, as_of_ms: int) -> Route:
    """The decision a question asked about a day means, chosen by its words: of those
    that fit it equally, the ones recorded by then ("Why do we publish ledger events
    through Kafka as of 1 March?" fits ADR-004 and ADR-009 equally, and ADR-009 was
    recorded in May)."""
    return _route_decision(question, catalog, as_of_ms)


def _route_decision(question: str, catalog: Catalog, as_of_ms: int | None = None) -> Route:
    named = [m.entity for m in catalog.mentions(question, DECISION)]
    if len(set(named)) == 1:
        return Route("trace_decision", subject=named[0])
    if len(set(named)) > 1:
        return Route(
            "trace_decision",
            refusal=Refusal(RefusalCode.OUT_OF_SCOPE, "the question names several decisions"),
        )
    wanted = names_written(question, catalog)
    candidates = catalog.of(DECISION)
    holding = decisions_naming(wanted, candidates)
    scored = sorted(
        ((catalog.decision_overlap(question, d), d) for d in holding),
        key=lambda pair: (-pair[0], pair[1].id),
    )
    if not scored or scored[0][0] < MIN_DECISION_OVERLAP:
        closest = max(
            candidates, key=lambda d: (catalog.decision_overlap(question, d), d.id), default=None
        )
        if closest and catalog.decision_overlap(question, closest) >= MIN_DECISION_OVERLAP:
            missing = topic.lacking(wanted, closest.name, closest.extra.get("quote") or "")
            return Route(
                "trace_decision",
                refusal=Refusal(
                    RefusalCode.NOT_IN_GRAPH,
                    f"the question names no decision the graph knows: none that fits it "
                    f"names {' or '.join(missing)}",
                ),
            )
        return Route("trace_decision", refusal=not_in_graph(question, "trace_decision"))
    best = scored[0][0]
    top = [d for score, d in scored if score == best]
    then = [d for d in top if as_of_ms is None or (d.extra.get("at_ms") or 0) <= as_of_ms]
    if len(top) > 1 and then:  # a tie with decisions recorded after the day asked is none
        top = then
    if len(top) > 1:
        ids = ", ".join(d.id for d in top)
        return Route(
            "trace_decision",
            refusal=Refusal(
                RefusalCode.OUT_OF_SCOPE,
                f"the question fits several decisions equally ({ids}); name the one you mean",
            ),
        )
    return Route("trace_decision", subject=top[0])


def names_written(question: str, catalog: Catalog, *, sentence: bool = True) -> list[str]:
    """The names a question writes (Kafka, OpenSearch) other than those the catalog knows
    (a service, a person). A decision that lacks one is about something else: "Why do we
    use Kafka for the search index?" is not answered by "Run the search index on managed
    OpenSearch". In a `sentence` the first word is capitalised for its place ("Explain
    why ..."), unless the decisions write it as a name ("Kafka for the search index:
    why?"); a tool's argument ("Kafka for the search index") is no sentence."""
    asked = plain(question, catalog.name_set()).lstrip()
    if not sentence:
        return topic.names(asked)
    first = re.match(r"[A-Za-z0-9][A-Za-z0-9_]*", asked)
    word = {first.group().lower()} if first else set()
    texts = (f"{d.name}. {d.extra.get('quote') or ''}" for d in catalog.of(DECISION))
    if not (word - topic.STOPWORDS and topic.written_as_names(word, texts)):
        asked = asked[:1].lower() + asked[1:]
    return topic.names(asked)


def decisions_naming(wanted: list[str], decisions: list[Entity]) -> list[Entity]:
    """The decisions whose title or statement holds every name of `wanted`."""
    return [d for d in decisions if not topic.lacking(wanted, d.name, d.extra.get("quote") or "")]


def person_not_subject(who: str, tool: str) -> Refusal:
    asks = "who owns" if tool == "owner_of" else "who knows"
    return Refusal(
        RefusalCode.OUT_OF_SCOPE,
        f"the question names {who} but no service or project: the records answer {asks} a "
        "service or project, not what a person, team or decision owns or knows. Name the "
        "service or project",
    )


def subject_not_person(what: str) -> Refusal:
    return Refusal(
        RefusalCode.OUT_OF_SCOPE,
        f"the question names {what} but no person or team, and asks nothing the records "
        "answer about it: ask who owns it or who knows it",
    )


def not_in_graph(question: str, tool: str, near: Iterable[tuple[str, str]] = ()) -> Refusal:
    """`near`: (phrase of the question, name) for names it nearly uses, suggested to ask
    again with; the question is never answered for one of them."""
    what = {
        "owner_of": "service or project",
        "who_knows": "service or project",
        "trace_decision": "decision",
        "person_or_team": "person or team",
    }.get(tool, "subject")
    phrase = _unknown_phrase(question)
    named = f' ("{phrase}")' if phrase else ""
    close = "; ".join(f'"{said}" is close to {name}' for said, name in near)
    hint = (
        f". {close[0].upper()}{close[1:]}: ask again with that name if you mean it" if close else ""
    )
    return Refusal(
        RefusalCode.NOT_IN_GRAPH,
        f"the question names no {what} the graph knows{named}{hint}",
    )


def _unknown_phrase(question: str) -> str:
    """The capitalised words a question uses for its subject ("Project Zeus"), for the
    refusal message only."""
    words = re.findall(r"[A-Za-z][\w-]*", question)
    caps = [w for i, w in enumerate(words) if i > 0 and w[0].isupper()]
    return " ".join(caps)


_SEARCH_STOP = frozenset(
    str.split(
        """search find look lookup up grep show me please for the a an about records record
    documents document docs tickets ticket messages message mentioning that mention on in
    what do say says of to and or with any all"""
    )
)


def search_terms(question: str) -> str:
    """The words to search for, and its operators as written (-word, "a phrase",
    @title:word), which the search honours (policy/search_rank.py)."""
    operators = [m.group() for m in search_rank.OPERATOR.finditer(question)]
    words = re.findall(r"[^\W_]+", search_rank.OPERATOR.sub(" ", question))
    return " ".join([*operators, *(w for w in words if w.lower() not in _SEARCH_STOP)])


# -- the model router ------------------------------------------------------------------------

_SYSTEM = (
    "You route questions about a company's records to exactly one read-only tool. Pick the "
    "tool whose description fits and the subject id the question names. If no tool fits, "
    "answer in plain text without calling a tool. Never invent ids."
)
_DESCRIPTIONS = {
    "owner_of": "Who owns (is the review contact for) a service or a project, at a time.",
    "who_knows": "Who knows a service or project best, from tickets, documents and chat.",
    "trace_decision": "Why a decision was made and what replaced what.",
    "person_or_team": "Who a person is, or who is on a team.",
    "search_records": "Plain full-text search over the records.",
}


def routing_tools(catalog: Catalog) -> list[dict[str, Any]]:
    """One function per question type; subjects are an enum of ids that exist."""
    tools: list[dict[str, Any]] = []
    for tool in TOOLS:
        if tool == "search_records":
            params: dict[str, Any] = {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "words from the question"}
                },
                "required": ["query"],
            }
        else:
            ids = sorted(e.id for e in catalog.of(*SUBJECT_TYPES[tool]))
            if not ids:
                continue
            params = {
                "type": "object",
                "properties": {"subject": {"type": "string", "enum": ids}},
                "required": ["subject"],
            }
        tools.append(function_tool(tool, _DESCRIPTIONS[tool], params))
    return tools


class ModelRouter:
    name = "model"

    def __init__(self, settings: Settings) -> None:
        self.client = ModelClient(settings)

    def route(self, question: str, catalog: Catalog) -> Route:
        question = straight_quotes(question)
        if approval_status(question):  # code decides this, not the model
            return out_of_scope(question, APPROVAL_MESSAGE)
        searching = question_type(question, search_verb=not _verb_begins_a_name(question, catalog))
        if searching != "search_records" and (refusal := asks_beyond_its_type(question, catalog)):
            return Route(None, refusal=refusal, by="model")  # so does this
        tools = routing_tools(catalog)
        messages = [
            {"role": "system", "content": _SYSTEM},
            {"role": "user", "content": question},
        ]
        rules = RulesRouter().route(question, catalog)
        try:
            reply = self.client.chat(messages, tools, tool_choice="auto")
        except ModelError as exc:  # the endpoint failed: the question is read by the rules
            log.warning("the model could not route the question, the rules read it: %s", exc)
            return rules
        if not reply.tool_calls and (declined := refused(reply)):  # not its view of the types
            log.warning("the model could not route the question, the rules read it: %s", declined)
            return rules
        if not reply.tool_calls:
            return Route(
                None, refusal=Refusal(RefusalCode.OUT_OF_SCOPE, NO_TYPE_MESSAGE), by="model"
            )
        call = reply.tool_calls[0]
        if call.name not in TOOLS:  # nothing of the model's choice stands
            log.warning("the model routed to %r, no tool; the rules read the question", call.name)
            return rules
        route = check_model_choice(question, catalog, call.name, call.arguments)
        return agrees_with_rules(route, rules)


def agrees_with_rules(model: Route, rules: Route) -> Route:
    """Where the rules can tell the question's type, the model may not read it otherwise:
    text in the question (pasted from a record, say) cannot steer it to another tool or
    subject, nor past the rules' refusal. Where the rules find no type, the model's checked
    choice stands."""
    if model.refusal is not None or rules.tool is None:
        return model
    if rules.refusal is not None:  # e.g. it names two services: the model may not pick one
        return Route(rules.tool, refusal=rules.refusal, by="model")
    same_subject = (model.subject.id if model.subject else None) == (
        rules.subject.id if rules.subject else None
    )
    if model.tool == rules.tool and (rules.tool == "search_records" or same_subject):
        return model
    said = f"{rules.tool} about {rules.subject.name}" if rules.subject else str(rules.tool)
    chose = f"{model.tool} about {model.subject.name}" if model.subject else str(model.tool)
    return Route(
        model.tool,
        refusal=Refusal(
            RefusalCode.OUT_OF_SCOPE,
            f"the question reads as {said}, but the model chose {chose}; ask it plainly",
        ),
        by="model",
    )


def check_model_choice(
    question: str, catalog: Catalog, tool: str, arguments: dict[str, Any]
) -> Route:
    """Code's checks on what the model chose: a known id of the right type, named in the
    question."""
    if tool == "search_records":
        query = str(arguments.get("query") or "")
        if not query_grounded(question, query):
            return Route(
                tool,
                refusal=Refusal(
                    RefusalCode.NOT_IN_GRAPH,
                    f'the search words "{query}" are not taken from the question',
                ),
                by="model",
            )
        return Route(tool, query=query, by="model")
    subject_id = str(arguments.get("subject") or "")
    entity = catalog.get(subject_id, *SUBJECT_TYPES[tool])
    if entity is None or not grounded(question, entity, catalog):
        refusal = not_in_graph(question, tool)
        if entity is not None and catalog.mentions(question, *SUBJECT_TYPES[tool]):
            # The question names something else the graph knows: saying it names nothing
            # known would be false.
            refusal = Refusal(
                RefusalCode.NOT_IN_GRAPH,
                f"the model chose {entity.name}, which the question does not name",
            )
        return Route(tool, refusal=refusal, by="model")
    sign_off = tool == "owner_of" and is_sign_off(question)
    return Route(tool, subject=entity, sign_off=sign_off, by="model")


def get_router(settings: Settings) -> Router:
    if settings.router == "model":
        if settings.model_configured:
            return ModelRouter(settings)
        # as when the endpoint fails: the rules, which work offline, read the question
        log.warning("the model could not route the question, the rules read it: %s", NO_MODEL)
    return RulesRouter()
