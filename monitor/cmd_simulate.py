"""``botao simulate`` (a clip with its ground truth) and ``botao demo`` (simulate, then judge).

``botao simulate SCENARIO.json | --random-match --seconds N --rules NAME --out DIR
[--resolution WxH] [--fps N] [--camera PRESET|camera.json] [--seed N]`` writes ``video.mp4``,
``camera.json``, ``truth.csv``, ``contacts.jsonl``, ``events.jsonl`` and ``simulation.json``.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from calibration.camera import Camera, CameraError, load_camera, preset_camera
from geometry.tablespec import TableSpec, load_table
from monitor.errors import UsageError
from monitor.progress import Progress
from rules.rulesets import get_ruleset
from simulator.state import FrameTruth

CAMERA_PRESETS = ("overhead", "tilted", "wide")


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("simulate", help="simulate a scenario or a random match: video + truth")
    p.add_argument("scenario", nargs="?", help="a scenario/1 JSON file (samples/scenarios/)")
    p.add_argument("--random-match", action="store_true", help="a seeded random match")
    p.add_argument("--seconds", type=float, default=20.0, help="random match length (s)")
    p.add_argument("--rules", default="brasileira", help="rule set of the random match")
    p.add_argument("--table", help="table preset or .toml (default: the rule set's table)")
    p.add_argument("--out", required=True, help="output folder")
    _render_options(p)
    p.set_defaults(func=run_simulate)

    d = sub.add_parser("demo", help="simulate a short match and run the monitor on it")
    d.add_argument("--out", default="botao-demo", help="output folder (default: botao-demo)")
    d.add_argument("--seconds", type=float, default=20.0, help="match length, at most 60 s")
    d.add_argument("--rules", default="brasileira")
    _render_options(d)
    d.set_defaults(func=run_demo)


def _render_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--resolution", help="WxH (default: the camera file's, else 1280x720)")
    p.add_argument("--fps", type=float, default=30.0)
    p.add_argument("--camera", default="overhead", help="overhead, tilted, wide or camera.json")
    p.add_argument("--seed", type=int, default=0)


def parse_resolution(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"--resolution: expected WxH like 1920x1080, got {text!r}") from None
    if not (64 <= w <= 8192 and 64 <= h <= 8192):
        raise UsageError(f"--resolution: {w}x{h} is outside 64..8192 pixels a side")
    return w, h


def make_camera(spec: str, table: TableSpec, size: tuple[int, int] | None) -> Camera:
    """A preset camera over ``table``, or a camera/1 file (its size must match ``size``)."""
    if spec in CAMERA_PRESETS:
        return preset_camera(spec, table, size or (1280, 720))
    if not spec.endswith(".json"):
        raise UsageError(
            f"--camera: expected {', '.join(CAMERA_PRESETS)} or a camera.json, got {spec!r}"
        )
    try:
        cam = load_camera(spec)
    except CameraError as exc:
        raise UsageError(str(exc)) from None
    if size is not None and tuple(cam.image_size) != size:
        raise UsageError(
            f"--camera {spec}: image_size {cam.image_size[0]}x{cam.image_size[1]} differs from "
            f"--resolution {size[0]}x{size[1]}"
        )
    return cam


def _check_args(args: argparse.Namespace) -> None:
    if not math.isfinite(args.fps) or not 1 <= args.fps <= 240:
        raise UsageError(f"--fps: expected 1..240, got {args.fps}")
    if not math.isfinite(args.seconds) or args.seconds <= 0:
        raise UsageError(f"--seconds: expected a positive number, got {args.seconds}")


def simulate(
    out: Path,
    *,
    scenario: str | None,
    rules_name: str,
    table_name: str | None,
    seconds: float,
    fps: float,
    resolution: str | None,
    camera_spec: str,
    seed: int,
    tap: Callable[[FrameTruth], None] | None = None,
) -> dict[str, Any]:
    """Simulate and write the clip; returns the ``simulation.json`` summary.

    ``tap`` sees every frame's truth on its way to the renderer (the demo keeps the states).
    """
    from simulator.clip import write_clip

    size = parse_resolution(resolution) if resolution else None
    frames: Iterator[FrameTruth]
    if scenario is not None:
        from simulator.scenario import ScenarioError, load_scenario, scenario_runner

        try:
            sc = load_scenario(scenario)
        except ScenarioError as exc:
            raise UsageError(str(exc)) from None
        table, rules_name = sc.table, sc.rules_name
        n_frames = round(sc.duration_s * fps) + 1
        _, frames = scenario_runner(sc, fps)
        teams = None
        what = f"scenario {sc.name}"
    else:
        from simulator.match import Match

        rules = get_ruleset(rules_name)
        table = load_table(table_name or rules.table)
        match = Match(table, rules_name, seed=seed, fps=fps)
        n_frames = round(seconds * fps) + 1
        frames = match.frames(seconds)
        teams = match.teams
        what = f"random {rules_name} match, seed {seed}"
    camera = make_camera(camera_spec, table, size)
    if tap is not None:
        frames = _tapped(frames, tap)
    bar = Progress(n_frames, f"simulating {what}")
    n = write_clip(
        frames,
        table,
        camera,
        out,
        fps,
        progress=bar.update,
        rules_name=rules_name,
        teams=teams,
        seed=seed,
    )
    bar.close()
    summary = {
        "format": "simulation/1",
        "what": what,
        "rules": rules_name,
        "table": table.name,
        "fps": fps,
        "frames": n,
        "resolution": list(camera.image_size),
        "camera": camera_spec,
        "seed": seed,
        "teams": teams or {"A": "left", "B": "right"},
    }
    (out / "simulation.json").write_text(json.dumps(summary, indent=1) + "\n", "utf-8")
    return summary


def _tapped(
    frames: Iterator[FrameTruth], tap: Callable[[FrameTruth], None]
) -> Iterator[FrameTruth]:
    for f in frames:
        tap(f)
        yield f


def run_simulate(args: argparse.Namespace) -> int:
    _check_args(args)
    if (args.scenario is None) == (not args.random_match):
        raise UsageError("simulate: give a SCENARIO file or --random-match (one of them)")
    out = Path(args.out)
    summary = simulate(
        out,
        scenario=args.scenario,
        rules_name=args.rules,
        table_name=args.table,
        seconds=args.seconds,
        fps=args.fps,
        resolution=args.resolution,
        camera_spec=args.camera,
        seed=args.seed,
    )
    print(f"wrote {summary['frames']} frames of {summary['what']} to {out}")
    return 0


def run_demo(args: argparse.Namespace) -> int:
    from monitor.analyze import analyze
    from monitor.demo import report_demo

    _check_args(args)
    if args.seconds > 60:
        raise UsageError(f"--seconds: the demo is at most 60 s, got {args.seconds}")
    out = Path(args.out)
    states: dict[int, FrameTruth] = {}
    summary = simulate(
        out,
        tap=lambda f: states.__setitem__(f.frame, f),
        scenario=None,
        rules_name=args.rules,
        table_name=None,
        seconds=args.seconds,
        fps=args.fps,
        resolution=args.resolution,
        camera_spec=args.camera,
        seed=args.seed,
    )
    bar = Progress(summary["frames"], "analysing the video")
    try:
        analysis = analyze(
            out / "video.mp4",
            out / "analysis",
            args.rules,
            progress=lambda n, _: bar.update(n),
        )
    finally:
        bar.close()
    print(report_demo(out, summary, analysis, states))
    return 0
