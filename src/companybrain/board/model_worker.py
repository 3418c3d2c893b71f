"""The model reader: the same readings as the rules worker, proposed by a model through
`companybrain.llm.client.ModelClient` (one tool call per reading, typed by a JSON schema).
The reply is parsed defensively; anything it cannot read becomes a rejected proposal with
its reason, and the worker checks every finding before anything is kept."""

from __future__ import annotations

import json
from typing import Any

from companybrain.board.reading import Context, Entry, Judgement, Malformed, Reading
from companybrain.config import Settings
from companybrain.errors import ModelError
from companybrain.llm.client import ModelClient, function_tool
from companybrain.model.findings import Finding, FindingKind, Verdict

_QUOTED = {"type": "string", "description": "copied exactly from the text"}


def _items(**props: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "array",
        "items": {"type": "object", "properties": props, "required": list(props)},
    }


RECORD_FINDINGS = function_tool(
    "record_findings",
    "Record what this decision entry (or record) says. Every quote must be copied exactly "
    "from the text; every figure must appear inside its quote.",
    {
        "type": "object",
        "properties": {
            "measurements": _items(
                figure={"type": "string", "description": "as written, e.g. '16 out of 20'"},
                quote=_QUOTED,
            ),
            "experiments": _items(
                claim={
                    "type": "string",
                    "description": "what was tried, in a few words of the quote",
                },
                verdict={"type": "string", "enum": [v.value for v in Verdict]},
                quote=_QUOTED,
            ),
            "files": _items(path={"type": "string"}, quote=_QUOTED),
            "concepts": _items(name={"type": "string"}, quote=_QUOTED),
            "relations": _items(
                relation={
                    "type": "string",
                    "enum": [
                        "supersedes",
                        "replaces",
                        "reverts",
                        "superseded_by",
                        "replaced_by",
                        "reverted_by",
                    ],
                },
                target={"type": "string", "description": "the other entry, as the text names it"},
                quote=_QUOTED,
            ),
        },
        "required": ["measurements", "experiments", "files", "concepts", "relations"],
    },
)

RECORD_SUMMARY = function_tool(
    "record_summary",
    "Record a short summary. Name functions and classes in backticks, qualified as "
    "`Class.method`, and only names that the text defines.",
    {"type": "object", "properties": {"summary": {"type": "string"}}, "required": ["summary"]},
)

JUDGE_HANDOFF = function_tool(
    "judge_handoff",
    "Confirm or reject that entry FROM relates to entry TO as stated. To confirm, quote one "
    "sentence from each entry, copied exactly. To reject, give the reason.",
    {
        "type": "object",
        "properties": {
            "verdict": {"type": "string", "enum": ["confirm", "reject"]},
            "quote_from": {"type": "string"},
            "quote_to": {"type": "string"},
            "reason": {"type": "string"},
        },
        "required": ["verdict", "reason"],
    },
)

_SYSTEM = (
    "You read software decision records for a team's memory. You only report what the text "
    "says, with exact quotes. Reply with a single tool call."
)

# (reply key, finding kind, field that holds the value)
_KINDS = (
    ("measurements", FindingKind.MEASUREMENT, "figure"),
    ("experiments", FindingKind.EXPERIMENT, "claim"),
    ("files", FindingKind.FILE, "path"),
    ("concepts", FindingKind.CONCEPT, "name"),
    ("relations", FindingKind.RELATION, "target"),
)


