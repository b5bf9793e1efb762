"""The report's event cards: every headline event draws, with or without a margin.

A live run on a rendered 120 s match stopped with a traceback in the card of an event that
holds but measures no distance (its ``margin_mm`` null: ``event/1`` allows it).
"""

from __future__ import annotations

import numpy as np
import pytest

from geometry.pieces import Pieces
from geometry.tablespec import load_table
from monitor.report import HEADLINE, ReportBuilder
from rules.checks import CheckContext
from rules.engine.state import Contacts, FrameState
from rules.rulesets import get_ruleset

TABLE = load_table("brasileira")


def _state() -> FrameState:
    pieces = Pieces(
        np.array(["A2", "B2", "ball"]),
        np.array(["A", "B", ""]),
        np.array(["button", "button", "ball"]),
        np.array([[-200.0, 50.0], [150.0, -80.0], [0.0, 0.0]]),
        np.array([[40.0, 40.0], [40.0, 40.0], [10.0, 10.0]]),
        np.zeros(3),
        np.array([8.0, 8.0, 10.0]),
    )
    return FrameState(
        30, 1.0, pieces, np.zeros((3, 2)), np.zeros(3, bool), Contacts.empty(), np.ones(3, bool)
    )


@pytest.mark.parametrize("margin", [None, -12.5])
@pytest.mark.parametrize("kind", HEADLINE)
def test_every_headline_event_gets_a_card(kind: str, margin: float | None) -> None:
    rep = ReportBuilder(
        CheckContext.build(TABLE, get_ruleset("brasileira")), {"A": "left", "B": "right"}, "t", 30.0
    )
    e = {
        "format": "event/1",
        "t": 1.0,
        "frame": 30,
        "type": kind,
        "team": "A",
        "piece": "A2",
        "holds": True,
        "margin_mm": margin,
        "article": "000 REGRA 4",
        "evidence": {},
    }
    rep.add_event(e, np.zeros((108, 192, 3), np.uint8), _state())
    (card,) = rep.cards
    assert card.svg is not None and kind in card.svg
    assert ("margin" in card.svg) == (margin is not None)


@pytest.mark.parametrize(
    ("event", "line"),
    [
        (
            {"t": 370.0, "type": "goal", "team": "B", "piece": "A4", "margin_mm": 0.29,
             "evidence": {"restart": "kick_off", "sigma_mm": 0.5, "too_close": True}},
            "370.0s GOAL B A4 kick_off +0.29 +/- 0.50 mm, too close to call",
        ),
        (
            {"t": 3.2, "type": "ball_out", "team": "A", "piece": "B7", "margin_mm": 4.0,
             "evidence": {"restart": "throw_in", "sigma_mm": 0.5, "too_close": False}},
            "3.2s BALL_OUT A B7 throw_in +4.00 +/- 0.50 mm",
        ),
        # no doubt measured (exact data, a rail bounce) and no margin at all
        ({"t": 1.0, "type": "goal", "team": "A", "margin_mm": 2.4, "evidence": {}},
         "1.0s GOAL A +2.4 mm"),
        ({"t": 1.0, "type": "touch", "team": "A", "piece": "A9"}, "1.0s TOUCH A A9"),
    ],
)  # fmt: skip
def test_the_terminal_line_says_a_call_is_too_close(event: dict, line: str) -> None:
    from monitor.analyze import event_line

    assert event_line(event).strip() == line


@pytest.mark.parametrize(
    ("kind", "evidence", "a_side"),
    [
        ("half_time", {"teams": {"A": "right", "B": "left"}}, "right"),
        ("ends", {"teams": {"A": "left", "B": "right"}, "read_from": "goalkeepers"}, "left"),
        ("goal", {"teams": {"A": "right", "B": "left"}}, "left"),  # not an ends event
        ("ends", {}, "left"),  # no teams said: the ends stay
    ],
)
def test_the_cards_follow_the_ends_after_half_time(kind: str, evidence: dict, a_side: str) -> None:
    """A card's top-down evidence draws the teams at the ends they defend when it happened."""
    rep = ReportBuilder(
        CheckContext.build(TABLE, get_ruleset("brasileira")), {"A": "left", "B": "right"}, "t", 30.0
    )
    e = {"format": "event/1", "t": 1.0, "frame": 30, "type": kind, "team": None, "piece": None,
         "holds": True, "margin_mm": None, "article": "", "evidence": evidence}  # fmt: skip
    rep.add_event(e, None, None)
    assert rep.teams["A"] == a_side


@pytest.mark.parametrize("size_wh", [(1920, 1080), (1280, 720), (1000, 563), (360, 200), (200, 90)])
def test_a_thumbnail_averages_like_one_step(size_wh: tuple[int, int]) -> None:
    # the two-step shrink (whole blocks, then the rest) against OpenCV's one step: the same
    # size, the same picture within a grey level or two on a textured frame
    import cv2

    from monitor.report import thumbnail

    w, h = size_wh
    rng = np.random.default_rng(7)
    yy, xx = np.mgrid[0:h, 0:w]
    img = np.dstack([(xx * 0.3) % 256, (yy * 0.7) % 256, (xx + yy) % 256]).astype(np.uint8)
    img = np.clip(img + rng.normal(0, 6, img.shape), 0, 255).astype(np.uint8)
    want = cv2.resize(img, (360, max(2, round(360 * h / w))), interpolation=cv2.INTER_AREA)
    got = thumbnail(img)
    assert got.shape == want.shape
    assert np.abs(got.astype(int) - want.astype(int)).mean() < 2.5


def test_a_frame_s_events_share_a_thumbnail_and_draw_when_written(tmp_path) -> None:
    rep = ReportBuilder(
        CheckContext.build(TABLE, get_ruleset("brasileira")), {"A": "left", "B": "right"}, "t", 30.0
    )
    img, other = np.zeros((108, 192, 3), np.uint8), np.full((108, 192, 3), 200, np.uint8)
    base = {"format": "event/1", "t": 1.0, "frame": 30, "team": "A", "piece": "A2",
            "holds": True, "margin_mm": -3.0, "article": "000 REGRA 16 A"}  # fmt: skip
    evidence = {"other": "B2", "limit_mm": 60.0, "detail": "A2 57 mm from B2"}
    for image in (img, img, other):
        rep.add_event({**base, "type": "distance_violation", "evidence": evidence}, image, _state())
    a, b, c = rep.cards
    assert a.thumb_b64 is not None and a.thumb_b64 is b.thumb_b64  # made once
    assert c.thumb_b64 != a.thumb_b64
    rep.write(tmp_path / "report.html", {"frames": 31})
    page = (tmp_path / "report.html").read_text("utf-8")
    assert page.count('class="svg"><svg xmlns') == 3 and "57.0" in page  # the gap measured, drawn
