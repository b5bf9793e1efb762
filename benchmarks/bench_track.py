"""The tracker on seeded random matches: identities, the ball, contacts, speed and memory.

Usage: ``python -m benchmarks.bench_track [--seconds S] [--seeds 1 2 3] [--long S]
[--match S] [--video S]``.

Three parts. (1) :func:`clip_lines`: the real pipeline (calibration from the video, detector,
tracker) on a rendered random match, scored against its truth. (2) :func:`video_lines`: decode +
detect + track against decoding the same video alone, frames/s, CPU and resident memory, each
in a process of its own. (3) The tracker alone, fed *synthetic detections* made from
the simulator's truth (:func:`synthetic_detections`): every piece's footprint centre with
seeded Gaussian noise (``sigma_mm`` drawn per detection in 0.3-1 mm, more for a fast piece, as
motion blur does), missed detections, false positives anywhere on the field and on the hands,
pieces hidden under the coaches' hands (the hand and forearm of
:meth:`simulator.render.Renderer` projected onto the table through the camera: whatever a
piece's top shows behind them is gone) and partly covered pieces found with a larger error.
Collisions (buttons touching) come from the physics. :class:`Scorer` compares the tracks with
the truth: ids matched by the first frame (a permutation), then identity switches, the ball
tracked where it is visible, contact times, and moving/stopped agreement.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import linear_sum_assignment

from calibration.camera import Camera, preset_camera
from geometry.tablespec import TableSpec, load_table
from simulator.match import Match
from simulator.state import FrameTruth, Hand
from vision.detections import Detections
from vision.track_hands import polygon_signed_distance
from vision.tracker import Tracker, TrackFrame

FloatArray = NDArray[np.float64]

__all__ = ["Noise", "Scorer", "hand_polygons", "run_match", "synthetic_detections"]


@dataclass(frozen=True)
class Noise:
    """How the synthetic detector errs (per frame, seeded by the caller's generator)."""

    sigma_mm: tuple[float, float] = (0.3, 1.0)
    blur_sigma_per_m_s: float = 0.5  # extra sigma (mm) per m/s of speed
    p_miss: float = 0.01
    fp_per_frame: float = 0.05  # false pieces anywhere on the field
    fp_per_hand: float = 0.3  # a knuckle found as a button
    p_edge: float = 0.5  # a piece partly under a hand is found (with 3x the error)


def hand_polygons(hand: Hand, camera: Camera | None) -> list[FloatArray]:
    """The palm and forearm the renderer draws, as the table area they hide (mm, z = 0).

    Each 3D vertex is pushed along the camera's ray down to the table; without a camera, the
    vertical projection.
    """
    solids = hand.solids()
    if solids is None:
        return []
    palm, start, end, side = solids
    w = hand.width_mm
    arm = np.array(
        [
            start - side * 0.38 * w,
            end - side * 0.32 * w,
            end + side * 0.32 * w,
            start + side * 0.38 * w,
        ]
    )
    polys = [palm, arm]
    return [_down(p, camera) for p in polys]


def _down(xyz: FloatArray, camera: Camera | None, z_mm: float = 0.0) -> FloatArray:
    """Points pushed along the camera's rays to the plane ``z = z_mm``."""
    if camera is None:
        return np.asarray(xyz[:, :2], dtype=float)
    c = camera.centre_mm
    f = (c[2] - z_mm) / np.maximum(c[2] - xyz[:, 2], 1e-6)
    return np.asarray(c[None, :2] + (xyz[:, :2] - c[None, :2]) * f[:, None])


def _seen_height(ft: FrameTruth) -> FloatArray:
    """Height of what the camera sees of each piece: a top face, the ball's centre."""
    p = ft.pieces
    h = np.nan_to_num(p.height_mm, nan=10.0)
    return np.where(p.kind == "ball", p.size_mm[:, 0] / 2.0, h)


def synthetic_detections(
    ft: FrameTruth,
    rng: np.random.Generator,
    camera: Camera | None = None,
    noise: Noise | None = None,
    team_names: dict[str, str] | None = None,
) -> tuple[Detections, NDArray[np.bool_]]:
    """A detector's output for one frame of truth, and which pieces were visible.

    ``team_names`` renames the truth's teams (a detector with its own names).
    """
    nz = noise or Noise()
    p = ft.pieces
    n = len(p)
    hands = [poly for h in ft.hands for poly in hand_polygons(h, camera)]
    # Where each piece's seen point falls on the table, as the hands' polygons are expressed.
    top = np.column_stack([p.xy_mm, _seen_height(ft)])
    seen_at = _down(top, camera)
    depth = np.full(n, np.inf)
    for poly in hands:
        depth = np.minimum(depth, polygon_signed_distance(seen_at, poly))
    r = np.where(p.kind == "goalkeeper", p.size_mm[:, 1], p.size_mm[:, 0]) / 2.0
    visible = depth >= 0.0
    edge = visible & (depth < r)
    keep = visible & (rng.random(n) >= nz.p_miss)
    keep &= ~edge | (rng.random(n) < nz.p_edge)
    speed_m_s = np.hypot(*ft.vel_mm_s.T) / 1000.0
    sigma = rng.uniform(*nz.sigma_mm, n) + nz.blur_sigma_per_m_s * speed_m_s
    sigma = np.where(edge, 3.0 * sigma, sigma)
    xy = p.xy_mm + rng.normal(size=(n, 2)) * sigma[:, None]
    team = p.team.astype(object)
    if team_names:
        team = np.array([team_names.get(str(t), str(t)) for t in team], dtype=object)
    kinds = list(p.kind[keep])
    teams = list(team[keep])
    xys = list(xy[keep])
    sizes = list(p.size_mm[keep])
    angles = list(p.angle_rad[keep])
    sigmas = list(sigma[keep])
    # False pieces: anywhere on the field, and on the hands (a knuckle looks like a button).
    names = sorted({str(t) for t in team if t})
    n_fp = rng.poisson(nz.fp_per_frame)
    fp_xy = [rng.uniform([-1000.0, -700.0], [1000.0, 700.0]) for _ in range(n_fp)]
    for poly in hands[::2]:  # one a hand: its palm
        if rng.random() < nz.fp_per_hand:
            fp_xy.append(poly.mean(axis=0) + rng.normal(size=2) * 10.0)
    for q in fp_xy:
        kind = str(rng.choice(["button", "button", "button", "ball", "goalkeeper"]))
        kinds.append(kind)
        teams.append("" if kind == "ball" else str(rng.choice(names)) if names else "")
        xys.append(np.asarray(q, float))
        sizes.append(np.array([10.0, 10.0] if kind == "ball" else [60.0, 60.0]))
        angles.append(0.0)
        sigmas.append(1.0)
    m = len(kinds)
    det = Detections(
        kind=np.array(kinds, dtype=str).reshape(m),
        team=np.array(teams, dtype=str).reshape(m),
        xy_mm=np.array(xys, dtype=float).reshape(m, 2),
        uv_px=np.zeros((m, 2)),
        size_mm=np.array(sizes, dtype=float).reshape(m, 2),
        angle_rad=np.array(angles, dtype=float).reshape(m),
        confidence=np.ones(m),
        sigma_mm=np.array(sigmas, dtype=float).reshape(m),
        hands=hands,
        frame=ft.frame,
        t=ft.t,
    )
    return det, visible


@dataclass
class Scorer:
    """Tracks against the truth (module docstring). Feed :meth:`add` every frame."""

    fps: float = 30.0
    match_mm: float = 20.0  # a track within this of a piece is on it (the ball: half of it)
    ball_tracked_mm: float = 10.0  # the ball track is on the ball: within its diameter
    id_map: dict[str, str] = field(default_factory=dict)  # truth id -> track id
    switches: list[tuple[int, str, str, str]] = field(default_factory=list)
    frames: int = 0
    ball_visible: int = 0
    ball_tracked: int = 0
    ball_err_mm: list[float] = field(default_factory=list)
    pos_err_mm: list[float] = field(default_factory=list)
    moving_agree: int = 0
    moving_total: int = 0
    truth_contacts: list[tuple[float, frozenset[str], str, float]] = field(default_factory=list)
    track_contacts: list[tuple[float, frozenset[str], str]] = field(default_factory=list)
    _holder: dict[str, str] = field(default_factory=dict)

    def add(self, ft: FrameTruth, visible: NDArray[np.bool_], tf: TrackFrame) -> None:
        p = ft.pieces
        live = (tf.status == "seen") | (tf.status == "predicted")
        if not self.id_map:
            self.id_map = _first_map(ft, tf)
        rev = {v: k for k, v in self.id_map.items()}
        self.frames += 1
        for c in ft.contacts:
            if c.kind in ("piece-ball", "piece-piece"):
                self.truth_contacts.append((c.t, frozenset((c.a, c.b)), c.kind, c.impulse))
        for tc in tf.contacts:
            pair = frozenset((rev.get(tc.a, tc.a), rev.get(tc.b, tc.b)))
            self.track_contacts.append((tc.t, pair, tc.kind))
        # Who holds each visible piece: a Hungarian match of pieces and live tracks per kind.
        ti = np.flatnonzero(live)
        pi = np.flatnonzero(visible)
        diff = p.xy_mm[pi][:, None] - tf.xy_mm[ti][None]
        dist = np.hypot(diff[..., 0], diff[..., 1])
        gate = np.where(p.kind[pi] == "ball", p.size_mm[pi, 0] / 2.0, self.match_mm)[:, None]
        ok = (p.kind[pi][:, None] == tf.kind[ti][None]) & (dist <= gate)
        cost = np.where(ok, dist, 1e6)
        rr, cc = linear_sum_assignment(cost)
        good = cost[rr, cc] < 1e6
        holder = {
            str(p.ids[pi[r]]): str(tf.ids[ti[c]]) for r, c in zip(rr[good], cc[good], strict=True)
        }
        taken = set(self.id_map.values())
        for pid, tid in holder.items():
            if pid not in self.id_map and tid not in taken:  # a slot filled after setup
                self.id_map[pid] = tid
                taken.add(tid)
            before = self._holder.get(pid)
            if before is not None and before != tid:
                self.switches.append((ft.frame, pid, before, tid))
            self._holder[pid] = tid
            k = int(np.flatnonzero(p.ids == pid)[0])
            j = tf.index(tid)
            err = float(np.hypot(*(p.xy_mm[k] - tf.xy_mm[j])))
            if tf.status[j] == "seen":
                self.pos_err_mm.append(err)
            self.moving_total += 1
            self.moving_agree += int(bool(ft.moving[k]) == bool(tf.moving[j]))
        b = int(np.flatnonzero(p.kind == "ball")[0])
        if visible[b]:
            self.ball_visible += 1
            j = tf.index(self.id_map.get("ball", "ball"))
            err = float(np.hypot(*(p.xy_mm[b] - tf.xy_mm[j])))
            if live[j]:
                self.ball_err_mm.append(err)
            self.ball_tracked += int(live[j] and err <= self.ball_tracked_mm)

    def contact_stats(self, min_impulse: float = 0.0) -> dict[str, float]:
        """Truth contacts found (same pair, within 1.5 frames), and the time errors in frames."""
        truth = [c for c in self.truth_contacts if c[3] >= min_impulse]
        taken = np.zeros(len(self.track_contacts), dtype=bool)
        errs: list[float] = []
        for t, pair, _, _ in truth:
            best, bj = math.inf, -1
            for j, (tc, pc, _) in enumerate(self.track_contacts):
                if not taken[j] and pc == pair and abs(tc - t) < best:
                    best, bj = abs(tc - t), j
            if bj >= 0 and best * self.fps <= 1.5:
                taken[bj] = True
                errs.append(best * self.fps)
        e = np.array(errs) if errs else np.zeros(0)
        return {
            "truth": float(len(truth)),
            "found": float(len(errs)),
            "reported": float(len(self.track_contacts)),
            "false": float(len(self.track_contacts) - taken.sum()),
            "within_1_frame": float((e <= 1.0).sum()),
            "median_err_frames": float(np.median(e)) if len(e) else math.nan,
            "max_err_frames": float(e.max()) if len(e) else math.nan,
        }

    def summary(self) -> dict[str, float]:
        pe = np.array(self.pos_err_mm) if self.pos_err_mm else np.zeros(1)
        be = np.array(self.ball_err_mm) if self.ball_err_mm else np.zeros(1)
        wrong = sum(1 for p, t in self._holder.items() if self.id_map.get(p) != t)
        return {
            "frames": float(self.frames),
            "id_switches": float(len(self.switches)),
            "wrong_ids_at_end": float(wrong),
            "ball_visible": float(self.ball_visible),
            "ball_tracked_share": self.ball_tracked / max(self.ball_visible, 1),
            "ball_err_median_mm": float(np.median(be)),
            "pos_err_median_mm": float(np.median(pe)),
            "moving_agreement": self.moving_agree / max(self.moving_total, 1),
        }


def _first_map(ft: FrameTruth, tf: TrackFrame) -> dict[str, str]:
    """Truth id -> track id at the first frame (nearest, per kind)."""
    p = ft.pieces
    ti = np.flatnonzero(tf.status != "absent")
    diff = p.xy_mm[:, None] - tf.xy_mm[ti][None]
    cost = np.hypot(diff[..., 0], diff[..., 1])
    cost = np.where(p.kind[:, None] == tf.kind[ti][None], cost, 1e6)
    rr, cc = linear_sum_assignment(cost)
    return {
        str(p.ids[r]): str(tf.ids[ti[c]]) for r, c in zip(rr, cc, strict=True) if cost[r, c] < 50.0
    }


@dataclass
class RunResult:
    scorer: Scorer
    track_s: list[float]
    frames: int


def run_match(
    table: TableSpec,
    seed: int,
    seconds: float,
    camera: Camera | None,
    noise: Noise | None = None,
    fps: float = 30.0,
    tracker: Tracker | None = None,
    team_names: dict[str, str] | None = None,
    frames: Iterable[FrameTruth] | None = None,
) -> RunResult:
    """A seeded random match (or ``frames``), synthetic detections, the tracker, scored."""
    rng = np.random.default_rng(seed + 1000)
    if frames is None:
        frames = Match(table, "brasileira", seed=seed, fps=fps).frames(seconds)
    tr = tracker or Tracker()
    sc = Scorer(fps=fps)
    times: list[float] = []
    n = 0
    for ft in frames:
        det, vis = synthetic_detections(ft, rng, camera, noise, team_names)
        t0 = time.thread_time()  # CPU time: other processes on the machine do not count
        tf = tr.update(det)
        times.append(time.thread_time() - t0)
        sc.add(ft, vis, tf)
        n += 1
    return RunResult(sc, times, n)


def _memory_run(table: TableSpec, seconds: float, camera: Camera) -> list[float]:
    """Memory (MB) held by allocations made in ``vision/`` (the tracker), at each tenth of a
    long run: the simulator feeding it keeps its own growing logs, which do not count."""
    match = Match(table, "brasileira", seed=7, fps=30.0)
    rng = np.random.default_rng(7)
    dets = (synthetic_detections(ft, rng, camera)[0] for ft in match.frames(seconds))
    tr = Tracker()
    total = int(seconds * 30) + 1
    marks: list[float] = []
    mine = [tracemalloc.Filter(True, "*/vision/*")]
    tracemalloc.start()
    for k, det in enumerate(dets):
        tr.update(det)
        if k % max(total // 10, 1) == 0:
            gc.collect()  # what is held, not what awaits collection or sits in free lists
            snap = tracemalloc.take_snapshot().filter_traces(mine)
            marks.append(sum(st.size for st in snap.statistics("filename")) / 1e6)
    tracemalloc.stop()
    return marks


def run_clip(clip_dir: Path, calibrate: bool = True, max_frames: int | None = None) -> RunResult:
    """The whole pipeline on a clip from ``botao simulate --random-match``: its video through
    the real detector (the camera calibrated from the video when ``calibrate``, else the true
    one) and the tracker, scored against the match re-simulated from its seed.
    """
    from calibration.auto import calibrate_frames
    from calibration.camera import load_camera
    from vision.pipeline import iter_frames, track_video

    info = json.loads((clip_dir / "simulation.json").read_text())
    table = load_table(info["table"])
    true_cam = load_camera(clip_dir / "camera.json")
    video = clip_dir / "video.mp4"
    cam = true_cam
    if calibrate:
        result = calibrate_frames(iter_frames(video, limit=27), table)
        if not result.ok or result.camera is None:
            raise RuntimeError(f"calibration failed: {result.reason}")
        cam = result.camera
    truth = Match(table, info["rules"], seed=int(info["seed"]), fps=float(info["fps"]))
    frames = truth.frames(info["frames"] / info["fps"])
    sc = Scorer(fps=float(info["fps"]))
    times: list[float] = []
    n = 0
    t0 = time.perf_counter()
    for ft, tf in zip(frames, track_video(video, cam, table, info["rules"]), strict=False):
        times.append(time.perf_counter() - t0)
        sc.add(ft, _visible(ft, true_cam), tf)
        n += 1
        if max_frames is not None and n >= max_frames:
            break
        t0 = time.perf_counter()
    return RunResult(sc, times, n)


def _visible(ft: FrameTruth, camera: Camera) -> NDArray[np.bool_]:
    """The pieces whose seen point no hand covers (as :func:`synthetic_detections` decides)."""
    hands = [poly for h in ft.hands for poly in hand_polygons(h, camera)]
    seen_at = _down(np.column_stack([ft.pieces.xy_mm, _seen_height(ft)]), camera)
    depth = np.full(len(ft.pieces), np.inf)
    for poly in hands:
        depth = np.minimum(depth, polygon_signed_distance(seen_at, poly))
    return np.asarray(depth >= 0.0)


def _rss_mb(field: str = "VmRSS") -> float:
    """Resident memory of this process (MB): now (``VmRSS``) or its peak (``VmHWM``), from
    Linux's /proc; elsewhere the peak of ``getrusage``. (Not ``getrusage`` on Linux: a child's
    ``ru_maxrss`` starts at its parent's peak, which survives ``exec``.)"""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return float(line.split()[1]) / 1024.0
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def video_run(video: Path, mode: str) -> dict[str, object]:
    """Time one pass over ``video`` in this process: ``decode`` (every frame to BGR, as the
    pipeline decodes them) or ``track`` (:func:`vision.pipeline.track_video`: the background
    learned from the first seconds, then decode + detect + track every frame, the decoder a
    frame ahead in its own thread, the detector in a process of its own two frames ahead).
    Wall and CPU seconds (all threads, the detector's process included), the resident memory
    (this process's and the detector's) at each tenth of the frames and the peak (this
    process's plus the detector's, :mod:`benchmarks.procmem`)."""
    from benchmarks.procmem import ChildPeaks
    from calibration.camera import load_camera
    from vision.pipeline import iter_frames, track_video, video_size

    _, _, n_frames = video_size(video)
    step = max(n_frames // 10, 1)
    rss: list[float] = []
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    watch = ChildPeaks()
    t0, c0 = time.perf_counter(), time.process_time()
    n = 0
    if mode == "decode":
        frames: Iterable[object] = iter_frames(video)
    else:
        camera = load_camera(video.with_name("camera.json"))
        frames = track_video(video, camera, load_table("brasileira"))
    for _ in frames:
        if n % step == 0:
            watch.sample()
            rss.append(_rss_mb() + watch.rss_mb())
        n += 1
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    watch.stop()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu += (after.ru_utime - kids.ru_utime) + (after.ru_stime - kids.ru_stime)
    peak = _rss_mb("VmHWM") + watch.peak_mb()
    return {"frames": n, "wall_s": wall, "cpu_s": cpu, "rss_mb": rss, "peak_mb": peak}


def loop_video(src: Path, dst: Path, loops: int) -> None:
    """``src`` played ``loops`` times over into ``dst`` (its packets copied, not re-encoded;
    each pass's timestamps after the last one's)."""
    import av

    with av.open(str(src)) as probe:
        s_in = probe.streams.video[0]
        pts = [(p.pts, p.duration or 0) for p in probe.demux(s_in) if p.pts is not None]
        span = max(t + d for t, d in pts) - min(t for t, _ in pts)
    with av.open(str(dst), "w") as out:
        s_out = None
        for k in range(loops):
            with av.open(str(src)) as inp:
                s_in = inp.streams.video[0]
                if s_out is None:
                    s_out = out.add_stream_from_template(s_in)
                for p in inp.demux(s_in):
                    if p.dts is None:  # the demuxer's flush packet
                        continue
                    p.pts = None if p.pts is None else p.pts + k * span
                    p.dts += k * span
                    p.stream = s_out
                    out.mux(p)


def video_speed(
    seconds: float = 60.0, seed: int = 11, loops: int = 1
) -> dict[str, dict[str, object]]:
    """A seeded random match rendered at 1920 x 1080 (tilted preset camera, noise, blur,
    shadows and the coaches' hands; H.264), played ``loops`` times over (a long run for the
    memory), then decoded alone and tracked, each pass in a fresh process so that its peak
    memory is its own."""
    from simulator.clip import write_clip

    table = load_table("brasileira")
    out: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        frames = Match(table, "brasileira", seed=seed, fps=30.0).frames(seconds)
        cam = preset_camera("tilted", table, (1920, 1080))
        write_clip(frames, table, cam, tmp, 30.0, seed=seed)
        video = Path(tmp) / "video.mp4"
        if loops > 1:
            looped = Path(tmp) / "looped" / "video.mp4"
            looped.parent.mkdir()
            loop_video(video, looped, loops)
            (looped.parent / "camera.json").write_bytes((Path(tmp) / "camera.json").read_bytes())
            video = looped
        for mode in ("decode", "track"):
            load = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
            cmd = [sys.executable, "-m", "benchmarks.bench_track", "--video-run", str(video), mode]
            root = Path(__file__).resolve().parents[1]
            done = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=root)
            out[mode] = {**json.loads(done.stdout.strip().splitlines()[-1]), "load": load}
    return out


def video_lines(seconds: float = 60.0, loops: int = 10) -> list[str]:
    """Markdown lines: detect + track against decoding alone, speed and memory (over the
    clip played ``loops`` times)."""
    r = video_speed(seconds, loops=loops)
    dec, trk = r["decode"], r["track"]
    nf = float(trk["frames"])  # type: ignore[arg-type]
    f = {k: float(v) for k, v in trk.items() if k in ("wall_s", "cpu_s", "peak_mb", "load")}
    d = {k: float(v) for k, v in dec.items() if k in ("wall_s", "cpu_s", "peak_mb", "load")}
    rss = ", ".join(f"{m:.0f}" for m in trk["rss_mb"])  # type: ignore[attr-defined]
    return [
        "",
        f"**Video, real detector** (`vision.pipeline.track_video`): a {seconds:.0f} s random"
        " match rendered at 1920x1080 (tilted camera, noise, blur, hands, H.264)"
        + (
            f", played {loops} times over ({loops * seconds / 60:.0f} min, {nf:.0f} frames; the"
            " pieces jump back at each restart)"
            if loops > 1
            else f" ({nf:.0f} frames)"
        )
        + ", the true camera; each pass in its own process. Decode alone is PyAV to BGR,"
        " as the pipeline decodes. The track pass includes learning the background (a second"
        " decode of the first 10 s).",
        "",
        "| pass | frames/s (wall) | CPU ms/frame | peak RSS | load avg at start |",
        "| --- | ---: | ---: | ---: | ---: |",
        f"| decode alone | {nf / d['wall_s']:.1f} | {1e3 * d['cpu_s'] / nf:.1f} |"
        f" {d['peak_mb']:.0f} MB | {d['load']:.1f} |",
        f"| decode + detect + track | {nf / f['wall_s']:.1f} | {1e3 * f['cpu_s'] / nf:.1f} |"
        f" {f['peak_mb']:.0f} MB | {f['load']:.1f} |",
        f"| ratio (track / decode) | {f['wall_s'] / d['wall_s']:.1f}x wall |"
        f" {f['cpu_s'] / d['cpu_s']:.1f}x CPU | {f['peak_mb'] / d['peak_mb']:.1f}x | |",
        "",
        f"Target: >= 60 frames/s, peak RSS <= 500 MB and flat. RSS of the track pass at each"
        f" tenth of the clip (MB): {rss}.",
    ]


def clip_lines(seconds: float = 120.0, seed: int = 3) -> list[str]:
    """Markdown lines: the real detector and tracker on a rendered random match (issue 5,
    "Clips"), the camera estimated from the video by the project's calibration."""
    from monitor.cli import main as botao

    with tempfile.TemporaryDirectory() as tmp:
        argv = ["simulate", "--random-match", "--seconds", f"{seconds:g}", "--seed", str(seed)]
        argv += ["--camera", "tilted", "--resolution", "1920x1080", "--out", tmp]
        if botao(argv) != 0:
            raise RuntimeError("botao simulate failed")
        t0, c0 = time.perf_counter(), time.process_time()
        res = run_clip(Path(tmp), calibrate=True)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    s = res.scorer.summary()
    c = res.scorer.contact_stats()
    return [
        "",
        f"**Clip, real detector**: a seeded {seconds:.0f} s random match (seed {seed}) rendered"
        " at 1920x1080 (tilted camera, noise, blur, hands, H.264); the camera calibrated from"
        " the video (`calibration.auto.calibrate_frames`), the background learned from its"
        " first 10 s, then `vision.pipeline.track_video`; scored against the re-simulated"
        " truth as above.",
        "",
        "| id switches | wrong ids at end | ball tracked (visible frames) | ball error median"
        " | contacts found | within 1 frame | false contacts | moving agree"
        " | wall / CPU s per frame |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        f"| {s['id_switches']:.0f} | {s['wrong_ids_at_end']:.0f} |"
        f" {100 * s['ball_tracked_share']:.2f}% of {s['ball_visible']:.0f} |"
        f" {s['ball_err_median_mm']:.2f} mm | {c['found']:.0f}/{c['truth']:.0f} |"
        f" {c['within_1_frame']:.0f} | {c['false']:.0f} | {100 * s['moving_agreement']:.1f}% |"
        f" {wall / res.frames:.3f} / {cpu / res.frames:.3f} |",
        "",
        "Targets: 0 identity switches, ball tracked >= 99% of the frames where it is visible,"
        " contact times within one frame.",
    ]


HARSH = Noise(sigma_mm=(0.5, 2.0), p_miss=0.03, fp_per_frame=0.3, fp_per_hand=0.6)


def report(
    seconds: float = 120.0,
    seeds: tuple[int, ...] = (1, 2, 3),
    long_s: float = 600.0,
    video_s: float = 60.0,
    clip_s: float = 120.0,
    video_loops: int = 10,
) -> list[str]:
    table = load_table("brasileira")
    lines = [
        "## Tracker (synthetic detections from the simulator's truth)",
        "",
        f"Seeded {seconds:.0f} s random brasileira matches at 30 frames/s, 1920x1080 preset"
        " cameras. *Default* detections: 0.3-1 mm noise (+0.5 mm per m/s, x3 on a piece half"
        " under a hand), 1% missed, 0.05 false pieces a frame plus 0.3 per hand; *harsh*:"
        " 0.5-2 mm, 3% missed, 0.3 false pieces a frame plus 0.6 per hand. Pieces whose seen"
        " point a hand or forearm covers (as the camera sees it) are not detected. Odd seeds"
        " use the detector's own team names (red, blue). Ids are matched to the truth at the"
        " first frame; a switch is a piece held by another track than before. Ball tracked: a"
        " live ball track within 10 mm where the ball is visible. Contacts (piece-ball,"
        " piece-piece) matched by pair within 1.5 frames; hits: impulse >= 100 g mm/s. Track"
        " time is CPU time of `Tracker.update` alone. `python -m benchmarks.bench_track`.",
        "",
        "| seed | camera | noise | id switches | ball tracked | moving agree"
        " | contacts found (hits) | false | time err median, max (frames)"
        " | track ms/frame (median, p99) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    cams = ("overhead", "tilted", "wide")
    runs = [(seed, cams[k % 3], "default") for k, seed in enumerate(seeds)]
    runs += [(seed, cams[(k + 1) % 3], "harsh") for k, seed in enumerate(seeds)]
    for seed, cam_name, noise in runs:
        cam = preset_camera(cam_name, table, (1920, 1080))
        names = {"A": "red", "B": "blue"} if seed % 2 else None
        res = run_match(table, seed, seconds, cam, HARSH if noise == "harsh" else None, 30.0,
                        team_names=names)  # fmt: skip
        s = res.scorer.summary()
        c = res.scorer.contact_stats()
        h = res.scorer.contact_stats(min_impulse=100.0)
        ms = np.array(res.track_s) * 1e3
        lines.append(
            f"| {seed} | {cam_name} | {noise} | {s['id_switches']:.0f} |"
            f" {100 * s['ball_tracked_share']:.2f}% | {100 * s['moving_agreement']:.1f}% |"
            f" {c['found']:.0f}/{c['truth']:.0f} ({h['found']:.0f}/{h['truth']:.0f}) |"
            f" {c['false']:.0f} | {c['median_err_frames']:.2f}, {c['max_err_frames']:.2f} |"
            f" {np.median(ms):.2f}, {np.percentile(ms, 99):.2f} |"
        )
    if clip_s > 0:
        lines += clip_lines(clip_s)
    if video_s > 0:
        lines += video_lines(video_s, video_loops)
    if long_s > 0:
        marks = _memory_run(table, long_s, preset_camera("overhead", table, (1920, 1080)))
        lines += [
            "",
            f"Memory held by the tracker's allocations over a {long_s:.0f} s match"
            f" (tracemalloc, MB at each tenth): {', '.join(f'{m:.3f}' for m in marks)}.",
        ]
    return [*lines, ""]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=120.0)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--long", type=float, default=600.0, help="memory run length (s), 0: none")
    ap.add_argument("--clip", type=Path, help="a `botao simulate` folder: run the real detector")
    ap.add_argument("--true-camera", action="store_true", help="with --clip: skip calibration")
    ap.add_argument("--video", type=float, default=60.0, help="speed clip length (s), 0: none")
    ap.add_argument("--match", type=float, default=120.0, help="scored clip (s), 0: none")
    ap.add_argument("--video-loops", type=int, default=10, help="speed clip played N times")
    ap.add_argument("--video-run", nargs=2, metavar=("VIDEO", "MODE"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.video_run is not None:  # one timed pass, in a process of its own (see video_speed)
        print(json.dumps(video_run(Path(a.video_run[0]), a.video_run[1])))
        return 0
    if a.clip is not None:
        res = run_clip(a.clip, calibrate=not a.true_camera)
        ms = np.array(res.track_s) * 1e3
        print(res.scorer.summary(), res.scorer.contact_stats())
        print(
            f"detect + track per frame: median {np.median(ms):.1f} ms over {res.frames} frames;"
            f" mean {ms.mean():.1f}, p95 {np.percentile(ms, 95):.1f}, p99"
            f" {np.percentile(ms, 99):.1f}, max {ms.max():.1f} ms; over a frame's time (33.3 ms)"
            f" on {np.mean(ms > 1e3 / 30.0):.1%} of the frames"
        )
        return 0
    print("\n".join(report(a.seconds, tuple(a.seeds), a.long, a.video, a.match, a.video_loops)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
