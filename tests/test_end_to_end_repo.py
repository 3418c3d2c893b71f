"""The code-review story end to end, through the real CLI: a repository whose decision log
says, in ordinary prose, that a "wrong" router rule is load-bearing and that correcting it
was tried and disproven; `brain ingest-repo`, then `brain board run --workers 2` (offline
rules workers in real processes) reads the log; `brain review` of a contributor's "fix"
shows the decision, its figures, the disproven experiments and who knows the file. Then a
newer decision supersedes the old ones; the resubmitted fix gets the new decision as
guidance, the old ones labelled superseded, and the experiment still disproven under the new
decision as a live warning, while the original fix, reviewed again, is still judged by what
was known then.

The whole story runs once per module (two board runs dominate its time); each test asserts
one part of it on the outputs it recorded."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from companybrain.config import Settings
from companybrain.graph.connection import Store
from companybrain.graph.queries import findings_q
from companybrain.policy.text import normalise
from tests.repo.gitrepo import GitRepo

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

Anyone who edits src/router_prompt.txt reruns the routing check first.

## D1 Corrected router prompt text would fix the 7B's memory routing

Date: 2025-09-15
Status: disproven

The idea was that the 7B misroutes only because the rule in src/router_prompt.txt is wrong.
We tried the corrected rule on qwen2.5:7b for a week; it did not help.
Disproven: with the corrected text the 7B sent 0 of 20 "remember this" prompts to memory.
The theory that a longer list of examples would make up for it turned out to be false.
Adding the word "save" to the memory line made no difference (2/20).
Splitting memory into a reader and a writer specialist was reverted after two days.
Keeping the old wording was confirmed by a second run: 16/20 again.
We have not tried a fine-tuned router yet.
If the next model also fails this check we will revert the prompt to the old text.
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

R1 = 'DECISIONS.md#R1 The router prompt\'s "wrong" rule is load-bearing'
D1 = "DECISIONS.md#D1 Corrected router prompt text would fix the 7B's memory routing"
R2 = "DECISIONS.md#R2 Retire the 7B; correct the router rule on the supported model"

# (start of the sentence, verdict): every phrasing of a tried-and-failed experiment
FAILED_IN_SEPTEMBER = {
    ("D1 Corrected router prompt text would fix", "disproven"),  # its Status: field
    ("We tried the corrected rule on qwen2.5:7b for a week", "disproven"),
    ("Disproven: with the corrected text the 7B sent", "disproven"),
    ("The theory that a longer list of examples", "disproven"),
    ('Adding the word "save" to the memory line', "disproven"),
    ("Splitting memory into a reader and a writer", "reverted"),
    ("The correction was reverted", "reverted"),
}
NOT_EXPERIMENTS = ("We have not tried a fine-tuned router", "If the next model also fails")
STILL_DISPROVEN = "We retried the claim that the corrected rule works for qwen2.5:7b"
QUESTION = "What was tried and failed with the router prompt?"


@dataclass
class Story:
    root: Path
    shas: dict[str, str]
    graph: str
    settings: Settings
    out: dict[str, Result] = field(default_factory=dict)
    stored: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # read from the graph

    def json(self, name: str) -> dict[str, Any]:
        result = self.out[name]
        assert result.exit_code == 0, result.output
        data: dict[str, Any] = json.loads(result.output)
        return data


def _cli(settings: Settings, graph: str) -> Callable[..., Result]:
    from companybrain.surfaces.cli.main import cli

    env = {k: v for k, v in os.environ.items() if not k.startswith(("BRAIN_", "OPENAI_"))}
    env.update({"BRAIN_HOME": str(settings.home), "BRAIN_GRAPH": graph})

    def run(*args: str) -> Result:
        result = CliRunner().invoke(cli, list(args), env=env, catch_exceptions=True)
        assert result.exit_code == 0, f"brain {' '.join(args)}:\n{result.output}"
        return result

    return run


def _september(root: Path) -> dict[str, str]:
    r = GitRepo(root)
    shas = {}
    r.write("README.md", "# assistant\n")
    r.write(PROMPT_FILE, PROMPT)
    r.write("src/router.py", "PROMPT = open('src/router_prompt.txt').read()\n")
    shas["init"] = r.commit("Router and its prompt", "2025-09-01T09:00:00+00:00", PETER)
    r.write("DECISIONS.md", LOG_SEPTEMBER)
    shas["log"] = r.commit("Record why the router rule stays", "2025-09-15T10:00:00+00:00", PETER)
    r.git("checkout", "-q", "-b", "fix-router")  # the contributor's pull request
    r.write(PROMPT_FILE, FIXED_PROMPT)
    shas["fix"] = r.commit(
        "Fix the memory line in the router prompt", "2025-10-02T10:00:00+00:00", MAYA
    )
    r.git("checkout", "-q", "main")
    return shas


def _january(root: Path, shas: dict[str, str]) -> None:
    r = GitRepo(root, create=False)
    r.write("DECISIONS.md", LOG_JANUARY)
    shas["retire"] = r.commit("Retire the 7B", "2026-01-20T10:00:00+00:00", PETER)
    r.git("checkout", "-q", "-b", "fix-router-again")
    r.write(PROMPT_FILE, FIXED_PROMPT)
    shas["refix"] = r.commit(
        "Fix the memory line in the router prompt (again)", "2026-02-02T10:00:00+00:00", MAYA
    )
    r.git("checkout", "-q", "main")


@pytest.fixture(scope="module")
def story(base_settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Story]:
    root = tmp_path_factory.mktemp("e2e") / "assistant"
    graph = f"t_e2e_{uuid.uuid4().hex[:10]}"
    s = Story(root, _september(root), graph, base_settings.with_(graph=graph))
    brain = _cli(base_settings, graph)
    try:
        s.out["ingest"] = brain("ingest-repo", str(root))
        s.out["board"] = brain("board", "run", "--workers", "2")
        s.out["disproven"] = brain("disproven", "--json")
        s.out["review_md"] = brain("review", s.shas["fix"], "--format", "markdown")
        s.out["review"] = brain("review", s.shas["fix"], "--format", "json")
        s.out["ask"] = brain("ask", "--graph", graph, QUESTION, "--json")
        store = Store(base_settings, graph)
        s.stored["confirmed"] = findings_q.experiments(store, verdict="confirmed")
        s.stored["all"] = findings_q.experiments(store, verdict=None)
        store.close()

        _january(root, s.shas)  # a newer decision supersedes R1 and D1; one more fix
        s.out["ingest_2"] = brain("ingest-repo", str(root))
        s.out["board_2"] = brain("board", "run", "--workers", "2")
        s.out["status_2"] = brain("board", "status", "--json")
        s.out["disproven_2"] = brain("disproven", "--json")
        s.out["rereview_md"] = brain("review", s.shas["refix"], "--format", "markdown")
        s.out["rereview"] = brain("review", s.shas["refix"], "--format", "json")
        s.out["review_again"] = brain("review", s.shas["fix"], "--format", "json")
        s.out["ask_2"] = brain("ask", "--graph", graph, QUESTION, "--json")
        yield s
    finally:
        for name in (graph, f"{graph}_board"):
            Store(base_settings, name).delete_graph()


def _line(text: str, words: str) -> int:
    """The 1-based line of DECISIONS.md that holds `words` (the start of a sentence)."""
    for n, line in enumerate(text.splitlines(), start=1):
        if words in line:
            return n
    raise AssertionError(f"{words!r} is on no line")


def _starts(items: list[dict[str, Any]]) -> set[tuple[str, str]]:
    """(which expected sentence, verdict) for each experiment item."""
    found = set()
    for item in items:
        for start, _ in FAILED_IN_SEPTEMBER | {(STILL_DISPROVEN, "disproven")}:
            if item["quote"].startswith(start):
                found.add((start, item["verdict"]))
    return found


def _cited(answer: dict[str, Any], record: str, quote: str) -> dict[str, Any]:
    (citation,) = [
        c for c in answer["citations"] if c["record"] == record and c.get("quote") == quote
    ]
    return citation


def test_the_board_reads_the_log_into_experiments(story: Story) -> None:
    assert "2 new or changed" in story.out["ingest"].output
    assert "pending 0, claimed 0, done" in story.out["board"].output
    assert "failed 0" in story.out["board"].output

    answer = story.json("disproven")
    assert answer["status"] == "answered", answer
    experiments = answer["result"]["experiments"]
    assert _starts(experiments) == FAILED_IN_SEPTEMBER
    assert len(experiments) == len(FAILED_IN_SEPTEMBER)
    for e in experiments:  # every quote verbatim, with the line span it stands on
        assert normalise(e["quote"]) in normalise(LOG_SEPTEMBER)
        citation = _cited(answer, e["decision"], e["quote"])
        assert citation["lines"][0] == _line(LOG_SEPTEMBER, e["quote"][:20])
    assert {e["decision"] for e in experiments} == {R1, D1}
    status_claim = next(e for e in experiments if e["quote"].startswith("D1 "))
    assert status_claim["decision"] == D1


def test_confirmations_are_kept_and_plans_are_not_experiments(story: Story) -> None:
    assert [e["quote"] for e in story.stored["confirmed"]] == [
        "Keeping the old wording was confirmed by a second run: 16/20 again."
    ]
    quotes = [e["quote"] for e in story.stored["all"]]
    for plan in NOT_EXPERIMENTS:
        assert not any(q.startswith(plan) for q in quotes), plan


def test_review_of_the_fix_shows_the_decision_its_figures_the_warnings_and_who_knows(
    story: Story,
) -> None:
    answer = story.json("review")
    r = answer["result"]
    assert r["rev"] == story.shas["fix"]
    assert [f["path"] for f in r["files"]] == [PROMPT_FILE]
    decisions = {d["id"]: d for d in r["decisions"]}
    assert set(decisions) == {R1, D1} and r["superseded"] == []
    # D1 is recorded as disproven: context for the reviewer, not a decision to follow
    assert answer["explanation"].startswith(
        "1 decision(s) to follow (1 more recorded as disproven or rejected), 0 superseded"
    )
    load_bearing = decisions[R1]
    assert load_bearing["rests_on"] == [PROMPT_FILE]
    (measured,) = load_bearing["evidence"]
    assert "0 times out of 20" in measured and "16 out of 20" in measured
    assert _cited(answer, R1, measured)["lines"] == [
        _line(LOG_SEPTEMBER, "We corrected it once"),
        _line(LOG_SEPTEMBER, "0 times out of 20"),
    ]
    assert _starts(r["warnings"]) == FAILED_IN_SEPTEMBER
    assert [w["label"] for w in r["warnings"]] == [f"D{n}" for n in range(1, 8)]
    assert r["superseded_experiments"] == []
    (expert,) = r["experts"]
    assert (expert["id"], expert["file"], expert["label"]) == (
        "peter@example.com",
        PROMPT_FILE,
        "P1",
    )

    md = story.out["review_md"].output
    assert md.startswith("<!-- companybrain-decision-review -->")
    assert 'R1 The router prompt\'s "wrong" rule is load-bearing' in md
    assert "0 times out of 20" in md and "16 out of 20" in md
    assert "**Tried and disproven — do not retry**" in md
    assert "“D1 Corrected router prompt text would fix the 7B's memory routing”" in md
    assert "“We tried the corrected rule on qwen2.5:7b for a week; it did not help.”" in md
    assert "(reverted) “Splitting memory into a reader and a writer specialist" in md
    assert "**P1** Peter Green <peter@example.com>" in md
    assert "Superseded" not in md


def test_ask_routes_to_disproven_and_cites_the_items(story: Story) -> None:
    answer = story.json("ask")
    assert (answer["tool"], answer["status"]) == ("disproven", "answered")
    experiments = answer["result"]["experiments"]
    assert _starts(experiments) == FAILED_IN_SEPTEMBER
    for e in experiments:
        assert _cited(answer, e["decision"], e["quote"])["lines"]


def test_the_superseding_decision_is_confirmed_by_a_second_agent(story: Story) -> None:
    assert "1 new or changed" in story.out["ingest_2"].output
    counts = story.json("status_2")
    assert counts["items"]["failed"] == 0 and counts["items"]["pending"] == 0
    assert counts["handoffs"] == {"open": 0, "confirmed": 2, "rejected": 0}


def test_the_resubmitted_fix_follows_the_new_decision_and_keeps_the_scoped_warning(
    story: Story,
) -> None:
    answer = story.json("rereview")
    r = answer["result"]
    (guidance,) = r["decisions"]
    assert guidance["id"] == R2 and guidance["status"] == "accepted"
    assert guidance["replaces"] == sorted([R1, D1])
    assert any("20/20" in q and "19/20" in q for q in guidance["evidence"])
    assert {s["id"]: s["status"] for s in r["superseded"]} == {
        R1: "superseded",
        D1: "superseded",
    }
    assert all(s["superseded_by"] == [R2] for s in r["superseded"])
    (warning,) = r["warnings"]
    assert warning["decision"] == R2 and warning["quote"].startswith(STILL_DISPROVEN)
    assert warning["verdict"] == "disproven"
    cited = _cited(answer, R2, warning["quote"])
    assert cited["lines"][0] == _line(LOG_JANUARY, "We retried the claim")
    retired = r["superseded_experiments"]
    assert _starts(retired) == FAILED_IN_SEPTEMBER
    assert all(e["superseded_by"] == [R2] for e in retired)

    md = story.out["rereview_md"].output
    guidance_part, _, rest = md.partition("**Tried and disproven")
    assert "R2 Retire the 7B" in guidance_part and "20/20" in guidance_part
    warnings_part, _, superseded_part = rest.partition("**Superseded (for history")
    assert "works for qwen2.5:7b" in warnings_part
    assert "it did not help" not in warnings_part
    assert "superseded by" in superseded_part and "R1 The router prompt" in superseded_part
    assert "no longer a warning: “We tried the corrected rule" in superseded_part


def test_the_original_fix_is_still_judged_by_what_was_known_then(story: Story) -> None:
    before, again = story.json("review")["result"], story.json("review_again")["result"]
    assert again["decisions"] == before["decisions"]
    assert again["warnings"] == before["warnings"]
    assert again["superseded"] == [] and again["superseded_experiments"] == []
    assert R2 not in json.dumps(again)


def test_disproven_and_ask_after_the_new_decision(story: Story) -> None:
    experiments = story.json("disproven_2")["result"]["experiments"]
    live = [e for e in experiments if not e.get("superseded_by")]
    assert [e["decision"] for e in live] == [R2]
    assert live[0]["quote"].startswith(STILL_DISPROVEN)
    assert _starts([e for e in experiments if e.get("superseded_by")]) == FAILED_IN_SEPTEMBER

    answer = story.json("ask_2")
    assert answer["tool"] == "disproven"
    assert R2 in {c["record"] for c in answer["citations"]}
    assert answer["result"]["experiments"][0]["decision"] == R2
