"""One graph holding both the demo company and a code repository: questions about code go
to the repository tools, company questions keep their own types."""

from __future__ import annotations

from pathlib import Path

from companybrain.ask.engine import ask
from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.repo.ingest import ingest_repo
from tests.ask.conftest import NOW
from tests.repo import scenario


def test_code_questions_go_to_the_repository_and_company_questions_stay(
    demo_copy: Store, settings: Settings, tmp_path: Path
) -> None:
    scenario.build(tmp_path / "repo")
    ingest_repo(demo_copy, tmp_path / "repo")

    owner = ask(demo_copy, settings, "Who owns the billing gateway?", now=NOW)
    assert owner.tool == "owner_of" and owner.result == {
        "owner": {"id": "kofi", "name": "Kofi Mensah"}
    }
    experts = ask(demo_copy, settings, "Who knows the search index?", now=NOW)
    assert experts.tool == "who_knows" and experts.subject == {
        "id": "search-index", "type": "Service", "name": "Search Index"
    }  # fmt: skip
    kafka = ask(demo_copy, settings, "Why did we stop publishing ledger events through Kafka?")
    assert kafka.result is not None and kafka.result["decision"] == "ADR-009"

    code = ask(demo_copy, settings, "Who knows src/router.py?", now=NOW)
    assert code.tool == "who_knows" and code.status == "answered"
    assert code.subject is not None and code.subject["id"] == "src/router.py"
    why = ask(demo_copy, settings, "Why do we use FalkorDB for the board?", now=NOW)
    assert why.tool == "why" and why.status == "answered"
    chain = ask(demo_copy, settings, "Why do we load the data warehouse in hourly micro-batches?")
    assert chain.tool == "trace_decision" and chain.subject is not None
    assert chain.subject["id"] == "ADR-011"
