"""Build the code-review story as a small git repository, for `make demo`.

    python demo/review_story.py PATH            # September: the log, and a "fix" to review
    python demo/review_story.py PATH --january  # a newer decision, and the fix resubmitted

A router prompt has a rule that is factually wrong and load-bearing (R1, with its figures);
correcting it was tried and disproven (D1, in ordinary decision-log prose). A contributor
"fixes" the rule on the branch `fix-router`. In January a newer decision (R2) retires the
model the rule was measured on and supersedes R1 and D1, keeping one experiment disproven
under itself; the fix comes back on `fix-router-again`. Dates and authors are fixed, so the
commits are the same on every run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PETER = ("Peter Green", "peter@example.com")
MAYA = ("Maya Ortiz", "maya@example.com")
PROMPT_FILE = "src/router_prompt.txt"
PROMPT = """You route each message to exactly one specialist.
- chat: small talk and everything else.
- memory: the memory specialist can only READ stored facts.
- search: anything that needs the web.
"""
FIXED_PROMPT = PROMPT.replace("can only READ stored facts", "can read and save facts")

LOG_SEPTEMBER = """# Decision log

Newest last. Each entry names the files it rests on.

## R1 The router prompt's "wrong" rule is load-bearing

Date: 2025-09-12
Status: accepted

The line in `src/router_prompt.txt` that says the memory specialist "can only READ" is
factually wrong: memory can save facts. It stays anyway. We corrected it once and
measured the small model: with the corrected text it routed "remember this" to memory
0 times out of 20; with the old, wrong text, 16 out of 20. The correction was reverted
the same day.

## D1 Corrected router prompt text would fix the 7B's memory routing

Date: 2025-09-15
Status: disproven

The idea was that the 7B misroutes only because the rule in src/router_prompt.txt is wrong.
We tried the corrected rule on qwen2.5:7b for a week; it did not help.
The theory that a longer list of examples would make up for it turned out to be false.
Adding the word "save" to the memory line made no difference (2/20).
We have not tried a fine-tuned router yet.
"""

LOG_JANUARY = (
    LOG_SEPTEMBER
    + """
## R2 Retire the 7B; correct the router rule on the supported model

Date: 2026-01-20
Status: accepted

This supersedes R1 and D1. The 7B is retired and qwen2.5:14b is the supported model.
On it the corrected rule in src/router_prompt.txt measures 20/20, against 19/20 for the
old text, so the corrected text may go in.

We retried the claim that the corrected rule works for qwen2.5:7b; it is still disproven
(1/20), so nobody should bring the 7B back for routing.
"""
)


def git(root: Path, *args: str, who: tuple[str, str] = PETER, at: str = "") -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env |= {"GIT_AUTHOR_NAME": who[0], "GIT_AUTHOR_EMAIL": who[1]}
    env |= {"GIT_COMMITTER_NAME": who[0], "GIT_COMMITTER_EMAIL": who[1]}
    if at:
        env |= {"GIT_AUTHOR_DATE": at, "GIT_COMMITTER_DATE": at}
    subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)


def commit(root: Path, files: dict[str, str], message: str, at: str, who: tuple[str, str]) -> None:
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
        git(root, "add", "--", path)
    git(root, "-c", "commit.gpgsign=false", "commit", "-q", "-m", message, who=who, at=at)


def september(root: Path) -> None:
    if root.exists() and any(root.iterdir()):
        sys.exit(f"{root} is not empty: remove it first")
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    router = "PROMPT = open('src/router_prompt.txt').read()\n"
    files = {"README.md": "# assistant\n", PROMPT_FILE: PROMPT, "src/router.py": router}
    commit(root, files, "Router and its prompt", "2025-09-01T09:00:00+00:00", PETER)
    log = {"DECISIONS.md": LOG_SEPTEMBER}
    commit(root, log, "Record why the router rule stays", "2025-09-15T10:00:00+00:00", PETER)
    git(root, "checkout", "-q", "-b", "fix-router")
    fix = {PROMPT_FILE: FIXED_PROMPT}
    commit(root, fix, "Fix the memory line in the router prompt", "2025-10-02T10:00:00Z", MAYA)
    git(root, "checkout", "-q", "main")


def january(root: Path) -> None:
    log = {"DECISIONS.md": LOG_JANUARY}
    commit(root, log, "Retire the 7B", "2026-01-20T10:00:00+00:00", PETER)
    git(root, "checkout", "-q", "-b", "fix-router-again")
    fix = {PROMPT_FILE: FIXED_PROMPT}
    commit(root, fix, "Fix the memory line (again)", "2026-02-02T10:00:00+00:00", MAYA)
    git(root, "checkout", "-q", "main")


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    where, later = Path(sys.argv[1]), "--january" in sys.argv[2:]
    if later:
        january(where)
    else:
        september(where)
    print(f"review story: {where} ({'January' if later else 'September'})")
