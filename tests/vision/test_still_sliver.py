"""A still reports no sliver beside a piece as the ball, nor a bare painted spot where a
faint ball is found (issue 5; vision/ball_search.py).

A still has no moment before it to say that a sliver is the ball. On 60 fresh stills
(``python -m benchmarks.bench_detect --images 60 --seed 1300``) two of the three false balls
were such slivers, where the ball itself was hidden or not found: a button's edge its fit left
beside it (still 1319: 0.16 of a ball seen, in the red button's colours) and a red button's
rim beside a coach's arm (still 1314: 0.38, the ball under the fingertip). The balls the
stills show are seen 0.70 and more, beside a button too (stills 550 and 1359): a still's ball
must now show half of itself.

And where no candidate scored as a ball, a fit on a painted spot (taken on half its pixels
explained, as a bare mark's may be) was reported before the faint search was tried: still 1720
of ``--seed 1700`` reported its bare centre mark while a faint white ball lay on the felt.

The stills are ``bench_detect``'s own (its camera, calibrated from the image; its style;
its match frame), so the rows are the cases measured there. The failure rows are the two
slivers (no ball reported where they are); the balls beside a button stay found.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.bench_stills import bench_still


@pytest.mark.parametrize(
    ("seed", "sliver_mm"),
    [(1314, (-751.0, -325.9)), (1319, (-492.3, -148.8))],
    ids=["rim-beside-an-arm", "button-edge"],
)
def test_a_sliver_beside_a_piece_is_no_ball_on_a_still(
    seed: int, sliver_mm: tuple[float, float]
) -> None:
    """Before, each still reported its sliver as the ball (321 and 557 mm from it)."""
    det, ball = bench_still(seed)
    found = det.xy_mm[det.kind == "ball"]
    assert not (np.hypot(*(found - np.asarray(sliver_mm)).T) < 15.0).any(), found
    # whatever else is reported is the ball itself
    assert (np.hypot(*(found - ball).T) < 1.0).all(), (found, ball)


@pytest.mark.parametrize("seed", [550, 1359])
def test_a_ball_beside_a_button_stays_found_on_a_still(seed: int) -> None:
    """Seen 0.70 and 0.77 of itself beside a button: found within half a millimetre."""
    det, ball = bench_still(seed)
    found = det.xy_mm[det.kind == "ball"]
    assert len(found) == 1 and np.hypot(*(found[0] - ball)) < 0.5, (found, ball)


def test_a_faint_ball_wins_over_a_bare_spot_on_a_still() -> None:
    """Still 1720 of ``bench_detect --seed 1700``: a white ball on a mottled pale felt, 71st
    of 263 blobs by strength, was never fitted, and the fit on the bare centre mark (taken on
    half its pixels explained) was reported; the faint search finds the ball, scoring 0.81."""
    det, ball = bench_still(1720)
    found = det.xy_mm[det.kind == "ball"]
    assert len(found) == 1 and np.hypot(*(found[0] - ball)) < 0.5, (found, ball)
