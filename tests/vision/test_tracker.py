"""The tracker (issue 5, deliverable 4) on hand-made detections: identities at setup, kind and
team gating, hands that freeze tracks, carries and flicks from under a hand, collisions, the
arrumação (000 REGRA 8), pieces coming back, moving / stopped hysteresis, the Kalman core.

Detections are built here from known paths with seeded noise (sigma 0.3-1 mm); a seeded
simulator match closes the file (:mod:`tests.vision.test_tracker_match`).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.detections import Detections
from vision.kalman import CVKalman
from vision.track_hands import CoverMap, HandRegion, hand_follows, polygon_signed_distance
from vision.tracker import Tracker, TrackerConfig

FPS = 30.0
DT = 1.0 / FPS
SIZE = {"button": (60.0, 60.0), "goalkeeper": (70.0, 15.0), "ball": (10.0, 10.0)}


def dets(
    rows: list[tuple[str, str, float, float]],
    frame: int,
    rng: np.random.Generator | None = None,
    hands: list[np.ndarray] | None = None,
    labels: list[str] | None = None,
    conf: list[float] | None = None,
) -> Detections:
    """Detections of ``(kind, team, x, y)`` rows at ``frame`` (noise 0.3-1 mm with ``rng``)."""
    n = len(rows)
    xy = np.array([[r[2], r[3]] for r in rows], float).reshape(n, 2)
    sigma = np.full(n, 0.5)
    if rng is not None:
        sigma = rng.uniform(0.3, 1.0, n)
        xy = xy + rng.normal(size=(n, 2)) * sigma[:, None]
    kind = np.array([r[0] for r in rows], dtype=str).reshape(n)
    angle = np.where(kind == "goalkeeper", math.pi / 2, 0.0)
    return Detections(
        kind=kind,
        team=np.array([r[1] for r in rows], dtype=str).reshape(n),
        xy_mm=xy,
        uv_px=np.zeros((n, 2)),
        size_mm=np.array([SIZE[r[0]] for r in rows], float).reshape(n, 2),
        angle_rad=angle,
        confidence=np.ones(n) if conf is None else np.array(conf, float).reshape(n),
        sigma_mm=sigma,
        label=np.array(labels if labels is not None else [""] * n, dtype=str).reshape(n),
        hands=hands or [],
        frame=frame,
        t=frame * DT,
    )


def roster_rows() -> list[tuple[str, str, float, float]]:
    """Both teams in their halves (a keeper and ten buttons each) and the ball."""
    rows: list[tuple[str, str, float, float]] = []
    for team, s in (("A", -1.0), ("B", 1.0)):
        rows.append(("goalkeeper", team, s * 990.0, 0.0))
        for k in range(10):
            rows.append(("button", team, s * (150.0 + 80.0 * k), -450.0 + 100.0 * k))
    rows.append(("ball", "", 0.0, 0.0))
    return rows


def square(cx: float, cy: float, half: float) -> np.ndarray:
    return np.array([[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half],
                     [cx - half, cy + half]])  # fmt: skip


def id_at(tf, x: float, y: float, within: float = 15.0) -> str | None:
    live = np.isin(tf.status, ("seen", "predicted"))
    d = np.hypot(tf.xy_mm[:, 0] - x, tf.xy_mm[:, 1] - y)
    d[~live] = np.inf
    k = int(np.argmin(d))
    return str(tf.ids[k]) if d[k] <= within else None


# ---------------------------------------------------------------------- Kalman core
def test_kalman_follows_constant_velocity_and_its_velocity() -> None:
    rng = np.random.default_rng(1)
    kf = CVKalman(np.zeros((1, 2)), np.array([0.5]), np.array([1e4]))
    for k in range(1, 40):
        kf.predict(np.array([DT]))
        z = np.array([[1000.0 * k * DT, -400.0 * k * DT]]) + rng.normal(size=(1, 2)) * 0.5
        kf.update(np.array([0]), z, np.array([0.25]))
    assert np.allclose(kf.v_mm_s[0], [1000.0, -400.0], atol=25.0)
    assert abs(kf.xy_mm[0, 0] - 1000.0 * 39 * DT) < 1.0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(0.001, 0.2), st.floats(0.01, 25.0)), min_size=1, max_size=30))
def test_kalman_covariance_stays_positive(steps: list[tuple[float, float]]) -> None:
    kf = CVKalman(np.zeros((3, 2)), np.ones(3), np.array([1.0, 1e3, 2e6]))
    for dt, r in steps:
        kf.predict(np.full(3, dt))
        kf.update(np.arange(3), np.zeros((3, 2)), np.full(3, r))
        pp, pv, vv = kf.P.T
        assert (pp > 0).all() and (vv > 0).all()
        assert (pp * vv - pv * pv >= -1e-9 * pp * vv).all()


# ---------------------------------------------------------------------- hands geometry
@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_hand_distance_matches_shapely(seed: int) -> None:
    rng = np.random.default_rng(seed)
    ang = np.sort(rng.uniform(0, 2 * np.pi, 7))
    poly = np.column_stack([np.cos(ang), np.sin(ang)]) * rng.uniform(20, 90, (7, 1))
    pts = rng.uniform(-120, 120, (25, 2))
    ours = polygon_signed_distance(pts, poly)
    shape = shapely.Polygon(poly)
    ref = shapely.distance(shape.exterior, shapely.points(pts))
    ref = np.where(shapely.contains_xy(shape, pts[:, 0], pts[:, 1]), -ref, ref)
    assert np.allclose(ours, ref, atol=1e-9)


def test_hand_region_without_hands_is_infinitely_far() -> None:
    assert HandRegion([]).distance(np.zeros((2, 2))).tolist() == [math.inf, math.inf]


def test_cover_map_remembers_the_last_time_a_cell_was_covered() -> None:
    m = CoverMap((1000.0, 700.0))
    m.mark([square(0.0, 0.0, 50.0)], 1.0)
    m.mark([square(300.0, 0.0, 50.0)], 2.0)
    last = m.last_covered(np.array([[0.0, 0.0], [300.0, 0.0], [-600.0, 300.0], [5e4, 0.0]]))
    assert last.tolist() == [1.0, 2.0, -math.inf, -math.inf]


# ---------------------------------------------------------------------- setup
def test_setup_names_keepers_one_and_buttons_from_their_own_goal() -> None:
    tf = Tracker().update(dets(roster_rows(), 0))
    assert (tf.status != "absent").all()
    assert tf.xy_mm[tf.index("A1")].tolist() == [-990.0, 0.0]
    assert tf.xy_mm[tf.index("B1")].tolist() == [990.0, 0.0]
    # A defends the left goal: A2 is its button nearest it, A11 the furthest
    assert tf.xy_mm[tf.index("A2")].tolist() == [-870.0, 450.0]
    assert tf.xy_mm[tf.index("A11")].tolist() == [-150.0, -450.0]
    assert tf.xy_mm[tf.index("B2")].tolist() == [870.0, 450.0]


def test_setup_uses_numbers_read_by_the_detector() -> None:
    rows = roster_rows()
    labels = ["", *[str(11 - k) for k in range(10)], "", *[str(k + 2) for k in range(10)], ""]
    tf = Tracker().update(dets(rows, 0, labels=labels))
    assert tf.xy_mm[tf.index("A11")].tolist() == [rows[1][2], rows[1][3]]
    assert tf.xy_mm[tf.index("B2")].tolist() == [rows[12][2], rows[12][3]]


def test_detector_team_names_are_mapped_by_the_side_each_team_starts_in() -> None:
    rows = [(k, {"A": "red", "B": "blue"}.get(t, t), x, y) for k, t, x, y in roster_rows()]
    tr = Tracker()
    tf = tr.update(dets(rows, 0))
    assert set(tf.team[tf.kind != "ball"]) == {"A", "B"}
    assert tf.xy_mm[tf.index("A1")][0] < 0 < tf.xy_mm[tf.index("B1")][0]
    tf = tr.update(dets(rows, 1))
    assert (tf.status == "seen").all()


def test_mid_match_the_goalkeepers_say_which_team_defends_which_goal() -> None:
    # a video that starts mid-match: red attacks right, its buttons deep in blue's half (their
    # mean x right of blue's); red's goalkeeper stands in the left goal, so red defends left
    rows = [
        ("goalkeeper", "red", -990.0, 0.0),
        *[("button", "red", 350.0 + 40.0 * k, -300.0 + 70.0 * k) for k in range(10)],
        ("goalkeeper", "blue", 990.0, 0.0),
        *[("button", "blue", -600.0 + 60.0 * k, 250.0 - 50.0 * k) for k in range(10)],
        ("ball", "", 500.0, 100.0),
    ]
    tf = Tracker().update(dets(rows, 0))
    assert tf.xy_mm[tf.index("A1")][0] < 0 < tf.xy_mm[tf.index("B1")][0]
    assert (tf.xy_mm[(tf.team == "A") & (tf.kind == "button"), 0] > 300.0).all()
    # failure row: without both goalkeepers seen, the side each team's pieces sit in decides
    tf = Tracker().update(dets([r for r in rows if r[0] != "goalkeeper"], 0))
    assert (tf.xy_mm[(tf.team == "B") & (tf.kind == "button"), 0] > 300.0).all()


def test_a_missing_piece_at_setup_fills_its_slot_when_it_shows_up() -> None:
    rows = roster_rows()
    tr = Tracker()
    tf = tr.update(dets(rows[:5] + rows[6:], 0))
    assert (tf.status == "absent").sum() == 1
    for f in range(1, 6):
        tf = tr.update(dets(rows, f))
    assert (tf.status == "seen").all()


# ---------------------------------------------------------------------- gating
def test_a_ball_detection_never_feeds_a_button_track() -> None:
    rows = roster_rows()
    tr = Tracker()
    tr.update(dets(rows, 0))
    bx, by = rows[4][2], rows[4][3]
    tf = tr.update(dets(rows, 1))
    a5 = tf.index(str(id_at(tf, bx, by)))
    for f in range(2, 8):  # A5 unseen; a ball detection sits where it was
        moved = [r for r in rows if r[0] != "ball" and (r[2], r[3]) != (bx, by)]
        tf = tr.update(dets([*moved, ("ball", "", bx, by)], f))
        assert tf.status[a5] == "predicted"
        assert tf.xy_mm[a5].tolist() == pytest.approx([bx, by], abs=1.0)
    assert tf.xy_mm[tf.index("ball")].tolist() == pytest.approx([bx, by], abs=1.0)


def test_false_detections_never_become_pieces() -> None:
    rng = np.random.default_rng(3)
    rows = roster_rows()
    tr = Tracker()
    first = tr.update(dets(rows, 0))
    for f in range(1, 60):
        fp = [("button", "A", *rng.uniform([-900, -600], [900, 600]))] if f % 3 == 0 else []
        tf = tr.update(dets(rows + fp, f, rng))
    assert np.allclose(tf.xy_mm, first.xy_mm, atol=2.0)
    assert (tf.status == "seen").all()


# ---------------------------------------------------------------------- hands
def test_a_hand_freezes_the_tracks_under_it_and_its_own_blob_is_no_piece() -> None:
    rng = np.random.default_rng(4)
    rows = roster_rows()
    tr = Tracker()
    x, y = rows[6][2], rows[6][3]
    tf = tr.update(dets(rows, 0, rng))
    name = id_at(tf, x, y)
    a7 = tf.index(str(name))
    tr.update(dets(rows, 1, rng))
    hand = square(x, y, 70.0)
    for f in range(2, 62):  # two seconds under a hand; a knuckle is found as a button
        rest = [r for r in rows if (r[2], r[3]) != (x, y)]
        tf = tr.update(dets([*rest, ("button", "A", x + 20, y + 10)], f, rng, hands=[hand]))
        assert tf.status[a7] == "hidden"
        assert tf.xy_mm[a7].tolist() == pytest.approx([x, y], abs=2.0)
    tf = tr.update(dets(rows, 62, rng))
    assert tf.status[a7] == "seen" and id_at(tf, x, y) == name


def test_a_piece_carried_under_a_hand_keeps_its_id() -> None:
    rng = np.random.default_rng(5)
    rows = roster_rows()
    tr = Tracker()
    x0, y0 = rows[4][2], rows[4][3]  # carried 400 mm by its coach's hand
    name = id_at(tr.update(dets(rows, 0, rng)), x0, y0)
    x1, y1 = x0 + 300.0, y0 + 260.0
    for f in range(1, 31):
        u = min(max((f - 5) / 15.0, 0.0), 1.0)
        hx, hy = x0 + u * (x1 - x0), y0 + u * (y1 - y0)
        hand = [square(hx, hy, 60.0)] if f < 25 else []
        rest = [r for r in rows if (r[2], r[3]) != (x0, y0)]
        seen = [] if f < 25 else [("button", "A", x1, y1)]
        tf = tr.update(dets(rest + seen, f, rng, hands=hand))
    assert id_at(tf, x1, y1) == name
    others = [r for r in rows if (r[2], r[3]) != (x0, y0)]
    assert all(id_at(tf, r[2], r[3]) is not None for r in others)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_a_team_mate_the_carrying_hand_passed_over_is_found_again_at_its_own_place(
    seed: int,
) -> None:
    """Ten minutes of nacional (seed 31), frame 13818: the coach carries A11 across the table;
    the hand passes over A10 (frozen) and goes on; A10 is seen again where it rested. That
    detection went to the carried A11 (whose place was empty) rather than to A10 (whose place
    it 'occupied'): the ids swapped and 22 touches went to the wrong buttons."""
    rng = np.random.default_rng(seed)
    rows = roster_rows()
    a, b = rows[4], rows[6]  # A buttons 200 mm apart in y, 160 mm in x
    tr = Tracker()
    tf = tr.update(dets(rows, 0, rng))
    ida, idb = id_at(tf, a[2], a[3]), id_at(tf, b[2], b[3])
    dest = np.array([b[2] + 250.0, b[3] + 120.0])
    path = [np.array([a[2], a[3]]), np.array([b[2], b[3]]), dest]
    rest = [r for r in rows if r not in (a, b)]
    hidden = False
    for f in range(1, 31):  # 10 frames a -> b, 10 frames b -> dest, then lifted
        leg, u = divmod(f - 1, 10)
        h = path[min(leg, 1)] + (u + 1) / 10.0 * (path[min(leg, 1) + 1] - path[min(leg, 1)])
        h = dest if leg >= 2 else h
        hand = [square(*h, 55.0)] if f < 25 else []
        near_b = bool(np.all(np.abs(h - np.array([b[2], b[3]])) < 55.0 + 30.0))
        if near_b:
            seen, hidden = [], True
        elif hidden:  # first seen again at the hand's edge, its outline a little off
            seen, hidden = [("button", "A", b[2] + 7.0, b[3] - 2.0)], False
        else:
            seen = [b]
        if f >= 25:
            seen.append(("button", "A", *dest))
        tf = tr.update(dets(rest + seen, f, rng, hands=hand))
        if seen and seen[0] == b:  # settled a frame after it was seen again
            assert id_at(tf, b[2], b[3]) == idb, f"frame {f}"
    assert id_at(tf, *dest) == ida


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("lift_covered", [False, True])
def test_a_piece_set_down_while_an_arm_covers_a_team_mate_is_the_carried_one(
    seed: int, lift_covered: bool
) -> None:
    """Ten minutes of nacional (seed 31), frame 13234: a coach lifts A8 (its track coasting:
    the hand's outline missed it) and sets it down 650 mm away while the arm lies over A11,
    frozen. The piece set down went to the frozen A11 (the hand had swept the spot), and A8's
    coasting track took A11's place when the arm left: ids swapped, touches lost.
    ``lift_covered``: the hand's outline covered A8 as it was lifted (frozen too)."""
    rng = np.random.default_rng(seed)
    rows = roster_rows()
    a, b = rows[4], rows[9]  # two A buttons 500 mm apart
    tr = Tracker()
    tf = tr.update(dets(rows, 0, rng))
    ida, idb = id_at(tf, a[2], a[3]), id_at(tf, b[2], b[3])
    rest = [r for r in rows if r not in (a, b)]
    start = np.array([a[2], a[3]]) + (0.0 if lift_covered else 110.0)
    dest = np.array([b[2] - 100.0, b[3] + 500.0])  # 510 mm from b, 650 mm from a
    arm = square(b[2], b[3] + 10.0, 50.0)
    for f in range(1, 22):
        u = min(f / 10.0, 1.0)
        hands = [arm] if 3 <= f < 16 else []
        if f <= 10:
            hands.append(square(*(start + u * (dest - start)), 55.0))
        seen = [] if 3 <= f < 16 else [b]
        if f > 10:
            seen.append(("button", "A", *dest))
        tf = tr.update(dets(rest + seen, f, rng, hands=hands))
        if f > 11:
            assert id_at(tf, *dest) == ida, f"frame {f}"
    assert id_at(tf, b[2], b[3]) == idb


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize(
    "glimpsed",
    [
        True,
        pytest.param(
            False,
            marks=pytest.mark.xfail(
                strict=True,
                reason="unseen on its place, the frozen piece flicked from under the arm "
                "explains the sightings as well as the carried one",
            ),
        ),
    ],
)
def test_a_carried_piece_is_not_the_team_mate_seen_again_on_its_own_place(
    seed: int, glimpsed: bool
) -> None:
    """Ten minutes of nacional (seed 31), frame 12366: a coach carries A4 to a goal kick's
    spot while the arm lies over A2; a fit in the hand, then the piece set down 90 mm from it,
    read as a piece moving on - a flick straight out from under the arm over A2 - in the
    frames A2 showed on its own place. The moving piece went to the frozen A2 and A4's track
    took A2's place: ids swapped for 1600 frames. A piece seen again on the place a rival
    rested is that rival. ``glimpsed``: A2 shows on its place those two frames."""
    rng = np.random.default_rng(seed)
    rows = roster_rows()
    a, b = rows[4], rows[2]  # the carried piece and the one under the arm, 250 mm apart
    tr = Tracker()
    tf = tr.update(dets(rows, 0, rng))
    ida, idb = id_at(tf, a[2], a[3]), id_at(tf, b[2], b[3])
    rest = [r for r in rows if r not in (a, b)]
    dest = np.array([b[2] - 40.0, b[3] + 310.0])
    arm = square(b[2], b[3] + 10.0, 50.0)
    path = [np.array([a[2], a[3]]) + min(f / 8.0, 1.0) * (dest - [a[2], a[3]]) for f in range(16)]
    for f in range(1, 16):
        hands = [square(*(path[f] + (110.0 if f < 3 else 0.0)), 55.0)] if f <= 8 else []
        arm_on = 3 <= f < 13 and not (glimpsed and f in (8, 9))
        hands += [arm] if arm_on else []
        glimpse = ("button", "A", b[2] + 5.0, b[3] - 1.0)  # its fit beside the arm, 5 mm off
        seen = [] if arm_on else [glimpse if f in (8, 9) else b]
        if f == 8:
            seen.append(("button", "A", dest[0] + 25.0, dest[1] - 90.0))  # a fit in the hand
        if f >= 9:
            seen.append(("button", "A", *dest))
        tf = tr.update(dets(rest + seen, f, rng, hands=hands))
    assert id_at(tf, *dest) == ida
    assert id_at(tf, b[2], b[3]) == idb


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(("misread", "offset_mm", "b_keeps_it"), [
    ("A", 0.0, True),  # its colours tinted by the arm: still B's own place
    ("B", 0.0, True),
    ("A", 40.0, False),  # 40 mm off the place: another piece (discs never overlap)
])  # fmt: skip
def test_a_resting_piece_read_as_the_other_team_on_its_own_place_keeps_its_id(
    seed: int, misread: str, offset_mm: float, b_keeps_it: bool
) -> None:
    """Gaucha's ten minutes, frame 4567: a coach carries A9 away under its hand while an arm
    passes over B9, which is then seen again on its place read as team A (confidence 0.47):
    the detection went to the carried A9, 360 mm off, and A9's flick and touch were lost."""
    rng = np.random.default_rng(seed)
    rows = roster_rows()
    a, b = rows[4], rows[16]  # an A button carried off; a B button the arm passes over
    tr = Tracker()
    tf = tr.update(dets(rows, 0, rng))
    ida, idb = id_at(tf, a[2], a[3]), id_at(tf, b[2], b[3])
    rest = [r for r in rows if r not in (a, b)]
    dest = np.array([a[2] + 200.0, a[3] + 300.0])
    arm = square(b[2], b[3] + 20.0, 50.0)
    for f in range(1, 20):
        u = min(f / 12.0, 1.0)
        carry = [square(*(np.array([a[2], a[3]]) + u * (dest - [a[2], a[3]])), 55.0)]
        if f < 6:
            seen, hands = [b], [*carry, arm]
        elif f < 10:
            seen, hands = [], [*carry, arm]
        elif f < 13:  # the arm has gone on: b is on its place (or a piece 40 mm off it)
            at = (b[2] + offset_mm, b[3])
            seen, hands = [("button", misread, *at)], carry
        else:
            break
        tf = tr.update(
            dets(rest + seen, f, rng, hands=hands, conf=[1.0] * len(rest) + [0.47] * len(seen))
        )
        if seen and seen[0] != b:
            got = id_at(tf, b[2] + offset_mm, b[3], within=5.0)
            assert (got == idb) == b_keeps_it, f"frame {f}: {got}"
            if b_keeps_it:
                assert got != ida, f"frame {f}"


def test_a_flick_from_under_a_hand_over_two_buttons_goes_to_the_flicked_one() -> None:
    """Two A buttons under one hand; the one that moves is known from where its path starts."""
    rng = np.random.default_rng(6)
    rows = roster_rows()
    a, b = rows[3], rows[4]  # A buttons 100 mm apart in y, 80 mm in x
    tr = Tracker()
    tf = tr.update(dets(rows, 0, rng))
    ida, idb = id_at(tf, a[2], a[3]), id_at(tf, b[2], b[3])
    hand = square((a[2] + b[2]) / 2, (a[3] + b[3]) / 2, 110.0)
    rest = [r for r in rows if r not in (a, b)]
    for f in range(1, 10):
        tr.update(dets(rest, f, rng, hands=[hand]))
    v = np.array([-1500.0, -900.0])  # b is flicked away from a, out from under the hand
    for f in range(10, 20):
        p = np.array([b[2], b[3]]) + v * (f - 9.5) * DT
        inside = bool(np.all(np.abs(p - hand.mean(axis=0)) < 110.0))
        seen = [] if inside else [("button", "A", *p)]
        tf = tr.update(dets(rest + seen, f, rng, hands=[hand] if f < 16 else []))
    assert id_at(tf, *p) == idb
    tf = tr.update(dets([*rest, ("button", "A", *(p + v * DT)), a], 20, rng))
    assert id_at(tf, a[2], a[3]) == ida


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("weak", [0.1, 0.18, 0.3])
def test_a_flick_beside_a_hand_follows_the_sure_fit_not_the_hands_edge(
    seed: int, weak: float
) -> None:
    """Gaucha's ten minutes, frame 2222: a button beside its coach's hand flicked at 2 m/s;
    on the flick's frame the hand's edge, 56 mm off, was fitted as a button too (confidence
    0.18; the piece 68 mm off, 0.44). The nearer, weak fit took the track, which then froze
    under the hand while the piece crossed the table (its touch of the ball lost, a furada
    called). A weak fit is the less likely piece: the track follows the sure one."""
    rng = np.random.default_rng(seed)
    rows = roster_rows()
    a = rows[3]
    others = [r for r in rows if r is not a]
    p0 = np.array([a[2], a[3]])
    hand = square(a[2] - 30.0, a[3] - 100.0, 60.0)  # its edge at the piece's rim
    tr = Tracker()
    tf = tr.update(dets(rows, 0, rng))
    ida = id_at(tf, *p0)
    for f in range(1, 4):
        tf = tr.update(dets(rows, f, rng, hands=[hand]))
    v = np.array([1900.0, 700.0])
    edge = p0 + np.array([-31.6, -47.0])  # the hand's edge, fitted as a button each frame
    for f in range(4, 10):
        p = p0 + v * (f - 3) * DT
        tf = tr.update(
            dets(
                [*others, ("button", "A", *p), ("button", "A", *edge)],
                f,
                rng,
                hands=[hand],
                conf=[1.0] * len(others) + [0.5, weak],
            )
        )
        assert id_at(tf, *p) == ida, f"frame {f}"


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("v_mm_s", [(1200.0, 600.0), (300.0, 1300.0), (-900.0, 900.0)])
def test_a_flick_from_under_an_arm_goes_to_the_piece_unseen_there_not_a_frozen_team_mate(
    seed: int, v_mm_s: tuple[float, float]
) -> None:
    """Rolled ten minutes, seed 31, frame 6311: A4 frozen under a hand; A8, 90 mm away, unseen
    for five frames under the coach's arm but outside the hand's outline (so coasting, not
    frozen), is flicked. The button seen leaving A8's spot is A8, not the frozen A4 (they were
    swapped: ten touches went to the wrong buttons)."""
    rng = np.random.default_rng(seed)
    rows = roster_rows()
    a = rows[3]
    b = rows[4] = ("button", "A", a[2] + 35.0, a[3] + 85.0)  # 92 mm from a, others > 180
    tr = Tracker()
    tf = tr.update(dets(rows, 0, rng))
    ida, idb = id_at(tf, a[2], a[3]), id_at(tf, b[2], b[3])
    rest = [r for r in rows if r not in (a, b)]
    on_a = square(a[2] - 20.0, a[3] - 20.0, 45.0)  # covers a, its edge 45 mm short of b
    for f in range(1, 6):  # a frozen; b not detected (the arm), not covered: it coasts
        tf = tr.update(dets(rest, f, rng, hands=[on_a]))
    assert tf.status[list(tf.ids).index(idb)] == "predicted"
    v = np.array(v_mm_s)
    on_b = square(b[2], b[3], 40.0)
    for f in range(6, 14):  # the flick: b seen leaving its spot at once
        p = np.array([b[2], b[3]]) + v * (f - 4.9) * DT
        tf = tr.update(dets([*rest, ("button", "A", *p)], f, rng, hands=[on_a, on_b]))
    assert id_at(tf, *p) == idb
    tf = tr.update(dets([*rest, ("button", "A", *(p + v * DT)), a], 14, rng))
    assert id_at(tf, a[2], a[3]) == ida


# ---------------------------------------------------------------------- collisions
@pytest.mark.parametrize(
    ("speed", "angle_deg", "kept"),
    [
        (800.0, 0.0, True),  # head-on: the striker stops, the other goes on
        (2500.0, 0.0, True),
        (2500.0, 30.0, True),  # a glancing hit
        (1500.0, -45.0, True),
        (9000.0, 0.0, False),  # faster than any flick: beyond the physics gate, found again
    ],
)
def test_two_team_mates_colliding_keep_their_ids(
    speed: float, angle_deg: float, kept: bool
) -> None:
    """Equal masses, restitution 0.8: velocities exchange along the line of centres."""
    rng = np.random.default_rng(int(speed + angle_deg))
    rows = roster_rows()
    s, o = rows[5], rows[6]  # A6 strikes A7 (the others rest)
    rest = [r for r in rows if r not in (s, o)]
    start = np.array([s[2], s[3]])
    tgt = np.array([o[2], o[3]])
    n = np.array([math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))])
    hit_at = tgt - 60.0 * n  # where the striker's centre touches
    tr = Tracker()
    tf = tr.update(dets(rows, 0, rng))
    names = (id_at(tf, *start), id_at(tf, *tgt))
    # the striker is put 4.4 frames before the hit, on the line toward hit_at
    u = np.array([1.0, 0.0])
    v0 = speed * u
    pos0 = hit_at - v0 * 4.4 * DT
    for f in range(1, 4):  # it is moved there by hand first (hidden)
        tr.update(dets([*rest, o], f, rng, hands=[square(*pos0, 50.0)]))
    vn = (v0 @ n) * n
    v_s, v_o = v0 - 0.9 * vn, 0.9 * vn
    pa, pb = pos0.copy(), tgt.copy()
    for k in range(4, 24):
        t = (k - 4) * DT
        if t < 4.4 * DT:
            pa = pos0 + v0 * t
        else:
            after = t - 4.4 * DT
            pa, pb = hit_at + v_s * after, tgt + v_o * after
        tf = tr.update(dets([*rest, ("button", "A", *pa), ("button", "A", *pb)], k, rng))
    got = (id_at(tf, *pa), id_at(tf, *pb))
    assert (got == names) is kept


