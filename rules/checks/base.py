"""What every check receives, and the registry that maps check names to functions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from geometry.field import FieldModel
from geometry.scene import Scene
from geometry.tablespec import TableSpec
from rules.rulesets import RuleSet
from rules.verdict import Verdict

__all__ = ["CHECKS", "CheckContext", "CheckFn", "register"]


@dataclass(frozen=True)
class CheckContext:
    """The table, its field model and the rule set a scene is judged under."""

    table: TableSpec
    field: FieldModel
    rules: RuleSet

    @classmethod
    def build(cls, table: TableSpec, rules: RuleSet) -> CheckContext:
        return cls(table, FieldModel(table), rules)


CheckFn = Callable[[Scene, CheckContext], list[Verdict]]
CHECKS: dict[str, CheckFn] = {}


def register(name: str) -> Callable[[CheckFn], CheckFn]:
    def deco(fn: CheckFn) -> CheckFn:
        if name in CHECKS:
            raise ValueError(f"check '{name}' registered twice")
        CHECKS[name] = fn
        return fn

    return deco
