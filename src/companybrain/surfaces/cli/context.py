"""What every command shares: settings from the environment and global flags, and the Brain
opened lazily so that `brain --help` never touches the database."""

from __future__ import annotations

from dataclasses import dataclass, field

import click

from companybrain.brain import Brain
from companybrain.config import Settings


@dataclass
class CliState:
    settings: Settings
    debug: bool = False
    _brain: Brain | None = field(default=None, repr=False)

    def brain(self) -> Brain:
        if self._brain is None:
            self._brain = Brain(settings=self.settings)
        return self._brain

    def reader(self) -> Brain:
        """The Brain of a command that only reads: a graph that does not exist is one error
        naming it and those that do, never created empty (a mistyped --graph)."""
        if self._brain is None:
            self._brain = Brain(settings=self.settings, create=False)
        return self._brain


pass_state = click.make_pass_decorator(CliState)
