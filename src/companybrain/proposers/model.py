"""The model proposer: one chat completion per record, calling the single tool `record_facts`
through the project's model client. Replies are cached by record content (proposers/cache.py);
with the cache and no model server, a run replays what the model said before."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from companybrain.config import Settings
from companybrain.errors import ModelError, ProposalFailed
from companybrain.llm.client import ModelClient
from companybrain.model.facts import Proposal
from companybrain.model.records import Org, Record
from companybrain.proposers import prompts, rules
from companybrain.proposers.cache import ProposalCache, record_digest

NAME = "model"
# Records in a row the model may fail on before the run stops: one flaky call costs one
# record, an endpoint that is down stops the run at once instead of at every record.
MAX_FAILURES_IN_A_ROW = 3


def cache_folder(settings: Settings) -> Path:
    return settings.home / "cache" / "proposals"


class ModelProposer:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.cache = ProposalCache(cache_folder(settings))
        self._client: ModelClient | None = None
        self.calls = 0  # model calls made (cache misses), for summaries and tests
        self.failures_in_a_row = 0

    def __call__(self, record: Record, org: Org) -> Proposal:
        proposal = self._propose(record, org)
        read = {(f.service, f.owner) for f in proposal.ownership}
        code = rules.beside_a_model(record, org, read)
        return replace(proposal, ownership=proposal.ownership + code.ownership, unread=code.unread)

    def _propose(self, record: Record, org: Org) -> Proposal:
        digest = record_digest(record, prompts.PROMPT_VERSION)
        entry = self.cache.load(digest, NAME, self.settings.model)
        if entry is None:
            entry, content = self._ask(record, org, digest)
            if entry is None:
                return prompts.no_tool_call(record.id, content, NAME)
            if "__invalid_json__" in entry["arguments"]:  # cut short (max tokens) or garbled
                proposal = prompts.read_reply(record.id, entry["arguments"], NAME)
                return replace(proposal, incomplete=True)  # not cached: asked again next run
            self.cache.save(digest, NAME, str(self.settings.model), entry)
        return prompts.read_reply(record.id, entry["arguments"], NAME)

    def _ask(
        self, record: Record, org: Org, digest: str
    ) -> tuple[dict[str, Any] | None, str | None]:
        """The cache entry for the model's `record_facts` call (calls merged if it made
        several), or None and the reply's text when it did not call the tool; that is not
        cached, so a re-run asks again."""
        if not self.settings.model_configured:
            raise ModelError(
                f"{record.id}: no cached proposal in {self.cache.root} and no model configured;"
                " set BRAIN_MODEL and BRAIN_MODEL_BASE_URL, or use BRAIN_PROPOSER=rules"
            )
        if self._client is None:
            self._client = ModelClient(self.settings)
        tool = prompts.tool(org)
        self.calls += 1
        try:
            reply = self._client.chat(
                prompts.messages(record, org, digest[:16]),
                [tool],
                tool_choice={"type": "function", "function": {"name": prompts.TOOL_NAME}},
            )
        except ModelError as exc:
            self.failures_in_a_row += 1
            message = f"{record.id}: no cached proposal, and {exc}"
            if self.failures_in_a_row >= MAX_FAILURES_IN_A_ROW:
                raise ModelError(
                    f"{message} ({self.failures_in_a_row} records in a row failed; "
                    "check BRAIN_MODEL and BRAIN_MODEL_BASE_URL)"
                ) from exc
            raise ProposalFailed(message) from exc
        self.failures_in_a_row = 0
        calls = [c for c in reply.tool_calls if c.name == prompts.TOOL_NAME]
        if not calls:
            return None, reply.content
        arguments = calls[0].arguments
        invalid = [c.arguments for c in calls if "__invalid_json__" in c.arguments]
        if len(calls) > 1:  # several calls: one reply, all of it checked
            arguments = (
                invalid[0]
                if invalid
                else {
                    key: [x for c in calls for x in _list(c.arguments.get(key))]
                    for key in ("ownership", "decisions")
                }
            )
        entry = {
            "record": record.id,
            "model": self.settings.model,
            "prompt_version": prompts.PROMPT_VERSION,
            "arguments": arguments,
        }
        return entry, None


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else [value] if value is not None else []
