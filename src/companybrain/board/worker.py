"""One worker: claim an item, read it, check what was read, finish the item; until nothing
is left that this agent can take. `brain board run` starts several of these as processes;
each opens its own connections, so they share nothing but the database."""

from __future__ import annotations

import faulthandler
import hashlib
import signal
import sys
import time
from functools import partial
from typing import Any

from companybrain.board.handoffs import handoff_row, move_confirmed, ref_index, settle
from companybrain.board.options import BoardOptions, board_graph, now_ms
from companybrain.board.reading import Context, Entry, Reader, Reading
from companybrain.board.rules_worker import RulesReader, relation_targets
from companybrain.config import Settings
from companybrain.errors import BrainError, ConfigError, ModelError, ModelRefused
from companybrain.graph.connection import Store
from companybrain.graph.queries import board_q, findings_q
from companybrain.model.findings import Finding, FindingKind, Verdict
from companybrain.policy.finding_checks import check_finding, check_summary
from companybrain.policy.text import cut

Row = dict[str, Any]


class ItemError(BrainError):
    """An item cannot be read (its entry is gone or changed); recorded on the item."""


# Attempts in a row the model may fail before the worker stops: one flaky call costs one
# attempt at one item; an endpoint that is down or hangs (four tries of the timeout each)
# would otherwise fail every item of the board, --max-attempts times over.
MAX_MODEL_FAILURES_IN_A_ROW = 3


def text_hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def make_reader(kind: str, settings: Settings) -> Reader:
    if kind == "rules":
        return RulesReader()
    if kind == "model":
        from companybrain.board.model_worker import ModelReader

        return ModelReader(settings)
    raise ConfigError(f"--worker must be 'rules' or 'model', got {kind!r}")