# ---------------------------------------------------------------------- motion state
def test_moving_state_has_hysteresis_and_rest_noise_never_moves() -> None:
    rng = np.random.default_rng(8)
    rows = roster_rows()
    tr = Tracker()
    flags = []
    x = rows[2][2]
    for f in range(120):
        speed = 0.0 if f < 30 or f >= 90 else 600.0 * (90 - f) / 60.0  # slides, slows, stops
        x += speed * DT
        moved = [(*rows[2][:2], x, rows[2][3]), *rows[:2], *rows[3:]]
        tf = tr.update(dets(moved, f, rng))
        if f == 0:
            name = id_at(tf, x, rows[2][3])
        flags.append(bool(tf.moving[tf.index(str(name))]))
        others = tf.moving[tf.ids != name]
        assert not others.any()
    flags_arr = np.array(flags)
    assert not flags_arr[:30].any()
    assert flags_arr[33:85].all()
    assert not flags_arr[95:].any()
    assert np.count_nonzero(np.diff(flags_arr.astype(int))) == 2  # one start, one stop


# ---------------------------------------------------------------------- returns
def test_arrumacao_puts_ids_back_by_their_setup_places() -> None:
    rng = np.random.default_rng(9)
    rows = roster_rows()
    tr = Tracker()
    tf = tr.update(dets(rows, 0, rng))
    home = {str(i): tf.xy_mm[k].copy() for k, i in enumerate(tf.ids)}
    # the A buttons wander (one at a time, between frames), then all go home at once
    shuffled = list(rows)
    for f in range(1, 80):
        k = 1 + (f % 10)
        r = shuffled[k]
        shuffled[k] = (r[0], r[1], r[2] + rng.uniform(-3, 3), r[3] + rng.uniform(-3, 3))
        tr.update(dets(shuffled, f, rng))
    scattered = [(r[0], r[1], r[2] + 45.0 * (k % 3), r[3] - 40.0) for k, r in enumerate(rows)]
    for f in range(80, 100):
        tr.update(dets(scattered, f, rng))
    for f in range(100, 105):
        tf = tr.update(dets(rows, f, rng))
    for pid, xy in home.items():
        assert id_at(tf, *xy) == pid


