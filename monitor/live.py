"""A live match: the camera captured on its own thread, the newest frame always judged.

:func:`live` warms up on the first seconds (calibrating the camera unless one is given, and
learning the empty table), then takes the newest captured frame, runs the same
:class:`monitor.analyze.Referee` as a replay, and prints and writes each event the moment it
is decided. Frames it could not keep up with are recorded but not judged (counted as
``dropped``); the raw video (``raw.mp4``) and ``events.jsonl`` let ``botao analyze`` judge
every frame later. Keys (:data:`KEYS`) come from the terminal (one letter and Enter) or from
the window when OpenCV has a display; what they announce is saved as ``annotations.json``.

Latency is measured per event from the capture of its decisive frame to the moment it is
written; ``age`` is how old a frame is when its judging starts (a backlog would make it grow).
"""

from __future__ import annotations

import json
import queue
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from calibration.camera import CameraError, load_camera
from geometry.tablespec import load_table
from monitor.analyze import TRACKED_OPTIONS, Referee, event_line
from monitor.capture import Capture, Grabbed, Recorder, open_source
from monitor.errors import UsageError
from monitor.report import HEADLINE
from monitor.source import SourceError
from rules.engine import Annotations, Event
from rules.rulesets import get_ruleset
from vision.detect_worker import DetectorWorker, WorkerError

__all__ = ["KEYS", "LiveSummary", "live"]

#: Keys (terminal: the letter then Enter, a team after it where asked, e.g. "s A").
KEYS = {
    "s": "announce a shot (vai a gol) for a team: s A",
    "g": "goalkeeper placed, for the defending team: g B",
    "u": "undo the last announcement not yet used",
    "r": "recalibrate the camera now",
    "p": "pause / resume judging (recording goes on)",
    "q": "stop",
}
WINDOW = "botao live"  # the overlay's window, when OpenCV has a display


@dataclass
class LiveSummary:
    source: str
    rules: str
    fps: float = 30.0
    captured: int = 0
    judged: int = 0
    dropped: int = 0
    recorder_lost: int = 0
    reopened: int = 0
    wall_s: float = 0.0
    latency_ms: list[float] = field(default_factory=list)  # per event: capture -> written
    age_ms: list[float] = field(default_factory=list)  # per judged frame: capture -> start
    step_ms: list[float] = field(
        default_factory=list
    )  # per judged frame: judging time (ahead: sent -> judged)
    score: dict[str, int] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    stopped_by: str = ""

    def to_dict(self) -> dict[str, Any]:
        def stats(v: list[float]) -> dict[str, float] | None:
            if not v:
                return None
            a = np.asarray(v)
            return {
                "median": round(float(np.median(a)), 2),
                "p95": round(float(np.percentile(a, 95)), 2),
                "max": round(float(a.max()), 2),
            }

        return {
            "format": "live/1",
            "source": self.source,
            "rules": self.rules,
            "fps": self.fps,
            "captured": self.captured,
            "judged": self.judged,
            "dropped": self.dropped,
            "recorder_lost": self.recorder_lost,
            "reopened": self.reopened,
            "wall_s": round(self.wall_s, 3),
            "latency_ms": stats(self.latency_ms),
            "age_ms": stats(self.age_ms),
            "step_ms": stats(self.step_ms),
            "score": self.score,
            "counts": self.counts,
            "stopped_by": self.stopped_by,
        }


def _keys_from(stream: TextIO, q: queue.Queue[str]) -> threading.Thread:
    def run() -> None:
        for line in stream:
            q.put(line.strip())

    t = threading.Thread(target=run, name="botao-keys", daemon=True)
    t.start()
    return t


