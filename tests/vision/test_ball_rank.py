"""Choosing among ball fits (vision/ball_search.py ``_seen_rank``): a fit seen less than half
(behind a piece) wins over a fit seen whole only by a clear margin; between fits seen half or
more, the score alone decides."""

from __future__ import annotations

import numpy as np
import pytest

from vision.ball import BallFit
from vision.ball_search import _seen_rank


def _fit(visible: float) -> BallFit:
    return BallFit(np.zeros(2), np.zeros(2), 0.1, np.zeros(2), np.full(3, 200.0), 0.9, visible, 3.0)


@pytest.mark.parametrize(
    ("hidden", "whole", "winner"),
    [
        # nacional's ten minutes, frame 15485: a button's blurred rim fitted as a ball 85%
        # behind it (0.464) against the ball in the open on a felt nearly its colour (0.343)
        ((0.464, 0.15), (0.343, 1.0), "whole"),
        ((0.60, 0.15), (0.343, 1.0), "hidden"),  # a clear margin: the hidden fit
        ((0.464, 0.60), (0.343, 1.0), "hidden"),  # seen more than half: the score decides
        ((0.40, 0.50), (0.45, 0.9), "whole"),
        ((0.50, 0.0), (0.24, 1.0), "hidden"),  # none of it seen: half its score, still more
    ],
)
def test_a_fit_mostly_hidden_needs_a_clear_margin(
    hidden: tuple[float, float], whole: tuple[float, float], winner: str
) -> None:
    cands = {"hidden": (hidden[0], _fit(hidden[1])), "whole": (whole[0], _fit(whole[1]))}
    assert max(cands, key=lambda k: _seen_rank(cands[k])) == winner