class Worker:
    def __init__(
        self,
        settings: Settings,
        options: BoardOptions,
        agent: str,
        kind: str = "rules",
        *,
        reader: Reader | None = None,
    ) -> None:
        self.options = options
        self.agent = agent
        self.reader = reader or make_reader(kind, settings)
        self.brain = Store(settings)
        self.board = self.brain.for_graph(board_graph(settings.graph))
        self.board.ensure_schema()
        board_q.ensure_agent(self.board, agent, self.reader.kind)
        self._ctx: Context | None = None
        self._claimed_at = 0.0
        self.model_failures_in_a_row = 0

    def close(self) -> None:
        self.board.close()
        self.brain.close()

    # -- the loop ----------------------------------------------------------------------------

    def run(self) -> int:
        """Work until no item is left that this agent could take; returns items processed."""
        processed = 0
        while True:
            item = self.claim()
            if item is None:
                if board_q.work_left(self.board, self.agent, self.options.max_attempts) == 0:
                    return processed
                time.sleep(self.options.poll_s)
                continue
            self.process(item)
            processed += 1

    def claim(self) -> Row | None:
        o = self.options
        item = board_q.claim(self.board, self.agent, now_ms(), o.ttl_ms, o.max_attempts)
        if item is None and board_q.sweep(self.board, now_ms(), o.max_attempts):
            item = board_q.claim(self.board, self.agent, now_ms(), o.ttl_ms, o.max_attempts)
        self._claimed_at = time.monotonic()
        return item

    def holds(self, item: Row) -> bool:
        """Is the claim still ours? Asked only when it may have expired (past half its
        time): writes into the brain are idempotent, so the question only saves work."""
        if time.monotonic() - self._claimed_at < self.options.claim_ttl_s / 2:
            return True
        return board_q.still_claimed(self.board, item["id"], self.agent, item["attempts"])

    def process(self, item: Row) -> None:
        """Do one claimed item. A failure is recorded on the item, never raised, so that
        one bad entry does not stop the worker; the attempts cap stops the item. Only the
        model failing on items in a row stops the worker (raised, after it is recorded)."""
        try:
            handler = {
                "entry": self._entry_item,
                "record": self._entry_item,
                "part": self._part_item,
                "file": self._file_item,
                "dir": self._dir_item,
                "handoff": self._handoff_item,
            }[item["kind"]]
            handler(item)
        except Exception as exc:  # recorded with the item; KeyboardInterrupt still stops us
            error = f"{self.agent}: {type(exc).__name__}: {exc}"
            board_q.fail(
                self.board,
                item["id"],
                self.agent,
                item["attempts"],
                now_ms(),
                error,
                self.options.max_attempts,
            )
            if not isinstance(exc, ModelError):
                return
            if isinstance(exc, ModelRefused):  # it answered: the endpoint and settings work
                self.model_failures_in_a_row = 0
                return
            self.model_failures_in_a_row += 1
            if self.model_failures_in_a_row >= MAX_MODEL_FAILURES_IN_A_ROW:
                raise ModelError(
                    f"the model failed {self.model_failures_in_a_row} times in a row, the "
                    f"last with: {exc} (check BRAIN_MODEL and BRAIN_MODEL_BASE_URL; "
                    "`brain board run` again goes on where this stopped)"
                ) from exc
        else:
            self.model_failures_in_a_row = 0

    # -- what the brain holds ------------------------------------------------------------------

    def context(self) -> Context:
        if self._ctx is None:
            self._ctx = Context(
                refs=ref_index(self.brain), known_paths=board_q.known_paths(self.brain)
            )
        return self._ctx

    def entry(
        self, entry_id: str, label: str | None = None, expect_hash: str | None = None
    ) -> Entry:
        labels = [label] if label else ["Decision", "Source"]
        for lab in labels:
            row = board_q.brain_entry(self.brain, entry_id, lab)
            if row and row["text"]:
                break
        else:
            raise ItemError(
                f"{entry_id} is not in the brain graph {self.brain.graph_name!r} any more "
                "(run `brain board fill` to bring the board up to date)"
            )
        if expect_hash and text_hash(row["text"]) != expect_hash:
            raise ItemError(
                f"{entry_id} changed since the board was filled "
                "(run `brain board fill` to read it again)"
            )
        return Entry(
            row["id"],
            row["label"],
            row["title"] or "",
            row["text"],
            row["path"],
            _date(row["date"]),
        )

    # -- entries and their sections --------------------------------------------------------

    def _entry_item(self, item: Row) -> None:
        if item["parts"]:
            self._whole(item)
            return
        entry = self.entry(item["entry"], item["label"], item["hash"])
        rows, handoffs, kept = self._checked(
            entry, self.reader.read(entry, 0, len(entry.text), self.context(), self.agent)
        )
        self._move(item, entry.id, kept)
        self._complete(item, rows, handoffs)

    def _part_item(self, item: Row) -> None:
        if item["label"] == "File":
            self._file_part(item)
            return
        entry = self.entry(item["entry"], item["label"], item["hash"])
        reading = self.reader.read(entry, item["start"], item["end"], self.context(), self.agent)
        rows, handoffs, _ = self._checked(entry, reading)
        self._complete(item, rows, handoffs)

    def _whole(self, item: Row) -> None:
        """An entry read in sections: move its sections' kept findings into the brain."""
        self.entry(item["entry"], item["label"], item["hash"])  # still there, unchanged
        kept = [_finding(r) for r in board_q.kept_findings_of_parts(self.board, item["id"])]
        kept = [f for f in kept if f.kind is not FindingKind.RELATION]
        self._move(item, item["entry"], kept)
        failed = [
            c["id"] for c in board_q.children(self.board, item["id"]) if c["status"] == "failed"
        ]
        note = f"{len(kept)} findings from its sections"
        if failed:
            note += f"; sections that failed (their findings are missing): {', '.join(failed)}"
        self._complete(item, [], [], summary=note)

    def _checked(
        self, entry: Entry, reading: Reading
    ) -> tuple[list[Row], list[Row], list[Finding]]:
        """Every finding through the checks: (board rows, handoffs to raise, kept findings)."""
        ctx = self.context()
        rows: list[Row] = []
        handoffs: list[Row] = []
        kept: list[Finding] = []
        for f in reading.findings:
            check = check_finding(
                f,
                entry.text,
                ctx.known_paths,
                ctx.refs.entries.keys(),
                partial(relation_targets, ctx.refs),
            )
            rows.append(_row(f, check.kept, check.reason))
            if not check.kept:
                continue
            if f.kind is FindingKind.RELATION:
                handoffs.append(handoff_row(f))
            else:
                kept.append(f)
        for m in reading.malformed:
            rows.append(
                {
                    "id": _id(entry.id, "malformed", m.raw, m.reason),
                    "entry": entry.id,
                    "kind": m.kind,
                    "quote": "",
                    "value": m.raw,
                    "verdict": None,
                    "relation": None,
                    "by": self.agent,
                    "kept": False,
                    "reason": f"malformed: {m.reason}",
                }
            )
        return _unique(rows), _unique(handoffs), kept

    def _move(self, item: Row, entry_id: str, kept: list[Finding]) -> None:
        """Checked findings into the brain, replacing what an earlier reading of the entry
        left there (relations confirmed through handoffs are kept). Idempotent (ids derive
        from what a finding says), so a takeover after a crash writes nothing twice."""
        if not self.holds(item):
            return
        confirmed = [
            Finding(
                entry_id,
                FindingKind.RELATION,
                h["quote_from"],
                h["to_entry"],
                relation=h["relation"],
                by=h["raised_by"],
            )
            for h in board_q.confirmed_from(self.board, entry_id)
        ]
        findings_q.add_findings(
            self.brain, entry_id, kept + confirmed, replace=True, read_hash=item["hash"]
        )

    # -- files and folders -----------------------------------------------------------------

    def _file_item(self, item: Row) -> None:
        path, text = item["entry"], board_q.item_text(self.board, item["id"]) or ""
        if item["parts"]:
            parts = [
                (f"{path} section {n}", s)
                for n, c in enumerate(board_q.children(self.board, item["id"]), 1)
                for s in c["summaries"][:1]
            ]
            summary = self.reader.combine(path, parts)
        else:
            summary = self.reader.summarise_file(path, text)
        row = self._summary_row(path, summary, text)
        if row["kept"] and self.holds(item):
            board_q.set_file_summary(self.brain, path, summary, self.agent)
        self._complete(item, [row], [], summary=summary if row["kept"] else None)

    def _file_part(self, item: Row) -> None:
        text = board_q.item_text(self.board, item["id"]) or ""
        summary = self.reader.summarise_file(item["entry"], text)
        row = self._summary_row(item["entry"], summary, text)
        self._complete(item, [row], [], summary=summary if row["kept"] else None)

    def _dir_item(self, item: Row) -> None:
        path = item["entry"]
        parts = [
            (c["entry"], s)
            for c in board_q.children(self.board, item["id"])
            for s in c["summaries"][:1]
        ]
        summary = self.reader.combine(path, parts)
        files = board_q.descendant_files(self.board, item["id"])
        texts = "\n".join(f["text"] or "" for f in files)
        row = self._summary_row(path, summary, texts, [f["path"] for f in files])
        self._complete(item, [row], [], summary=summary if row["kept"] else None)

    def _summary_row(
        self, path: str, summary: str, text: str, paths: list[str] | None = None
    ) -> Row:
        check = check_summary(summary, path, text, paths or ())
        return {
            # by what it says, as every finding: the same summary from two agents is one
            "id": _id(path, "summary", summary),
            "entry": path,
            "kind": "summary",
            "quote": "",
            "value": summary if check.kept else cut(summary),
            "verdict": None,
            "relation": None,
            "by": self.agent,
            "kept": check.kept,
            "reason": check.reason,
        }

    # -- handoffs --------------------------------------------------------------------------

    def _handoff_item(self, item: Row) -> None:
        handoff = board_q.handoff(self.board, item["entry"])
        if handoff is None:
            raise ItemError(f"handoff {item['entry']} is not on the board")
        if handoff["status"] != "open":
            if handoff["status"] == "confirmed":  # settled, perhaps not moved before a crash
                move_confirmed(self.brain, handoff)
            self._complete(item, [], [], summary=f"already {handoff['status']}")
            return
        if handoff["raised_by"] == self.agent:
            # Only a different agent may confirm: hand it back for someone else.
            board_q.release(self.board, item["id"], self.agent, item["attempts"])
            return
        ctx = self.context()
        labels = {
            e: ref.label if (ref := ctx.refs.get(e)) else None
            for e in (handoff["from_entry"], handoff["to_entry"])
        }
        source = self.entry(handoff["from_entry"], labels[handoff["from_entry"]])
        target = self.entry(handoff["to_entry"], labels[handoff["to_entry"]])
        judgement = self.reader.judge(handoff["relation"], source, target, handoff["quote"], ctx)
        outcome = settle(
            self.brain, self.board, handoff, self.agent, judgement, source, target, ctx.refs
        )
        self._complete(item, [], [], summary=f"{outcome.outcome}: {outcome.reason}")

    # -- finishing -------------------------------------------------------------------------

    def _complete(
        self, item: Row, rows: list[Row], handoffs: list[Row], summary: str | None = None
    ) -> None:
        done = board_q.complete(
            self.board,
            item["id"],
            self.agent,
            item["attempts"],
            now_ms(),
            findings=rows,
            handoffs=handoffs,
            summary=summary,
        )
        if not done:
            print(
                f"{self.agent}: my claim on {item['id']} expired and another agent took it; "
                "its result is theirs",
                file=sys.stderr,
            )


