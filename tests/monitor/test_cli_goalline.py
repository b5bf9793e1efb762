"""``botao goal-line`` in process on a rendered near miss (1920x1080, tilted camera)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from monitor.cli import main

SCENARIO = Path(__file__).resolve().parents[2] / "samples" / "scenarios" / "near_miss.json"


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("near_miss")
    args = ["simulate", str(SCENARIO), "--resolution", "1920x1080", "--camera", "tilted"]
    assert main([*args, "--out", str(out)]) == 0
    return out


def _truth_stop(clip: Path) -> dict:
    events = [json.loads(x) for x in (clip / "events.jsonl").read_text("utf-8").splitlines()]
    return next(e for e in events if e["type"] == "ball_stopped")


def test_near_miss_is_no_goal_with_its_margin(clip: Path, tmp_path: Path, capsys) -> None:
    stop = _truth_stop(clip)  # the truth: the ball at rest 1.4 mm short of wholly across
    png = tmp_path / "call.png"
    args = ["goal-line", str(clip / "video.mp4"), "--camera", str(clip / "camera.json")]
    assert main([*args, "--at", f"{stop['t'] + 0.3:.2f}", "--json", "--out", str(png)]) == 0
    call = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert call["format"] == "call/1" and call["line"] == "goal_right"
    assert call["decision"] == "NO_GOAL" and call["moving"] is False
    assert abs(call["margin_mm"] - stop["margin_mm"]) < 0.5  # the protocol's zone
    assert 0 < call["sigma_mm"] < 0.3
    img = cv2.imread(str(png))
    assert img is not None and img.shape[1] == 970


def test_event_number_picks_the_moment(clip: Path, capsys) -> None:
    events = (clip / "events.jsonl").read_text("utf-8").splitlines()
    n = next(i for i, x in enumerate(events, 1) if json.loads(x)["type"] == "ball_stopped")
    args = ["goal-line", str(clip / "video.mp4"), "--camera", str(clip / "camera.json")]
    assert main([*args, "--event", str(n)]) == 0
    assert capsys.readouterr().out.startswith("NO GOAL: goal_right")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--at", "-1"], "--at"),
        (["--event", "999"], "--event"),
        (["--event", "1", "--events", "nowhere.jsonl"], "nowhere.jsonl"),
        (["--at", "1", "--camera", "nowhere.json"], "nowhere.json"),
        (["--at", "1", "--line", "goal_middle"], "goal_middle"),
    ],
)
def test_bad_input_one_line_exit_2(clip: Path, capsys, extra, message) -> None:
    args = ["goal-line", str(clip / "video.mp4")]
    if "--camera" not in extra:
        args += ["--camera", str(clip / "camera.json")]
    assert main([*args, *extra]) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("botao")]
    assert len(err) == 1 and message in err[0]


def test_missing_video(capsys) -> None:
    assert main(["goal-line", "nowhere.mp4", "--at", "1"]) == 2
    assert "nowhere.mp4" in capsys.readouterr().err


def test_camera_sigma_is_the_model_error_not_a_single_edge_points() -> None:
    """The camera's share of a call's sigma: the markings' scatter over the square root of the
    number of markings that pinned the model; nothing known, nothing added."""
    from dataclasses import replace

    from calibration.camera import preset_camera
    from geometry.tablespec import load_table
    from monitor.cmd_goalline import camera_sigma_mm

    cam = preset_camera("overhead", load_table("brasileira"), (1920, 1080))
    assert camera_sigma_mm(replace(cam, rms_mm=None)) == 0.0
    assert camera_sigma_mm(replace(cam, rms_mm=0.2, markings_used=())) == pytest.approx(0.2)
    nine = replace(cam, rms_mm=0.3, markings_used=tuple(f"m{i}" for i in range(9)))
    assert camera_sigma_mm(nine) == pytest.approx(0.1)
