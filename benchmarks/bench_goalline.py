"""Benchmark: the goal-line call, a test protocol after FIFA's, on the simulator at 1920x1080.

Each *rig* is a seeded random camera (height 1.3-2.2 m, tilt 0-25 deg, hfov 55-80 deg, k1),
felt, team designs, lighting, noise and JPEG; the camera is **estimated** by the project's
calibration from frames of a random match, and the detector learns the empty table from the
same frames - as on a real table - then watches the protocol's table for 1.5 s; each case is
measured by a copy of that detector (a clip of its own, as ``botao goal-line`` starts a
detector for each call). Calls are made by :func:`monitor.cmd_goalline.ball_track`
(fresh sub-pixel ball fits) and :func:`monitor.goalline.call_line` (sigma includes the
camera model's error, :func:`monitor.cmd_goalline.camera_sigma_mm`), with the line found by
itself.

- **Static**: the ball placed across each goal line in 0.1 mm steps from -1.0 to +1.0 mm (the
  margin of "wholly across the outer edge") at four places: the centre, beside each post (1 mm
  inside it) and partly hidden by a goalkeeper standing beside it (in front of it from the
  camera, placed where it covers about a third of the ball's silhouette as the camera sees
  it); three noisy frames of each.
  Correct: the right decision outside +/-0.5 mm; inside, the right one or TOO_CLOSE.
- **Dynamic**: the ball rolled (pymunk physics, 480 Hz) to stop at -2, -1, 0, +1, +2 mm,
  from 150-450 mm out at random angles; and shots that cross in motion into the net. The truth
  is the largest margin over every physics step (between the posts). The camera films on for
  a second after everything stopped. The call is asked about a moment within 0.2 s of the
  decisive one, on the frames of the second around it.
- **Near misses**: shots just wide of a post (crossing the line's plane up to 30 mm outside)
  and rollers stopping 0.5-3 mm short, 24 a rig by default (the issue asks for 200:
  ``--misses 100`` on two rigs). Target: zero false goals.

``python -m benchmarks.bench_goalline [--rigs N] [--stops N] [--shots N] [--misses N]
[--no-static]``.
"""

from __future__ import annotations

import argparse
import copy
import math
import sys
import time
from dataclasses import dataclass, field, replace

import numpy as np
import shapely

from benchmarks.bench_calibration import random_camera
from benchmarks.bench_detect import _style
from calibration.auto import calibrate_frames
from calibration.camera import Camera
from geometry.field import FieldModel
from geometry.pieces import Pieces, rectangle_corners
from geometry.tablespec import load_table
from monitor.cmd_goalline import ball_track, camera_sigma_mm
from monitor.goalline import Call, CallError, call_line, line_margins
from simulator import occlusion
from simulator.match import Match
from simulator.physics import BALL_TAU_S, TableWorld, speed_for_distance
from simulator.render import Renderer
from simulator.state import FrameTruth
from vision.detect import Detector

TABLE = load_table("brasileira")
FIELD = FieldModel(TABLE)
RULES = "brasileira"
R_MM = 5.0
FPS = 30.0
STEPS_PER_FRAME = 16  # 480 Hz physics
SIZE = (1920, 1080)
FILM_ON_S = 1.0  # the camera films on after the ball has stopped


@dataclass
class Rig:
    seed: int
    true_cam: Camera
    cam: Camera
    renderer: Renderer
    detector: Detector
    design: str
    ok: bool = True
    bars_over: bool = False  # the crossbars drawn over the pieces (hiding a ball under them)


def make_rig(seed: int, bars_over: bool = False) -> Rig:
    rng = np.random.default_rng(seed)
    true_cam, _, _ = random_camera(rng, TABLE, SIZE)
    style, design, _ = _style(rng)
    style = replace(style, bars_over_pieces=bars_over)
    if np.mean(style.field_bgr) > 150:
        # A league plays a white ball on dark felt and a coloured one on pale felt: the
        # detector is not told which (it learns the ball's colour), the renderer just draws it.
        style = replace(style, ball_bgr=(30, 140, 250))
        design += ", orange ball"
    renderer = Renderer(TABLE, true_cam, style, rng=seed)
    frames = list(Match(TABLE, RULES, seed=seed, fps=1.0).frames(15.0))
    images = [renderer.render(f) for f in frames]
    cal = calibrate_frames(iter(images), TABLE, max_frames=len(images), step=1)
    cam = cal.camera if cal.ok and cal.camera is not None else true_cam
    detector = Detector(cam, TABLE, RULES)
    detector.learn_background(images)
    _settle(detector, renderer)
    return Rig(seed, true_cam, cam, renderer, detector, design, bool(cal.ok), bars_over)


