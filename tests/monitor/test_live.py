"""``botao live`` with a clip played as a camera, and the capture thread on fake cameras."""

from __future__ import annotations

import io
import json
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from monitor.capture import Capture, Recorder
from monitor.cli import main
from monitor.live import LiveSummary, live
from monitor.source import VideoFileSource


class FakeCamera:
    """Frames numbered in their first pixel; fails ``fail_at`` (once each) then recovers."""

    def __init__(self, n: int, fail_at: tuple[int, ...] = (), period_s: float = 0.002) -> None:
        self.fps, self.size_wh, self.ended = 30.0, (8, 6), False
        self.n, self.k, self.fail_at, self.period = n, 0, set(fail_at), period_s
        self.down = False
        self.reopens = 0

    def read(self):
        time.sleep(self.period)
        if self.down:
            return None
        if self.k in self.fail_at:
            self.fail_at.discard(self.k)
            self.down = True
            return None
        if self.k >= self.n:
            self.ended = True
            return None
        img = np.full((6, 8, 3), self.k % 256, np.uint8)
        self.k += 1
        return img

    def reopen(self) -> bool:
        self.reopens += 1
        if self.reopens % 2:  # the first try after a failure fails too
            return False
        self.down = False
        return True

    def close(self) -> None:
        pass


def test_capture_hands_over_the_newest_and_counts_what_nobody_took() -> None:
    cap = Capture(FakeCamera(200)).start()
    taken = []
    while True:
        g = cap.newest(1.0)
        if g is None and cap.ended:
            break
        if g is not None:
            taken.append(g.index)
            assert g.image[0, 0, 0] == g.index % 256  # the frame is the one numbered
            time.sleep(0.01)  # a slow judge: the camera runs ahead
    cap.stop()
    assert cap.captured == 200
    assert taken == sorted(taken) and len(set(taken)) == len(taken)
    assert cap.dropped == 200 - len(taken) and cap.dropped > 50
    # every frame's capture time is kept, judged or not (an event's decisive frame may be a
    # dropped one): in order, and none for frames never captured
    times = [cap.captured_at(k) for k in range(200)]
    assert all(t is not None for t in times)
    assert times == sorted(times)  # type: ignore[type-var]
    assert cap.captured_at(200) is None and cap.captured_at(-1) is None


def test_the_recorder_keeps_the_frames_colours(tmp_path: Path) -> None:
    # the raw recording is what ``botao analyze`` judges later: its colours must come back
    # (OpenCV's yuv420p conversion, the decoder's BT.601 limited range), odd sizes cropped even
    vv, uu = np.mgrid[0:91, 0:161]
    frames = [
        np.stack([uu + 7 * k, vv * 2, 255 - uu], axis=2).clip(0, 255).astype(np.uint8)
        for k in range(5)
    ]
    rec = Recorder(tmp_path / "raw.mp4", 30.0, (161, 91))
    for f in frames:
        rec.put(f)
    rec.close()
    back = [img for _, img in VideoFileSource(tmp_path / "raw.mp4").frames()]
    assert rec.frames == len(back) == 5 and rec.lost == 0
    assert back[2].shape == (90, 160, 3)
    assert np.abs(back[2].astype(float) - frames[2][:90, :160]).mean() < 3.0


def test_a_camera_that_disappears_is_retried_with_backoff(monkeypatch) -> None:
    monkeypatch.setattr("monitor.capture.BACKOFF_S", (0.01, 0.02))
    gaps: list[str] = []
    cam = FakeCamera(60, fail_at=(20, 40))
    cap = Capture(cam, on_gap=gaps.append).start()
    while not cap.ended:
        cap.newest(0.5)
    cap.stop()
    assert cap.captured == 60 and cap.reopened == 2
    assert sum("retrying" in m for m in gaps) == 4  # each failure: a failed try, then back
    assert sum("back" in m for m in gaps) == 2


def test_stop_while_the_camera_is_away() -> None:
    cam = FakeCamera(10, fail_at=(3,))
    cam.reopen = lambda: False  # type: ignore[method-assign]
    cap = Capture(cam).start()
    time.sleep(0.1)
    t0 = time.perf_counter()
    cap.stop()
    assert time.perf_counter() - t0 < 2.0 and cap.captured == 3


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("live_clip")
    args = ["simulate", "--random-match", "--seconds", "5", "--seed", "4"]
    assert main([*args, "--resolution", "960x540", "--out", str(out)]) == 0
    return out