def test_settings_are_physical_defaults() -> None:
    cfg = TrackerConfig()
    assert cfg.max_speed_mm_s[0] >= 3000.0 and cfg.max_speed_mm_s[2] > cfg.max_speed_mm_s[0]
    assert cfg.moving_on_mm_s > cfg.moving_off_mm_s


def test_a_piece_off_the_table_comes_back_under_its_own_id_and_no_other_is_born() -> None:
    """A button leaves the field (no hand), is lost, and is put back elsewhere; a cup left on
    the table (a steady false button) never becomes a piece: the roster is full."""
    rng = np.random.default_rng(10)
    rows = roster_rows()
    out = rows[8]
    rest = [r for r in rows if r != out]
    cup = ("button", "B", 400.0, 600.0)
    tr = Tracker()
    name = id_at(tr.update(dets(rows, 0, rng)), out[2], out[3])
    for f in range(1, 150):  # five seconds off the table: lost
        tf = tr.update(dets([*rest, cup], f, rng))
    assert tf.status[tf.index(str(name))] == "lost"
    back = ("button", "A", out[2] + 250.0, out[3] - 120.0)
    for f in range(150, 160):
        tf = tr.update(dets([*rest, cup, back], f, rng))
    assert id_at(tf, back[2], back[3]) == name
    assert id_at(tf, cup[2], cup[3]) is None


