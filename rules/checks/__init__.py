"""The rule checks of INTERFACES.md, one module per family; importing registers them."""

from rules.checks import (  # noqa: F401  (registration side effect)
    ball_lines,
    blocking,
    distances,
    offside,
    pieces_in_areas,
)
from rules.checks.base import CHECKS, CheckContext

__all__ = ["CHECKS", "CheckContext"]
