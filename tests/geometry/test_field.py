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
