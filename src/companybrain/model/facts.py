"""What a proposer says a record states, and what the verifier made of it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class OwnershipFact:
    """`owner` (person id) owns `service` (service id), per `quote` in `record`."""

    record: str
    service: str
    owner: str
    quote: str
    # When it takes effect: set by the verifier only, from the record's time and what the
    # quote's sentence says (policy/effective.py); None as proposed.
    effective: datetime | None = field(default=None, kw_only=True)


@dataclass(frozen=True)
class DecisionFact:
    """The decision an `adr` record states, per `quote`."""

    record: str
    title: str
    quote: str


@dataclass(frozen=True)
class Proposal:
    """Everything one proposer said about one record. Nothing in it is trusted yet."""

    record: str
    ownership: tuple[OwnershipFact, ...] = ()
    decisions: tuple[DecisionFact, ...] = ()
    proposer: str = "rules"
    # Model output that could not be read as a fact at all ({"kind", "item", "problem"}):
    # the verifier turns each into a Rejection, so nothing a model says is silently lost.
    malformed: tuple[dict[str, object], ...] = ()
    # The reply was no proposal at all (the model did not call the tool): the record is
    # stored, but not as read, so that the next run asks again.
    incomplete: bool = False
    # Sentences that say a service changes or changed hands in words no pattern reads
    # ("Kofi stepped down as owner of the billing gateway."): `owner` is "" (none read).
    unread: tuple[OwnershipFact, ...] = ()


@dataclass(frozen=True)
class Rejection:
    """A proposed fact the verifier refused, kept for audit and never used for answers."""

    record: str
    fact: OwnershipFact | DecisionFact | dict[str, object]
    check: str  # which check refused it, e.g. "quote_not_in_record"
    reason: str  # for people


@dataclass(frozen=True)
class Verified:
    record: str
    ownership: tuple[OwnershipFact, ...] = ()
    decisions: tuple[DecisionFact, ...] = ()
    rejected: tuple[Rejection, ...] = field(default_factory=tuple)
    # Ownership statements that pass every check but name, as `owner`, someone org.yaml
    # does not list (the name as written): kept so that answers refuse, never cite them.
    unlisted: tuple[OwnershipFact, ...] = ()
    # Ownership statements that pass every check but when they take effect cannot be read
    # (refused `effective_time`, also in `rejected`): kept without their owner, so that
    # answers refuse from the record's time instead of naming the owner before it.
    unclear: tuple[Rejection, ...] = ()


def as_proposed(fact: OwnershipFact | DecisionFact | dict[str, object]) -> dict[str, object]:
    """A fact as its proposer said it, for audit: without the verifier's effective time,
    which a refused fact never has."""
    if isinstance(fact, dict):
        return fact
    data = asdict(fact)
    if data.get("effective") is None:
        data.pop("effective", None)
    return data
