"""The repository tools: why, what_breaks, disproven, who_knows, trace, origin, told and
review. Each is a store read plus a pure format step returning the answer envelope of
spec/answers.md; `route_repo_question` sends a plain question to the right one."""

from companybrain.ask.repo.router import route_repo_question

__all__ = ["route_repo_question"]