def test_a_false_ball_that_never_moves_gives_way_to_the_ball_that_rolls() -> None:
    """The detector misses the ball on the centre spot and reports a mark as the ball; once
    the real ball is struck and rolls, the ball track follows it (there is one ball)."""
    rng = np.random.default_rng(12)
    rows = [r for r in roster_rows() if r[0] != "ball"]
    mark = ("ball", "", -60.0, -70.0)
    tr = Tracker()
    for f in range(20):
        tf = tr.update(dets([*rows, mark], f, rng))
    assert tf.xy_mm[tf.index("ball")].tolist() == pytest.approx([-60.0, -70.0], abs=2.0)
    for f in range(20, 32):
        ball = ("ball", "", 800.0 * (f - 19) * DT, 300.0 * (f - 19) * DT)
        tf = tr.update(dets([*rows, mark, ball], f, rng))
    assert tf.xy_mm[tf.index("ball")].tolist() == pytest.approx([ball[2], ball[3]], abs=3.0)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_ball_come_to_rest_and_then_unseen_stays_where_it_stopped(seed: int) -> None:
    """A ball rolls, slows and stops; then the detector misses it for a second (a hand's
    shadow, a miss): the coasting track holds the spot where it stopped instead of drifting
    on the velocity the filter kept (a real clip lost the ball so, 0.8 mm a frame)."""
    rng = np.random.default_rng(seed)
    rows = roster_rows()
    tr = Tracker()
    bx, v = 0.0, rng.uniform(300.0, 600.0)
    for f in range(150):
        bx += max(v * (1.0 - f / 45.0), 0.0) * DT  # stops at frame 45
        seen = f < 110
        frame_rows = rows[:-1] + ([("ball", "", bx, 0.0)] if seen else [])
        tf = tr.update(dets(frame_rows, f, rng))
    b = tf.index("ball")
    assert str(tf.status[b]) == "predicted" and not tf.moving[b]
    assert abs(tf.xy_mm[b, 0] - bx) < 3.0 and abs(tf.xy_mm[b, 1]) < 3.0


