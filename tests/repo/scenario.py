"""One repository that holds every format and edge the repository tools must handle:
Nygard, adr-tools, MADR and log4brains ADRs, numbered and named by date (two on the same
day), a DECISIONS.md edited over time (two entries of the same day), agent instruction files
that change, co-authored commits (Claude among them), a bot author, .mailmap, a rename, a
commit written months before it was merged, and a deleted file and ADR."""

from __future__ import annotations

from pathlib import Path

from tests.repo.gitrepo import GitRepo

ANN = ("Ann Lee", "ann@example.com")
BOB_OLD = ("bob", "Bob@Old.Example")  # mapped by .mailmap to Bob Stone <bob@example.com>
BOB = ("Bob Stone", "bob@example.com")
CAROL = ("Carol Diaz", "carol@example.com")
DAVE = ("Dave Wu", "dave@example.com")
COPILOT = ("copilot-swe-agent[bot]", "198982749+Copilot@users.noreply.github.com")

ADR_0001 = """# 1. Record architecture decisions

Date: 2025-02-01

## Status

Accepted

## Context

We need to record the architectural decisions made on this project.

## Decision

We will use Architecture Decision Records, as described by Michael Nygard.

## Consequences

See Michael Nygard's article.
"""

ADR_0002 = """# 2. Use PostgreSQL for the task store

## Status

Accepted

## Context

The task store in src/store.py needs transactions.

## Decision

We will use PostgreSQL.

## Consequences

Operations runs one more database.
"""

ADR_0002_SUPERSEDED = ADR_0002.replace(
    "## Status\n\nAccepted\n",
    "## Status\n\nSuperseded by [3. Use FalkorDB for the task store](0003-use-falkordb.md)\n",
)

ADR_0003 = """# 3. Use FalkorDB for the task store

Date: 2025-05-02

## Status

Accepted

Supersedes [2. Use PostgreSQL for the task store](0002-use-postgresql.md)

## Context

Tasks form a graph; `TaskStore.add` in `src/store.py` walks it on every claim.

## Decision

We will keep tasks in FalkorDB.
"""

L4B_A = """# Use FalkorDB for the board

- Status: accepted
- Deciders: Ann Lee
- Date: 2025-04-01
- Tags: board

## Context and Problem Statement

Workers claim entries from a shared board; a claim must be atomic.

## Decision Outcome

Chosen option: "FalkorDB", because it serializes writes per graph.
"""

L4B_B = """# Use Redis streams for board events

- Status: accepted
- Deciders: Bob Stone
- Date: 2025-04-01

## Context and Problem Statement

The browser shows the board live.

## Decision Outcome

Chosen option: "Redis streams".
"""

MADR = """---
status: accepted
date: 2025-04-03
deciders: Carol Diaz
---
# Use MADR for new decisions

## Context and Problem Statement

Which format do new decision records use?

## Decision Outcome

Chosen option: "MADR 3", because it has front matter.
"""

ADR_0004_LEGACY = """# 4. Keep the legacy import path

Date: 2025-01-15

## Status

Accepted

## Decision

src/legacy.py stays until the last customer migrates.
"""

DECISIONS_V1 = """# Decision log

Entries, newest last.

## 2025-03-01: Batch exporter writes

Status: accepted

The exporter (`src/exporter.py`) batches its writes: one round trip per 500 rows
instead of one per row. Tried streaming each row first: throughput fell to a third.

## 2025-03-01: Keep the wrong router rule

Status: accepted

The router prompt in src/router.py says memory "can only READ". That is wrong, and
it stays: with the corrected text the 7B routed "remember this" to memory 0 times out
of 20; with the old text, 16 out of 20.
"""

DECISIONS_V2 = (
    DECISIONS_V1.replace("`src/exporter.py`", "`src/export/writer.py`")
    + """
## 2025-05-01: Stream exporter writes

Supersedes: Batch exporter writes

The writer in src/export/writer.py streams rows again: the new driver pipelines them.
"""
)

AGENTS_V1 = """# Agent instructions

## Tests

Run pytest before committing.

## Style

Use type hints.
"""

AGENTS_V2 = AGENTS_V1.replace(
    "Run pytest before committing.", "Run pytest -q and ruff check before every commit."
)

