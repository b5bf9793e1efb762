"""A replay analysed end to end: frames -> camera -> detections -> tracks -> rule engine -> files.

:func:`analyze` reads a video once, frame by frame (:class:`monitor.source.VideoFileSource`,
decoded ahead on a second thread): the detector (:class:`vision.detect.Detector`, in a process
of its own two frames ahead, :class:`vision.detect_worker.DetectorWorker`: the same detections
on another core) and the tracker (:class:`vision.tracker.Tracker`) give every piece in table
millimetres, the adapter
(:func:`monitor.adapt.state_from_tracks`) hands them to the rule set's engine
(:class:`rules.engine.RuleEngine`), and the camera keeper (:class:`calibration.keeper.CameraKeeper`)
watches the markings for a bumped table or camera. Into ``out``:

- ``events.jsonl``: ``event/1``, one line per event, written and flushed as it is decided (the
  engine holds two frames back, so an event is out within two frames of its decisive frame);
  ``calibration_lost`` / ``calibration_restored`` from the keeper go in the same stream;
- ``tracks.csv`` and ``contacts.jsonl`` (INTERFACES.md), flushed every frame;
- ``annotated.mp4`` (H.264, browser-playable; at most 960 pixels wide by default) with the
  overlay of :mod:`monitor.overlay`, encoded on its own thread;
- ``report.html`` (:mod:`monitor.report`) and ``summary.json`` at the end.

A damaged file (corrupt packets, frames announced but missing, an unreadable tail) is read as
far as it goes: everything seen is kept and judged, and the summary's ``damage`` says what was
lost (exit status 3 from the command line).
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

import numpy as np
from numpy.typing import NDArray

from calibration.camera import Camera, CameraError, load_camera
from calibration.keeper import CameraKeeper
from geometry.field import FieldModel
from geometry.tablespec import TableSpec, load_table
from monitor.adapt import state_from_tracks
from monitor.errors import UsageError
from monitor.overlay import Hud, Mark, Overlay
from monitor.report import HEADLINE, ReportBuilder, margin_text
from monitor.source import SourceError, VideoFileSource
from rules.checks import CheckContext
from rules.engine import (
    AnnotationError,
    Annotations,
    EngineOptions,
    Event,
    RuleEngine,
    load_annotations,
)
from rules.engine.inputs import InputRecorder
from rules.rulesets import get_ruleset
from simulator.video import VideoWriter
from vision.detect_worker import DetectorWorker, WorkerError
from vision.pipeline import TracksWriter, prefetch
from vision.track_types import TrackerConfig, TrackFrame
from vision.tracker import Tracker

__all__ = [
    "TRACKED_OPTIONS",
    "AnalyzeSummary",
    "Referee",
    "analyze",
    "event_line",
    "learn_frames",
    "video_camera",
]

U8 = NDArray[np.uint8]
#: A tracker's input: positions with about half a millimetre of noise, the ball called stopped
#: a little early (see rules.engine.EngineOptions), contacts one frame late
#: (:class:`vision.contacts.ContactFinder` needs the frame after a hit). One frame held back,
#: not two: every contact of 13 analysed 30 s matches (266) came exactly one frame late, and
#: holding a second frame changed no event; it cost live events a frame of latency.
#: Contacts' order: the gap between a hit and the same piece's touch of the ball, as the
#: tracker times both, was within 4.5 ms of the truth's on 34 of 38 such pairs less than a
#: frame apart (four rendered ten-minute matches); 7 ms splits the closest calls seen (a hit
#: and a touch at one instant timed 4.5 ms apart, gaucha seed 31, frame 16094; a foul's touch
#: 8.3 ms after its hit timed 9.9 ms, nacional seed 35, frame 16106).
TRACKED_OPTIONS = EngineOptions(lag_frames=1, noise_mm=0.5, settle_frames=3, order_doubt_s=0.007)
_MSG_BGR = {"goal": (80, 255, 80), "foul": (80, 80, 255), "offside": (0, 215, 255)}


@dataclass
class AnalyzeSummary:
    """What :func:`analyze` did (also written as ``summary.json``)."""

    video: str
    rules: str
    frames: int = 0
    fps: float = 30.0
    wall_s: float = 0.0
    score: dict[str, int] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    damage: str | None = None
    blind_frames: int = 0  # frames not judged: the camera lost (a bumped table), not recalibrated
    camera: str = ""
    outputs: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "analysis/1",
            "video": self.video,
            "rules": self.rules,
            "frames": self.frames,
            "fps": self.fps,
            "seconds_of_video": round(self.frames / self.fps, 3) if self.fps else 0.0,
            "wall_s": round(self.wall_s, 3),
            "score": self.score,
            "counts": self.counts,
            "damage": self.damage,
            "blind_frames": self.blind_frames,
            "camera": self.camera,
            "outputs": self.outputs,
        }


@dataclass
class _Frame:
    """A frame in, waiting to be judged: detected here (``dets``) or at the worker, or not at
    all (``blind``: the camera lost); the camera keeper's events on it and its camera."""

    k: int
    image: U8
    t: float
    blind: bool
    dets: Any
    cal: list[Event]
    camera_ok: bool
    camera: Camera


