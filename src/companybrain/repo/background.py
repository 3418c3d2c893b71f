"""One background thread that runs calls in order, so that the graph writes a batch while
the caller reads the next one from git (the server works in its own process; this thread
mostly waits for its answer, without the GIL). At most `depth` calls wait their turn; the
first one that fails stops those after it, and its error is raised to the caller."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from types import TracebackType

Job = Callable[[], None]


class Background:
    def __init__(self, depth: int = 1) -> None:
        self._jobs: queue.Queue[Job | None] = queue.Queue(maxsize=depth)
        self._error: BaseException | None = None  # not yet raised to the caller
        self._failed = False  # for good: nothing queued after a failure runs, even once raised
        self._thread = threading.Thread(target=self._run, name="repo-writer", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            try:
                if job is None:
                    return
                if not self._failed:  # after a failure, nothing more is written
                    job()
            except BaseException as exc:  # handed to the caller's thread
                self._failed = True
                self._error = exc
            finally:
                self._jobs.task_done()

    def submit(self, job: Job) -> None:
        """Run `job` after those before it (blocks while `depth` calls wait)."""
        self._raise()
        self._jobs.put(job)

    def wait(self) -> None:
        """Until every call so far has run; raises the error of one that failed."""
        self._jobs.join()
        self._raise()

    def _raise(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def close(self) -> None:
        self._jobs.put(None)
        self._thread.join()

    def __enter__(self) -> Background:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
        if kind is None:
            self._raise()
