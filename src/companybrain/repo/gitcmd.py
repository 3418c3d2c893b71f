"""The `git` command line, run as a subprocess. Long outputs are streamed in chunks so that
memory does not grow with the length of the history."""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO

from companybrain.errors import InputError

CHUNK = 1 << 16


class GitError(InputError):
    """git is missing, the folder is not a repository, or a git command failed."""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    # Plain, stable output whatever the user's configuration says.
    env.update({"LC_ALL": "C", "GIT_PAGER": "cat", "GIT_TERMINAL_PROMPT": "0"})
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    return env


def _git() -> str:
    found = shutil.which("git")
    if not found:
        raise GitError("the `git` command is not installed or not on PATH")
    return found


def _argv(repo: Path, *args: str) -> list[str]:
    """`git -C repo ARGS`, or GitError when an argument holds a NUL: no process can take one
    (subprocess raises ValueError), and it is never part of a revision or a path."""
    for arg in (str(repo), *args):
        if "\x00" in arg:
            raise GitError(f"not a git revision or path (it contains a NUL character): {arg!r}")
    return [_git(), "-C", str(repo), *args]


def run(repo: Path, *args: str, stdin: bytes | None = None, check: bool = True) -> bytes:
    """Run `git -C repo ARGS` and return its stdout; GitError with git's message on failure."""
    proc = subprocess.run(
        _argv(repo, "-c", "core.quotepath=off", *args),
        input=stdin,
        capture_output=True,
        env=_env(),
        check=False,
    )
    if check and proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(f"git {' '.join(args[:3])} failed in {repo}: {' '.join(message[:2])}")
    return proc.stdout


def text(repo: Path, *args: str, check: bool = True) -> str:
    return run(repo, *args, check=check).decode("utf-8", "replace")


def ok(repo: Path, *args: str) -> bool:
    """Does `git ARGS` succeed? (for questions like --is-ancestor or rev-parse --verify)"""
    proc = subprocess.run(_argv(repo, *args), capture_output=True, env=_env(), check=False)
    return proc.returncode == 0