def live(
    source_spec: str,
    out: str | Path,
    rules_name: str = "brasileira",
    camera_spec: str | None = None,
    table_name: str | None = None,
    *,
    warmup_s: float = 2.0,
    seconds: float | None = None,
    speed: float = 1.0,
    record: bool = True,
    keys: TextIO | None = None,
    say: Callable[[str], None] = print,
    on_event: Callable[[Event, float], None] | None = None,
    detect_ahead: int = 0,
) -> LiveSummary:
    """Monitor ``source_spec`` live into ``out`` (see the module docstring).

    ``seconds`` stops after that much video time; ``keys`` is a text stream of key lines
    (the terminal's standard input by default when it is one); ``say`` prints status and
    events; ``on_event(event, latency_ms)`` sees every event. ``detect_ahead``: frames the
    detector (in a process of its own, :mod:`vision.detect_worker`) may hold while this
    process judges the frames before them; 0 (the default) detects here, one frame at a time.
    Ahead, more frames are judged (86-88% against 76% on ``python -m benchmarks.bench_live``'s
    render, two cores) but no event comes sooner: a frame still waits for its own detection,
    the slowest stage, and for the one queued before it (median latency 127-145 ms against
    122, the 95th percentile 295-408 against 238, run back to back).
    """
    rules = get_ruleset(rules_name)
    table = load_table(table_name or rules.table or "brasileira")
    try:
        source = open_source(source_spec, speed)
    except SourceError as exc:
        raise UsageError(str(exc)) from None
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    fps = source.fps
    summary = LiveSummary(source_spec, rules.name, fps=fps)
    recorder = Recorder(out / "raw.mp4", fps, source.size_wh) if record else None
    capture = Capture(source, recorder, on_gap=lambda m: say(f"botao live: {m}")).start()
    t_start = time.perf_counter()
    ref: Referee | None = None
    annotations = Annotations()
    commands: queue.Queue[str] = queue.Queue()
    if keys is None and sys.stdin is not None and sys.stdin.isatty():
        keys = sys.stdin
    if keys is not None:
        _keys_from(keys, commands)
    window = False
    sent: dict[int, float] = {}  # frame -> when its judging started (sent to the detector)

    def judge_next() -> None:
        assert ref is not None
        k = ref.next_frame
        ref.judge_next()
        if k is not None and k in sent:
            summary.step_ms.append((time.perf_counter() - sent.pop(k)) * 1000.0)
            summary.judged += 1

    try:
        warm = _warm_up(capture, warmup_s, fps)
        if camera_spec is not None:
            try:
                camera = load_camera(camera_spec)
            except (CameraError, OSError) as exc:
                raise UsageError(f"--camera {camera_spec}: {exc}") from None
        else:
            from calibration.auto import calibrate_frames

            result = calibrate_frames(
                iter(g.image for g in warm), table, max_frames=len(warm), step=1
            )
            if not result.ok or result.camera is None:
                raise UsageError(f"--source {source_spec}: cannot calibrate ({result.reason})")
            camera = result.camera
            camera.save(out / "camera.json")
        if tuple(camera.image_size) != source.size_wh:
            w, h = camera.image_size
            raise UsageError(
                f"--source {source_spec}: frames are {source.size_wh[0]}x{source.size_wh[1]}, "
                f"the camera is for {w}x{h}"
            )

        def event(e: Event) -> None:
            at = capture.captured_at(int(e["frame"]))
            lat = (time.perf_counter() - at) * 1000.0 if at is not None else float("nan")
            summary.latency_ms.append(lat)
            if e["type"] in HEADLINE:
                say(f"{event_line(e)}   ({lat:.0f} ms)")
            if on_event is not None:
                on_event(e, lat)

        worker = (
            DetectorWorker(camera, table, rules.name, depth=detect_ahead)
            if detect_ahead > 0
            else None
        )
        ref = Referee(
            camera,
            table,
            rules.name,
            out,
            fps,
            title=f"botão live: {source_spec} ({rules.name})",
            annotations=annotations,
            options=TRACKED_OPTIONS,
            write_video=False,
            learn=[g.image for g in warm],
            on_event=event,
            worker=worker,
        )
        say(f"botao live: judging {source_spec} ({rules.name}); keys: " + ", ".join(KEYS))
        window = has_display()
        paused = False
        last_index = -1
        while True:
            while ref.ready():  # detections back: judged at once, not when the next frame comes
                judge_next()
            g = capture.newest(0.002 if ref.queued else 0.5)
            if g is None:
                if capture.ended:
                    while ref.queued:
                        judge_next()
                    summary.stopped_by = "the source ended"
                    break
                continue
            if seconds is not None and g.index / fps > seconds:
                summary.stopped_by = f"{seconds:g} s of video"
                break
            stop = _handle_keys(commands, annotations, ref, g, fps, say)
            if stop == "q":
                summary.stopped_by = "q"
                break
            if stop == "p":
                paused = not paused
                say("botao live: paused" if paused else "botao live: judging again")
            if paused or g.index <= last_index:
                continue
            while ref.worker is not None and ref.worker.full:
                judge_next()  # the oldest first: the detector has room for the newest
            t0 = time.perf_counter()
            summary.age_ms.append((t0 - g.t_capture) * 1000.0)
            if ref.worker is not None:
                sent[g.index] = t0
                ref.push(g.index, g.image, g.index / fps)
            else:
                ref.step(g.index, g.image, g.index / fps)
                summary.step_ms.append((time.perf_counter() - t0) * 1000.0)
                summary.judged += 1
            last_index = g.index
            if window:
                commands.put(_show(ref, g))
    except KeyboardInterrupt:
        summary.stopped_by = "Ctrl-C"
    finally:
        if window:
            _close_window()
        capture.stop()
        if recorder is not None:
            recorder.close()
        if ref is not None:
            try:  # the frames still at the detector: judged, unless stopped by Ctrl-C
                while ref.queued and summary.stopped_by != "Ctrl-C":
                    judge_next()
            except (WorkerError, ValueError, KeyboardInterrupt):
                pass
            ref.close()
            summary.score, summary.counts = dict(ref.engine.score), dict(ref.counts)
            ref.report.write(out / "report.html", {"frames": summary.judged, "rules": rules.name})
        summary.captured = capture.captured
        summary.dropped = max(capture.captured - summary.judged, 0)
        summary.recorder_lost = recorder.lost if recorder is not None else 0
        summary.reopened = capture.reopened
        summary.wall_s = time.perf_counter() - t_start
        (out / "annotations.json").write_text(json.dumps(annotations.to_dict(), indent=1), "utf-8")
        (out / "summary.json").write_text(json.dumps(summary.to_dict(), indent=1) + "\n", "utf-8")
    return summary


