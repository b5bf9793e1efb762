"""``botao goal-line VIDEO --at T | --event N [--camera camera.json] --out call.png [--json]``.

Settles a disputed line call from a recorded video: the ball is fitted on every frame of the
two seconds around the moment (:class:`vision.detect.Detector`, sub-pixel silhouette fits with
their sigma, the empty table learned from the video's first seconds), the call is made by
:func:`monitor.goalline.call_line` (at rest: the resting frames; in motion: along the fitted
path between frames), and the graphic shows the camera's pixels magnified with the fitted ball
outline and the line's projected edges beside a top-down view with the margin in millimetres.

``--event N`` takes the moment of the N-th event (1-based) of ``--events`` (default: the
``events.jsonl`` beside the video); ``--line`` names the line (default: the one the ball comes
nearest to crossing). Exit status 0 with a decision (TOO_CLOSE included); 2 for bad input or
when no ball is found near the moment.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from calibration.camera import Camera
from geometry.field import FieldModel
from geometry.tablespec import TableSpec, load_table
from monitor.analyze import learn_frames, video_camera
from monitor.errors import UsageError
from monitor.goalline import LINES, BallTrack, Call, CallError, call_line
from monitor.source import SourceError, VideoFileSource
from rules.rulesets import get_ruleset

__all__ = ["add_parsers", "ball_track", "camera_sigma_mm", "measure", "run_goal_line"]

WINDOW_S = 1.0  # seconds each side of the moment
_AWAY_MM = 30.0  # a ball found farther than this from the last frame's: looked for there too
_STAY_MM = 3.0  # and a fit there kept within this of it (a ball at rest)
_STAY_EXPLAINED = 0.5  # explaining at least this share of its pixels
U8 = NDArray[np.uint8]
FloatArray = NDArray[np.float64]


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("goal-line", help="the line call at a moment: GOAL / NO_GOAL / TOO_CLOSE")
    p.add_argument("video", metavar="VIDEO")
    when = p.add_mutually_exclusive_group(required=True)
    when.add_argument("--at", type=float, help="the moment, seconds into the video")
    when.add_argument("--event", type=int, help="the N-th event (1-based) of --events")
    p.add_argument("--events", help="events.jsonl (default: the one beside the video)")
    p.add_argument("--camera", help="camera.json (default: calibrate on the first frames)")
    p.add_argument("--rules", default="brasileira", help="rule set (ball size, table)")
    p.add_argument("--table", help="table preset or .toml (default: the rule set's table)")
    p.add_argument("--line", choices=LINES, help="the line to judge (default: the nearest)")
    p.add_argument("--out", help="the graphic (PNG)")
    p.add_argument("--json", action="store_true", help="print call/1 JSON")
    p.set_defaults(func=run_goal_line)


def _moment(args: argparse.Namespace, fps: float) -> float:
    if args.at is not None:
        if args.at < 0:
            raise UsageError(f"--at: expected seconds >= 0, got {args.at}")
        return float(args.at)
    path = Path(args.events) if args.events else Path(args.video).with_name("events.jsonl")
    try:
        lines = [ln for ln in path.read_text("utf-8").splitlines() if ln.strip()]
    except OSError as exc:
        raise UsageError(f"--events {path}: {exc.strerror or exc}") from None
    if not 1 <= args.event <= len(lines):
        raise UsageError(f"--event: {path} has {len(lines)} events, got {args.event}")
    try:
        e = json.loads(lines[args.event - 1])
        return float(e["frame"]) / fps if "frame" in e else float(e["t"])
    except (ValueError, KeyError, TypeError):
        raise UsageError(f"{path}: event {args.event} is not an event/1 record") from None


def camera_sigma_mm(camera: Camera) -> float:
    """The camera model's own 1-sigma (mm) at a point of the table, from its calibration's
    figures: the markings' edge points scatter by ``rms_mm`` across the lines, and the points
    of one marking share much of their error (its edge found a little off along its length:
    blur, JPEG, shading), while the markings' errors are independent; the model, pinned by
    all ``markings_used``, is off by about one marking's error over the square root of their
    number. ``rms_mm`` itself would be the error of a single edge point (which overstated the
    calls' sigma twice over, bench_goalline), and none is known for an uncalibrated camera (0).
    """
    rms = camera.rms_mm
    if rms is None or not math.isfinite(rms):
        return 0.0
    return float(rms) / math.sqrt(max(len(camera.markings_used or ()), 1))


def ball_track(
    detector: Any, frames: Iterable[tuple[int, U8]], fps: float
) -> tuple[BallTrack, dict[int, U8]]:
    """The ball fitted afresh on each ``(index, image)`` (:meth:`Detector.refit_ball` after the
    detector found it: no fit kept from an earlier frame), and the images by index. Where the
    detector reports no ball within :data:`_AWAY_MM` of the last frame's, the ball is fitted
    afresh there too and kept if it stayed (``tests/monitor/test_goalline_track.py``)."""
    from vision.ball_search import ball_fit_ok
    from vision.detect import ball_sigma_axes_mm, ball_sigma_mm

    ks, ts, xys, sigmas, axes = [], [], [], [], []
    images: dict[int, U8] = {}
    last: FloatArray | None = None
    for k, img in frames:
        det = detector.detect(img, k, k / fps)
        balls = np.flatnonzero(det.kind == "ball")
        xy, sig = np.full(2, np.nan), np.nan
        sig_axes = np.full(2, np.nan)
        if len(balls):
            if last is not None and len(balls) > 1:
                j = balls[np.argmin(np.hypot(*(det.xy_mm[balls] - last).T))]
            else:
                j = balls[np.argmax(det.confidence[balls])]
            xy, sig = det.xy_mm[j], float(det.sigma_mm[j])
            sig_axes = np.full(2, sig)
            fit = detector.refit_ball(xy)
            if fit is not None and np.isfinite(fit.xy_mm).all() and np.hypot(*(fit.xy_mm - xy)) < 5:
                xy, sig = fit.xy_mm, ball_sigma_mm(fit)  # as the detector reports it
                sig_axes = ball_sigma_axes_mm(fit)
        if last is not None and not (np.hypot(*(xy - last)) < _AWAY_MM):
            # none found near where the ball just was, or one far off (a piece's edge while
            # the ball hides behind a goalkeeper): fitted afresh there, kept if it stayed
            fit = detector.refit_ball(last)
            if ball_fit_ok(fit) and fit.explained >= _STAY_EXPLAINED:
                assert fit is not None
                if np.hypot(*(fit.xy_mm - last)) < _STAY_MM:
                    xy, sig = fit.xy_mm, ball_sigma_mm(fit)
                    sig_axes = ball_sigma_axes_mm(fit)
        if np.isfinite(xy).all():
            last = xy
        ks.append(k)
        ts.append(k / fps)
        xys.append(xy)
        sigmas.append(sig)
        axes.append(sig_axes)
        images[k] = img
    track = BallTrack(
        np.array(ks, np.int64),
        np.array(ts),
        np.array(xys).reshape(-1, 2),
        np.array(sigmas),
        np.array(axes).reshape(-1, 2),
    )
    return track, images


def measure(
    source: VideoFileSource,
    camera: Camera,
    table: TableSpec,
    rules_name: str,
    t_at: float,
    window_s: float = WINDOW_S,
) -> tuple[BallTrack, dict[int, U8]]:
    """The ball fitted on every frame within ``window_s`` of ``t_at`` (the empty table learned
    from frames spread over the video's first ten seconds); also the frames' images."""
    from vision.detect import Detector

    fps = source.fps
    k0 = max(round((t_at - window_s) * fps), 0)
    k1 = round((t_at + window_s) * fps)
    detector = Detector(camera, table, rules_name)
    detector.learn_background(learn_frames(source, fps))
    window = itertools.takewhile(lambda f: f[0] <= k1, source.frames(start=k0))
    track, images = ball_track(detector, window, fps)
    if not len(track):
        raise UsageError(f"{source.path}: the video has no frames near t = {t_at:.2f} s")
    return track, images


def run_goal_line(args: argparse.Namespace) -> int:
    rules = get_ruleset(args.rules)
    table = load_table(args.table or rules.table or "brasileira")
    try:
        source = VideoFileSource(args.video)
    except SourceError as exc:
        raise UsageError(str(exc)) from None
    t_at = _moment(args, source.fps)
    camera, _ = video_camera(source, args.camera, table, None)
    track, images = measure(source, camera, table, rules.name, t_at)
    assert rules.pieces is not None
    r = rules.pieces.ball_diameter / 2.0
    floor = camera_sigma_mm(camera)
    try:
        call = call_line(
            track, r, FieldModel(table), line=args.line, at_t=t_at, sigma_floor_mm=floor
        )
    except CallError as exc:
        raise UsageError(f"{args.video} at t = {t_at:.2f} s: {exc}") from None
    if args.out:
        from monitor.goalline_graphic import draw_call

        draw_call(images[call.frame], camera, table, rules, call, args.out)
    if args.json:
        print(json.dumps(call.to_dict()))
    else:
        _print(call, args.out)
    return 0


def _print(call: Call, out: str | None) -> None:
    words = call.decision.replace("_", " ")
    print(
        f"{words}: {call.line}, t = {call.t:.3f} s (frame {call.frame}), the ball "
        f"{call.margin_mm:+.2f} mm wholly across the line's outer edge, "
        f"sigma {call.sigma_mm:.2f} mm"
        f" ({call.how})" + (f"; graphic {out}" if out else "")
    )