def _date(value: Any) -> str | None:
    return str(value) if value not in (None, "") else None


def _id(*parts: str) -> str:
    return parts[0] + "|" + hashlib.sha1("\x1f".join(parts).encode("utf-8")).hexdigest()[:12]


def _row(f: Finding, kept: bool, reason: str | None) -> Row:
    return {
        "id": findings_q.finding_id(f.entry, f),
        "entry": f.entry,
        "kind": f.kind.value,
        # a kept quote is the entry's own; a refused one may be a reply of megabytes
        "quote": f.quote if kept else cut(f.quote),
        "value": f.value if kept else cut(f.value),
        "verdict": f.verdict.value if f.verdict else None,
        "relation": f.relation,
        "by": f.by,
        "kept": kept,
        "reason": reason,
    }


def _finding(row: Row) -> Finding:
    return Finding(
        entry=row["entry"],
        kind=FindingKind(row["kind"]),
        quote=row["quote"],
        value=row["value"],
        verdict=Verdict(row["verdict"]) if row.get("verdict") else None,
        relation=row.get("relation"),
        by=row.get("by") or "rules",
    )


def _unique(rows: list[Row]) -> list[Row]:
    seen: dict[str, Row] = {}
    for r in rows:
        seen.setdefault(r["id"], r)
    return list(seen.values())


def work(settings: Settings, options: BoardOptions, agent: str, kind: str) -> None:
    """The body of one worker process (`brain board run` starts N of them). `kill -USR1`
    on a worker prints where each of its threads is to its standard error."""
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    try:
        worker = Worker(settings, options, agent, kind)
        try:
            worker.run()
        finally:
            worker.close()
    except BrainError as exc:
        print(f"error: {agent}: {exc}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
