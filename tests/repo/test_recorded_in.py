"""Which commit recorded a decision-log entry. `git blame -M` gives lines merely alike to
an older entry (a new entry's "### Status / Accepted / ### Context" scaffold, a heading
repeated) to the commit that wrote that entry: the new entry was said to be recorded months
before it was written, by someone else, and `why` dated it so."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import history_tools, tools
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 12, 1, tzinfo=UTC)
ANN = ("Ann Lee", "ann@example.com")
CAROL = ("Carol Diaz", "carol@example.com")


def _entry(title: str, context: str, decision: str) -> str:
    return (
        f"\n## {title}\n\n### Status\n\nAccepted\n\n### Context\n\n{context}\n\n"
        f"### Decision\n\n{decision}\n"
    )


RETRY = _entry("Retry payments", "Payments in src/pay.py fail under load.", "Retry three times.")
FREEZE = _entry(
    "Freeze shipping code",
    "Shipping in src/ship.py must not change before the audit.",
    "No edits to shipping.",
)


def _origin(store: Store, decision: str) -> dict[str, object]:
    answer = history_tools.origin(store, decision, now=NOW)
    assert answer.result is not None, answer.refusal
    return answer.result


def test_a_new_entry_alike_to_an_older_one_is_recorded_when_it_was_written(
    store: Store, tmp_path: Path
) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("src/pay.py", "x = 1\n")
    repo.write("src/ship.py", "y = 1\n")
    repo.write("DECISIONS.md", "# Decisions\n" + RETRY)
    first = repo.commit("Record retry", "2024-01-01T10:00:00Z", author=ANN)
    repo.write("DECISIONS.md", "# Decisions\n" + RETRY + FREEZE)
    freeze = repo.commit("Record freeze", "2024-03-01T10:00:00Z", author=CAROL)
    repo.write("DECISIONS.md", "# Decisions\n" + RETRY + FREEZE + RETRY)
    again = repo.commit("Retry again", "2024-04-01T10:00:00Z", author=CAROL)
    ingest_repo(store, repo.root)

    assert _origin(store, "DECISIONS.md#Retry payments")["commit"] == first
    got = _origin(store, "DECISIONS.md#Freeze shipping code")
    assert (got["commit"], got["author_name"]) == (freeze, "Carol Diaz")
    assert _origin(store, "DECISIONS.md#Retry payments (2)")["commit"] == again
    why = tools.why(store, "src/ship.py", now=NOW)
    assert why.result is not None
    assert [d["date"] for d in why.result["decisions"]] == ["2024-03-01"]


def test_an_entry_moved_or_renamed_keeps_the_commit_that_wrote_it(
    store: Store, tmp_path: Path
) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("src/pay.py", "x = 1\n")
    repo.write("src/ship.py", "y = 1\n")
    repo.write("DECISIONS.md", "# Decisions\n" + RETRY)
    first = repo.commit("Record retry", "2024-01-01T10:00:00Z", author=ANN)
    repo.write("DECISIONS.md", "# Decisions\n" + RETRY + FREEZE)
    freeze = repo.commit("Record freeze", "2024-03-01T10:00:00Z", author=CAROL)
    renamed = FREEZE.replace("Freeze shipping code", "Freeze the shipping code")
    repo.write("DECISIONS.md", "# Decisions\n" + renamed + RETRY)  # moved up, renamed
    repo.commit("Reorder", "2024-05-01T10:00:00Z", author=CAROL)
    ingest_repo(store, repo.root)

    assert _origin(store, "DECISIONS.md#Retry payments")["commit"] == first
    assert _origin(store, "DECISIONS.md#Freeze the shipping code")["commit"] == freeze