def has_display() -> bool:
    """Whether OpenCV can open a window here (the headless wheel cannot; nor can a server)."""
    import os

    import cv2

    gui = any(
        ln.strip().startswith("GUI:") and "NONE" not in ln
        for ln in cv2.getBuildInformation().splitlines()
    )
    return gui and bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _show(ref: Referee, g: Grabbed) -> str:
    """The overlay in a window; the key pressed, as a command line ("" for none)."""
    import cv2

    if ref.overlay is None:
        from monitor.overlay import Overlay

        ref.overlay = Overlay(ref.camera, ref.table, min(1.0, 1280 / ref.camera.image_size[0]))
    cv2.imshow(WINDOW, ref.annotate(g.image, ref.last_tf))
    key = cv2.waitKey(1) & 0xFF
    # window keys: a/b announce a shot for the first/second team, k/l their keeper placed
    teams = sorted(ref.teams)
    return {
        ord("a"): f"s {teams[0]}",
        ord("b"): f"s {teams[1]}",
        ord("k"): f"g {teams[0]}",
        ord("l"): f"g {teams[1]}",
        ord("u"): "u",
        ord("r"): "r",
        ord("p"): "p",
        ord("q"): "q",
    }.get(key, "")


def _close_window() -> None:
    import cv2

    cv2.destroyWindow(WINDOW)
    cv2.waitKey(1)  # the window goes only when its events are handled


def _warm_up(capture: Capture, warmup_s: float, fps: float) -> list[Grabbed]:
    """Frames of the first ``warmup_s`` seconds, about ten a second (calibration, background)."""
    frames: list[Grabbed] = []
    deadline = time.perf_counter() + max(warmup_s, 0.0) + 10.0  # a camera slow to start
    while time.perf_counter() < deadline:
        g = capture.newest(0.5)
        if g is None:
            if capture.ended:
                break
            continue
        if not frames or g.index - frames[-1].index >= max(int(fps / 10), 1):
            frames.append(g)
        if g.index / fps >= warmup_s and len(frames) >= 3:
            break
    if not frames:
        raise UsageError("the source sent no frames")
    return frames


def _handle_keys(
    commands: queue.Queue[str],
    annotations: Annotations,
    ref: Referee,
    g: Grabbed,
    fps: float,
    say: Callable[[str], None],
) -> str:
    """Apply the keys pressed since the last frame; returns "q" or "p" when asked."""
    asked = ""
    while True:
        try:
            line = commands.get_nowait()
        except queue.Empty:
            return asked
        parts = line.split()
        if not parts:
            continue
        key, args = parts[0].lower(), parts[1:]
        t = g.index / fps
        if key in ("s", "g"):
            if not args or args[0] not in ref.teams:
                say(f"botao live: '{key}' needs a team ({', '.join(ref.teams)}): e.g. '{key} A'")
                continue
            kind = "shot_announced" if key == "s" else "keeper_placed"
            piece = args[1] if len(args) > 1 else None
            annotations.add(kind, args[0], g.index, t, piece)
            say(f"botao live: {kind.replace('_', ' ')}: {' '.join(args)} at {t:.1f} s")
        elif key == "u":
            undone = annotations.undo()
            say(f"botao live: undone {undone}" if undone else "botao live: nothing to undo")
        elif key == "r":
            ref.recalibrate()
            say("botao live: recalibrating on the next frames")
        elif key in ("p", "q"):
            asked = key
            if key == "q":
                return asked
        else:
            say(
                f"botao live: unknown key {key!r}; keys: "
                + "; ".join(f"{k}: {v}" for k, v in KEYS.items())
            )
