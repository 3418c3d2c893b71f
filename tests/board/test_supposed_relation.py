"""An accepted ADR-11 saying "A later decision might supersede ADR-1 once Postgres is
ready.": after `brain board run`, `trace ADR-1` answered "The one in force is ADR-11",
citing that sentence. So did a question ("Should we supersede ADR-3?"), a condition ("this
could replace ADR-2"), a doubt ("whether this supersedes ADR-4") and "Nothing here replaces
ADR-6.". A sentence that only supposes a relation, or gives it no subject, does not state
it; the handoff is rejected, saying why."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from companybrain.ask.repo import history_tools
from companybrain.board.fill import fill
from companybrain.board.options import BoardOptions
from companybrain.board.worker import Worker
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import board_q
from companybrain.policy.finding_checks import check_confirmation
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

OPTIONS = BoardOptions(poll_s=0.01)
NOW = datetime(2026, 1, 1, tzinfo=UTC)
SAID = {
    1: "A later decision might supersede ADR-1 once Postgres is ready.",
    2: "If the pilot works, this could replace ADR-2.",
    3: "Should we supersede ADR-3? Not yet.",
    4: "We considered whether this supersedes ADR-4, and decided to keep ADR-4.",
    5: "Nothing here replaces ADR-5.",
    6: "This supersedes ADR-6.",  # stated: it does
}


def _adr(n: int, title: str, body: str) -> str:
    return f"# {n}. {title}\n\n## Status\n\nAccepted\n\n## Decision\n\n{body} src/db.py.\n"


def test_a_relation_only_supposed_is_not_confirmed(
    store: Store, board: Store, settings: Settings, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    for n, said in SAID.items():
        r.write(f"docs/adr/000{n}-old.md", _adr(n, f"Old thing {n}", "We keep it in"))
        r.write(f"docs/adr/00{n + 10}-new.md", _adr(n + 10, f"New thing {n}", f"{said} See"))
    r.commit("ADRs", "2025-01-01T09:00:00Z")
    ingest_repo(store, r.root)
    fill(store, board, OPTIONS)
    Worker(settings, OPTIONS, "rules-1").run()
    Worker(settings, OPTIONS, "rules-2").run()

    chains = {
        n: history_tools.trace(store, f"docs/adr/000{n}-old.md", now=NOW).result["chain"]  # type: ignore[index]
        for n in SAID
    }
    assert chains == {
        **{n: [f"docs/adr/000{n}-old.md"] for n in range(1, 6)},
        6: ["docs/adr/0016-new.md", "docs/adr/0006-old.md"],
    }
    reasons = {h["from_entry"]: h["reason"] for h in board_q.handoffs(board, "rejected")}
    assert "only supposes it" in reasons["docs/adr/0011-new.md"]
    assert "says it does not" in reasons["docs/adr/0015-new.md"]


@pytest.mark.parametrize(
    "quote", ["supersede ADR-1", "might supersede ADR-1", "Should we supersede ADR-1"]
)
def test_a_quote_cut_from_a_supposing_sentence_is_read_whole(quote: str) -> None:
    text = "# 2. New\n\nShould we supersede ADR-1? A later one might supersede ADR-1 too.\n"
    outcome = check_confirmation(
        "rules-1",
        "model-1",
        quote,
        text,
        "# 1. Old",
        "# 1. Old\n\nWe keep it.\n",
        from_id="new.md",
        to_id="old.md",
        relation="supersedes",
        targets=lambda q, here, form: {"old.md"} if here == "new.md" else set(),
    )
    assert outcome.outcome == "rejected" and "only supposes it" in outcome.reason
