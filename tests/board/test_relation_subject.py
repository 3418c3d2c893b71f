"""An overview ADR-21 saying "ADR-8 supersedes ADR-9. Earlier, ADR-1 was superseded by
ADR-7.": after `brain board run`, `trace ADR-9` answered "ADR-7 ← ADR-21 ← ADR-9. The one
in force is ADR-7": the board read each sentence as the overview's own relation, whoever
its subject was. A sentence whose subject is another entry tells that entry's relation,
not the one of the entry it is written in; its own ("ADR-21 supersedes ADR-9", "This
supersedes ...") still counts."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.repo import history_tools
from companybrain.board.fill import fill
from companybrain.board.options import BoardOptions
from companybrain.board.worker import Worker
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

OPTIONS = BoardOptions(poll_s=0.01)
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def _adr(n: int, body: str) -> str:
    return f"# {n}. Thing {n}\n\n## Status\n\nAccepted\n\n## Decision\n\n{body}\n"


def test_a_relation_told_of_other_entries_is_not_the_entrys_own(
    store: Store, board: Store, settings: Settings, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    for n in (1, 2, 7, 8, 9):
        r.write(f"docs/adr/{n:04}-t.md", _adr(n, f"We keep thing {n}."))
    r.write(
        "docs/adr/0021-t.md",
        _adr(21, "ADR-8 supersedes ADR-9. Earlier, ADR-1 was superseded by ADR-7. "
             "See ADR-7, which replaces ADR-8. ADR-7 (accepted) supersedes ADR-1. "
             "ADR-21 supersedes ADR-2."),
    )  # fmt: skip
    r.commit("ADRs", "2025-01-01T09:00:00Z")
    ingest_repo(store, r.root)
    fill(store, board, OPTIONS)
    Worker(settings, OPTIONS, "rules-1").run()
    Worker(settings, OPTIONS, "rules-2").run()

    def chain(n: int) -> list[str]:
        answer = history_tools.trace(store, f"docs/adr/{n:04}-t.md", now=NOW)
        assert answer.result is not None, answer.explanation
        return [c.removeprefix("docs/adr/").removesuffix("-t.md") for c in answer.result["chain"]]

    assert chain(9) == ["0009"]
    assert chain(8) == ["0008"]
    assert chain(1) == ["0001"]
    assert chain(21) == ["0021", "0002"]
