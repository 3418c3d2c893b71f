"""The words that go with an answer. A template always; a model's wording (at most three
sentences) only when it survives the checks in policy/explanation.py. `explanation_by`
tells which one the user sees."""

from __future__ import annotations

import itertools
import json
import logging
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from companybrain.ask.catalog import PERSON, PROJECT, SERVICE, Catalog
from companybrain.errors import ModelError
from companybrain.llm.client import ModelClient, refused
from companybrain.model.answer import Answer
from companybrain.policy.explanation import ExplanationFacts, Named, check_explanation
from companybrain.policy.ownership import UNREADABLE
from companybrain.policy.text import names_in
from companybrain.policy.time import format_instant

log = logging.getLogger(__name__)

SIGN_OFF_NOTE = (
    "Ownership is a review contact: ask them to review. Approval authority is not recorded: "
    "the records do not say who may approve a release."
)
PATH_WORDS = {
    "resolved_ticket": "resolved {n} ticket(s)",
    "wrote_doc": "wrote {n} doc(s)",
    "commented_ticket": "commented on {n} ticket(s)",
    "chat": "{n} chat message(s)",
}


# -- templates ------------------------------------------------------------------------------


def template(answer: Answer, catalog: Catalog) -> str:
    if answer.status == "refused":
        return _refusal(answer)
    result = answer.result or {}
    subject = (answer.subject or {}).get("name") or ""
    if answer.tool == "owner_of":
        return _owner(answer, result, subject, catalog)
    if answer.tool == "who_knows":
        return _experts(result, subject)
    if answer.tool == "trace_decision":
        return _decision(result)
    if answer.tool == "person_or_team":
        return _person_or_team(result)
    if answer.tool == "search_records":
        hits = result.get("hits", [])
        listed = ", ".join(
            f"{h['record']} ({h['title']})" if h["title"] else h["record"] for h in hits
        )
        return f"{len(hits)} record(s) match: {listed}."
    return ""


def _refusal(answer: Answer) -> str:
    assert answer.refusal is not None
    text = f"No answer ({answer.refusal.code.value}): {answer.refusal.message.rstrip('.')}."
    if answer.citations:
        seen = "; ".join(
            f'{c.record} says "{c.quote}"' if c.quote else c.record for c in answer.citations
        )
        text += f" Evidence seen: {seen}"
    return text


def _owner(answer: Answer, result: dict[str, Any], subject: str, catalog: Catalog) -> str:
    if "owners" in result:
        parts = []
        for item in result["owners"]:
            service = catalog.get(item["service"])
            cites = [c.record for c in answer.citations if _about(c.quote, service)]
            per = f", per {', '.join(cites)}" if cites else ""
            parts.append(
                f"{service.name if service else item['service']}: {item['owner']['name']}{per}"
            )
        text = (
            f"{subject} depends on {len(parts)} service(s); their owners are "
            + "; ".join(parts)
            + "."
        )
    else:
        owner = result["owner"]["name"]
        lead = answer.citations[0]
        text = (
            f"{owner} owns the {subject} as of {answer.as_of}, per {lead.record} "
            f'({lead.kind}, authority {lead.authority}): "{lead.quote}"'
        )
    if answer.outranked:
        others = "; ".join(
            f"{o.record} ({o.kind}, {o.authority}) naming {_named_owner(catalog, o.owner)}: {o.why}"
            if not o.why.startswith(UNREADABLE)
            else f"{o.record} ({o.kind}, {o.authority}): {o.why}"  # its owner is not given
            for o in answer.outranked
        )
        text += f" Outranked: {others}."
    if result.get("approval"):
        text += " " + SIGN_OFF_NOTE
    return text


def _about(quote: str | None, service: Any) -> bool:
    return bool(quote and service and names_in(quote, service.names))


def _named_owner(catalog: Catalog, pid: str | None) -> str:
    """The person an outranked claim names; without one, it names someone org.yaml does
    not list, or no owner at all (the quote shows which)."""
    return _person(catalog, pid) if pid else "no one org.yaml lists"


def _person(catalog: Catalog, pid: str | None) -> str:
    entity = catalog.get(pid or "", PERSON)
    return entity.name if entity else str(pid)


def _experts(result: dict[str, Any], subject: str) -> str:
    experts = result.get("experts", [])
    parts = []
    for e in experts:
        how = ", ".join(PATH_WORDS[p].format(n=n) for p, n in e["paths"].items())
        parts.append(f"{e['name']} ({e['score']}: {how})")
    text = f"Who knows the {subject}, from the records: " + "; ".join(parts) + "."
    if result.get("warning"):
        text += f" Warning, {result['warning']}."
    if former := result.get("former"):
        text += (
            f" The records also show work by {', '.join(former)}, no longer in the "
            "organisation (org.yaml): not someone to ask."
        )
    return text


