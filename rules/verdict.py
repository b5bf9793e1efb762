"""Verdicts: the answer of one check for one subject, with its signed margin and article."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Verdict", "margin_holds"]


def margin_holds(margin_mm: float, inclusive: bool = False) -> bool:
    """``holds`` from a signed margin: positive holds; zero holds only when ``inclusive``."""
    return margin_mm >= 0.0 if inclusive else margin_mm > 0.0


@dataclass(frozen=True)
class Verdict:
    """One check on one subject (a team, a piece, a pair).

    ``margin_mm`` is signed: positive by how much the verdict holds, negative by how much it
    fails (INTERFACES.md, "Check"). ``holds`` is ``None`` when a needed context field is
    missing; ``detail`` then names the field.
    """

    check: str
    holds: bool | None
    margin_mm: float | None
    detail: str
    article: str
    team: str | None = None
    piece: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"check": self.check}
        if self.team is not None:
            out["team"] = self.team
        if self.piece is not None:
            out["piece"] = self.piece
        out["holds"] = self.holds
        out["margin_mm"] = (
            None
            if self.margin_mm is None or not math.isfinite(self.margin_mm)
            else round(float(self.margin_mm), 3)
        )
        out["detail"] = self.detail
        out["article"] = self.article
        for k, v in self.extra.items():
            out[k] = v
        return out

    @classmethod
    def skipped(cls, check: str, needs: str, article: str, **kw: Any) -> Verdict:
        """A check that cannot run: ``holds: null`` and the field it needed."""
        return cls(check, None, None, f"skipped: needs context.{needs}", article, **kw)
