"""Small git repositories built in temporary folders, with fixed dates, for repository tests."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


class GitRepo:
    def __init__(self, root: Path, *, create: bool = True) -> None:
        self.root = root
        if not create:
            return
        root.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")
        self.git("config", "user.name", "Nobody")
        self.git("config", "user.email", "nobody@example.com")
        self.git("config", "commit.gpgsign", "false")

    def git(self, *args: str, env: dict[str, str] | None = None) -> str:
        full = {**os.environ, **(env or {})}
        for key in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
            full.pop(key, None)
        out = subprocess.run(
            ["git", *args], cwd=self.root, env=full, check=True, capture_output=True, text=True
        )
        return out.stdout.strip()

    def write(self, path: str, text: str) -> None:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        self.git("add", "--", path)

    def rm(self, path: str) -> None:
        self.git("rm", "-q", "--", path)

    def mv(self, old: str, new: str) -> None:
        (self.root / new).parent.mkdir(parents=True, exist_ok=True)
        self.git("mv", old, new)

    def commit(
        self,
        message: str,
        date: str,
        author: tuple[str, str] = ("Ann Lee", "ann@example.com"),
        committer: tuple[str, str] | None = None,
        committed: str | None = None,
    ) -> str:
        committer = committer or author
        env = {
            "GIT_AUTHOR_NAME": author[0],
            "GIT_AUTHOR_EMAIL": author[1],
            "GIT_AUTHOR_DATE": date,
            "GIT_COMMITTER_NAME": committer[0],
            "GIT_COMMITTER_EMAIL": committer[1],
            "GIT_COMMITTER_DATE": committed or date,
        }
        self.git("commit", "-q", "--allow-empty", "-m", message, env=env)
        return self.head()

    def merge(self, branch: str, message: str, date: str, author: tuple[str, str]) -> str:
        env = {
            "GIT_AUTHOR_NAME": author[0],
            "GIT_AUTHOR_EMAIL": author[1],
            "GIT_AUTHOR_DATE": date,
            "GIT_COMMITTER_NAME": author[0],
            "GIT_COMMITTER_EMAIL": author[1],
            "GIT_COMMITTER_DATE": date,
        }
        self.git("merge", "-q", "--no-ff", "-m", message, branch, env=env)
        return self.head()

    def head(self) -> str:
        return self.git("rev-parse", "HEAD")
