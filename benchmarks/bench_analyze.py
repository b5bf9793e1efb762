"""Benchmark: ``botao analyze`` end to end, through the camera (issue 6).

Two parts:

- **Speed**: a seeded random match rendered at 1920x1080 (tilted preset camera, noise, blur,
  the coaches' hands; H.264) is decoded alone and analysed (calibration given, the
  background learned, detect + track + engine + events + tracks.csv + annotated.mp4 +
  report.html), each pass in a fresh process. Frames per second, CPU time, peak memory.
- **Events through the camera**: per rule set, a seeded random match rendered at 1920x1080,
  analysed from the video alone with the camera the project's own calibration finds; its
  events are matched to the simulator's truth (:func:`monitor.compare.score`: same type and
  key, within 2 frames; piece ids mapped from the first frame). Latency: the frame at which
  each event was written minus its decisive frame.

The engines' own figures on 10-minute matches of tracked truth are in ``bench_engine``.

Usage: ``python -m benchmarks.bench_analyze [--seconds S] [--speed-seconds S] [--rules NAME]
[--seed N] [--clip DIR]`` (``--speed-seconds 0``: no speed part; ``--clip``, one rule set: the
match rendered into DIR, or the one already there analysed: a 10-minute match renders in about
620 s of CPU, which need not be spent twice). The truth events are always recomputed from the
simulator by the current code's perfect referee (seconds, not the render), never read from an
older clip's ``events.jsonl``.

A ``--clip`` run keeps what the rule engine was fed in ``DIR/analysis/engine_in.npz``
(:mod:`rules.engine.inputs`); ``--clip DIR --replay`` feeds it to this code's engine under
``--rules`` (any rule set: the recorded tracks are the video's) and scores it the same way, in
seconds, without analysing the video again: for changes to ``rules`` only (a change to vision
needs the video analysed again). No CPU figure then.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.bench_track import _rss_mb
from calibration.camera import preset_camera
from geometry.tablespec import load_table
from monitor.compare import score
from monitor.demo import SCORED, id_map_from_tracks
from rules.rulesets import get_ruleset
from simulator.clip import write_clip
from simulator.match import Match
from simulator.state import FrameTruth
from simulator.truth import Referee

RULES = ("nacional", "brasileira", "gaucha", "paulista", "mesa-posta")
SECONDS = 30.0
SPEED_SECONDS = 30.0
SEED = 21
RESOLUTION = (1920, 1080)
#: the engine inputs a --clip run keeps in DIR/analysis (rules.engine.inputs), for --replay
INPUTS = "engine_in.npz"


def _render(
    rules: str, seconds: float, seed: int, out: Path
) -> tuple[dict[int, FrameTruth], dict[str, str]]:
    table = load_table(get_ruleset(rules).table)
    match = Match(table, rules, seed=seed, fps=30.0)
    states: dict[int, FrameTruth] = {}

    def tap(frames: Any) -> Any:
        for f in frames:
            states[f.frame] = f
            yield f

    cam = preset_camera("tilted", table, RESOLUTION)
    write_clip(
        tap(match.frames(seconds)),
        table,
        cam,
        out,
        30.0,
        rules_name=rules,
        teams=match.teams,
        seed=seed,
    )
    return states, dict(match.teams)


def speed_run(video: Path, mode: str) -> dict[str, Any]:
    """One pass in this process: ``decode`` (every frame to BGR), ``analyze`` (as ``botao
    analyze``: the detector in a process of its own, two frames ahead) or ``analyze-here``
    (the detector in this process). CPU and peak memory count the detector's process too
    (its peak, sampled while it runs, added to this one's: :mod:`benchmarks.procmem`)."""
    from benchmarks.procmem import ChildPeaks
    from monitor.analyze import analyze
    from monitor.source import VideoFileSource

    if mode not in ("decode", "analyze", "analyze-here"):
        raise SystemExit(f"--speed-run: mode must be decode, analyze or analyze-here, not {mode}")

    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    watch = ChildPeaks()
    t0, c0 = time.perf_counter(), time.process_time()
    if mode == "decode":
        n = sum(1 for _ in VideoFileSource(video).frames())
    else:
        ahead = 2 if mode == "analyze" else 0
        with tempfile.TemporaryDirectory() as tmp:
            s = analyze(
                video, tmp, "brasileira", video.with_name("camera.json"), detect_ahead=ahead
            )
            n = s.frames
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    watch.stop()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu += (after.ru_utime - kids.ru_utime) + (after.ru_stime - kids.ru_stime)
    peak = _rss_mb("VmHWM") + watch.peak_mb()
    return {"frames": n, "wall_s": wall, "cpu_s": cpu, "peak_mb": peak}


def speed(seconds: float = SPEED_SECONDS, seed: int = SEED) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        _render("brasileira", seconds, seed, Path(tmp))
        video = Path(tmp) / "video.mp4"
        root = Path(__file__).resolve().parents[1]
        for mode in ("decode", "analyze"):
            load = os.getloadavg()[0]
            cmd = [
                sys.executable,
                "-m",
                "benchmarks.bench_analyze",
                "--speed-run",
                str(video),
                mode,
            ]
            done = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=root)
            out[mode] = {**json.loads(done.stdout.strip().splitlines()[-1]), "load": load}
    return out