def _hand_play(carry: bool, seed: int) -> tuple[list[bool], int]:
    """A1's neighbour A2 (at -150, -450) moved for 10 frames from frame 4: carried by a hand
    (an 80 mm square beside it, 15 mm of felt off, moving with it at 1000 mm/s), or flicked
    from beside that hand (which stays) at 1000 mm/s, slowing by a tenth a frame. Returns the
    track's moving flags from frame 4 on, and the frame the hand is gone."""
    rng = np.random.default_rng(seed)
    base = roster_rows()
    tr = Tracker(TrackerConfig(fps=FPS))
    x, v, hx = -150.0, 0.0, -150.0
    flags = []
    for k in range(24):
        if k >= 4 and k < 14:
            v = 1000.0 if carry or k == 4 else v * 0.9
            x += v * DT
            if carry:
                hx = x
        elif k >= 14 and not carry:
            v *= 0.9
            x += v * DT if v > 30.0 else 0.0
        rows = list(base)
        rows[2] = ("button", "A", x, -450.0)
        hand = [square(hx, -450.0 - 30.0 - 15.0 - 40.0, 40.0)] if k < 16 else []
        tf = tr.update(dets(rows, k, rng, hands=hand))
        if k >= 4:
            flags.append(bool(tf.moving[tf.ids == id_at(tf, x, -450.0)][0]))
    return flags, 16


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_piece_carried_by_a_hand_is_not_moving(seed: int) -> None:
    """The hand moves along with it (a coach setting a restart, 000 REGRA 8): no slide, no
    lance for the engines (on a rendered ten-minute paulista match, seed 31, frame 6856, a
    carried button was read as a lance and its passing an opponent as a foul)."""
    flags, _ = _hand_play(carry=True, seed=seed)
    assert not any(flags)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_piece_flicked_from_beside_a_hand_still_moves(seed: int) -> None:
    """The hand stays where it flicked: the piece is flagged moving by its second frame."""
    flags, _ = _hand_play(carry=False, seed=seed)
    assert any(flags[:2]) and all(flags[2:8])


