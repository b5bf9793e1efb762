"""A piece's team read from its top face leaves out what a coach's hand covers.

``bench_detect``'s still 535 (seed 500's only team error among distinct colours): a palm over
half of a blue-and-white button of the blue team, beside the black team's buttons on a pale
felt; the top face's mean colour, skin included, was nearer the black team's. (Stills 510
and 557, a hand over a white team's pieces, keep every team right too:
``tests/vision/test_one_keeper.py``.)
"""

from __future__ import annotations

import pytest

from benchmarks.bench_detect import run_case, still_frames
from geometry.tablespec import load_table

TABLE = load_table("brasileira")


@pytest.mark.parametrize("seed", [535])
def test_teams_under_a_palm(seed: int) -> None:
    out = run_case(seed, still_frames())
    assert out.hidden  # a hand over a piece
    assert out.team_n >= 20
    assert out.team_ok == out.team_n