class _VideoOut:
    """:class:`VideoWriter` fed from a bounded queue on its own thread: each frame is drawn
    there too (``write(draw, *args)``), so drawing and encoding (libx264 and OpenCV's drawing
    work without the interpreter lock) overlap the detection of the next frames."""

    def __init__(self, path: Path, fps: float, size_wh: tuple[int, int]) -> None:
        self.writer = VideoWriter(path, fps, size_wh, preset="ultrafast", crf=23, quick=True)
        self.q: queue.Queue[tuple[Callable[..., U8], tuple[Any, ...]] | None] = queue.Queue(
            maxsize=8
        )
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="botao-encode", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            while (job := self.q.get()) is not None:
                self.writer.write(job[0](*job[1]))
        except BaseException as exc:  # reported by close(), in the caller's thread
            self.error = exc
            while self.q.get() is not None:  # drain so the producer never blocks
                pass
        finally:
            self.writer.close()

    def write(self, draw: Callable[..., U8], *args: Any) -> None:
        """Queue the frame ``draw(*args)`` (arguments the caller no longer changes)."""
        if self.error is None:
            self.q.put((draw, args))

    def close(self) -> None:
        self.q.put(None)
        self.thread.join()
        if self.error is not None:
            raise self.error


def video_camera(
    source: VideoFileSource, spec: str | Path | None, table: TableSpec, out: Path | None
) -> tuple[Camera, str]:
    """The camera of a video: ``spec``'s file, else calibrated from its first frames (saved as
    ``out/camera.json`` when ``out`` is given); either must fit the video's size. Bad input is
    a :class:`UsageError`. Returns the camera and where it came from."""
    if spec is not None:
        try:
            cam = load_camera(spec)
        except (CameraError, OSError) as exc:
            raise UsageError(f"--camera {spec}: {exc}") from None
        where = str(spec)
    else:
        from calibration.auto import calibrate_frames

        result = calibrate_frames((img for _, img in source.frames(limit=27)), table)
        if not result.ok or result.camera is None:
            raise UsageError(
                f"{source.path}: cannot calibrate the camera from its first frames "
                f"({result.reason}); pass --camera camera.json"
            )
        cam = result.camera
        if out is not None:
            cam.save(out / "camera.json")
        where = "calibrated from the video's first frames (camera.json)"
    if tuple(cam.image_size) != source.size_wh:
        w, h = cam.image_size
        raise UsageError(
            f"{source.path}: the video is {source.size_wh[0]}x{source.size_wh[1]}, "
            f"the camera ({where}) is for {w}x{h} images"
        )
    return cam, where