def _decision(result: dict[str, Any]) -> str:
    titles = {d["id"]: d for d in result.get("decisions", [])}

    def told(i: str) -> str:
        said = [titles[i]["title"], titles[i]["status"]] if i in titles else []
        return f"{i} ({', '.join(x for x in said if x)})" if any(said) else i

    pairs = supersessions(result)
    if pairs is None:
        chain = " ← ".join(told(i) for i in result["chain"])
        text = f"{result['decision']} is part of this chain, newest first: {chain}."
    else:
        each = "; ".join(f"{told(n)} supersedes {' and '.join(olds)}" for n, olds in pairs)
        text = f"{result['decision']} is part of these supersessions, newest first: {each}."
    # each motivation with the decision it motivated: "why did we stop using the outbox"
    # is not answered by what motivated adopting it
    said = [f"{d} was motivated by {', '.join(ms)}" for d, ms in motivations(result)]
    if said:
        text += f" {'; '.join(said)}."
    elif result.get("motivated_by"):
        text += f" Motivated by: {', '.join(result['motivated_by'])}."
    return text


def supersessions(result: Mapping[str, Any]) -> list[tuple[str, list[str]]] | None:
    """What each decision of a trace_decision chain supersedes, newest first, when the
    chain is not one line (several decisions replace the same one, or one several): shown
    as "A <- B <- C" it would say that A replaced B. None for a line (or no links given)."""
    chain = list(result.get("chain") or [])
    olds = {
        d["id"]: list(d["supersedes"]) for d in result.get("decisions") or [] if "supersedes" in d
    }
    if not olds or all(b in olds.get(a, ()) for a, b in itertools.pairwise(chain)):
        return None
    return [(i, olds[i]) for i in chain if olds.get(i)]


def chain_text(result: Mapping[str, Any], arrow: str) -> str:
    """The chain as a line ("A <- B <- C"), or each decision with what it supersedes."""
    pairs = supersessions(result)
    if pairs is None:
        return arrow.join(result.get("chain") or [])
    return "; ".join(f"{n} supersedes {' and '.join(olds)}" for n, olds in pairs)


