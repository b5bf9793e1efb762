"""The field model: markings as strips of the line width, regions bounded by them."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from geometry.field import FieldModel
from geometry.tablespec import load_table


@pytest.fixture(scope="module")
def fm() -> FieldModel:
    return FieldModel(load_table("brasileira"))


def test_boundary_strip_lies_inside_the_field(fm: FieldModel) -> None:
    b = fm.markings["boundary"]
    assert b.bounds == (-1000.0, -700.0, 1000.0, 700.0)
    # perimeter strip of 2 mm: outer minus inner rectangle
    assert b.area == pytest.approx(2000 * 1400 - 1996 * 1396)


def test_areas_are_measured_to_their_outer_edges(fm: FieldModel) -> None:
    # 000 REGRA 1: grande área 820 x 330, pequena 380 x 110
    assert fm.markings["penalty_area_right"].bounds == pytest.approx((670.0, -410.0, 1000.0, 410.0))
    assert fm.markings["goal_area_left"].bounds == pytest.approx((-1000.0, -190.0, -890.0, 190.0))
    assert fm.penalty_area_box("left") == (-1000.0, -410.0, -670.0, 410.0)


def test_circles_and_marks(fm: FieldModel) -> None:
    ring = fm.markings["center_circle"]
    # outer edge at the 183 mm radius, 2 mm wide
    assert ring.bounds[2] == pytest.approx(183.0, abs=1e-6)
    assert ring.area == pytest.approx(np.pi * (183**2 - 181**2), rel=1e-3)
    mark = fm.markings["penalty_mark_right"]
    assert mark.centroid.x == pytest.approx(780.0) and mark.centroid.y == pytest.approx(0.0)
    # the meia-lua is only the part of the arc outside the penalty area
    arc = fm.markings["penalty_arc_right"]
    assert arc.bounds[2] <= 670.0 + 1e-9
    assert arc.bounds[0] == pytest.approx(780.0 - 183.0, abs=1e-6)


def test_posts_are_tangent_outside_the_goal_line(fm: FieldModel) -> None:
    posts = fm.post_centres("right")
    assert posts[:, 0] == pytest.approx([1002.0, 1002.0])  # 4 mm posts, 000 REGRA 1
    assert np.abs(posts[:, 1]) == pytest.approx([75.0, 75.0])  # 146 / 2 + 2
    mouth = fm.regions["goal_mouth_right"]
    assert mouth.bounds == pytest.approx((1000.0, -73.0, 1080.0, 73.0))


def test_corner_arcs_stay_in_the_field(fm: FieldModel) -> None:
    for k in range(4):
        arc = fm.markings[f"corner_arc_{k}"]
        assert shapely.within(arc, fm.regions["field"].buffer(1e-9))
        assert arc.area == pytest.approx(np.pi * (20**2 - 18**2) / 4, rel=1e-2)


@pytest.mark.parametrize("name", ["nacional", "gaucha-min", "gaucha-max", "mesa-posta"])
def test_every_preset_builds_a_valid_field(name: str) -> None:
    fm = FieldModel(load_table(name))
    assert all(g.is_valid and not g.is_empty for g in fm.markings.values())
    assert fm.painted.within(fm.regions["field"].buffer(1e-6))


# ---------------------------------------------------------------- exact gaps between footprints
def _pieces(rows):
    from geometry.pieces import Pieces

    kinds = [r[0] for r in rows]
    return Pieces(
        ids=np.array([f"p{k}" for k in range(len(rows))]),
        team=np.array(["A"] * len(rows)),
        kind=np.array(kinds),
        xy_mm=np.array([r[1] for r in rows], float),
        size_mm=np.array([r[2] for r in rows], float),
        angle_rad=np.array([np.radians(r[3]) if len(r) > 3 else 0.0 for r in rows]),
    )


@pytest.mark.parametrize("seed", range(5))
def test_pairwise_gaps_agree_with_shapely(seed: int) -> None:
    from geometry.pieces import footprints, pairwise_gaps

    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(12):
        if rng.random() < 0.3:
            rows.append(
                ("goalkeeper", rng.uniform(-150, 150, 2), (70.0, 15.0), rng.uniform(0, 180))
            )
        else:
            d = rng.uniform(10, 60)
            rows.append(("button", rng.uniform(-150, 150, 2), (d, d)))
    p = _pieces(rows)
    gaps = pairwise_gaps(p)
    polys = footprints(p, quad_segs=256)
    for i in range(len(p)):
        for j in range(len(p)):
            if i == j:
                continue
            d = shapely.distance(polys[i], polys[j])
            if d > 0:  # apart: the exact distance (polygonised discs are inscribed: +0.001)
                assert gaps[i, j] == pytest.approx(d, abs=2e-3)
            else:  # overlapping: minus the push that separates them, never more than the overlap
                assert gaps[i, j] <= 1e-9


def test_gaps_of_overlapping_footprints_are_the_separating_push() -> None:
    from geometry.pieces import pairwise_gaps

    # a 60 mm button centred at y = 17.5 reaches down to y = -12.5, 20 mm past the goalkeeper's
    # face at y = 7.5: the shortest push that separates them is 20 mm
    p = _pieces(
        [("goalkeeper", (0.0, 0.0), (70.0, 15.0), 0.0), ("button", (0.0, 37.5 - 20), (60.0, 60.0))]
    )
    g = pairwise_gaps(p)
    assert g[0, 1] == pytest.approx(-20.0) and g[1, 0] == pytest.approx(-20.0)
    q = _pieces(
        [
            ("goalkeeper", (0.0, 0.0), (70.0, 15.0), 0.0),
            ("goalkeeper", (0.0, 14.0), (70.0, 15.0), 0.0),
        ]
    )
    assert pairwise_gaps(q)[0, 1] == pytest.approx(-1.0)
