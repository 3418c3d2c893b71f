"""The synthetic company: deterministic from its seed, valid against the corpus contract,
and its truth file agrees with what `brain ask` answers after ingestion."""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime, timedelta
from itertools import pairwise
from pathlib import Path

import pytest
import yaml

from companybrain.config import Settings
from companybrain.errors import InputError
from companybrain.evals.questions import load_questions, run
from companybrain.graph.connection import Store
from companybrain.ingest.pipeline import ingest
from companybrain.synth.write import generate


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("synth") / "company"
    generate(out, people=100, records=2000, seed=11, questions=60)
    return out


def test_the_same_seed_writes_the_same_corpus(corpus: Path, tmp_path: Path) -> None:
    again = generate(tmp_path / "again", people=100, records=2000, seed=11, questions=60)
    other = generate(tmp_path / "other", people=100, records=2000, seed=12, questions=60)
    for name in ("org.yaml", "records.jsonl", "expected.json", "truth/questions.jsonl"):
        assert (again.out / name).read_bytes() == (corpus / name).read_bytes(), name
    assert (other.out / "records.jsonl").read_bytes() != (corpus / "records.jsonl").read_bytes()


def test_it_has_the_mix_a_company_has(corpus: Path) -> None:
    truth = json.loads((corpus / "expected.json").read_text())
    counts = truth["counts"]
    assert sum(counts.values()) == 2000
    assert set(counts) >= {"chat", "comment", "ticket", "email", "wiki", "runbook", "adr",
                           "change_control", "service_directory"}  # fmt: skip
    assert counts["chat"] > counts["ticket"] > counts["change_control"]
    lines = (corpus / "records.jsonl").read_text().splitlines()
    raws = [json.loads(line) for line in lines]
    assert any(r.get("parent", "").startswith("TCK-") for r in raws)  # comments on tickets
    assert any(r.get("parent", "").startswith("MSG-") for r in raws)  # threads in chat
    assert any(not r["at"].endswith("Z") for r in raws)  # offsets other than UTC
    assert list((corpus / "records" / "adr").glob("ADR-*.md"))
    statuses = {o["status"] for o in truth["owners"]}
    assert "answered" in statuses


def test_ingests_without_rejections_and_answers_match_the_truth(
    corpus: Path, store: Store, settings: Settings
) -> None:
    report = ingest(store, corpus, settings)
    assert report.rejected == []
    assert report.stored == 2000
    questions = load_questions(corpus / "truth" / "questions.jsonl")
    kinds = Counter(q["id"].split("-")[0] for q in questions)
    # one ownership question a service at this size, some asked by people a change control
    # is hidden from or shown to; who knows a service; every ADR chain it wrote; people
    # and teams
    assert kinds == {"own": 20, "acc": 2, "know": 10, "dec": 20, "who": 5, "team": 3}
    result = run(store, settings, questions)
    failures = [(r.id, r.problems) for r in result.results if not r.passed]
    assert failures == []
    # the questions asked as someone can fail: asked as everyone, some answers differ
    hidden = [q for q in questions if q["id"].startswith("acc-")]
    told = run(store, settings, hidden).results
    as_everyone = run(store, settings, [q | {"as": None} for q in hidden]).results
    differ = [a.id for a, b in zip(told, as_everyone, strict=True) if a.answer != b.answer]
    assert differ and all(q["as"] for q in hidden)


def test_decision_truth_is_the_chain_the_adr_files_state(tmp_path: Path) -> None:
    """The chains in truth/ are read again from the ADRs written, by their `supersedes`
    and `at`: whole when asked now, cut at the day asked about before."""
    made = generate(tmp_path / "c", people=50, records=6000, seed=4, questions=0)
    fronts = [
        yaml.safe_load(path.read_text().split("---\n")[1])
        for path in (made.out / "records" / "adr").glob("ADR-*.md")
    ]
    at = {f["id"]: datetime.fromisoformat(f["at"]) for f in fronts}
    newer = {f["supersedes"][0]: f["id"] for f in fronts if f.get("supersedes")}
    older = {n: o for o, n in newer.items()}
    assert len(newer) == len(older)  # replaced once at most: one chain per decision
    cut = longest = 0
    asked = load_questions(made.out / "truth" / "questions.jsonl")
    for q in [q for q in asked if q["expect"]["tool"] == "trace_decision"]:
        adr = q["expect"]["subject"]
        while adr in newer:
            adr = newer[adr]
        whole = [adr]
        while whole[-1] in older:
            whole.append(older[whole[-1]])
        day = datetime.fromisoformat(q["now"])
        assert q["expect"]["chain"] == [a for a in whole if at[a] <= day], q["id"]
        assert all(at[n] > at[o] for n, o in pairwise(whole))
        cut += len(q["expect"]["chain"]) < len(whole)
        longest = max(longest, len(whole))
    assert cut and longest >= 3