def _settle(detector: Detector, renderer: Renderer) -> None:
    """The detector watches the protocol's table for a while, as ``botao goal-line`` watches
    the second before the moment asked about: the pieces that rested while the table was
    learned and have gone since heal into it (``Background.heal``, a second), and the ball,
    seen on plain felt (its colour learned), is out of view for more frames than its last
    sighting is trusted.
    Each case is then measured by a copy of this detector (:func:`_fresh`): a case is a clip of
    its own, not the frames after the last case's (whose ball, a metre off three frames
    before, would be out of the case's ball's reach)."""
    pieces = _pieces((-600.0, -450.0), None)
    for k in range(round(_SETTLE_S * FPS)):
        detector.detect(renderer.render(_frame(k, pieces)), k, k / FPS)
    gone = pieces.select(pieces.kind != "ball")
    for k in range(round(_SETTLE_S * FPS), round((_SETTLE_S + 0.5) * FPS)):
        detector.detect(renderer.render(_frame(k, gone)), k, k / FPS)


_SETTLE_S = 1.5  # longer than the background's healing (vision.background._HEAL_S)


def _fresh(rig: Rig) -> Detector:
    """A copy of the rig's settled detector for one case (:func:`_settle`)."""
    return copy.deepcopy(rig.detector)


def _pieces(ball_xy: tuple[float, float], keeper: tuple[float, float, float] | None) -> Pieces:
    """The ball, both goalkeepers (one possibly placed) and four buttons far from the play."""
    ids = ["ball", "A1", "B1", "A2", "A3", "B2", "B3"]
    team = ["", "A", "B", "A", "A", "B", "B"]
    kind = ["ball", "goalkeeper", "goalkeeper", "button", "button", "button", "button"]
    xy = [
        ball_xy,
        (-991.5, -150.0),
        (991.5, 150.0),
        (-400, 200),
        (-250, -300),
        (300, 250),
        (150, -200),
    ]
    angle = [0.0, math.pi / 2, math.pi / 2, 0, 0, 0, 0]
    if keeper is not None:
        i = 1 if ball_xy[0] < 0 else 2
        xy[i] = keeper[:2]
        angle[i] = keeper[2]
    else:  # the defending goalkeeper in its area, clear of the ball
        i = 1 if ball_xy[0] < 0 else 2
        xy[i] = (xy[i][0], -120.0 if ball_xy[1] > 0 else 120.0)
    size = [[10, 10], [70, 15], [70, 15], [50, 50], [50, 50], [50, 50], [50, 50]]
    height = [10, 35, 35, 8, 8, 8, 8]
    return Pieces(
        np.array(ids),
        np.array(team),
        np.array(kind),
        np.array(xy, float),
        np.array(size, float),
        np.array(angle, float),
        np.array(height, float),
    )


