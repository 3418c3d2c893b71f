"""Agents among git identities, and commits parsed from a streamed `git log`."""

from __future__ import annotations

from pathlib import Path

import pytest

from companybrain.repo import history
from companybrain.repo.agents import agent_kind, co_authors
from tests.repo.gitrepo import GitRepo


@pytest.mark.parametrize(
    ("name", "email", "kind"),
    [
        ("Claude", "noreply@anthropic.com", "claude"),
        ("Claude Opus 4", "noreply@anthropic.com", "claude"),
        ("Copilot", "175728472+Copilot@users.noreply.github.com", "copilot"),
        ("copilot-swe-agent[bot]", "198982749+Copilot@users.noreply.github.com", "copilot"),
        ("Cursor Agent", "cursoragent@cursor.com", "cursor"),
        ("Codex", "codex@openai.com", "codex"),
        ("chatgpt-codex-connector[bot]", "1+chatgpt-codex-connector[bot]@users.noreply.github.com",
         "codex"),
        ("devin-ai-integration[bot]", "1+devin-ai-integration[bot]@users.noreply.github.com",
         "devin"),
        ("Ann Lee (aider)", "ann@example.com", "aider"),
        ("gemini-code-assist[bot]", "1+gemini-code-assist[bot]@users.noreply.github.com", "gemini"),
        ("google-labs-jules[bot]", "1+google-labs-jules[bot]@users.noreply.github.com", "gemini"),
        ("dependabot[bot]", "49699333+dependabot[bot]@users.noreply.github.com", "bot"),
        # people who share a name with an agent, or work at a vendor
        ("Claude Monet", "claude@monet.example", None),
        ("Devin Smith", "devin@example.com", None),
        ("Jane Roe", "jane@anthropic.com", None),
        ("Ann Lee", "ann@example.com", None),
    ],
)  # fmt: skip
def test_agent_kinds(name: str, email: str, kind: str | None) -> None:
    assert agent_kind(name, email) == kind


def test_co_author_trailers() -> None:
    message = (
        "Fix it\n\nCo-authored-by: Claude <noreply@anthropic.com>\n"
        "co-authored-by: Carol Diaz <carol@example.com>\n"
        "Co-Authored-By: Claude <NOREPLY@anthropic.com>\n"
    )
    assert co_authors(message) == [
        ("Claude", "noreply@anthropic.com"),
        ("Carol Diaz", "carol@example.com"),
    ]


def test_history_stream_parses_renames_binaries_odd_paths_and_merges(tmp_path: Path) -> None:
    r = GitRepo(tmp_path / "r")
    r.write("a b/ünï code.py", "x = 1\ny = 2\n")
    (r.root / "logo.bin").write_bytes(bytes(range(256)))
    r.git("add", "logo.bin")
    first = r.commit("first\n\nbody with a \x1f in it", "2025-01-01T10:00:00+02:00")
    r.mv("a b/ünï code.py", "src/code.py")
    r.commit("rename", "2025-01-02T10:00:00+00:00")
    r.git("checkout", "-q", "-b", "side", first)
    r.write("side.txt", "s\n")
    r.commit("side", "2025-01-03T10:00:00+00:00")
    r.git("checkout", "-q", "main")
    merge = r.merge(
        "side", "merge side", "2025-01-04T10:00:00+00:00", ("Ann Lee", "ann@example.com")
    )
    got = list(history.commits(r.root, ["HEAD"]))
    assert got[-1].sha == merge and got[-1].is_merge
    assert {c.subject for c in got} == {"first", "rename", "side", "merge side"}
    one = next(c for c in got if c.subject == "first")
    assert one.message == "first\n\nbody with a \x1f in it"
    assert one.author_at == "2025-01-01T10:00:00+02:00"
    assert history.iso_ms(one.author_at) == history.iso_ms("2025-01-01T08:00:00+00:00")
    by_path = {ch.path: ch for ch in one.changes}
    assert by_path["a b/ünï code.py"].added == 2
    assert by_path["logo.bin"].added is None  # binary: no line counts
    (renamed,) = next(c for c in got if c.subject == "rename").changes
    assert (renamed.status, renamed.old_path, renamed.path) == (
        "R",
        "a b/ünï code.py",
        "src/code.py",
    )
    assert [ch.path for ch in got[-1].changes] == ["side.txt"]  # the merge against its first parent
    # parents come before children
    seen: set[str] = set()
    for c in got:
        assert all(p in seen for p in c.parents)
        seen.add(c.sha)
