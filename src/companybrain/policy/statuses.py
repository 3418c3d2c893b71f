"""What a decision's status says of it, in a repository's log or a company record alike."""

from __future__ import annotations

# A decision rejected, withdrawn, only proposed or a draft was never in force: it replaces
# nothing, whatever it says it supersedes.
NEVER_IN_FORCE = frozenset({"rejected", "withdrawn", "proposed", "draft"})
