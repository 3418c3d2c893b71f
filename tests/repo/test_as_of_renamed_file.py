"""A decision naming src/a.py, the file renamed to src/b.py and then lib/c.py: "Why
lib/c.py?" answered with the decision, but "Why lib/c.py as of 2025-03-02?" (after the
renames, with the same decision text) refused "no decision record names lib/c.py": the
text of that day was matched against that day's tree only, where src/a.py no longer was.
The decision rests on the file it named when it was recorded, on every day its text says
so."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
PURE = "DECISIONS.md#Keep f pure"


def test_a_renamed_file_rests_on_its_decision_on_past_days(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/a.py", "def f():\n    return 1\n")
    r.write("DECISIONS.md", "# Decisions\n\n## Keep f pure\n\nsrc/a.py stays pure.\n")
    r.commit("Start", "2025-01-10T09:00:00Z")
    r.mv("src/a.py", "src/b.py")
    r.commit("a to b", "2025-02-01T09:00:00Z")
    r.mv("src/b.py", "lib/c.py")
    r.commit("b to c", "2025-03-01T09:00:00Z")
    r.write("DECISIONS.md", "# Decisions\n\n## Keep f pure\n\nsrc/a.py stays pure, always.\n")
    r.commit("Say always", "2025-04-01T09:00:00Z")
    ingest_repo(store, r.root)

    for question in (
        "Why lib/c.py?",
        "Why lib/c.py as of 2025-03-02?",
        "Why src/b.py as of 2025-02-02?",
    ):
        a = ask(store, settings, question, now=NOW)
        assert a.status == "answered", (question, a.refusal)
        assert [d["id"] for d in a.result["decisions"]] == [PURE], question
    then = ask(store, settings, "What breaks if I change lib/c.py as of 2025-03-02?", now=NOW)
    assert then.status == "answered", then.refusal
    assert [c.quote for c in then.citations] == ["src/a.py stays pure."]
    assert [c.lines for c in then.citations] == [(5, 5)]
