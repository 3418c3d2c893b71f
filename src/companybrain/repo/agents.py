"""Which git identities are AI agents or bots: Claude, Copilot, Cursor, Codex, Devin, Aider,
Gemini and the like, from author names, Co-authored-by trailers and bot accounts.

People share first names with agents ("Claude Monet", "Devin Smith"), so a name alone is not
enough: the name must be only agent words, and the address must be a vendor's, a no-reply
address or a bot account."""

from __future__ import annotations

import re

# agent kind -> words that name it
AGENT_WORDS: dict[str, tuple[str, ...]] = {
    "claude": ("claude", "anthropic"),
    "copilot": ("copilot",),
    "cursor": ("cursor", "cursoragent"),
    "codex": ("codex", "chatgpt", "openai"),
    "devin": ("devin",),
    "aider": ("aider",),
    "gemini": ("gemini", "jules"),
    "amazon-q": ("amazon-q", "amazonq", "codewhisperer"),
    "windsurf": ("windsurf", "codeium", "cascade"),
    "openhands": ("openhands", "opendevin"),
    "sweep": ("sweep",),
    "cody": ("cody",),
    "tabnine": ("tabnine",),
    "qwen": ("qwen",),
}
# words that may follow an agent's name without making it a person's name
_FILLER = {
    "code", "agent", "ai", "assist", "assistant", "bot", "cli", "swe", "connector", "opus",
    "sonnet", "haiku", "github", "google", "labs", "integration", "app", "coding", "model",
    "developer", "dev", "the", "by", "chatgpt", "gpt", "o3", "o4", "mini", "pro", "flash",
}  # fmt: skip
VENDOR_DOMAINS = (
    "anthropic.com",
    "openai.com",
    "cursor.com",
    "cursor.sh",
    "aider.chat",
    "devin.ai",
    "cognition.ai",
    "codeium.com",
    "windsurf.com",
    "all-hands.dev",
    "sweep.dev",
)
_WORD = re.compile(r"[a-z0-9][a-z0-9.-]*")
_VERSION = re.compile(r"^[0-9][0-9.]*$|^v[0-9]|^[0-9]+[a-z]?$")


def _kind_of(word: str) -> str | None:
    for kind, words in AGENT_WORDS.items():
        if word in words or any(word.startswith(w + "-") for w in words):
            return kind
    return None


def _kind_in(text: str) -> str | None:
    for word in _WORD.findall(text.lower()):
        kind = _kind_of(word)
        if kind:
            return kind
        for part in word.split("-"):
            kind = _kind_of(part)
            if kind:
                return kind
    return None


def _only_agent_words(name: str) -> str | None:
    """The agent kind when every word of `name` is an agent word, filler or a version."""
    words = _WORD.findall(name.lower().replace("[bot]", " "))
    if not words:
        return None
    kind = None
    for word in words:
        pieces = [p for p in word.split("-") if p]
        for piece in pieces:
            found = _kind_of(piece)
            if found:
                kind = kind or found
            elif piece not in _FILLER and not _VERSION.match(piece):
                return None
    return kind


def agent_kind(name: str, email: str) -> str | None:
    """The kind of agent or bot this identity is ("claude", "copilot", ..., "bot"), or None
    for a person."""
    name_l, email_l = name.strip().lower(), email.strip().lower()
    local, _, domain = email_l.partition("@")
    if "(aider)" in name_l or domain == "aider.chat":
        return "aider"
    is_bot_account = "[bot]" in name_l or "[bot]" in local or local.endswith("-bot")
    if is_bot_account:
        return _kind_in(name_l) or _kind_in(local) or "bot"
    vendor = any(domain == d or domain.endswith("." + d) for d in VENDOR_DOMAINS)
    noreply = local in {"noreply", "no-reply", "bot"} or domain == "users.noreply.github.com"
    named = _only_agent_words(name_l)
    if named and (vendor or noreply or _kind_in(local) == named):
        return named
    if vendor and (_kind_in(local) or local in {"noreply", "no-reply", "bot", "agent"}):
        return _kind_in(local) or _kind_in(domain) or "bot"
    return None


_TRAILER = re.compile(r"^co-authored-by:\s*(?P<name>.*?)\s*<(?P<email>[^<>]*)>\s*$", re.I)
_ANY_TRAILER = re.compile(r"co-authored-by:", re.I)  # one scan rules out most messages


def co_authors(message: str) -> list[tuple[str, str]]:
    """(name, e-mail) of every Co-authored-by trailer, in order, without repeats."""
    found: dict[str, tuple[str, str]] = {}
    if not _ANY_TRAILER.search(message):
        return []
    for line in message.splitlines():
        m = _TRAILER.match(line.strip())
        if m and m.group("email").strip():
            email = m.group("email").strip()
            found.setdefault(email.lower(), (m.group("name").strip() or email, email))
    return list(found.values())