class ClipMismatch(ValueError):
    """A clip rendered from another match than the code plays (one line naming it)."""


def _truth(
    rules: str, seconds: float, seed: int, clip: Path | None = None
) -> tuple[dict[int, FrameTruth], list[dict[str, Any]]]:
    """The simulator's states of a match's first minute (what the id map needs: where each
    track was first seen) and its truth events, recomputed by this code's perfect referee (no
    rendering; a clip's own ``events.jsonl`` may come from older code). The match reacts to
    the referee's calls (its restarts), so code that calls differently plays another match:
    the contacts must be the ones ``clip`` was rendered with, else :class:`ClipMismatch`."""
    table = load_table(get_ruleset(rules).table)
    match = Match(table, rules, seed=seed, fps=30.0)
    referee = Referee(table, rules, dict(match.teams))
    states: dict[int, FrameTruth] = {}
    events: list[dict[str, Any]] = []
    contacts: list[tuple[int, str, str, str]] = []
    for f in match.frames(seconds):
        if f.t < 60.0:
            states[f.frame] = f
        events += referee.update(f)
        contacts += [(f.frame, c.a, c.b, c.kind) for c in f.contacts]
    rendered = clip / "contacts.jsonl" if clip is not None else None
    if rendered is not None and rendered.is_file():
        rows = [json.loads(x) for x in rendered.read_text("utf-8").splitlines()]
        if [(r["frame"], r["a"], r["b"], r["kind"]) for r in rows] != contacts:
            raise ClipMismatch(
                f"{rendered}: the clip was rendered from another match than this code plays "
                f"(rules {rules}, seed {seed}, {seconds:g} s): render it again"
            )
    return states, events


def events_run(
    rules: str, seconds: float, seed: int, clip_dir: Path | None = None
) -> dict[str, Any]:
    """Render (into ``clip_dir`` if given, or use the clip already there), analyse from the
    video alone (self-calibrated), score against the truth."""
    from monitor.analyze import analyze

    with tempfile.TemporaryDirectory() as tmp:
        clip = clip_dir if clip_dir is not None else Path(tmp)
        if not (clip / "video.mp4").is_file():
            _render(rules, seconds, seed, clip)
        states, truth = _truth(rules, seconds, seed, clip)
        if clip_dir is not None:
            shutil.rmtree(clip / "analysis", ignore_errors=True)
        done = {"n": 0}
        latency: list[int] = []
        # (frames late, type, frame, piece, frames judged when written) over 2 frames late
        late: list[tuple[int, str, int, str, int]] = []

        def on_event(e: dict[str, Any]) -> None:
            latency.append(done["n"] - e["frame"])
            if latency[-1] > 2:
                late.append((latency[-1], str(e["type"]), int(e["frame"]), _bodies(e), done["n"]))

        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0, c0 = time.perf_counter(), time.process_time()
        s = analyze(
            clip / "video.mp4",
            clip / "analysis",
            rules,
            write_video=False,
            progress=lambda n, _: done.__setitem__("n", n),
            on_event=on_event,
            record_inputs=clip / "analysis" / INPUTS if clip_dir is not None else None,
        )
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the detector's process
        cpu += (after.ru_utime - kids.ru_utime) + (after.ru_stime - kids.ru_stime)
        found = [
            json.loads(x)
            for x in (clip / "analysis" / "events.jsonl").read_text("utf-8").splitlines()
        ]
        id_map = id_map_from_tracks(clip / "analysis" / "tracks.csv", states)
        scores = {k: score(truth, found, k, 2, id_map) for k in SCORED}
        late_unseen = _late_while_unseen(clip / "analysis" / "tracks.csv", late)
    return {
        "rules": rules,
        "frames": s.frames,
        "wall_s": wall,
        "cpu_s": cpu,
        "scores": {k: (v.truth, v.engine, v.matched) for k, v in scores.items()},
        "latency_max": max(latency, default=0),
        "latency_over_2": sum(1 for x in latency if x > 2),
        "events": len(latency),
        "late": sorted(late, reverse=True),
        "late_unseen": late_unseen,
        "camera": s.camera,
    }


