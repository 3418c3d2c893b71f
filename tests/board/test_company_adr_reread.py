"""A company ADR that states a decision is a record and a decision of the same id: the
board read the record, but wrote its findings and the hash of the text it read on the
decision, while a fill looked for that hash on the record. Every fill after a run called
each such ADR "new or changed" and read it again (with a model worker, a model call per
ADR per run, for ever)."""

from __future__ import annotations

from pathlib import Path

from companybrain.board.fill import fill
from companybrain.board.options import BoardOptions
from companybrain.board.worker import Worker
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest

OPTIONS = BoardOptions(poll_s=0.01)
ORG = "company: Test\npeople:\n  - id: ana\n    name: Ana Lee\nservices: []\n"
ADR = """---
id: ADR-{n}
kind: adr
at: 2025-0{n}-01T09:00:00Z
title: Store {what}
status: accepted
---
# ADR-{n}

## Context

We tried {what} before and it did not help: 3/10 runs failed.

## Decision

We will store billing data in {what}.
"""


def test_a_company_adr_read_once_is_not_read_again(
    store: Store, board: Store, settings: Settings, tmp_path: Path
) -> None:
    corpus = tmp_path / "c"
    (corpus / "records").mkdir(parents=True)
    (corpus / "org.yaml").write_text(ORG)
    for n, what in ((1, "SQLite"), (2, "Postgres")):
        (corpus / "records" / f"ADR-{n}.md").write_text(ADR.format(n=n, what=what))
    ingest(store, corpus, settings)
    assert store.read("MATCH (d:Decision) RETURN count(d) AS n")[0]["n"] == 2

    assert fill(store, board, OPTIONS).entries == 2
    Worker(settings, OPTIONS, "rules-1").run()
    again = fill(store, board, OPTIONS)
    assert (again.entries, again.unchanged) == (0, 2)
