"""Run every check of a rule set on a scene."""

from __future__ import annotations

from geometry.scene import Scene
from geometry.tablespec import TableSpec
from rules.checks import CHECKS, CheckContext
from rules.rulesets import RuleSet
from rules.verdict import Verdict

__all__ = ["run_checks"]


def run_checks(
    scene: Scene, rules: RuleSet, table: TableSpec, ctx: CheckContext | None = None
) -> list[Verdict]:
    """All verdicts of ``rules`` on ``scene`` in the order the rule set names its checks.

    Pass a prebuilt ``ctx`` to reuse the field model across many scenes.
    """
    ctx = ctx or CheckContext.build(table, rules)
    out: list[Verdict] = []
    for name in rules.checks:
        fn = CHECKS.get(name)
        if fn is None:
            raise KeyError(
                f"rule set '{rules.name}' names check '{name}', which is not implemented"
            )
        out.extend(fn(scene, ctx))
    return out
