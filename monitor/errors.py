"""Errors the command line reports as one line with exit status 2 (bad input)."""

from __future__ import annotations

from geometry.scene import SceneError
from geometry.tablespec import TableSpecError
from rules.rulesets import RuleSetError

__all__ = ["BAD_INPUT", "UsageError"]


class UsageError(ValueError):
    """A command-line value that cannot be used (the message names it)."""


#: Exception types that mean "the user's input is wrong": one line, exit 2.
BAD_INPUT: tuple[type[Exception], ...] = (UsageError, SceneError, TableSpecError, RuleSetError)