@pytest.mark.parametrize(
    ("hand_dx", "expected"),
    [(30.0, 1.0), (15.0, 0.5), (0.0, 0.0), (-30.0, -1.0)],  # with it, half, stayed, went back
)
def test_hand_follows_measures_the_hands_shift_along_a_step(
    hand_dx: float, expected: float
) -> None:
    """A 40 mm square hand 50 mm beside a piece stepping 30 mm along x (non-square steps: the
    hand also shifts 5 mm across, which the projection leaves out)."""
    before = [square(0.0, 80.0, 20.0)]
    after = [square(hand_dx, 85.0, 20.0)]
    got = hand_follows(before, after, np.array([[0.0, 30.0]]), np.array([[30.0, 30.0]]))
    assert got[0] == pytest.approx(expected, abs=0.05)


def test_hand_follows_is_nan_without_a_hand_near() -> None:
    far = [square(900.0, 600.0, 20.0)]
    got = hand_follows(
        far, far, np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([[30.0, 0.0], [1.0, 1.0]])
    )
    assert np.isnan(got).all()
    assert np.isnan(hand_follows([], far, np.zeros((1, 2)), np.ones((1, 2)))).all()


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("offset_mm", [8.0, 22.0])
def test_a_frozen_buttons_sliver_is_no_ball(seed: int, offset_mm: float) -> None:
    """Gaucha's ten minutes, frame 7224: a forearm laid over the resting ball and, 400 mm
    off, over a button, whose edge beside the arm was fitted as a ball; the ball's frozen
    track took it (a carry), and the flick that struck the real ball was lost. A ball seen
    inside a button frozen under a hand is that button's sliver (without the rule the ball's
    track jumps to it on every seed here)."""
    rng = np.random.default_rng(seed)
    rows = roster_rows()
    ball, btn = rows[-1], rows[3]  # the ball at the centre; an A button 400 mm off
    tr = Tracker()
    tf = tr.update(dets(rows, 0, rng))
    ib = tf.index("ball")
    x0, y0 = ball[2], ball[3]
    arm = np.array([[x0 - 40.0, y0 + 40.0], [btn[2] - 40.0, btn[3] - 40.0],
                    [btn[2] + 20.0, btn[3] - 40.0], [x0 + 40.0, y0 + 40.0]])  # fmt: skip
    under = [r for r in rows if r not in (ball, btn)]
    for f in range(1, 4):
        tf = tr.update(dets(under, f, rng, hands=[arm]))
    assert tf.status[ib] == "hidden"
    sliver = ("ball", "", btn[2] + offset_mm, btn[3] + 0.5 * offset_mm)
    for f in range(4, 10):
        tf = tr.update(dets([*under, sliver], f, rng, hands=[arm]))
    moved = float(np.hypot(*(tf.xy_mm[ib] - (x0, y0))))
    assert moved < 20.0


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("edge_mm", [(4.4, 1.0), (-3.0, 4.0), (2.0, -5.5)])
def test_a_piece_seen_again_at_its_place_after_a_fit_at_the_hands_edge_is_at_rest(
    seed: int, edge_mm: tuple[float, float]
) -> None:
    """Two team-mates rest under one hand. As it lifts, one is first fitted at the hand's
    edge a few mm off (half covered), then seen at its place: it never moved, so it is not
    flagged moving (gaucha's ten minutes, frame 11437: the 4.4 mm from that fit to the next,
    taken for 132 mm/s, made a flick out of turn that restarted a dead ball). Its team-mate,
    still covered, keeps its own id and place."""
    rng = np.random.default_rng(seed)
    rows = roster_rows()
    tr = Tracker()
    a, b = rows[4], rows[5]  # team A, 80 mm and 100 mm apart
    tf = tr.update(dets(rows, 0, rng))
    name_a, name_b = str(id_at(tf, a[2], a[3])), str(id_at(tf, b[2], b[3]))
    rest = [r for r in rows if r not in (a, b)]
    for f in range(1, 10):
        tr.update(dets(rows, f, rng))
    mid = ((a[2] + b[2]) / 2.0, (a[3] + b[3]) / 2.0)
    both = square(mid[0], mid[1], 110.0)
    for f in range(10, 20):  # both under the hand
        tf = tr.update(dets(rest, f, rng, hands=[both]))
    ka, kb = tf.index(name_a), tf.index(name_b)
    assert tf.status[ka] == tf.status[kb] == "hidden"
    on_b = square(b[2], b[3], 45.0)  # the hand moves on to b alone
    edge = ("button", "A", a[2] + edge_mm[0], a[3] + edge_mm[1])
    tf = tr.update(dets([*rest, edge], 20, rng, hands=[on_b]))
    moving = []
    for f in range(21, 40):
        tf = tr.update(dets([*rest, a], f, rng, hands=[on_b]))
        moving.append(bool(tf.moving[ka]))
    assert tf.xy_mm[ka].tolist() == pytest.approx([a[2], a[3]], abs=1.5)
    assert not any(moving)
    assert tf.status[kb] == "hidden"
    assert tf.xy_mm[kb].tolist() == pytest.approx([b[2], b[3]], abs=1.5)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("false_at", [(19.4, -123.6), (19.4, 123.6), (30.0, -100.0)])
