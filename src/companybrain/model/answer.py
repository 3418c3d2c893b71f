"""The answer envelope of spec/answers.md, shared by `brain ask`, the API and MCP tools."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class RefusalCode(StrEnum):
    NOT_IN_GRAPH = "NOT_IN_GRAPH"
    VAGUE_DATE = "VAGUE_DATE"
    NO_CLAIM = "NO_CLAIM"
    MISSING_PROVENANCE = "MISSING_PROVENANCE"
    CONFLICT = "CONFLICT"
    LOW_AUTHORITY = "LOW_AUTHORITY"
    ROW_CAP = "ROW_CAP"
    OUT_OF_SCOPE = "OUT_OF_SCOPE"


@dataclass(frozen=True)
class Refusal:
    code: RefusalCode
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code.value, "message": self.message}


@dataclass(frozen=True)
class Citation:
    """A record (or decision, commit, file) and the exact quote an answer rests on."""

    record: str
    quote: str | None = None
    kind: str | None = None
    authority: int | None = None
    at: str | None = None
    effective_at: str | None = None
    lines: tuple[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"record": self.record}
        for key in ("kind", "authority", "at", "effective_at", "quote"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.lines is not None:
            out["lines"] = list(self.lines)
        return out


@dataclass(frozen=True)
class Outranked:
    record: str
    kind: str | None
    authority: int | None
    owner: str | None
    quote: str | None
    why: str
    # the records that replace it (front matter `supersedes`), when that is why it is
    # passed over: the answer rests on them too (not part of the answer object)
    replaced_by: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "record": self.record,
            "kind": self.kind,
            "authority": self.authority,
            "owner": self.owner,
            "quote": self.quote,
            "why": self.why,
        }


@dataclass
class Answer:
    question: str
    tool: str | None
    subject: dict[str, Any] | None
    as_of: str | None
    status: str  # "answered" | "refused"
    refusal: Refusal | None = None
    result: dict[str, Any] | None = None
    citations: list[Citation] = field(default_factory=list)
    outranked: list[Outranked] = field(default_factory=list)
    explanation: str = ""
    explanation_by: str = "template"  # "model" when a model's wording survived the checks

    @classmethod
    def refused(cls, question: str, code: RefusalCode, message: str, **kw: Any) -> Answer:
        return cls(
            question=question,
            tool=kw.pop("tool", None),
            subject=kw.pop("subject", None),
            as_of=kw.pop("as_of", None),
            status="refused",
            refusal=Refusal(code, message),
            result=None,
            **kw,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "tool": self.tool,
            "subject": self.subject,
            "as_of": self.as_of,
            "status": self.status,
            "refusal": self.refusal.to_dict() if self.refusal else None,
            "result": self.result if self.status == "answered" else None,
            "citations": [c.to_dict() for c in self.citations],
            "outranked": [o.to_dict() for o in self.outranked],
            "explanation": self.explanation,
            "explanation_by": self.explanation_by,
        }
