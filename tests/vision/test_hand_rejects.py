"""A seed beside a coach's hand that fits no button (the hand's edge, a piece it half hides)
is not fitted again on every frame the hand rests there; once the hand moves it is, and the
piece the hand hid is found as soon as it is uncovered. A failed search still in use is the
last the memory forgets.

Seeded renders through two preset cameras; the truth is the scene's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import vision.detect as detect_module
from calibration.camera import preset_camera
from geometry.pieces import Pieces
from geometry.tablespec import load_table
from simulator.designs import RenderStyle
from simulator.render import Renderer
from simulator.state import FrameTruth, Hand
from vision.detect import Detector
from vision.frame_memory import FrameMemory

TABLE = load_table("brasileira")
HIDDEN_XY_MM = (600.0, -120.0)  # the button the hand rests over


def _pieces() -> Pieces:
    """Four buttons and the ball, at rest."""
    xy = [(-400.0, 200.0), (300.0, 250.0), (150.0, -200.0), HIDDEN_XY_MM, (-350.0, 140.0)]
    return Pieces(
        np.array(["A1", "A2", "A3", "A4", "ball"]),
        np.array(["A"] * 4 + [""]),
        np.array(["button"] * 4 + ["ball"]),
        np.array(xy, float),
        np.array([[50.0, 50.0]] * 4 + [[10.0, 10.0]]),
        np.zeros(5),
        np.array([8.0] * 4 + [10.0]),
    )


def _frame(k: int, pieces: Pieces, hands: tuple[Hand, ...] = ()) -> FrameTruth:
    n = len(pieces)
    return FrameTruth(k, k / 30.0, pieces, np.zeros((n, 2)), np.zeros(n, bool), hands=hands)


def _hand(dx_mm: float, dy_mm: float) -> Hand:
    """A hand from the near side rail, its fingertip this far from the hidden button."""
    tip = (HIDDEN_XY_MM[0] + dx_mm, HIDDEN_XY_MM[1] + dy_mm)
    return Hand(tip, (tip[0] + 150.0, -TABLE.half_width - 300.0))


@pytest.mark.parametrize(("camera", "seed"), [("overhead", 1), ("tilted", 2)])
def test_a_seed_beside_a_resting_hand_is_fitted_once(
    camera: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    fits = [0]
    fit_solid: Callable[..., Any] = detect_module.fit_solid

    def counted(*args: Any, **kwargs: Any) -> Any:
        fits[0] += 1
        return fit_solid(*args, **kwargs)

    monkeypatch.setattr(detect_module, "fit_solid", counted)
    cam = preset_camera(camera, TABLE, (960, 540))
    r = Renderer(TABLE, cam, RenderStyle(jpeg_quality=88), rng=seed)
    pieces = _pieces()
    det = Detector(cam, TABLE)
    det.learn_background([r.render(_frame(k, pieces)) for k in range(8)])

    def fits_of(image: np.ndarray, k: int) -> int:
        fits[0] = 0
        det.detect(image, k, k / 30.0)
        return fits[0]

    resting = r.render(_frame(10, pieces, (_hand(-40.0, 20.0),)))
    assert fits_of(resting, 10) > 0
    # what was fitted in vain lay beside the hand (else this tests the old memory)
    assert any(near.any() for *_, near in det.memory.rejects)
    assert fits_of(resting, 11) == 0  # nothing about it changed: not fitted again
    moved = r.render(_frame(12, pieces, (_hand(-30.0, 0.0),)))
    assert fits_of(moved, 12) > 0  # the hand moved: what it hid may be a piece's
    out = det.detect(r.render(_frame(13, pieces)), 13, 13 / 30.0)
    buttons = out.xy_mm[out.kind == "button"]
    gap_mm = np.hypot(*(buttons - np.array(HIDDEN_XY_MM)).T)
    assert len(buttons) == 4 and gap_mm.min() < 3.0  # the uncovered button, at once


def test_a_failed_search_still_in_use_outlives_newer_ones() -> None:
    """The memory keeps the last 40 failed searches: one matched again (a print at rest) is
    kept over those that came after it, so it is not fitted again every 40 failures."""
    rng = np.random.default_rng(4)
    sub = rng.integers(0, 255, (90, 120, 3)).astype(np.uint8)
    mem = FrameMemory(stride=3)
    first = np.array([[30.0, 30.0], [45.0, 45.0]])
    mem.reject(sub, first, "ball")
    for k in range(45):
        corner = np.array([6.0 * (k % 15) + 60.0, 60.0 * (k // 15) + 60.0])
        mem.reject(sub, corner + np.array([[0.0, 0.0], [12.0, 12.0]]), "ball")
        if k == 20:
            assert mem.rejected(sub, first, "ball")  # in use
    mem.remember(sub, [], None)
    assert len(mem.rejects) == 40 and mem.rejected(sub, first, "ball")