@pytest.mark.parametrize("ahead", [0, 2])  # the detector here, or in its own process
def test_live_on_a_clip_played_as_a_camera(clip: Path, tmp_path: Path, ahead: int) -> None:
    said: list[str] = []
    keys = io.StringIO("s A A9\ng B\nu\nx\nr\n")
    s = live(
        f"sim:{clip / 'video.mp4'}",
        tmp_path,
        "brasileira",
        str(clip / "camera.json"),
        warmup_s=1.0,
        keys=keys,
        say=said.append,
        detect_ahead=ahead,
    )
    assert s.stopped_by == "the source ended"
    assert s.captured == 151 and s.judged > 0 and s.captured == s.judged + s.dropped
    # Every captured frame is in the recording, numbered as the events are.
    assert s.recorder_lost == 0
    assert sum(1 for _ in VideoFileSource(tmp_path / "raw.mp4").frames()) == s.captured
    # The keys: a shot announced for A, a keeper placed for B then undone, an unknown key.
    ann = json.loads((tmp_path / "annotations.json").read_text("utf-8"))
    assert [it["type"] for it in ann["items"]] == ["shot_announced"]
    assert ann["items"][0]["team"] == "A" and ann["items"][0]["piece"] == "A9"
    assert any("undone keeper_placed B" in m for m in said)
    assert any("unknown key 'x'" in m for m in said)
    assert any("recalibrating" in m for m in said)
    summary = json.loads((tmp_path / "summary.json").read_text("utf-8"))
    assert summary["format"] == "live/1" and summary["age_ms"]["max"] >= 0
    assert summary["step_ms"]["median"] > 0 and len(s.step_ms) == s.judged
    for line in (tmp_path / "events.jsonl").read_text("utf-8").splitlines():
        assert json.loads(line)["format"] == "event/1"


def _live_slowly(clip: Path, out: Path, ahead: int = 0) -> LiveSummary:
    """The clip judged live with its camera, played at a fifth of its speed: a slow machine
    still judges the few frames a test stops after before the clip ends."""
    return live(
        f"sim:{clip / 'video.mp4'}",
        out,
        "brasileira",
        str(clip / "camera.json"),
        warmup_s=0.5,
        say=lambda m: None,
        speed=0.2,
        detect_ahead=ahead,
    )


@pytest.mark.parametrize("ahead", [0, 2])
def test_live_stops_cleanly_on_ctrl_c(clip: Path, tmp_path: Path, monkeypatch, ahead) -> None:
    from monitor import live as live_mod

    calls = {"n": 0}
    real_judge = live_mod.Referee._judge

    def judge(self, f, dets):  # Ctrl-C arrives while the fifth frame is judged
        calls["n"] += 1
        if calls["n"] == 5:
            raise KeyboardInterrupt
        return real_judge(self, f, dets)

    monkeypatch.setattr(live_mod.Referee, "_judge", judge)
    s = _live_slowly(clip, tmp_path, ahead)
    assert s.stopped_by == "Ctrl-C" and s.judged == 4
    # The files are closed and complete: the recording plays, the summary is written.
    n = sum(1 for _ in VideoFileSource(tmp_path / "raw.mp4").frames())
    assert n == s.captured - s.recorder_lost and n > 0
    assert json.loads((tmp_path / "summary.json").read_text("utf-8"))["stopped_by"] == "Ctrl-C"
    assert threading.active_count() < 10  # no capture or recorder thread left running


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--source", "nowhere.mp4"], "nowhere.mp4"),
        (["--source", "x.mp4", "--seconds", "0"], "--seconds"),
        (["--source", "x.mp4", "--warmup", "-1"], "--warmup"),
    ],
)
def test_bad_input_exit_2(tmp_path: Path, capsys, args, message) -> None:
    assert main(["live", *args, "--rules", "brasileira", "--out", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err


def test_camera_for_another_size(clip: Path, tmp_path: Path, capsys) -> None:
    cam = json.loads((clip / "camera.json").read_text("utf-8"))
    cam["image_size"] = [1920, 1080]
    (tmp_path / "cam.json").write_text(json.dumps(cam), "utf-8")
    args = ["live", "--source", str(clip / "video.mp4"), "--rules", "brasileira"]
    assert main([*args, "--camera", str(tmp_path / "cam.json"), "--out", str(tmp_path / "o")]) == 2
    assert "960x540" in capsys.readouterr().err


def test_the_overlay_window_when_a_display_exists(clip: Path, tmp_path: Path, monkeypatch) -> None:
    """Our wheel is headless: the window's OpenCV calls are stood in for. Each judged frame is
    shown at most 1280 wide, the window's keys work (a: a shot for the first team, q: stop)
    and the window is closed at the end."""
    import cv2

    from monitor import live as live_mod

    shown: list[tuple[int, ...]] = []
    closed: list[str] = []
    presses = iter([ord("a"), ord("q")])
    monkeypatch.setattr(live_mod, "has_display", lambda: True)
    monkeypatch.setattr(cv2, "imshow", lambda name, img: shown.append(img.shape))
    monkeypatch.setattr(cv2, "waitKey", lambda ms: next(presses, 255))
    monkeypatch.setattr(cv2, "destroyWindow", closed.append)
    s = _live_slowly(clip, tmp_path)
    assert (s.stopped_by, s.judged, len(shown)) == ("q", 2, 2)
    assert all(shape == (540, 960, 3) for shape in shown)
    ann = json.loads((tmp_path / "annotations.json").read_text("utf-8"))
    assert [(it["type"], it["team"]) for it in ann["items"]] == [("shot_announced", "A")]
    assert closed == [live_mod.WINDOW]