def stream(repo: Path, args: Sequence[str], sep: bytes, *, ahead: int = 0) -> Iterator[bytes]:
    """The stdout of `git ARGS`, split on `sep` as it arrives (separators removed). With
    `ahead`, a thread keeps reading up to that many chunks in advance, so that git goes on
    working while the caller waits for something else (the graph)."""
    proc = subprocess.Popen(
        _argv(repo, "-c", "core.quotepath=off", *args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
    )
    assert proc.stdout is not None and proc.stderr is not None
    buffer = b""
    reader = _ReadAhead(proc.stdout, ahead) if ahead else None
    try:
        for chunk in reader or iter(lambda: proc.stdout.read(CHUNK), b""):  # type: ignore[union-attr]
            buffer += chunk
            *parts, buffer = buffer.split(sep)
            yield from parts
        if buffer:
            yield buffer
    finally:
        if reader:
            reader.stop(proc)
        proc.stdout.close()
        err = proc.stderr.read()
        proc.stderr.close()
        code = proc.wait()
    if code != 0:
        message = err.decode("utf-8", "replace").strip().splitlines()
        raise GitError(f"git {' '.join(args[:2])} failed in {repo}: {' '.join(message[:2])}")


class _ReadAhead:
    """Chunks of a pipe read by a thread into a bounded queue (reading releases the GIL)."""

    def __init__(self, pipe: IO[bytes], ahead: int) -> None:
        self.pipe = pipe
        self.chunks: queue.Queue[bytes] = queue.Queue(maxsize=ahead)
        self.stopped = threading.Event()
        self.finished = False  # the reader got to the end of the output
        self.thread = threading.Thread(target=self._run, name="git-read-ahead", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            while not self.stopped.is_set():
                chunk = self.pipe.read1(CHUNK)  # type: ignore[attr-defined]
                self._put(chunk)
                if not chunk:
                    return
        except (OSError, ValueError):
            self._put(b"")

    def _put(self, chunk: bytes) -> None:
        while not self.stopped.is_set():
            try:
                self.chunks.put(chunk, timeout=0.1)
                return
            except queue.Full:
                continue

    def __iter__(self) -> Iterator[bytes]:
        while chunk := self.chunks.get():
            yield chunk
        self.finished = True

    def stop(self, proc: subprocess.Popen[bytes]) -> None:
        """Stop early or at the end: a git still writing is ended, the thread joined."""
        self.stopped.set()
        if not self.finished and proc.poll() is None:
            proc.kill()
        self.thread.join()


def toplevel(path: Path) -> Path:
    """The root of the work tree containing `path`, or GitError naming the folder."""
    if not path.exists():
        raise GitError(f"{path}: no such folder")
    proc = subprocess.run(
        _argv(path, "rev-parse", "--show-toplevel"),
        capture_output=True,
        env=_env(),
        check=False,
    )
    if proc.returncode != 0:
        raise GitError(f"{path} is not inside a git repository")
    return Path(proc.stdout.decode().strip())


def resolve(repo: Path, rev: str) -> str | None:
    """The full sha of commit `rev`, or None when it does not exist."""
    if rev.startswith("-"):
        raise GitError(f"not a revision: {rev!r}")
    proc = subprocess.run(
        _argv(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"),
        capture_output=True,
        env=_env(),
        check=False,
    )
    if proc.returncode != 0:
        return None
    return proc.stdout.decode().strip() or None


def merge_base(repo: Path, a: str, b: str) -> str | None:
    """The best common ancestor of commits `a` and `b` (full shas), or None if they share
    no history."""
    proc = subprocess.run(
        [_git(), "-C", str(repo), "merge-base", a, b], capture_output=True, env=_env(), check=False
    )
    return (proc.stdout.decode().strip() or None) if proc.returncode == 0 else None


def has_commits(repo: Path) -> bool:
    return resolve(repo, "HEAD") is not None


def shallow_boundary(repo: Path) -> list[str]:
    """The commits a shallow clone's history is cut off at (their parents were not
    fetched); empty for a whole history."""
    shallow = Path(text(repo, "rev-parse", "--git-path", "shallow").strip())
    shallow = shallow if shallow.is_absolute() else repo / shallow
    try:
        return sorted(line.strip() for line in shallow.read_text().splitlines() if line.strip())
    except FileNotFoundError:
        return []


class BlobReader:
    """`git cat-file --batch`, kept open: many blobs read through one process."""

    def __init__(self, repo: Path) -> None:
        self._proc = subprocess.Popen(
            _argv(repo, "cat-file", "--batch"),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=_env(),
        )

    def read(self, spec: str) -> bytes | None:
        """The content of `spec` (a blob sha or `REV:path`), or None when it is missing."""
        found = self.read_object(spec)
        return found[1] if found is not None and found[0] == b"blob" else None

    def read_object(self, spec: str) -> tuple[bytes, bytes] | None:
        """(type, content) of the object `spec` names (blob, tree, commit, tag), or None."""
        stdin, stdout = self._proc.stdin, self._proc.stdout
        assert stdin is not None and stdout is not None
        if "\n" in spec or "\x00" in spec:  # the batch reads one name a line
            return None
        stdin.write(spec.encode("utf-8", "surrogateescape") + b"\n")
        stdin.flush()
        header = stdout.readline().split()
        if len(header) < 3 or header[-1] == b"missing":
            return None  # "<spec> missing" (or "ambiguous"): nothing follows
        data = stdout.read(int(header[2]))
        stdout.read(1)  # the newline after the content
        return header[1], data

    def text(self, spec: str) -> str | None:
        data = self.read(spec)
        return None if data is None else data.decode("utf-8", "replace")

    def close(self) -> None:
        if self._proc.stdin:
            self._proc.stdin.close()
        if self._proc.stdout:
            self._proc.stdout.close()
        self._proc.wait()

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
