"""Command-line values checked where they are read, so that an error names the argument."""

from __future__ import annotations

from typing import Any

import click

from companybrain.policy.text import unstorable


class StorableText(click.ParamType):
    """Text FalkorDB can take. A byte on the command line that is not UTF-8 (or a NUL) is
    one error naming the argument, not the query parameter it would have been sent as
    ("the value given for $id is not valid Unicode text")."""

    name = "text"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and (problem := unstorable(value)):
            self.fail(problem, param, ctx)
        return value


TEXT = StorableText()