def keeper_hiding(
    cam: Camera,
    ball_xy: np.ndarray,
    share: float = 0.35,
    min_cover: float = 0.0,
    bars: bool = False,
) -> tuple[float, float, float] | None:
    """A goalkeeper beside the ball (0.5 mm gap, long side facing it) placed around it where it
    hides closest to ``share`` of the ball's silhouette in camera ``cam``: only places where the
    box is in front of the ball (:func:`simulator.occlusion.in_front`; behind it, the ball hides
    part of the box, not the reverse) and hides more than ``min_cover`` of it. None where no
    place does. ``(x_mm, y_mm, angle_rad)``.

    With ``bars`` (the crossbars drawn over the pieces) the share is what the box and the bars
    together hide: a camera that sees a crossbar over the goal line (rig 300's right goal:
    half the ball at the line behind it) sees the ball partly hidden already, and the box adds
    as little as it can (placed to hide 35% of its own, it left a sliver of a tenth of the
    ball in sight)."""
    from vision.ball import sphere_outline
    from vision.table_masks import crossbar_hulls

    ball_poly = shapely.Polygon(sphere_outline(cam, np.array([*ball_xy, R_MM]), R_MM))
    ball_poly_seen = ball_poly
    if bars:
        hulls = [shapely.Polygon(q) for q in crossbar_hulls(cam, TABLE)]
        ball_poly_seen = ball_poly.difference(shapely.union_all(hulls))
    ball_solid = occlusion.sphere([*ball_xy, R_MM], R_MM)
    best, best_err = None, math.inf
    for a in np.radians(np.arange(0.0, 360.0, 10.0)):
        d = np.array([math.cos(a), math.sin(a)])
        c = ball_xy + d * (R_MM + 7.5 + 0.5)
        ang = a + math.pi / 2
        corners = rectangle_corners(c[None], np.array([[70.0, 15.0]]), np.array([ang]))[0]
        keeper = occlusion.box(corners, 0.0, 35.0)
        if not occlusion.in_front(keeper, ball_solid, cam.centre_mm):
            continue
        pts = np.array([[*p, z] for p in corners for z in (0.0, 35.0)])
        hull = shapely.MultiPoint(cam.table_to_image(pts)).convex_hull
        cover = ball_poly.intersection(hull).area / max(ball_poly.area, 1e-9)
        seen = ball_poly_seen.difference(hull).area / max(ball_poly.area, 1e-9)
        if cover > min_cover and abs(1.0 - seen - share) < best_err:
            best, best_err = (float(c[0]), float(c[1]), float(ang)), abs(1.0 - seen - share)
    return best


def _keeper_hiding(
    rig: Rig, ball_xy: np.ndarray, share: float = 0.35
) -> tuple[float, float, float] | None:
    """:func:`keeper_hiding` in the rig's true camera (the protocol's keeper place)."""
    return keeper_hiding(rig.true_cam, ball_xy, share, bars=rig.bars_over)


def _frame(k: int, pieces: Pieces, vel: np.ndarray | None = None) -> FrameTruth:
    n = len(pieces)
    v = np.zeros((n, 2)) if vel is None else vel
    return FrameTruth(k, k / FPS, pieces, v, np.hypot(*v.T) > 0)


@dataclass
class Tally:
    n: int = 0
    correct: int = 0
    too_close: int = 0
    wrong: list[str] = field(default_factory=list)
    errors_mm: list[float] = field(default_factory=list)
    z: list[float] = field(default_factory=list)  # (called - true) / sigma
    z_keeper: list[float] = field(default_factory=list)  # the same beside a goalkeeper
    false_goals: int = 0
    n_inside: int = 0  # cases whose truth lies within the +/-0.5 mm zone
    correct_inside: int = 0


def _score(t: Tally, truth_m: float, truth_goal: bool, call, what: str, zone: float = 0.5) -> None:
    t.n += 1
    inside = abs(truth_m) <= zone
    t.n_inside += inside
    t.correct_inside += inside and call.decision == ("GOAL" if truth_goal else "NO_GOAL")
    t.errors_mm.append(call.margin_mm - truth_m)
    if call.sigma_mm > 0:
        (t.z_keeper if " keeper " in what else t.z).append(
            (call.margin_mm - truth_m) / call.sigma_mm
        )
    right = "GOAL" if truth_goal else "NO_GOAL"
    if call.decision == "GOAL" and not truth_goal:
        t.false_goals += 1
    if call.decision == right:
        t.correct += 1
    elif call.decision == "TOO_CLOSE" and abs(truth_m) <= zone:
        t.too_close += 1
    else:
        t.wrong.append(
            f"{what}: truth {truth_m:+.2f} mm, called {call.decision} "
            f"{call.margin_mm:+.2f} +/- {call.sigma_mm:.2f} ({call.how})"
        )