def test_a_goalkeeper_under_a_hand_does_not_jump_to_a_fit_in_the_hand(
    seed: int, false_at: tuple[float, float]
) -> None:
    """A coach's hand over the goal area hides the goalkeeper, and the hand's edge 100-125 mm
    away is fitted as a goalkeeper (weakly, a loose fit): the goalkeeper's track stays at its
    place, and is found there again when the hand lifts - it never moved (paulista's ten
    minutes, frame 15991: the track jumped 125 mm into the hand, and its jump back as a button
    passed was taken for a flick that touched an opponent, a foul given to the wrong team). A
    goalkeeper is moved by its coach's hand, carried along, never flicked from under it."""
    rng = np.random.default_rng(seed)
    rows = roster_rows()
    tr = Tracker()
    keeper = rows[0]
    tf = tr.update(dets(rows, 0, rng))
    name = str(id_at(tf, keeper[2], keeper[3]))
    for f in range(1, 10):
        tr.update(dets(rows, f, rng))
    k = tf.index(name)
    rest = rows[1:]
    gx, gy = keeper[2] + false_at[0], keeper[3] + false_at[1]
    # the hand covers the keeper; its edge passes 3 mm beyond the false fit
    hand = square((keeper[2] + gx) / 2.0, (keeper[3] + gy) / 2.0, np.hypot(*false_at) / 2 + 3.0)
    for f in range(10, 13):
        tr.update(dets(rows, f, rng, hands=[hand]))
    for f in range(13, 21):
        d = dets([*rest, ("goalkeeper", "A", gx, gy)], f, rng, hands=[hand],
                 conf=[1.0] * len(rest) + [0.48])  # fmt: skip
        d.sigma_mm[-1] = 1.16
        tf = tr.update(d)
        assert tf.xy_mm[k].tolist() == pytest.approx([keeper[2], keeper[3]], abs=3.0)
        assert not tf.moving[k]
    for f in range(21, 30):
        tf = tr.update(dets(rows, f, rng))
        assert tf.xy_mm[k].tolist() == pytest.approx([keeper[2], keeper[3]], abs=3.0)
        assert not tf.moving[k]
    assert tf.status[k] == "seen"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_button_flicked_out_of_sight_is_found_again_as_itself_not_an_absent_slot(
    seed: int,
) -> None:
    """A drill's table (bench_offside): three buttons a team, seven slots a team never filled
    at setup. A6 is flicked from under its coach's hand and is not seen (a white button on a
    pale felt, blurred) until it stops 300 mm on, the hand still over its place: it is the
    frozen A button, not a piece that was never on the field."""
    rng = np.random.default_rng(seed)
    rows = [
        ("goalkeeper", "A", -990.0, 0.0),
        ("goalkeeper", "B", 990.0, 0.0),
        ("button", "A", 50.0, 240.0),
        ("button", "A", 230.0, 210.0),
        ("button", "A", 640.0, -65.0),
        ("button", "B", 690.0, 70.0),
        ("button", "B", 280.0, 420.0),
        ("button", "B", 230.0, -520.0),
        ("ball", "", 190.0, 145.0),
    ]
    tr = Tracker()
    tf = tr.update(dets(rows, 0, rng))
    flicked = id_at(tf, 50.0, 240.0)
    assert flicked is not None and (tf.status == "absent").sum() == 14
    hand = square(50.0, 300.0, 90.0)  # over A's place, reaching from the rail
    rest = [r for r in rows if r[2:] != (50.0, 240.0)]
    for f in range(1, 8):
        tf = tr.update(dets(rest, f, rng, hands=[hand]))
    assert tf.status[list(tf.ids).index(flicked)] == "hidden"
    for f in range(8, 20):  # out of sight on its way; then at rest far off, the hand still there
        seen = [("button", "A", 330.0, 20.0)] if f >= 14 else []
        tf = tr.update(dets(rest + seen, f, rng, hands=[hand]))
    assert id_at(tf, 330.0, 20.0) == flicked
    assert (tf.status == "absent").sum() == 14