CLAUDE_V1 = """# CLAUDE.md

Never edit the router prompt without reading DECISIONS.md.
"""

MAILMAP = "Bob Stone <bob@example.com> bob <Bob@Old.Example>\n"


def build(root: Path) -> dict[str, str]:
    """Build the repository; returns the shas of the interesting commits."""
    r = GitRepo(root)
    shas: dict[str, str] = {}
    r.write("README.md", "# demo\n")
    r.write("src/exporter.py", "def export(rows):\n    return batch(rows, 500)\n")
    r.write("src/router.py", 'PROMPT = "memory can only READ"\n')
    r.write("src/store.py", "class TaskStore:\n    def add(self, task): ...\n")
    r.write(".mailmap", MAILMAP)
    shas["init"] = r.commit("Start the project", "2025-01-10T09:00:00+00:00", ANN)

    r.write("docs/adr/0001-record-architecture-decisions.md", ADR_0001)
    r.write("docs/adr/0002-use-postgresql.md", ADR_0002)
    shas["adrs"] = r.commit("Record the first decisions", "2025-02-01T10:00:00+00:00", ANN)

    r.write("AGENTS.md", AGENTS_V1)
    r.write("CLAUDE.md", CLAUDE_V1)
    shas["agents_v1"] = r.commit("Add agent instructions", "2025-02-10T10:00:00+00:00", ANN)

    r.write("DECISIONS.md", DECISIONS_V1)
    r.write("src/router.py", 'PROMPT = "memory can only READ"  # see DECISIONS.md\n')
    shas["log_v1"] = r.commit(
        "Decision log: exporter and router", "2025-03-01T12:00:00+00:00", BOB_OLD
    )

    r.write("src/router.py", 'PROMPT = "memory can only READ"  # load-bearing\n')
    shas["coauthored"] = r.commit(
        "Router: comment why the rule stays\n\n"
        "Co-authored-by: Claude <noreply@anthropic.com>\n"
        "Co-authored-by: Carol Diaz <carol@example.com>\n",
        "2025-03-05T12:00:00+00:00",
        BOB,
    )

    r.write("AGENTS.md", AGENTS_V2)
    shas["agents_v2"] = r.commit("Agents: ruff too", "2025-03-20T10:00:00+00:00", CAROL)

    r.write("docs/adr/20250401-use-falkordb-for-the-board.md", L4B_A)
    r.write("docs/adr/20250401-use-redis-streams.md", L4B_B)
    r.write("docs/decisions/0001-use-madr.md", MADR)
    shas["l4b"] = r.commit("Board decisions", "2025-04-03T10:00:00+00:00", CAROL)

    r.mv("src/exporter.py", "src/export/writer.py")
    r.write("DECISIONS.md", DECISIONS_V2)
    r.write("docs/adr/0002-use-postgresql.md", ADR_0002_SUPERSEDED)
    r.write("docs/adr/0003-use-falkordb.md", ADR_0003)
    shas["rename"] = r.commit(
        "Stream the writer; tasks move to FalkorDB", "2025-05-02T10:00:00+00:00", ANN
    )

    r.write("src/store.py", "class TaskStore:\n    def add(self, task): ...\n    # graph\n")
    shas["bot"] = r.commit("Tidy the store", "2025-05-10T10:00:00+00:00", COPILOT)

    # a branch written in January, merged in June
    r.git("checkout", "-q", "-b", "legacy", shas["init"])
    r.write("src/legacy.py", "def old_import(): ...\n")
    r.write("docs/adr/0004-keep-legacy-import.md", ADR_0004_LEGACY)
    shas["written_early"] = r.commit(
        "Keep the legacy import path", "2025-01-15T09:00:00+00:00", DAVE
    )
    r.git("checkout", "-q", "main")
    shas["merge"] = r.merge("legacy", "Merge the legacy path", "2025-06-01T09:00:00+00:00", ANN)

    r.rm("src/legacy.py")
    r.rm("docs/adr/0004-keep-legacy-import.md")
    shas["delete"] = r.commit("Drop the legacy path", "2025-07-01T09:00:00+00:00", ANN)
    return shas