def static_call(rig: Rig, ball: np.ndarray, keeper: tuple[float, float, float] | None) -> Call:
    """The goal-line call on a ball at rest at ``ball`` (table mm), a goalkeeper at ``keeper``
    if given: three frames, a clip of its own after the settled detector's frames. Raises
    :class:`monitor.goalline.CallError` where no call can be made."""
    pieces = _pieces((float(ball[0]), float(ball[1])), keeper)
    k = round(_SETTLE_S * FPS) + 30
    frames = [(k + j, rig.renderer.render(_frame(k + j, pieces))) for j in range(3)]
    track, _ = ball_track(_fresh(rig), frames, FPS)
    return call_line(track, R_MM, FIELD, sigma_floor_mm=camera_sigma_mm(rig.cam))


def static(rig: Rig, tally: Tally, inside: Tally) -> None:
    hl, gw = TABLE.half_length, TABLE.goal_width / 2.0
    for s in (1.0, -1.0):
        for place in ("centre", "post+", "post-", "keeper"):
            y = {
                "centre": 0.0,
                "post+": gw - R_MM - 1.0,
                "post-": -(gw - R_MM - 1.0),
                "keeper": 20.0,
            }[place]
            for m in np.round(np.arange(-1.0, 1.0001, 0.1), 2):
                ball = np.array([s * (hl + R_MM + m), y])
                # No place in front of the ball (none on the protocol's rigs): a free ball.
                keeper = _keeper_hiding(rig, ball) if place == "keeper" else None
                what = f"rig {rig.seed} {'right' if s > 0 else 'left'} {place} {m:+.1f}"
                t = inside if abs(m) <= 0.5 else tally
                try:
                    call = static_call(rig, ball, keeper)
                except CallError as exc:
                    t.n += 1
                    t.wrong.append(f"{what}: no call ({exc})")
                    continue
                _score(t, float(m), m > 0, call, what)


def _roll(
    start: np.ndarray,
    direction: float,
    speed: float,
    pieces: Pieces,
    seconds: float = 3.0,
    after_s: float = 0.0,
):
    """Physics from rest: the ball flicked; per-frame states and the largest goal margin.

    The physics stops once everything is still; the camera films on ``after_s`` longer (the
    ball stops from 30 mm/s, up to a millimetre after the last frame before it stops: a video
    cut there never shows where it came to rest)."""
    world = TableWorld(TABLE, pieces)
    world.flick("ball", direction, speed)
    frames, best, k = [], -math.inf, 0
    side = "right" if math.cos(direction) > 0 else "left"
    stopped_at = None
    for step in range(int((seconds + after_s) * 480) + 1):
        if step and stopped_at is None:
            world.step()
        x, y = world.position("ball")
        m, posts = line_margins(np.array([x, y]), R_MM, FIELD, f"goal_{side}")
        if posts is not None and posts[0] >= 0:
            best = max(best, float(m[0]))
        if step % STEPS_PER_FRAME == 0:
            p, vel = world.state()
            frames.append(_frame(k, p, vel))
            k += 1
        if stopped_at is None and step > 48 and world.all_stopped():
            stopped_at = step
        if stopped_at is not None and step - stopped_at >= after_s * 480:
            break
    final = float(line_margins(np.array(world.position("ball")), R_MM, FIELD, f"goal_{side}")[0][0])
    return frames, best, final


def _stop_speed(start: np.ndarray, direction: float, target_m: float, pieces: Pieces) -> float:
    """The flick speed whose roll stops the ball at ``target_m`` (bisection on the physics)."""
    hl = TABLE.half_length
    dist = (hl + R_MM + target_m - abs(start[0])) / abs(math.cos(direction))
    lo, hi = 0.5 * speed_for_distance(dist, BALL_TAU_S), 2.0 * speed_for_distance(dist, BALL_TAU_S)
    for _ in range(40):
        mid = (lo + hi) / 2
        _, _, final = _roll(start, direction, mid, pieces)
        if final < target_m:
            lo = mid
        else:
            hi = mid
        if hi - lo < 0.01:
            break
    return (lo + hi) / 2


def _call_on(rig: Rig, frames: list[FrameTruth], t_decisive: float, rng: np.random.Generator):
    at = t_decisive + rng.uniform(-0.2, 0.2)
    sel = [f for f in frames if abs(f.t - at) <= 0.5]
    imgs = [(f.frame, rig.renderer.render(f)) for f in sel]
    track, _ = ball_track(_fresh(rig), imgs, FPS)
    return call_line(track, R_MM, FIELD, at_t=at, sigma_floor_mm=camera_sigma_mm(rig.cam))


