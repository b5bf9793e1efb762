"""The tracker-to-engine adapter and the annotated video's overlay."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.camera import preset_camera
from geometry.tablespec import load_table
from monitor.adapt import state_from_tracks
from monitor.overlay import Hud, Mark, Overlay
from simulator.render import Renderer
from vision.contacts import TrackContact
from vision.track_types import TrackFrame


def _frame(status: list[str], sizes: bool = True) -> TrackFrame:
    ids = np.array(["A1", "A2", "B2", "ball"])
    n = len(ids)
    xy = np.array([[-990.0, 0.0], [-300.0, 50.0], [np.nan, np.nan], [10.0, -20.0]])
    return TrackFrame(
        frame=7,
        t=7 / 30,
        ids=ids,
        team=np.array(["A", "A", "B", ""]),
        kind=np.array(["goalkeeper", "button", "button", "ball"]),
        xy_mm=xy,
        v_mm_s=np.zeros((n, 2)),
        sigma_mm=np.full(n, 0.3),
        moving=np.array([False, True, True, False]),
        status=np.array(status),
        contacts=(TrackContact(0.22, "A2", "ball", "piece-ball", 7),),
        size_mm=np.array([[70.0, 15.0], [48.0, 48.0], [50.0, 50.0], [9.6, 9.6]]) if sizes else None,
        angle_rad=np.array([np.pi / 2, 0.0, 0.0, 0.0]) if sizes else None,
    )


@pytest.mark.parametrize(
    ("status", "present", "seen"),
    [
        (["seen", "predicted", "absent", "seen"], [True, True, False, True], [1, 0, 0, 1]),
        # NaN: never known, not seen whatever the status says
        (["hidden", "lost", "seen", "predicted"], [True, False, False, True], [0, 0, 0, 0]),
        (["lost", "lost", "lost", "lost"], [False, False, False, False], [0, 0, 0, 0]),
    ],
)
def test_present_follows_status_and_finite_positions(status, present, seen) -> None:
    st = state_from_tracks(_frame(status))
    assert st.present.tolist() == present
    assert st.seen.tolist() == [bool(x) for x in seen]  # measured: a coasting ball is not
    assert not st.moving[~st.present].any()  # an unknown piece is not "moving"
    assert np.isfinite(st.pieces.xy_mm).all()


def test_sizes_angles_contacts_and_ball_diameter() -> None:
    st = state_from_tracks(_frame(["seen"] * 4), ball_diameter_mm=10.0)
    assert st.pieces.size_mm[1].tolist() == [48.0, 48.0]
    assert st.pieces.size_mm[3].tolist() == [10.0, 10.0]  # the rule set's ball, not the fit
    assert st.pieces.angle_rad[0] == pytest.approx(np.pi / 2)
    assert st.contacts.rows() == [(7, 0.22, "A2", "ball", "piece-ball")]
    assert st.hands_over_table is None
    defaults = state_from_tracks(_frame(["seen", "seen", "seen", "hidden"], sizes=False))
    assert defaults.pieces.size_mm[0].tolist() == [70.0, 15.0]
    assert defaults.hands_over_table is True


def test_known_pieces_leave_out_lost_slots_but_keep_the_ball() -> None:
    st = state_from_tracks(_frame(["seen", "lost", "absent", "lost"]))
    assert st.known_pieces.ids.tolist() == ["A1", "ball"]


def test_overlay_markings_sit_on_the_painted_lines() -> None:
    # A non-square, tilted view: swapped axes or a wrong scale would miss the lines.
    table = load_table("brasileira")
    cam = preset_camera("tilted", table, (1280, 720))
    img = Renderer(table, cam, rng=3).background
    ov = Overlay(cam, table, scale=0.75)
    assert ov.size_wh == (960, 540)
    out = ov.draw(img, None, Hud(title="t"))
    small = cv2.resize(img, ov.size_wh, interpolation=cv2.INTER_AREA)
    ys, xs = np.unravel_index(ov._static, small.shape[:2])
    keep = ys > 40  # below the text band
    bright = small[ys[keep], xs[keep]].mean(axis=1)
    felt = np.median(small.reshape(-1, 3).mean(axis=1))
    assert np.mean(bright > felt + 40) > 0.85  # on the white lines, not beside them
    assert (out[ys[keep], xs[keep]] == (255, 255, 0)).all()


def test_overlay_draws_pieces_marks_and_offside_without_errors() -> None:
    table = load_table("brasileira")
    cam = preset_camera("overhead", table, (640, 360))
    img = np.full((360, 640, 3), 60, np.uint8)
    ov = Overlay(cam, table, scale=1.0)
    hud = Hud(
        title="brasileira",
        score={"A": 1, "B": 0},
        clock_s=75.0,
        offside_line=("A", 420.0),
        messages=[("goal", (0, 255, 0))],
        marks=[Mark((100.0, 50.0), 1.0, radius_mm=30.0, label="blocked")],
    )
    out = ov.draw(img, _frame(["seen", "predicted", "absent", "seen"]), hud)
    assert out.shape == (360, 640, 3)
    changed = (out != 60).any(axis=2)
    # The offside line (dashed) at x = 420 mm: drawn at about half the places along it.
    ys = np.linspace(-300.0, 300.0, 21)
    uv = np.round(ov.camera.table_to_image(np.c_[np.full(21, 420.0), ys, np.zeros(21)]))
    hits = [changed[v - 1 : v + 2, u - 1 : u + 2].any() for u, v in uv.astype(int)]
    assert 0.3 < np.mean(hits) < 0.9
    with pytest.raises(ValueError, match="scale"):
        Overlay(cam, table, scale=2.0)