class ModelReader:
    kind = "model"

    def __init__(self, settings: Settings) -> None:
        self.client = ModelClient(settings)

    def _call(self, user: str, tool: dict[str, Any]) -> dict[str, Any]:
        messages = [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}]
        call = self.client.call_tool(messages, tool)
        if "__invalid_json__" in call.arguments:
            raise ModelError(f"the model's {call.name} arguments are not valid JSON")
        return call.arguments

    # -- entries ---------------------------------------------------------------------------

    def read(self, entry: Entry, start: int, end: int, ctx: Context, by: str) -> Reading:
        whole = start == 0 and end >= len(entry.text)
        where = "" if whole else f" (a section, characters {start}-{end})"
        args = self._call(
            f"Entry {entry.id!r}, titled {entry.title!r}{where}:\n\n{entry.text[start:end]}\n\n"
            "Record its measurements, experiments with their verdicts, the files and concepts "
            "it is about, and relations to other entries.",
            RECORD_FINDINGS,
        )
        return parse_findings(args, entry.id, ctx, by)

    # -- files and folders -----------------------------------------------------------------

    def summarise_file(self, path: str, text: str) -> str:
        args = self._call(
            f"File {path}:\n\n{text}\n\nSummarise what this file does in two sentences.",
            RECORD_SUMMARY,
        )
        return _string(args.get("summary"))

    def combine(self, path: str, summaries: list[tuple[str, str]]) -> str:
        listing = "\n".join(f"- {child}: {text}" for child, text in summaries)
        args = self._call(
            f"{path} consists of these parts:\n{listing}\n\nSummarise {path} in two sentences.",
            RECORD_SUMMARY,
        )
        return _string(args.get("summary"))

    # -- handoffs --------------------------------------------------------------------------

    def judge(
        self, relation: str, source: Entry, target: Entry, quote: str, ctx: Context
    ) -> Judgement:
        args = self._call(
            f"Another agent read: {quote!r} and proposes that FROM {relation} TO.\n\n"
            f"FROM = {source.id!r} ({source.date or 'undated'}):\n{source.text}\n\n"
            f"TO = {target.id!r} ({target.date or 'undated'}):\n{target.text}\n\n"
            f"Does FROM {relation} TO?",
            JUDGE_HANDOFF,
        )
        verdict = _string(args.get("verdict")).lower()
        if verdict not in ("confirm", "reject"):
            raise ModelError(f"judge_handoff verdict must be confirm or reject, got {verdict!r}")
        return Judgement(
            confirm=verdict == "confirm",
            quote_from=_string(args.get("quote_from")),
            quote_to=_string(args.get("quote_to")),
            reason=_string(args.get("reason")) or "(no reason given)",
        )


def parse_findings(args: dict[str, Any], entry_id: str, ctx: Context, by: str) -> Reading:
    """The model's record_findings arguments as findings, or malformed proposals with why."""
    findings: list[Finding] = []
    malformed: list[Malformed] = []
    for key, kind, field in _KINDS:
        listed = args.get(key) or []
        if not isinstance(listed, list):
            malformed.append(Malformed(kind.value, _raw(listed), f"{key} is not a list"))
            continue
        for item in listed:
            try:
                findings.append(_finding(item, entry_id, kind, field, ctx, by))
            except ValueError as exc:
                malformed.append(Malformed(kind.value, _raw(item), str(exc)))
    return Reading(findings=findings, malformed=malformed)


def _finding(
    item: Any, entry_id: str, kind: FindingKind, field: str, ctx: Context, by: str
) -> Finding:
    if not isinstance(item, dict):
        raise ValueError(f"a {kind.value} must be an object")
    value, quote = _string(item.get(field)), _string(item.get("quote"))
    if not value or not quote:
        raise ValueError(f"a {kind.value} needs {field} and quote")
    verdict = relation = None
    if kind is FindingKind.EXPERIMENT:
        try:
            verdict = Verdict(_string(item.get("verdict")).lower())
        except ValueError:
            raise ValueError(f"unknown verdict {item.get('verdict')!r}") from None
    if kind is FindingKind.RELATION:
        relation = _string(item.get("relation")).lower().replace(" ", "_")
        value = ctx.refs.resolve(value, entry_id) or value
    return Finding(entry_id, kind, quote, value, verdict, relation, by)


def _string(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _raw(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)[:500]
    except (TypeError, ValueError):
        return repr(value)[:500]
