"""How the board runs: claim expiry, the attempts cap, the section size, polling."""

from __future__ import annotations

import time
from dataclasses import dataclass

from companybrain.config import BOARD_SUFFIX
from companybrain.errors import ConfigError

WORKER_KINDS = ("rules", "model")
MAX_CLAIM_TTL_S = 10**9  # about 30 years; an expiry in epoch ms stays a whole number
# Far past any use (an item failing a thousand times will fail again), and a whole number
# the board's queries take (a 64-bit one; a bigger one failed the first claim).
MAX_ATTEMPTS = 1000


@dataclass(frozen=True)
class BoardOptions:
    claim_ttl_s: float = 120.0  # a claim not finished by then is up for takeover
    max_attempts: int = 3  # an item that keeps failing stops here and shows as failed
    max_chars: int = 12_000  # longer entries are read section by section
    poll_s: float = 0.25  # how often an idle worker looks again while others work

    def validate(self) -> BoardOptions:
        if not 0 < self.claim_ttl_s <= MAX_CLAIM_TTL_S:  # also NaN; inf overflowed ttl_ms
            raise ConfigError(f"--claim-ttl must be positive seconds, at most {MAX_CLAIM_TTL_S:,}")
        if not 1 <= self.max_attempts <= MAX_ATTEMPTS:
            raise ConfigError(f"--max-attempts must be from 1 to {MAX_ATTEMPTS}")
        if self.max_chars < 200:
            raise ConfigError("--max-chars must be at least 200")
        return self

    @property
    def ttl_ms(self) -> int:
        return int(self.claim_ttl_s * 1000)


def board_graph(graph: str) -> str:
    """The board of graph `brain` is the graph `brain_board`."""
    return f"{graph}{BOARD_SUFFIX}"


def now_ms() -> int:
    return int(time.time() * 1000)
