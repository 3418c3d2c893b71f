"""The review as Markdown, ready to post as a pull-request comment. Pure."""

from __future__ import annotations

from typing import Any

from companybrain.model.answer import Answer

MARKER = "<!-- companybrain-decision-review -->"  # lets a workflow update its own comment


def _lines(citations: list[dict[str, Any]], record: str, quote: str | None = None) -> str:
    for c in citations:
        if c["record"] == record and (quote is None or c.get("quote") == quote) and c.get("lines"):
            a, b = c["lines"]
            return f"line {a}" if a == b else f"lines {a}–{b}"
    return ""


def _code(text: str) -> str:
    return "`" + text.replace("`", "'") + "`"


def _quote(text: str) -> str:
    return "“" + " ".join(text.split()) + "”"


def _evidence(cites: list[dict[str, Any]], decision: dict[str, Any]) -> list[str]:
    """The measured figures a decision rests on, quoted with their lines."""
    out = []
    for quote in decision.get("evidence") or []:
        where = _lines(cites, decision["id"], quote)
        out.append(f"  - measured: {_quote(quote)}" + (f" [{where}]" if where else ""))
    return out


def render(answer: Answer) -> str:
    data = answer.to_dict()
    if answer.status != "answered" or not answer.result:
        message = answer.refusal.message if answer.refusal else "no result"
        return f"{MARKER}\n### Decision review\n\n{message}\n"
    r = answer.result
    cites = data["citations"]
    out = [
        MARKER,
        f"### Decision review of {_code(r['rev'][:12])} {r.get('subject') or ''}".rstrip(),
    ]
    base = f"against {_code(r['base'][:12])}" if r.get("base") else "(a root commit)"
    out.append(
        f"Decision log rebuilt from git as it stood at {_code(r['rev'][:12])}, "
        f"{r.get('rev_at', '')[:10]}; changes {base}: {len(r['files'])} file(s)."
    )
    if not (r["decisions"] or r["superseded"] or r["warnings"] or r.get("deleted")):
        out.append("\nNo recorded decision rests on the files this change touches.")
    if r["decisions"]:
        out.append("\n**Decisions these files rest on**\n")
        for d in r["decisions"]:
            where = _lines(cites, d["id"])
            files = ", ".join(_code(f) for f in d.get("rests_on") or [])
            line = f"- **{d['label']}** {d['title']} — {_code(d['id'])}"
            line += f" ({d.get('status') or 'recorded'}{', ' + d['date'] if d.get('date') else ''})"
            if files:
                line += f"; rests on {files}"
            if d.get("replaces"):
                line += "; replaces " + ", ".join(_code(x) for x in d["replaces"])
            if d.get("added_by_change"):
                line += "; **this change adds it**"
            if d.get("edited_by_change"):
                line += "; **this change edits it**"
            if where:
                line += f" [{where}]"
            out.append(line)
            out += _evidence(cites, d)
    if r.get("deleted"):
        out.append("\n**Decisions this change deletes**\n")
        for d in r["deleted"]:
            where = _lines(cites, d["id"])
            files = ", ".join(_code(f) for f in d.get("rests_on") or [])
            out.append(
                f"- **{d['label']}** {d['title']} — {_code(d['id'])}; rested on {files}"
                + (f" [{where}, before the change]" if where else "")
            )
    if r["warnings"]:
        out.append("\n**Tried and disproven — do not retry**\n")
        for w in r["warnings"]:
            where = _lines(cites, w["decision"], w["quote"])
            verdict = f" ({w['verdict']})" if w.get("verdict", "disproven") != "disproven" else ""
            out.append(
                f"- ⚠️ **{w['label']}**{verdict} {_quote(w['quote'])} — recorded under "
                f"{_code(w['decision'])}" + (f" [{where}]" if where else "")
                + ("; **this change deletes it**"
                   if w.get("removed_by_change") else "")
            )  # fmt: skip
    if r["superseded"]:
        out.append("\n**Superseded (for history, not guidance)**\n")
        for s in r["superseded"]:
            newer = ", ".join(_code(x) for x in s.get("superseded_by") or [])
            out.append(f"- **{s['label']}** {s['title']} — {_code(s['id'])}, superseded by {newer}")
        for e in r.get("superseded_experiments") or []:
            out.append(
                f"  - no longer a warning: {_quote(e['quote'])} (under {_code(e['decision'])},"
                f" superseded)"
            )
    if r["experts"]:
        out.append("\n**Who knows these files**\n")
        for x in r["experts"]:
            out.append(
                f"- **{x['label']}** {x['name']} <{x['id']}> — {x['commits']} commit(s) on "
                f"{_code(x['file'])}"
            )
    out.append(f"\n<sub>{answer.explanation} Every item cites the record it came from.</sub>\n")
    return "\n".join(out)
