"""src/a.py renamed to src/b.py, then a new, unrelated src/a.py: "Who knows src/a.py?"
counted the old file's authors (and "Who knows src/b.py?" the new file's), and "Why
src/a.py?" answered with the decision written about the file now at src/b.py. A path means
the file that lives there (on the day asked about), followed back through its renames."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.ask.repo import tools
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
ANN = ("Ann Lee", "ann@example.com")
BOB = ("Bob Ray", "bob@example.com")
CID = ("Cid Ode", "cid@example.com")
PURE = "DECISIONS.md#Keep f pure"


def _experts(store: Store, path: str, until_ms: int | None = None) -> list[str]:
    a = tools.who_knows(store, path, now=NOW, until_ms=until_ms)
    assert a.status == "answered", a.refusal
    return sorted(e["id"] for e in a.result["experts"])


def test_a_path_reused_after_a_rename_is_the_new_file(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/a.py", "def f():\n    return 1\n")
    r.write("DECISIONS.md", "# Decisions\n\n## Keep f pure\n\nsrc/a.py stays pure: no I/O.\n")
    r.commit("Start", "2025-01-10T09:00:00Z", author=ANN)
    r.write("src/a.py", "def f():\n    return 11\n")
    r.commit("Tweak f", "2025-01-15T09:00:00Z", author=ANN)
    r.mv("src/a.py", "src/b.py")
    r.commit("a to b", "2025-02-01T09:00:00Z", author=BOB)
    r.write("src/a.py", "import os\n\n\ndef g():\n    return os.getcwd()\n")
    r.commit("A new a", "2025-05-01T09:00:00Z", author=CID)
    r.write("src/a.py", "import os\n\n\ndef g():\n    return os.getcwd() + '/'\n")
    r.commit("Tweak g", "2025-05-02T09:00:00Z", author=CID)
    ingest_repo(store, r.root)

    assert _experts(store, "src/a.py") == ["cid@example.com"]
    assert _experts(store, "src/b.py") == ["ann@example.com", "bob@example.com"]
    assert _experts(store, "src/") == ["ann@example.com", "bob@example.com", "cid@example.com"]
    # on a day src/a.py was gone (renamed away, nothing new yet): the file that left it
    march = int(datetime(2025, 3, 1, tzinfo=UTC).timestamp() * 1000)
    assert _experts(store, "src/a.py", march) == ["ann@example.com", "bob@example.com"]

    now_a = ask(store, settings, "Why is src/a.py the way it is?", now=NOW)
    assert now_a.status == "refused" and now_a.refusal is not None, now_a.result
    assert now_a.refusal.code == "NO_CLAIM"
    assert "before it was renamed away" in now_a.refusal.message
    for question in ("Why is src/b.py the way it is?", "Why src/a.py as of 2025-01-20?"):
        a = ask(store, settings, question, now=NOW)
        assert a.status == "answered", (question, a.refusal)
        assert [d["id"] for d in a.result["decisions"]] == [PURE], question
    later = ask(store, settings, "Why src/a.py as of 2025-06-01?", now=NOW)
    assert later.status == "refused", later.result


def test_a_rename_merged_from_a_branch_keeps_the_history(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/a.py", "def f():\n    return 1\n")
    r.commit("Start", "2025-01-10T09:00:00Z", author=ANN)
    r.git("checkout", "-q", "-b", "move")
    r.mv("src/a.py", "src/b.py")
    r.commit("a to b", "2025-02-01T09:00:00Z", author=BOB)
    r.git("checkout", "-q", "main")
    r.write("README.md", "hello\n")
    r.commit("Readme", "2025-02-02T09:00:00Z", author=CID)
    r.merge("move", "Merge move", "2025-02-03T09:00:00Z", CID)
    r.write("src/a.py", "print('new')\n")
    r.commit("A new a", "2025-05-01T09:00:00Z", author=CID)
    ingest_repo(store, r.root)

    assert "ann@example.com" in _experts(store, "src/b.py")
    assert _experts(store, "src/a.py") == ["cid@example.com"]


def test_a_file_renamed_away_and_back_keeps_its_whole_history(store: Store, tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("src/a.py", "def f():\n    return 1\n")
    r.commit("Start", "2025-01-10T09:00:00Z", author=ANN)
    r.mv("src/a.py", "src/b.py")
    r.commit("a to b", "2025-02-01T09:00:00Z", author=BOB)
    r.mv("src/b.py", "src/a.py")
    r.commit("b back to a", "2025-03-01T09:00:00Z", author=CID)
    ingest_repo(store, r.root)

    everyone = ["ann@example.com", "bob@example.com", "cid@example.com"]
    assert _experts(store, "src/a.py") == everyone
    assert _experts(store, "src/b.py") == everyone  # the file that left it, now at src/a.py