def motivations(result: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    """The records that motivated each decision of a trace_decision chain, by decision."""
    return [
        (d["id"], list(d["motivated_by"]))
        for d in result.get("decisions") or []
        if d.get("motivated_by")
    ]


def _person_or_team(result: dict[str, Any]) -> str:
    if "team" in result:
        team = result["team"]
        lead = f", led by {team['lead']['name']}" if team.get("lead") else ""
        members = ", ".join(m["name"] for m in team["members"]) or "no members listed"
        return f"{team['name']}{lead}: {members}."
    person = result["person"]
    team = (
        f" is on the {person['team']['name']} team"
        if person.get("team")
        else " is in the org chart"
    )
    led = ", ".join(t["name"] for t in person.get("leads") or [])
    leads = f" and leads {led}" if led else ""
    return f"{person['name']}{team}{leads}."


# -- the model's wording, checked -----------------------------------------------------------

_INSTRUCTIONS = (
    "Explain this answer to the person who asked, in at most three sentences of plain "
    "English. Use only the evidence given. Name only people the evidence names. You may "
    'quote a record word for word, as: CC-1047 says "...". Do not call anyone the owner '
    "unless the answer names them as the owner. If the answer is a refusal, say why. Never "
    "say that anything is approved or signed off. Do not use field names from the data."
)


def facts_for(answer: Answer, catalog: Catalog) -> ExplanationFacts:
    people = {e.id: Named(e.id, e.names) for e in catalog.of(PERSON)}
    result = answer.result or {}
    owner_ids: list[str] = []
    if answer.status == "answered" and answer.tool == "owner_of":
        if "owner" in result:
            owner_ids = [result["owner"]["id"]]
        owner_ids += [o["owner"]["id"] for o in result.get("owners", [])]
    quotes = tuple(
        q for q in [*(c.quote for c in answer.citations), *(o.quote for o in answer.outranked)] if q
    )
    named = set(owner_ids)
    named |= {o.owner for o in answer.outranked if o.owner}
    named |= {pid for pid, p in people.items() if any(names_in(q, p.names) for q in quotes)}
    named |= set(_ids_in(result)) & set(people)
    if answer.subject and answer.subject.get("type") == PERSON:
        named.add(answer.subject["id"])
    outranked = tuple(
        people[o.owner] for o in answer.outranked if o.owner in people and o.owner not in owner_ids
    )
    vocabulary = set(_strings({k: v for k, v in answer.to_dict().items() if k != "explanation"}))
    vocabulary |= {n for pid in named if pid in people for n in people[pid].names}
    about = (answer.subject or {}).get("id")
    elsewhere = tuple(
        Named(e.id, e.names)
        for e in catalog.of(SERVICE, PROJECT)
        if e.id != about
        and e.id not in vocabulary
        and not any(names_in(q, e.names) for q in quotes)
    )
    return ExplanationFacts(
        status=answer.status,
        refusal_code=answer.refusal.code.value if answer.refusal else None,
        owners=tuple(people[i] for i in owner_ids if i in people),
        outranked=outranked,
        in_evidence=tuple(people[i] for i in sorted(named) if i in people),
        people=tuple(people.values()),
        quotes=quotes,
        vocabulary=frozenset(vocabulary),
        elsewhere=elsewhere,
    )


def model_explanation(
    client: ModelClient, answer: Answer, catalog: Catalog
) -> tuple[str, str | None]:
    """The model's wording and None, or the template and why the wording was discarded."""
    evidence = {
        k: v for k, v in answer.to_dict().items() if k not in {"explanation", "explanation_by"}
    }
    messages = [
        {"role": "system", "content": _INSTRUCTIONS},
        {"role": "user", "content": json.dumps(evidence, ensure_ascii=False)},
    ]
    try:
        reply = client.chat(messages)
    except ModelError as exc:
        return template(answer, catalog), f"the model failed: {exc}"
    text = (reply.content or "").strip()
    reason = (not text and refused(reply)) or check_explanation(text, facts_for(answer, catalog))
    if reason:
        return template(answer, catalog), reason
    return text, None


def explain(answer: Answer, catalog: Catalog, client: ModelClient | None = None) -> Answer:
    """Fill in the explanation: the model's when a client is given and its words pass;
    either way followed by a note on any cited record whose file no longer reads."""
    if client is None:
        answer.explanation, answer.explanation_by = template(answer, catalog), "template"
    else:
        text, rejected = model_explanation(client, answer, catalog)
        answer.explanation = text
        answer.explanation_by = "template" if rejected else "model"
        if rejected:  # the user sees the template; whoever runs it may want to know why
            log.warning("the model's explanation was not shown, the template is: %s", rejected)
    for note in (departed_note(answer, catalog), unread_note(answer, catalog)):
        if note:
            answer.explanation = f"{answer.explanation} {note}".strip()
    return answer


def departed_note(answer: Answer, catalog: Catalog) -> str:
    """An owner the records name who is no longer in the organisation (dropped from
    org.yaml): still the answer the records give, but not someone to ask as they stand."""
    if answer.tool != "owner_of" or answer.result is None:
        return ""
    owners = [answer.result.get("owner")] + [o["owner"] for o in answer.result.get("owners", [])]
    gone = sorted({o["name"] for o in owners if o and catalog.get(o["id"], PERSON) is None})
    if not gone:
        return ""
    # (not "no later record names another owner": asked about a past day, a later record
    # may well name one, and an outranked one may name someone else on that day)
    return (
        f"Note: {', '.join(gone)} {'is' if len(gone) == 1 else 'are'} no longer in the "
        "organisation (org.yaml): the owner the records give for that time, not someone "
        "to ask now."
    )


def unread_note(answer: Answer, catalog: Catalog) -> str:
    """What the user must know when a cited record's file failed to read on a later run
    (the quote is from the version stored before, which the file may no longer say), or
    the file of a record that sets an outranked claim aside (its `supersedes` is)."""
    ids = sorted({c.record for c in answer.citations if c.record in catalog.unread})
    replacing = sorted(
        {r for o in answer.outranked for r in o.replaced_by if r in catalog.unread} - set(ids)
    )
    if not ids and not replacing:
        return ""
    since = min(catalog.unread[rid] for rid in [*ids, *replacing])
    day = format_instant(datetime.fromtimestamp(since / 1000, UTC), catalog.timezone)
    what = []
    if ids:
        what.append("the quote is from the version stored before")
    if replacing:
        replaced = {r: sorted({o.record for o in answer.outranked if r in o.replaced_by})
                    for r in replacing}  # fmt: skip
        told = " and ".join(f"{r} replaces {' and '.join(old)}" for r, old in replaced.items())
        what.append(f"that {told} is read from the version stored before")
    named = [*ids, *replacing]
    return (
        f"Note: {', '.join(named)} {'was' if len(named) == 1 else 'were'} refused by every "
        f"ingest since {day} (its file did not read, or no longer fits org.yaml); "
        f"{', and '.join(what)}, which the file may no longer say."
    )


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return [str(value)]  # an authority, a score, a count
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


def _ids_in(value: Any) -> list[str]:
    if isinstance(value, dict):
        found = [value["id"]] if isinstance(value.get("id"), str) else []
        return found + [s for v in value.values() for s in _ids_in(v)]
    if isinstance(value, list):
        return [s for v in value for s in _ids_in(v)]
    return []
