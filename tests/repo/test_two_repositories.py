"""Two repositories read into one graph shared their File and Decision nodes of the same
path: both had `src/main.py` and a `DECISIONS.md` entry "D-1: Keep main.py simple", and
`why src/main.py` in repository a cited b's wording of D-1 (b's text had replaced a's),
`who_knows` and `origin` mixed both histories. A graph holds one repository: a second is
refused before anything is written, naming both and the `--graph` option."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.ask.repo import tools
from companybrain.errors import InputError
from companybrain.graph.connection import Store
from companybrain.graph.queries import repo_read
from companybrain.repo.ingest import ingest_repo
from tests.repo.gitrepo import GitRepo

D1 = "DECISIONS.md#D-1: Keep main.py simple"


def _repo(root: Path, said: str, author: tuple[str, str]) -> GitRepo:
    r = GitRepo(root)
    r.write("src/main.py", "def main():\n    return 1\n")
    r.commit("Start", "2025-01-10T09:00:00Z", author)
    r.write("DECISIONS.md", f"# Decisions\n\n## D-1: Keep main.py simple\n\n{said}\n")
    r.commit("Record D-1", "2025-02-01T09:00:00Z", author)
    return r


def test_a_second_repository_is_refused_and_the_first_keeps_its_answers(
    store: Store, tmp_path: Path
) -> None:
    alpha = _repo(tmp_path / "alpha", "src/main.py stays single-threaded.", ("Ann", "a@x.org"))
    beta = _repo(tmp_path / "beta", "src/main.py runs a thread pool.", ("Bob", "b@x.org"))
    ingest_repo(store, alpha.root)

    with pytest.raises(InputError) as refused:
        ingest_repo(store, beta.root)
    message = str(refused.value)
    assert "'alpha'" in message and "'beta'" in message and "--graph" in message
    assert "--name alpha" in message  # the same repository, cloned into another folder

    assert [r["repo"] for r in repo_read.repositories(store)] == ["alpha"]
    why = tools.why(store, "src/main.py")
    assert [d["id"] for d in why.result["decisions"]] == [D1]
    assert [c.quote for c in why.citations] == ["src/main.py stays single-threaded."]
    experts = tools.who_knows(store, "src/main.py")
    assert [e["name"] for e in experts.result["experts"]] == ["Ann"]

    assert ingest_repo(store, alpha.root).mode == "unchanged"
    # The same repository under the name it was read as, from another folder.
    clone = GitRepo(tmp_path / "alpha-2", create=False)
    alpha.git("clone", "-q", str(alpha.root), str(clone.root))
    assert ingest_repo(store, clone.root, name="alpha").mode == "unchanged"


def test_each_repository_in_a_graph_of_its_own(store: Store, tmp_path: Path) -> None:
    alpha = _repo(tmp_path / "alpha", "src/main.py stays single-threaded.", ("Ann", "a@x.org"))
    beta = _repo(tmp_path / "beta", "src/main.py runs a thread pool.", ("Bob", "b@x.org"))
    ingest_repo(store, alpha.root)
    other = store.for_graph(f"{store.graph_name}-beta")
    try:
        ingest_repo(other, beta.root)
        why = tools.why(other, "src/main.py")
        assert [c.quote for c in why.citations] == ["src/main.py runs a thread pool."]
        assert [c.quote for c in tools.why(store, "src/main.py").citations] == [
            "src/main.py stays single-threaded."
        ]
    finally:
        other.delete_graph()
        other.close()