def dynamic(rig: Rig, n_stop: int, n_shot: int, n_miss: int, tallies: dict[str, Tally]) -> None:
    rng = np.random.default_rng(rig.seed + 7)
    hl, gw = TABLE.half_length, TABLE.goal_width / 2.0
    for i in range(n_stop + n_shot + n_miss):
        s = 1.0 if rng.random() < 0.5 else -1.0
        if i < n_stop:
            kind, target = "stop", float([-2, -1, 0, 1, 2][i % 5])
        elif i < n_stop + n_shot:
            kind, target = "shot", 0.0
        else:
            kind, target = ("wide" if rng.random() < 0.5 else "short"), 0.0
        dist = rng.uniform(150.0, 450.0)
        if kind == "wide":
            y_line = (gw + R_MM + rng.uniform(0.5, 30.0)) * (1 if rng.random() < 0.5 else -1)
        else:
            y_line = rng.uniform(-(gw - R_MM - 2.0), gw - R_MM - 2.0)
        ang = math.radians(rng.uniform(-35.0, 35.0))
        start = np.array([s * (hl - dist), y_line - math.tan(ang) * dist])
        if abs(start[1]) > TABLE.half_width - 20:
            start[1] = math.copysign(TABLE.half_width - 20, start[1])
        direction = (
            math.atan2(y_line - start[1], s * dist)
            if s > 0
            else math.atan2(y_line - start[1], -dist)
        )
        pieces = _pieces((float(start[0]), float(start[1])), None)
        if kind == "stop":
            speed = _stop_speed(start, direction, target, pieces)
        elif kind == "short":
            speed = _stop_speed(start, direction, -rng.uniform(0.5, 3.0), pieces)
        else:
            speed = rng.uniform(700.0, 2000.0)
        frames, best, final = _roll(start, direction, speed, pieces, after_s=FILM_ON_S)
        truth_goal = best > 0
        # the decisive moment: where the ball came nearest to (or furthest past) the line
        ms = [
            float(
                line_margins(
                    f.pieces.xy_mm[0], R_MM, FIELD, f"goal_{'right' if s > 0 else 'left'}"
                )[0][0]
            )
            for f in frames
        ]
        t_dec = frames[int(np.argmax(ms))].t
        try:
            call = _call_on(rig, frames, t_dec, rng)
        except CallError as exc:  # no ball found near the moment
            tallies[kind].n += 1
            tallies[kind].wrong.append(f"rig {rig.seed} {kind} {i}: no call ({exc})")
            continue
        truth_m = best if math.isfinite(best) else final
        _score(tallies[kind], truth_m, truth_goal, call, f"rig {rig.seed} {kind} {i}")