def replay_run(rules: str, seconds: float, seed: int, clip: Path) -> dict[str, Any]:
    """:func:`events_run`'s figures from the engine inputs an earlier run recorded in ``clip``
    (``analysis/engine_in.npz``), fed to this code's engine under ``rules`` (the same video
    serves every rule set on its table): no video analysed, so no CPU figure. The latency is
    the frames fed between an event's frame and the call that decided it, as events_run
    counts it."""
    from rules.engine.inputs import replay

    path = clip / "analysis" / INPUTS
    if not path.is_file():
        raise ClipMismatch(f"{path}: no recorded engine inputs (run with --clip first)")
    states, truth = _truth(rules, seconds, seed, clip)
    out = clip / f"replay-{rules}"
    out.mkdir(exist_ok=True)
    pairs = replay(path, rules)
    found = [e for e, _ in pairs]
    with open(out / "events.jsonl", "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(e) + "\n" for e in found)
    latency = [written - int(e["frame"]) for e, written in pairs]
    late = [
        (n, str(e["type"]), int(e["frame"]), _bodies(e), written)
        for (e, written), n in zip(pairs, latency, strict=True)
        if n > 2
    ]
    tracks = clip / "analysis" / "tracks.csv"
    id_map = id_map_from_tracks(tracks, states)
    scores = {k: score(truth, found, k, 2, id_map) for k in SCORED}
    return {
        "rules": rules,
        "frames": _frames_fed(path),
        "wall_s": math.nan,
        "cpu_s": math.nan,
        "scores": {k: (v.truth, v.engine, v.matched) for k, v in scores.items()},
        "latency_max": max(latency, default=0),
        "latency_over_2": len(late),
        "events": len(latency),
        "late": sorted(late, reverse=True),
        "late_unseen": _late_while_unseen(tracks, late),
        "camera": "recorded",
    }


def _frames_fed(path: Path) -> int:
    from rules.engine.inputs import load_inputs

    return len(load_inputs(path)[1])


def _pct(m: int, n: int) -> str:
    return f"{m}/{n}" if n else "-"


def report(
    seconds: float = SECONDS,
    speed_seconds: float = SPEED_SECONDS,
    rules: tuple[str, ...] = RULES,
    seed: int = SEED,
    clip_dir: Path | None = None,
    replayed: bool = False,
) -> list[str]:
    lines = ["## `botao analyze` end to end (issue 6)", ""]
    if speed_seconds > 0:
        lines += _speed_lines(speed_seconds)
    lines += [
        f"**Events through the camera**: per rule set a {seconds:.0f} s random match (seed "
        f"{seed}) rendered at 1920x1080 (tilted camera, hands), analysed from the video alone "
        "(the camera calibrated from its first frames), matched to the simulator's truth "
        "(same type and key, within 2 frames; piece ids mapped at the first frame). Cells: "
        "matched / truth (recall) and matched / found (precision).",
        "",
        "| rule set | frames | "
        + " | ".join(f"{k} recall, precision" for k in SCORED)
        + " | events written > 2 frames late (of them, > 2 frames after the camera saw the ball"
        " and the piece again) | CPU ms/frame |",
        "| --- | ---: | " + " | ".join("---" for _ in SCORED) + " | ---: | ---: |",
    ]
    late_lines = []
    for r in rules:
        ev = (
            replay_run(r, seconds, seed, clip_dir)
            if replayed and clip_dir is not None
            else events_run(r, seconds, seed, clip_dir)
        )
        if ev["late"]:
            worst = ", ".join(f"{k} {f} (+{n})" for n, k, f, _, _ in ev["late"][:12])
            late_lines.append(f"- {r}, written > 2 frames late (worst first): {worst}")
        cells = []
        for k in SCORED:
            t, e, m = ev["scores"][k]
            cells.append(f"{_pct(m, t)}, {_pct(m, e)}")
        cpu_ms = 1000 * ev["cpu_s"] / max(ev["frames"], 1)  # nan: replayed
        late = (
            f"{ev['latency_over_2']} of {ev['events']} (max {ev['latency_max']}; "
            f"{ev['latency_over_2'] - ev['late_unseen']} > 2 frames after both were in sight)"
        )
        lines.append(
            f"| {r} | {ev['frames']} | " + " | ".join(cells) + f" | {late} | {cpu_ms:.0f} |"
        )
    lines += ["", *late_lines] if late_lines else []
    lines += [
        "",
        "Targets (issue 6): precision and recall >= 98% for goal, ball_out, foul, touch and "
        "offside; events within 2 frames. The engines alone on tracked truth: `bench_engine`.",
        f"Load average when this section ended: {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} cores.",
    ]
    return lines


def _bodies(e: dict[str, Any]) -> str:
    """The bodies an event is about, ``+``-joined: a foul's offender and victim, a contact's
    two pieces, else the ball and the event's piece."""
    piece = e.get("piece") or ""
    other = (e.get("evidence") or {}).get("victim" if e["type"] == "foul" else "other")
    if e["type"] in ("foul", "contact") and piece and other:
        return f"{piece}+{other}"
    return piece


def _late_while_unseen(tracks_csv: Path, late: list[tuple[int, str, int, str, int]]) -> int:
    """Of the events written more than 2 frames after their frame, how many were written within
    2 frames of the camera seeing again the bodies of the event (:func:`_bodies`; ``seen`` in
    tracks.csv) after it last lost one of them between the event's frame and its writing: a
    hit under a hand, dated to when it happened, can be known only once both are in sight."""
    if not late:
        return 0
    lo, hi = min(x[2] for x in late), max(x[4] for x in late)
    seen: dict[tuple[int, str], bool] = {}
    with open(tracks_csv, encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            f = int(row["frame"])
            if lo <= f <= hi:
                seen[(f, row["id"])] = row["status"] == "seen"
    n = 0
    for _, _, frame, piece, written in late:
        if "+" in piece:
            ids = piece.split("+")
        else:
            ids = ["ball", piece] if piece and piece != "ball" else ["ball"]
        lost = [f for f in range(frame, written) if not all(seen.get((f, i), False) for i in ids)]
        n += bool(lost) and written - (lost[-1] + 1) <= 2
    return n


def _speed_lines(speed_seconds: float) -> list[str]:
    sp = speed(speed_seconds)
    dec, an = sp["decode"], sp["analyze"]
    lines = [
        f"**Speed**: a {speed_seconds:.0f} s random brasileira match (seed {SEED}) rendered at "
        "1920x1080 (tilted camera, noise, blur, hands, H.264); each pass in its own process. "
        "The analyze pass: background learning, detect + track, the rule engine, events.jsonl, "
        "tracks.csv, annotated.mp4 (960x540 H.264, encoded on its own thread) and report.html "
        "(`python -m benchmarks.bench_analyze`).",
        "",
        "| pass | frames/s (wall) | CPU ms/frame | peak RSS | load avg at start |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for name, r in (("decode alone", dec), ("analyze", an)):
        lines.append(
            f"| {name} | {r['frames'] / r['wall_s']:.1f} | {1000 * r['cpu_s'] / r['frames']:.1f} | "
            f"{r['peak_mb']:.0f} MB | {r['load']:.1f} |"
        )
    lines += [
        f"| ratio (analyze / decode) | {an['wall_s'] / dec['wall_s']:.1f}x wall | "
        f"{an['cpu_s'] / dec['cpu_s']:.1f}x CPU | | |",
        "",
        "Target: analyze >= 30 frames/s at 1920x1080 including the annotated video.",
        "",
    ]
    return lines


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_analyze")
    ap.add_argument("--seconds", type=float, default=SECONDS)
    ap.add_argument("--speed-seconds", type=float, default=SPEED_SECONDS)
    ap.add_argument("--rules", action="append")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--clip", type=Path, help="one rule set: render into / analyse from DIR")
    ap.add_argument("--speed-run", nargs=2, metavar=("VIDEO", "MODE"))
    ap.add_argument(
        "--replay",
        action="store_true",
        help="with --clip: this code's engine on the inputs the last --clip run recorded",
    )
    a = ap.parse_args(argv)
    if a.speed_run:
        print(json.dumps(speed_run(Path(a.speed_run[0]), a.speed_run[1])))
        return 0
    rules = tuple(a.rules or RULES)
    if a.clip is not None and len(rules) != 1:
        print("bench_analyze: --clip takes one --rules", file=sys.stderr)
        return 2
    if a.replay and a.clip is None:
        print("bench_analyze: --replay needs --clip DIR", file=sys.stderr)
        return 2
    try:
        print("\n".join(report(a.seconds, a.speed_seconds, rules, a.seed, a.clip, a.replay)))
    except ClipMismatch as exc:
        print(f"bench_analyze: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