@pytest.mark.parametrize(
    ("first_xy", "taken"),
    [
        ((860.0, 20.0), False),  # a goalkeeper's corners 900 mm off, fitted in turn
        ((60.0, 30.0), True),  # the ball flicked out from under the hand, rolling on
    ],
)
def test_a_ball_under_a_hand_is_not_replaced_by_a_far_ball_that_jitters(
    first_xy: tuple[float, float], taken: bool
) -> None:
    """The ball rests under a coach's hand (its track frozen); meanwhile the detector reports
    a 'ball' elsewhere, 40 mm apart from one frame to the next (offside drill 4005: two corners
    of a goalkeeper it took for a button). That is no ball come out of the hand: the frozen
    track stays. A ball seen rolling away from within its reach of the hand is the ball."""
    rng = np.random.default_rng(6)
    rows = [r for r in roster_rows() if r[0] != "ball"]
    tr = Tracker()
    for f in range(5):
        tf = tr.update(dets([*rows, ("ball", "", 0.0, 0.0)], f, rng))
    hand = [square(0.0, 0.0, 60.0)]
    fx, fy = first_xy
    for f in range(5, 10):
        k = f - 5
        if taken:  # rolling away at 1.2 m/s from where it was first seen
            b = ("ball", "", fx + 40.0 * k, fy)
        else:  # the two corners in turn
            b = ("ball", "", fx - 40.0 * (k % 2), fy)
        tf = tr.update(dets([*rows, b], f, rng, hands=hand))
    ball = tf.index("ball")
    if taken:
        assert str(tf.status[ball]) == "seen"
        assert tf.xy_mm[ball].tolist() == pytest.approx([b[2], b[3]], abs=5.0)
    else:
        assert str(tf.status[ball]) == "hidden"
        assert tf.xy_mm[ball].tolist() == pytest.approx([0.0, 0.0], abs=3.0)


@pytest.mark.parametrize(
    ("kind", "unseen", "moving_on_return"),
    [
        ("button", 11, False),  # carried unseen to a restart's spot: put down, at rest
        ("goalkeeper", 6, False),
        ("button", 2, True),  # a flicked button missed for two frames: its jump is its speed
        ("ball", 11, True),  # the ball, lost in its blur, is seen again on its way
    ],
)
def test_a_piece_seen_far_off_after_frames_unseen_starts_at_rest(
    kind: str, unseen: int, moving_on_return: bool
) -> None:
    """A piece unseen for some frames (not under a hand: its track coasts) and found 240 mm
    away where it then stays: where it went meanwhile, and when, nobody saw. The jump over
    the unseen frames was its velocity (11 frames: 650 mm/s, 'moving' for four frames and a
    lance read: brasileira's ten minutes, frame 14094, a button a coach's hand had carried to
    a goal kick's spot). After more than three frames unseen it starts at rest; the ball, and
    a piece missed for a frame or two, keep the jump as their speed (a piece flicked and lost
    to its blur moves on)."""
    rng = np.random.default_rng(14094)
    rows = roster_rows()
    i = next(j for j, r in enumerate(rows) if r[0] == kind and (kind == "ball" or r[1] == "A"))
    x0, y0 = rows[i][2], rows[i][3]
    x1, y1 = x0 + 170.0, y0 + 170.0
    tr = Tracker()
    tf = tr.update(dets(rows, 0, rng))
    name = id_at(tf, x0, y0)
    assert name is not None
    others = rows[:i] + rows[i + 1 :]
    for f in range(1, 20):
        tf = tr.update(dets(rows, f, rng))
    for f in range(20, 20 + unseen):
        tf = tr.update(dets(others, f, rng))
    flags = []
    for f in range(20 + unseen, 30 + unseen):
        tf = tr.update(dets([*others, (rows[i][0], rows[i][1], x1, y1)], f, rng))
        assert id_at(tf, x1, y1) == name
        flags.append(bool(tf.moving[tf.index(str(name))]))
    assert flags[0] == moving_on_return, flags
    assert not any(flags[5:]), flags  # at rest where it stays