def report(
    rigs: int = 2,
    stops: int = 10,
    shots: int = 6,
    misses: int = 24,
    seed: int = 300,
    with_static: bool = True,
    bars_over: bool = False,
) -> list[str]:
    t0, c0 = time.perf_counter(), time.process_time()
    st, st_in = Tally(), Tally()
    dyn = {k: Tally() for k in ("stop", "shot", "wide", "short")}
    made = []
    for r in range(rigs):
        rig = make_rig(seed + r, bars_over)
        made.append(rig)
        if with_static:
            static(rig, st, st_in)
        dynamic(rig, stops, shots, misses, dyn)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0

    def pct(t: Tally) -> str:
        return f"{t.correct}/{t.n} = {100 * t.correct / max(t.n, 1):.1f}%"

    errs = np.abs(np.array(st.errors_mm + st_in.errors_mm))

    def row(label: str, t: Tally, inside: bool = False) -> str:
        ok = f"{t.correct}" if inside else pct(t)
        close = f"{t.too_close}" if inside or t.too_close else "-"
        return f"| {label} | {t.n} | {ok} | {close} | {len(t.wrong)} | {t.false_goals} |"

    def dyn_row(label: str, t: Tally) -> str:
        # the target is on the cases outside +/-0.5 mm; a stop aimed at 0 mm lands inside,
        # where TOO_CLOSE is right too
        out_n, out_ok = t.n - t.n_inside, t.correct - t.correct_inside
        ok = f"{out_ok}/{out_n} = {100 * out_ok / max(out_n, 1):.1f}% outside"
        if t.n_inside:
            ok += f"; {t.correct_inside} of {t.n_inside} inside"
        close = f"{t.too_close}" if t.too_close else "-"
        return f"| {label} | {t.n} | {ok} | {close} | {len(t.wrong)} | {t.false_goals} |"

    calibrated = sum(r.ok for r in made)
    lines = [
        "## Goal-line calls (issue 7)",
        "",
        f"{rigs} seeded rigs (`python -m benchmarks.bench_goalline --rigs {rigs} --seed {seed}"
        f"{' --bars-over' if bars_over else ''}`): random camera at 1920x1080, felt, designs,"
        " lighting, noise, JPEG"
        + ("; the crossbars drawn over the pieces" if bars_over else "")
        + "; the camera estimated"
        f" by the project's calibration ({calibrated}/{rigs} calibrated; else the true one) and"
        " the empty table learned from 15 frames of a random match. Decisions: GOAL / NO_GOAL /"
        " TOO_CLOSE (|margin| < 2 sigma).",
        "",
        "| test | cases | correct | TOO_CLOSE (inside +/-0.5 mm) | wrong | false goals |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
        row("static, outside +/-0.5 mm", st),
        row("static, inside +/-0.5 mm", st_in, inside=True),
    ]
    for k, label in (
        ("stop", "rolled to stop at -2..+2 mm"),
        ("shot", "shots crossing in motion"),
        ("wide", "shots just wide of a post"),
        ("short", "rollers stopping 0.5-3 mm short"),
    ):
        lines.append(dyn_row(label, dyn[k]))
    errs_txt = "-"
    if len(errs):
        errs_txt = (
            f"median {np.median(errs):.3f} mm, p95 {np.percentile(errs, 95):.3f} mm, "
            f"max {errs.max():.3f} mm"
        )

    def z_text(z: np.ndarray) -> str:
        if not len(z):
            return "-"
        return (
            f"mean {z.mean():+.2f}, std {z.std():.2f}, |z| > 2 on {np.mean(np.abs(z) > 2):.1%},"
            f" |z| > 3 on {np.mean(np.abs(z) > 3):.1%} of {len(z)}"
        )

    z_txt = z_text(np.array(st.z + st_in.z))
    z_txt += f"; beside a goalkeeper {z_text(np.array(st.z_keeper + st_in.z_keeper))}"
    z_txt += " (N(0,1): std 1, |z| > 2 on 4.6%, > 3 on 0.3%)"
    lines += [
        "",
        f"Static margin error |called - true|: {errs_txt}.",
        f"Static z = (called - true) / sigma, the centre and beside the posts: {z_txt}.",
        "Targets: static 100% correct outside +/-0.5 mm and TOO_CLOSE never wrong inside;"
        " dynamic >= 99% correct outside +/-0.5 mm; zero false goals."
        f" Wall {wall:.0f} s, CPU {cpu:.0f} s.",
    ]
    wrong = st.wrong + st_in.wrong + [w for t in dyn.values() for w in t.wrong]
    wrong.sort(key=lambda w: "called GOAL" not in w)  # false goals first
    if wrong:
        more = f" (the first 40 of {len(wrong)}, false goals first)" if len(wrong) > 40 else ""
        lines += ["", f"Wrong calls{more}:", ""] + [f"- {w}" for w in wrong[:40]]
    return lines


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_goalline")
    ap.add_argument("--rigs", type=int, default=2)
    ap.add_argument("--stops", type=int, default=10)
    ap.add_argument("--shots", type=int, default=6)
    ap.add_argument("--misses", type=int, default=24)
    ap.add_argument("--seed", type=int, default=300)
    ap.add_argument("--no-static", action="store_true", help="the dynamic parts only")
    ap.add_argument(
        "--bars-over",
        action="store_true",
        help="draw the crossbars over the pieces (a ball under a bar is behind it)",
    )
    a = ap.parse_args(argv)
    lines = report(a.rigs, a.stops, a.shots, a.misses, a.seed, not a.no_static, a.bars_over)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
