"""Record times: ISO 8601 with an explicit offset, or the record is rejected."""

from __future__ import annotations

from datetime import UTC, date, datetime

from companybrain.policy.text import clipped
from companybrain.policy.time import off_calendar, offset_problem


class TimeProblem(ValueError):
    pass


def parse_instant(value: object, field: str) -> datetime:
    """A timezone-aware datetime from YAML/JSON, or TimeProblem naming the field."""
    if isinstance(value, datetime):
        parsed = value
    elif isinstance(value, date):
        raise TimeProblem(f"{field}: {value.isoformat()} is a date without a time and offset")
    elif isinstance(value, str):
        text = value.strip()
        if len(text) == 10 and text[4] == "-" and text[7] == "-":
            raise TimeProblem(f"{field}: {text} is a date without a time and offset")
        try:
            parsed = datetime.fromisoformat(text)
        except ValueError as exc:
            raise TimeProblem(f"{field}: {clipped(value)} is not an ISO 8601 time") from exc
        problem = offset_problem(text)
        if problem:
            raise TimeProblem(f"{field}: time {clipped(value)}: {problem}")
    else:
        raise TimeProblem(f"{field}: expected an ISO 8601 time, got {type(value).__name__}")
    if parsed.tzinfo is None or parsed.utcoffset() is None:
        raise TimeProblem(f"{field}: time {value!s} has no UTC offset (add Z or +HH:MM)")
    problem = off_calendar(parsed)
    if problem:
        raise TimeProblem(f"{field}: time {value!s}: {problem}")
    return parsed


def to_ms(moment: datetime) -> int:
    """Epoch milliseconds: the instant, whatever offset it was written in."""
    return int(moment.astimezone(UTC).timestamp() * 1000)


def iso(moment: datetime) -> str:
    """ISO text keeping the offset it was written in (Z for UTC); a fraction of a second in
    milliseconds (.500, as answers print their times), in microseconds only when finer."""
    micro = moment.microsecond
    text = moment.isoformat(
        timespec="auto" if micro % 1000 else "milliseconds" if micro else "seconds"
    )
    return text[:-6] + "Z" if text.endswith("+00:00") else text