def test_the_cli_refuses_a_folder_that_is_not_empty(run_cli, corpus: Path) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("gen-corpus", "--people", "5", "--records", "10", str(corpus))
    assert isinstance(result.exception, InputError)
    assert "not empty" in str(result.exception)


def test_the_cli_writes_a_corpus(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "small"
    result = run_cli("gen-corpus", "--people", "10", "--records", "300", "--seed", "3", str(out))
    assert result.exit_code == 0, result.output
    assert "wrote 300 records" in result.output
    assert (out / "org.yaml").exists() and (out / "truth" / "questions.jsonl").exists()
    # 100 ownership questions asked, one a service: fewer services say so
    lines = (out / "truth" / "questions.jsonl").read_text().splitlines()
    asked = sum('"tool": "owner_of"' in line for line in lines)
    assert asked < 100 and f"note: {asked} ownership questions, not 100" in result.output
    assert f"truth: {asked} owner_of," in result.output


def test_more_directory_snapshots_make_a_company_dense_in_claims(
    tmp_path: Path, store: Store, settings: Settings
) -> None:
    """What the million-claims benchmark builds, small: a directory exported 32 times gives
    every service 32 directory claims, spread over the two years, and answers still match."""
    made = generate(tmp_path / "dense", people=40, records=600, seed=5, services=30, snapshots=32)
    truth = json.loads((made.out / "expected.json").read_text())
    raws = [json.loads(line) for line in (made.out / "records.jsonl").open()]
    directories = [r for r in raws if r["kind"] == "service_directory"]
    teams = {r["id"].rsplit("-", 1)[0] for r in directories}
    assert len(directories) == 32 * len(teams)
    instants = sorted({datetime.fromisoformat(r["at"]) for r in directories})
    assert len(instants) == 32  # one instant a snapshot, written in various offsets
    assert instants[-1] - instants[0] > timedelta(days=600)  # spread over the two years
    assert truth["counts"]["service_directory"] == len(directories)
    assert made.claims >= 32 * made.services
    ingest(store, made.out, settings)
    stored = store.read("MATCH (c:OwnershipClaim) RETURN count(c) AS n")[0]["n"]
    assert stored >= 32 * made.services
    result = run(store, settings, load_questions(made.out / "truth" / "questions.jsonl"))
    assert [(r.id, r.problems) for r in result.results if not r.passed] == []


def test_past_twenty_thousand_services_names_stay_distinct(tmp_path: Path) -> None:
    from random import Random

    from companybrain.synth.company import build_company

    company = build_company(Random(1), 10, 31_000)
    service_names = [s.name for s in company.services]
    assert len(set(service_names)) == len(set(s.id for s in company.services)) == 31_000
    with pytest.raises(ValueError, match="at most"):
        build_company(Random(1), 10, 40_000)


def test_the_cli_refuses_zero_snapshots(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("gen-corpus", "--snapshots", "0", str(tmp_path / "none"))
    assert isinstance(result.exception, InputError)
    assert "--snapshots" in str(result.exception)


def test_the_cli_refuses_an_out_that_cannot_be_a_folder(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A file raised 'unexpected NotADirectoryError'."""
    a_file = tmp_path / "file"
    a_file.write_text("")
    for out, says in (
        (a_file, f"{a_file} is a file; give a new folder"),
        (a_file / "sub", f"{a_file / 'sub'}: cannot create the folder (Not a directory)"),
    ):
        result = run_cli("gen-corpus", "--records", "10", str(out))
        assert isinstance(result.exception, InputError)
        assert str(result.exception) == says
    assert a_file.read_text() == ""


def test_bad_counts_name_the_option_before_anything_is_written(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """--questions -1 wrote the whole corpus, then failed with "Sample larger than population
    or is negative" and left OUT without its questions (and not empty, so refused next
    time); --records past what has names said "at most 31,680 services", an option not
    given."""
    out = tmp_path / "out"
    result = run_cli("gen-corpus", "--records", "10", "--questions", "-1", str(out))
    assert isinstance(result.exception, InputError)
    assert str(result.exception) == "--questions must be at least 0"
    assert not out.exists()
    result = run_cli("gen-corpus", "--records", str(10**12), str(out))
    assert isinstance(result.exception, InputError)
    assert "--records 1,000,000,000,000 asks for one per 100 records" in str(result.exception)
    assert not any(out.iterdir())