def learn_frames(
    source: VideoFileSource, fps: float, frames: int = 15, span_s: float = 10.0
) -> list[U8]:
    """Frames spread over the first ``span_s`` seconds: the detector's empty table."""
    span = max(int(span_s * fps), 1)
    if source.announced:
        span = min(span, source.announced)
    every = max(span // frames, 1)
    return [img for _, img in source.frames(every, frames)]


def event_line(e: Event) -> str:
    """One line for a person: time, TYPE, team, piece, restart, margin."""
    margin = margin_text(e)
    margin = f" {margin}" if margin else ""
    who = " ".join(str(x) for x in (e.get("team"), e.get("piece")) if x)
    extra = (e.get("evidence") or {}).get("restart") or ""
    not_given = "" if e.get("holds", True) else " (not given)"
    return f"{e['t']:6.1f}s {e['type'].upper()} {who} {extra}{margin}{not_given}".replace("  ", " ")


class Referee:
    """The per-frame work of a match, shared by ``analyze`` (a file) and ``live`` (a camera):
    detect, track, adapt, judge, watch the camera, and write every output as it goes.

    ``step(k, image, t)`` takes frame ``k`` (frames may be skipped: live processing drops
    what it cannot keep up with) and judges it; with a ``worker`` (the detector in its own
    process) ``push(k, image, t)`` sends it and judges the frames whose detections are back,
    ``drain()`` the rest. ``close()`` flushes the engine's held frames and closes the files
    (and the worker; frames still queued are dropped: drain first). ``video_scale`` None: the
    annotated video at most 960 pixels wide.
    """

    def __init__(
        self,
        camera: Camera,
        table: TableSpec,
        rules_name: str,
        out: Path,
        fps: float,
        *,
        title: str,
        annotations: Annotations | None = None,
        options: EngineOptions = TRACKED_OPTIONS,
        video_scale: float | None = None,
        write_video: bool = True,
        learn: list[U8] | None = None,
        on_event: Callable[[Event], None] | None = None,
        worker: DetectorWorker | None = None,
        record_inputs: bool = False,
    ) -> None:
        from vision.detect import Detector

        rules = get_ruleset(rules_name)
        self.camera, self.table, self.rules, self.fps = camera, table, rules, fps
        self.on_event = on_event
        config = TrackerConfig(fps=fps, spots_mm=FieldModel(table).restart_spots())
        self.teams = dict(config.teams)
        self.engine = RuleEngine(table, rules.name, self.teams, annotations, options)
        # what the engine is fed, kept for replays (rules.engine.inputs): fed through it
        self.recorder = InputRecorder(self.engine) if record_inputs else None
        self._feed: RuleEngine | InputRecorder = self.recorder or self.engine
        # the detector here, or ``worker``'s in a process of its own a few frames ahead of the
        # tracker and the rules (:mod:`vision.detect_worker`: the same detections, beside
        # them); the referee closes it
        self.detector: Detector | None = None
        self.worker = worker
        if worker is not None:
            if learn:  # learnt in the child while the rest is set up here (settled below)
                worker.learn(learn, wait=False)
        else:
            self.detector = Detector(camera, table, rules.name)
            if learn:
                self.detector.learn_background(learn)
        self._queued: deque[_Frame] = deque()  # frames in, not judged (at the worker)
        self._seen: deque[U8] = deque(maxlen=4)  # the last frames in: a new camera's table
        self.judged = 0  # frames judged
        self.blind = 0  # of which not detected nor judged: the camera lost
        self.tracker = Tracker(config)
        self.keeper = CameraKeeper(camera, table)
        self.ball_d = float(rules.pieces.ball_diameter) if rules.pieces is not None else None
        self.report = ReportBuilder(CheckContext.build(table, rules), self.teams, title, fps)
        # The annotated video is at most 960 pixels wide unless asked (a quarter of 1080p's
        # pixels to draw and encode; the measurements are in the files, not in the picture).
        scale = video_scale if video_scale is not None else min(1.0, 960.0 / camera.image_size[0])
        self.overlay = (
            Overlay(camera, table, scale, tuple(sorted(self.teams))) if write_video else None
        )
        self.hud = Hud(title=rules.name)
        self.out = out
        self.events_file: IO[str] = open(out / "events.jsonl", "w", encoding="utf-8")
        self.tracks = TracksWriter(out)
        self.video_out = (
            _VideoOut(out / "annotated.mp4", fps, self.overlay.size_wh) if self.overlay else None
        )
        self.recent: deque[tuple[int, U8, Any]] = deque(maxlen=4)  # for the evidence
        self.counts: dict[str, int] = {}
        self.last_tf: TrackFrame | None = None
        self._in_blind = False  # judging a run of blind frames
        self._closed = False
        if worker is not None:  # a detector that could not be built or learn: said now
            try:
                worker.settle()
            except BaseException:
                self._closed = True
                self.events_file.close()
                self.tracks.close()
                if self.video_out is not None:
                    self.video_out.close()
                raise

    def emit(self, evs: list[Event], image: U8, state: Any) -> None:
        # written and flushed (and told to ``on_event``) before the report's thumbnails and the
        # overlay's marks are made: those are for later, the event's line is what a live
        # referee waits for
        for e in evs:
            self.events_file.write(json.dumps(e, ensure_ascii=False) + "\n")
        if evs:
            self.events_file.flush()
        for e in evs:
            if self.on_event is not None:
                self.on_event(e)
        for e in evs:
            self.counts[e["type"]] = self.counts.get(e["type"], 0) + 1
            at = next(((im, st) for f, im, st in self.recent if f == e["frame"]), (image, state))
            self.report.add_event(e, at[0], at[1])
            if e["type"] in HEADLINE:
                colour = _MSG_BGR.get(e["type"], (255, 255, 255))
                self.hud.messages.append((event_line(e), colour))
                _marks(e, at[1], self.hud, e["t"] + 3.0)

    def step(self, k: int, image: U8, t: float) -> list[Event]:
        """Process frame ``k`` (video time ``t``) and every frame before it; returns the events
        decided."""
        return self.push(k, image, t) + self.drain()

    def push(self, k: int, image: U8, t: float) -> list[Event]:
        """Frame ``k`` in: detected (here, or sent to the detector ahead), then shown to the
        camera keeper; judged now, or with a detector ahead once its detections are back (the
        oldest first, up to ``depth`` frames behind). Returns the events decided.

        While the camera is lost (a bumped table or camera, :class:`CameraKeeper`) a frame is
        not detected: its pixels are not where the camera model says, the detector's search
        on them is slow (a second a frame) and what it found would be wrong. The tracks wait,
        the rules make no call, until the keeper has a camera again; both are told of the gap
        when it begins (:meth:`Tracker.interrupt`, :meth:`RuleEngine.interrupt`), so nothing
        is read across it: no contact from the jump of pieces moved meanwhile.
        """
        evs: list[Event] = []
        while self.worker is not None and self.worker.full:  # (blind frames take no room)
            evs += self.judge_next()
        blind = self.keeper.state == "lost"
        dets: Any = None
        if not blind:
            if self.worker is not None:
                self.worker.submit(image, k, t)
            else:
                assert self.detector is not None
                dets = self.detector.detect(image, k, t)
        self._seen.append(image)
        cal = self._watch(k, image, t)
        ok = self.keeper.state != "lost"
        self._queued.append(_Frame(k, image, t, blind, dets, cal, ok, self.camera))
        if self.worker is None:
            evs += self.judge_next()
        return evs

    def _watch(self, k: int, image: U8, t: float) -> list[Event]:
        """The camera keeper on frame ``k`` (a test of the markings every few frames); a new
        camera rebuilds the detector from the last frames, for the frames after ``k`` (the
        same frames with a detector ahead or here: the keeper needs pixels, not detections)."""
        keeper = self.keeper
        cal = keeper.update(image if keeper.due else None, t, k)
        if keeper.camera is not self.camera:  # recalibrated: see through the new model
            from vision.detect import Detector

            self.camera = keeper.camera
            learn = list(self._seen)
            if self.worker is not None:
                self.worker.rebuild(self.camera, learn)
            else:
                self.detector = Detector(self.camera, self.table, self.rules.name)
                self.detector.learn_background(learn)
        return cal

    @property
    def queued(self) -> int:
        """Frames in, not judged yet (at the detector ahead)."""
        return len(self._queued)

    def ready(self) -> bool:
        """Whether the oldest frame in can be judged without waiting for the detector."""
        if not self._queued:
            return False
        return self._queued[0].blind or (self.worker is not None and self.worker.ready())

    @property
    def next_frame(self) -> int | None:
        """The frame :meth:`judge_next` would judge (None: nothing queued)."""
        return self._queued[0].k if self._queued else None

    def judge_next(self) -> list[Event]:
        """Judge the oldest frame in (waits for its detections)."""
        f = self._queued[0]
        try:
            dets = f.dets
            if not f.blind and self.worker is not None:
                dets = self.worker.take()
        finally:
            self._queued.popleft()
        return self._judge(f, dets)

    def drain(self) -> list[Event]:
        """Judge every frame still at the detector ahead."""
        evs: list[Event] = []
        while self._queued:
            evs += self.judge_next()
        return evs

    def _judge(self, f: _Frame, dets: Any) -> list[Event]:
        self.judged += 1
        if f.blind:  # no detection, no call: the keeper's events only
            self.blind += 1
            held: list[Event] = []
            if not self._in_blind:
                held = self._interrupt()
            self._in_blind = True
            self.emit(f.cal, f.image, None)
            if self.overlay is not None and self.video_out is not None:
                self.video_out.write(self.overlay.draw, f.image, None, self._hud_now(False))
            return held + list(f.cal)
        self._in_blind = False
        k, image, t = f.k, f.image, f.t
        tf: TrackFrame = self.tracker.update(dets)
        self.last_tf = tf
        state = state_from_tracks(tf, self.ball_d)
        self.recent.append((k, image, state))
        # the rules first: the camera's events and the tracks' file after the frame's events
        evs = self._feed.update(state)
        self.emit(evs, image, state)
        self.tracks.write(tf)
        if self.overlay is not None and self.overlay.camera is not f.camera:
            self.overlay.set_camera(f.camera)
        self.emit(f.cal, image, state)
        evs = evs + f.cal
        bi = state.ball_index
        if state.present[bi]:
            self.report.add_ball(t, state.ball_xy_mm, float(np.hypot(*state.v_mm_s[bi])))
        if self.overlay is not None and self.video_out is not None:
            self.video_out.write(self.overlay.draw, image, tf, self._hud_now(f.camera_ok))
        return evs

    def _interrupt(self) -> list[Event]:
        """A run of blind frames begins: the tracker and the engine are told that the frames
        until the camera is back are not seen, so neither reads motion, a contact or a line
        crossed across the gap (the ball rolled on, hands moved pieces meanwhile); the frames
        the engine held back are decided now. Returns those events (written)."""
        self.tracker.interrupt()
        evs = self._feed.interrupt()
        if evs:
            _, image, state = self.recent[-1]
            self.emit(evs, image, state)
        return evs

    def _hud_now(self, camera_ok: bool | None = None) -> Hud:
        """The HUD as it is now (its lists copied: the frame is drawn on another thread)."""
        hud, engine = self.hud, self.engine
        if camera_ok is None:
            camera_ok = self.keeper.state != "lost"
        hud.score, hud.clock_s = dict(engine.score), engine.clock_s
        hud.offside_line, hud.camera_ok = engine.offside_line, camera_ok
        return replace(hud, messages=list(hud.messages), marks=list(hud.marks))

    def annotate(self, image: U8, tf: TrackFrame | None) -> U8:
        assert self.overlay is not None
        return self.overlay.draw(image, tf, self._hud_now())

    def recalibrate(self) -> None:
        """Recalibrate on the next frames the camera keeper tests (a key in live mode)."""
        self.keeper.recalibrate()

    def close(self) -> list[Event]:
        if self._closed:
            return []
        self._closed = True
        evs: list[Event] = []
        try:
            if self.recent:
                evs = self._feed.finish()
                self.emit(evs, self.recent[-1][1], self.recent[-1][2])
        finally:
            if self.worker is not None:
                self.worker.close()
            self.events_file.close()
            self.tracks.close()
            if self.video_out is not None:
                self.video_out.close()
        return evs


def analyze(
    video: str | Path,
    out: str | Path,
    rules_name: str = "brasileira",
    camera_spec: str | Path | None = None,
    table_name: str | None = None,
    annotations_path: str | Path | None = None,
    *,
    video_scale: float | None = None,
    write_video: bool = True,
    kick_off: bool = True,
    progress: Callable[[int, int], None] | None = None,
    on_event: Callable[[Event], None] | None = None,
    detect_ahead: int = 2,
    record_inputs: str | Path | None = None,
) -> AnalyzeSummary:
    """Analyse ``video`` into ``out`` (see the module docstring); returns the summary.

    Bad input (no such file, no video, a camera for another size, bad annotations, a video the
    camera cannot be calibrated from) raises :class:`UsageError`. ``progress(done, total)`` is
    called per frame; ``on_event`` with every event as it is written. ``detect_ahead``: the
    detector runs in a process of its own that many frames ahead of the tracker and the rules
    (the same detections, on a second core); 0 runs it in this process. ``record_inputs``: a
    file to keep what the rule engine was fed (:mod:`rules.engine.inputs`, for replays).
    """
    from vision.detect import DetectorError

    t_start = time.perf_counter()
    rules = get_ruleset(rules_name)
    table = load_table(table_name or rules.table or "brasileira")
    annotations: Annotations | None = None
    if annotations_path is not None:
        try:
            annotations = load_annotations(annotations_path)
        except (AnnotationError, OSError) as exc:
            raise UsageError(f"--annotations {annotations_path}: {exc}") from None
    try:
        source = VideoFileSource(video)
    except SourceError as exc:
        raise UsageError(str(exc)) from None
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    camera, where = video_camera(source, camera_spec, table, out)
    fps = source.fps
    summary = AnalyzeSummary(str(video), rules.name, fps=fps, camera=where)

    options = replace(TRACKED_OPTIONS, kick_off=kick_off)
    worker: DetectorWorker | None = None
    try:
        # started first: the child imports its modules while the table's frames are decoded
        if detect_ahead > 0:
            worker = DetectorWorker(camera, table, rules.name, depth=detect_ahead)
        ref = Referee(
            camera,
            table,
            rules.name,
            out,
            fps,
            title=f"botão: {Path(video).name} ({rules.name})",
            annotations=annotations,
            options=options,
            video_scale=video_scale if write_video else None,
            write_video=write_video,
            learn=learn_frames(source, fps),
            on_event=on_event,
            worker=worker,
            record_inputs=record_inputs is not None,
        )
    except (DetectorError, WorkerError) as exc:
        if worker is not None:
            worker.close()
        raise UsageError(f"{video}: {exc}") from None
    n = 0
    total = source.announced
    try:
        for image in prefetch(img for _, img in source.frames()):
            ref.push(n, image, n / fps)
            n += 1
            if progress is not None:
                progress(ref.judged, total)
        ref.drain()
        if progress is not None:
            progress(ref.judged, total)
    except (DetectorError, WorkerError) as exc:  # what was judged is kept (exit status 3)
        source.damage.stopped = f"stopped at frame {ref.judged}: {exc}"
    finally:
        ref.close()
    if ref.recorder is not None and record_inputs is not None:
        ref.recorder.save(record_inputs)
    engine, counts, report = ref.engine, ref.counts, ref.report
    summary.frames = ref.judged
    summary.blind_frames = ref.blind
    summary.score = dict(engine.score)
    summary.counts = counts
    summary.damage = None if source.damage.ok else source.damage.describe(video)
    if n == 0 and summary.damage is None:
        summary.damage = f"{video}: no frame could be decoded"
    summary.outputs = {
        "events": str(out / "events.jsonl"),
        "tracks": str(out / "tracks.csv"),
        "report": str(out / "report.html"),
    }
    if ref.video_out is not None:
        summary.outputs["video"] = str(out / "annotated.mp4")
    summary.wall_s = time.perf_counter() - t_start
    report.write(out / "report.html", summary.to_dict())
    (out / "summary.json").write_text(json.dumps(summary.to_dict(), indent=1) + "\n", "utf-8")
    return summary


def _marks(e: Event, state: Any, hud: Hud, until_s: float) -> None:
    """Evidence the overlay keeps on screen for a few seconds after an event."""
    ev = e.get("evidence") or {}
    if "gabarito" in ev:
        g = ev["gabarito"]
        hud.marks.append(
            Mark((g[0], g[1]), until_s, radius_mm=30.0, label=e["type"], bgr=(226, 43, 138))
        )
    elif e["type"] == "distance_violation" and state is not None and ev.get("other"):
        p = state.pieces
        ids = p.ids.tolist()
        piece, other = e.get("piece"), ev["other"]
        if piece in ids and other in ids:
            a, b = p.xy_mm[ids.index(piece)], p.xy_mm[ids.index(other)]
            gap = (e.get("margin_mm") or 0.0) + float(ev.get("limit_mm") or 0.0)
            hud.marks.append(
                Mark(
                    (float(a[0]), float(a[1])),
                    until_s,
                    to_mm=(float(b[0]), float(b[1])),
                    label=f"{gap:.0f} mm",
                    bgr=(0, 0, 255),
                )
            )
    elif "ball" in ev and e["type"] in ("goal", "ball_out", "offside", "foul"):
        b = ev["ball"]
        hud.marks.append(
            Mark((b[0], b[1]), until_s, radius_mm=12.0, label=e["type"], bgr=(80, 255, 80))
        )
    hud.marks[:] = [m for m in hud.marks if m.until_s >= e["t"]]
