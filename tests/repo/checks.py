"""Every citation of a repository answer must hold: the quote is in the cited record, at the
cited lines (read back from git, not from the graph)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from companybrain.model.answer import Answer
from companybrain.policy.text import normalise


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, capture_output=True, text=True, check=True
    ).stdout


def assert_citations_hold(answer: Answer, root: Path, rev: str = "HEAD") -> None:
    assert answer.citations or answer.status == "refused"
    for c in answer.citations:
        assert c.quote, c
        if c.kind == "commit":
            assert len(c.record) == 40
            message = _git(root, "show", "-s", "--format=%B", c.record)
            assert normalise(c.quote) in normalise(message), c
            continue
        path = c.record.split("#", 1)[0]
        try:
            text = _git(root, "show", f"{rev}:{path}")
        except subprocess.CalledProcessError:  # removed since: read its last version
            last = _git(root, "log", "-1", "--format=%H", rev, "--", path).strip()
            text = _git(root, "show", f"{last}^:{path}")
        if c.kind == "instruction":
            text = _git(root, "cat-file", "-p", _blob_of(root, path, c.at))
        assert c.lines is not None, c
        a, b = c.lines
        span = "\n".join(text.splitlines()[a - 1 : b])
        assert normalise(c.quote) in normalise(span), (c, span)


def _blob_of(root: Path, path: str, at: str | None) -> str:
    """The blob of `path` in force at time `at` on the branch."""
    sha = _git(root, "log", "-1", f"--until={at}", "--format=%H", "HEAD").strip()
    return _git(root, "rev-parse", f"{sha}:{path}").strip()
