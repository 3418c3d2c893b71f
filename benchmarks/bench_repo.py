"""Repository ingestion speed: a repository of 10,000+ commits (built with git fast-import:
files changing under rotating authors, Claude co-authors, merges, a decision log and agent
instructions edited along the way) ingested into an empty graph, against the time `git log`
alone takes to print the same history; then an incremental run after one more commit."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
import tracemalloc
from pathlib import Path

from benchmarks.common import bench_settings, scales, verdict
from companybrain.graph.connection import Store
from companybrain.repo.history import LOG_ARGS
from companybrain.repo.ingest import ingest_repo

COMMITS = int(
    os.environ.get("BENCH_REPO_COMMITS")
    or (100_000 if max(scales()) >= 100_000 else 10_000)  # --scale 100000 and up: 100k
)
FILES = 300
AUTHORS = [("Ann Lee", "ann@example.com"), ("Bob Stone", "bob@example.com"),
           ("Carol Diaz", "carol@example.com"), ("Dave Wu", "dave@example.com")]  # fmt: skip
START = 1_700_000_000


def _data(text: str) -> bytes:
    raw = text.encode()
    return b"data %d\n" % len(raw) + raw + b"\n"


def _stream(n: int) -> bytes:
    """A fast-import stream of `n` commits on main, with a side branch merged every 500."""
    out: list[bytes] = []
    log = "# Decision log\n"
    for i in range(1, n + 1):
        name, email = AUTHORS[i % len(AUTHORS)]
        when = START + i * 600
        message = f"Change {i}: tune module {i % FILES}\n"
        if i % 7 == 0:
            message += "\nCo-authored-by: Claude <noreply@anthropic.com>\n"
        side = i % 500 == 0 and i > 1
        if side:  # a commit on a side branch, merged right after
            out.append(b"commit refs/heads/side\nmark :%d\n" % (n + i))
            out.append(b"author Eve <eve@example.com> %d +0000\n" % (when - 86_400 * 60))
            out.append(b"committer Eve <eve@example.com> %d +0000\n" % (when - 86_400 * 60))
            out.append(_data(f"Side work {i}\n") + b"from :%d\n" % (i - 1))
            out.append(b"M 100644 inline side/feature_%d.py\n" % i + _data(f"X = {i}\n"))
        out.append(b"commit refs/heads/main\nmark :%d\n" % i)
        out.append(f"author {name} <{email}> {when} +0000\n".encode())
        out.append(f"committer {name} <{email}> {when} +0000\n".encode())
        out.append(_data(message))
        if i > 1:
            out.append(b"from :%d\n" % (i - 1))
        if side:
            out.append(b"merge :%d\n" % (n + i))
        for k in range(1 + i % 3):
            f = (i * 7 + k * 31) % FILES
            out.append(f"M 100644 inline src/pkg{f % 12}/module_{f}.py\n".encode())
            out.append(_data(f"# module {f}\nVALUE = {i}\n" + "x = 1\n" * (i % 5)))
        if i % 250 == 0:
            f = i % FILES
            log += f"\n## Decision {i}: tune module {f}\n\nsrc/pkg{f % 12}/module_{f}.py by {i}.\n"
            out.append(b"M 100644 inline DECISIONS.md\n" + _data(log))
        if i % 1000 == 0:
            out.append(
                b"M 100644 inline AGENTS.md\n" + _data(f"# Agents\n\n## Tests\n\nRun suite {i}.\n")
            )
    return b"".join(out)


def build(root: Path, n: int) -> None:
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "fast-import", "--quiet"], input=_stream(n), check=True)
    subprocess.run(["git", "-C", str(root), "reset", "-q", "--hard", "main"], check=True)


def _parse_seconds(root: Path) -> tuple[float, int]:
    """The baseline: `git log --numstat` (the same arguments ingestion reads) parsed in
    plain Python: commits split out, their fields and their numstat lines read."""
    started = time.perf_counter()
    proc = subprocess.Popen(["git", "-C", str(root), *LOG_ARGS, "HEAD"], stdout=subprocess.PIPE)
    assert proc.stdout is not None
    commits, lines, tail = 0, 0, b""
    while chunk := proc.stdout.read(1 << 20):
        *records, tail = (tail + chunk).split(b"\x1e")
        for record in records:
            if not record:
                continue
            fields = record.split(b"\x1f")
            commits += 1
            lines += sum(1 for part in fields[-1].split(b"\x00") if b"\t" in part)
    if tail:
        commits += 1
    proc.wait()
    return time.perf_counter() - started, commits


def _git_log_seconds(root: Path, *args: str) -> float:
    started = time.perf_counter()
    subprocess.run(["git", "-C", str(root), *args, "HEAD"], stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def run() -> list[str]:
    with tempfile.TemporaryDirectory(prefix="brain-bench-repo-") as tmp:
        root = Path(tmp) / "big"
        started = time.perf_counter()
        build(root, COMMITS)
        built_s = time.perf_counter() - started
        total = int(subprocess.run(["git", "-C", str(root), "rev-list", "--count", "HEAD"],
                                   capture_output=True, text=True, check=True).stdout)  # fmt: skip
        log_full = min(_git_log_seconds(root, *LOG_ARGS) for _ in range(3))
        log_plain = min(_git_log_seconds(root, "log") for _ in range(3))
        parse_s, parsed = min(_parse_seconds(root) for _ in range(3))
        with bench_settings("bench_repo") as settings:
            store = Store(settings)
            store.ensure_schema()
            report = ingest_repo(store, root)
            ann = {"GIT_AUTHOR_NAME": "Ann", "GIT_AUTHOR_EMAIL": "ann@example.com"}
            ann |= {"GIT_COMMITTER_NAME": "Ann", "GIT_COMMITTER_EMAIL": "ann@example.com"}
            subprocess.run(
                ["git", "-C", str(root), "commit", "-q", "--allow-empty", "-m", "one more"],
                check=True,
                env={**os.environ, **ann},
            )
            again = ingest_repo(store, root)
            store.close()
        small = Path(tmp) / "small"
        build(small, COMMITS // 5)
        heap = {n: _peak_heap_mb(r) for n, r in ((COMMITS // 5, small), (COMMITS, root))}
        rate = report.commits_read / report.seconds
        return [
            f"built {total} commits with git fast-import in {built_s:.1f} s",
            f"git log alone: {log_full:.2f} s with --raw --numstat (what ingestion reads), "
            f"{log_plain:.2f} s plain",
            f"ingest-repo: {report.commits_read} commits in {report.seconds:.1f} s = "
            f"{rate:,.0f} commits/s; {report.decisions} decisions, "
            f"{report.instruction_versions} instruction versions",
            f"ratio: ingest takes {report.seconds / log_full:.1f}x the time of the same git log "
            f"({report.seconds / log_plain:.1f}x plain git log)",
            f"git log --numstat parsed in plain Python: {parsed} commits in {parse_s:.2f} s = "
            f"{parsed / parse_s:,.0f} commits/s -> ingest runs at "
            f"{rate / (parsed / parse_s):.0%} of it "
            f"(goal >= 50%: {verdict(rate / (parsed / parse_s), 0.5, below=False)})",
            f"incremental run after one more commit: {again.commits_read} commit in "
            f"{again.seconds:.2f} s ({again.mode})",
            "peak Python heap while ingesting (tracemalloc): "
            + ", ".join(f"{mb:.1f} MB for {n} commits" for n, mb in heap.items())
            + f" (x{heap[COMMITS] / heap[COMMITS // 5]:.2f} for 5x the history)",
        ]


def _peak_heap_mb(root: Path) -> float:
    """Peak Python memory of one full ingest into an empty graph: flat if it streams."""
    with bench_settings("bench_repo_heap") as settings:
        store = Store(settings)
        store.ensure_schema()
        tracemalloc.start()
        try:
            ingest_repo(store, root)
            return tracemalloc.get_traced_memory()[1] / 1e6
        finally:
            tracemalloc.stop()
            store.close()
