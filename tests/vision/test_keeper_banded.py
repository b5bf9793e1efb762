"""A white goalkeeper banded dark along its top, on a pale felt, is found on a still (issue 5;
``vision.solids.fit_keeper``).

The white team's box carries a dark band along the middle of its top. Seen from a metre or two
at half a pixel a millimetre, the top is a grey whose colour is the pale felt's darkened: what
a shadow looks like (``unshadowed_distance``: level 8 where the box's white rims stand 40 from
the felt). Every fit of the box was refused as standing out too little, and on 60 fresh stills
(``python -m benchmarks.bench_detect --images 60 --seed 2200``) three white goalkeepers were
missed, one of them replaced by a white button fitted as a box. Where no fit stands out by its
top's median, the fits are now judged by the top's bright rims (its 80th percentile).

The stills are ``bench_detect``'s own (camera calibrated from the image). Failure rows: the
same stills rendered without that goalkeeper report no goalkeeper at that goal (the fallback
does not make a box of the felt, the goal's frame or a shadow). A box so found carries a
larger sigma (``_BANDED_SIGMA_MM``): its error within twice it.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.bench_stills import bench_still_pieces

# still seed -> the white goalkeeper missed before (bench_detect --seed 2200 / 2100 / 2300)
_STILLS = [2200, 2233, 2130]


def _keepers_at(det_xy: np.ndarray, kinds: np.ndarray, x_mm: float) -> np.ndarray:
    """The reported goalkeepers at the goal on side ``x_mm`` (within 150 mm of its line)."""
    at = (kinds == "goalkeeper") & (np.abs(det_xy[:, 0] - x_mm) < 150.0)
    return det_xy[at]


@pytest.mark.parametrize("seed", _STILLS)
def test_a_banded_white_goalkeeper_on_a_pale_felt_is_found(seed: int) -> None:
    det, truth = bench_still_pieces(seed)
    k = truth.index("A1")
    at = (det.kind == "goalkeeper") & (np.abs(det.xy_mm[:, 0] - truth.xy_mm[k, 0]) < 150.0)
    assert at.sum() == 1, det.xy_mm[at]
    error = float(np.hypot(*(det.xy_mm[at][0] - truth.xy_mm[k])))
    assert error < 3.0, (det.xy_mm[at], truth.xy_mm[k])
    # found by its rims only, less surely: its sigma says so (the errors run to 2.3 mm)
    assert error <= 2.0 * float(det.sigma_mm[at][0]), (error, det.sigma_mm[at])


@pytest.mark.parametrize("seed", _STILLS)
def test_no_goalkeeper_where_the_still_has_none(seed: int) -> None:
    det, truth = bench_still_pieces(seed, without="A1")
    assert "A1" not in set(truth.ids.tolist())
    # the other goal's keeper is still there: the still was detected, not empty
    other = truth.xy_mm[truth.index("B1")]
    assert len(_keepers_at(det.xy_mm, det.kind, float(other[0]))) == 1
    # A1's goal: the side opposite B1's
    assert len(_keepers_at(det.xy_mm, det.kind, -float(other[0]))) == 0


def test_a_goal_mouth_search_mends_a_box_found_by_its_rims() -> None:
    """Still 2334 of ``bench_detect --seed 2300``: the box's rims were fitted 5.8 mm into its
    goal, and the search of the goal's mouth, which had found the box 0.6 mm off, no longer
    ran (the goal had a goalkeeper). A box found by its rims (``weak``) lets it run; the
    better fit of the two is kept."""
    det, truth = bench_still_pieces(2334)
    k = truth.index("A1")
    at = (det.kind == "goalkeeper") & (np.abs(det.xy_mm[:, 0] - truth.xy_mm[k, 0]) < 150.0)
    assert at.sum() == 1, det.xy_mm[at]
    assert np.hypot(*(det.xy_mm[at][0] - truth.xy_mm[k])) < 1.5, (det.xy_mm[at], truth.xy_mm[k])
