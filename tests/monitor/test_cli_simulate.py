"""``botao simulate`` and ``botao demo`` in process, at a small resolution to stay fast."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from monitor.cli import main
from simulator.video import video_info

SCENARIOS = Path(__file__).resolve().parents[2] / "samples" / "scenarios"


def test_simulate_scenario_writes_video_and_truth(tmp_path: Path, capsys) -> None:
    out = tmp_path / "goal"
    code = main(
        [
            "simulate",
            str(SCENARIOS / "goal.json"),
            "--out",
            str(out),
            "--resolution",
            "320x200",
            "--camera",
            "tilted",
        ]
    )
    assert code == 0, capsys.readouterr().err
    for name in (
        "video.mp4",
        "camera.json",
        "truth.csv",
        "events.jsonl",
        "contacts.jsonl",
        "simulation.json",
    ):
        assert (out / name).exists(), name
    summary = json.loads((out / "simulation.json").read_text())
    info = video_info(out / "video.mp4")
    assert summary["frames"] == info["frames"]
    assert tuple(json.loads((out / "camera.json").read_text())["image_size"]) == (320, 200)
    types = [json.loads(line)["type"] for line in (out / "events.jsonl").read_text().splitlines()]
    assert "goal" in types
    frames_in_truth = {
        line.split(",")[0] for line in (out / "truth.csv").read_text().splitlines()[1:]
    }
    assert len(frames_in_truth) == summary["frames"]


def test_random_match_is_reproducible(tmp_path: Path) -> None:
    for name in ("a", "b"):
        assert (
            main(
                [
                    "simulate",
                    "--random-match",
                    "--seconds",
                    "2",
                    "--seed",
                    "5",
                    "--out",
                    str(tmp_path / name),
                    "--resolution",
                    "160x100",
                ]
            )
            == 0
        )
    assert (tmp_path / "a" / "truth.csv").read_text() == (tmp_path / "b" / "truth.csv").read_text()


def test_demo_runs_end_to_end(tmp_path: Path, capsys) -> None:
    out = tmp_path / "d"
    assert main(["demo", "--seconds", "4", "--out", str(out), "--resolution", "960x540"]) == 0
    text = capsys.readouterr().out
    assert "Simulated 121 frames" in text and "Monitor vs the simulator's truth" in text
    # The monitor judged the video alone: it calibrated itself and wrote every output.
    for name in ("camera.json", "events.jsonl", "tracks.csv", "annotated.mp4", "report.html"):
        assert (out / "analysis" / name).stat().st_size > 0, name


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--out", "x"], "give a SCENARIO file or --random-match"),
        (["simulate", "s.json", "--random-match", "--out", "x"], "give a SCENARIO"),
        (["simulate", "--random-match", "--out", "x", "--resolution", "big"], "--resolution"),
        (["simulate", "--random-match", "--out", "x", "--resolution", "10x10"], "--resolution"),
        (["simulate", "--random-match", "--out", "x", "--fps", "0"], "--fps"),
        (["simulate", "--random-match", "--out", "x", "--seconds", "-1"], "--seconds"),
        (["simulate", "--random-match", "--out", "x", "--camera", "fisheye"], "--camera"),
        (["simulate", "--random-match", "--out", "x", "--rules", "fifa"], "unknown rule set"),
        (["simulate", "nowhere.json", "--out", "x"], "nowhere.json"),
        (["demo", "--seconds", "90", "--out", "x"], "at most 60 s"),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path: Path, monkeypatch, capsys, args, message) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_camera_file_must_match_resolution(tmp_path: Path, capsys) -> None:
    from calibration.camera import preset_camera
    from geometry.tablespec import load_table

    cam = tmp_path / "cam.json"
    preset_camera("overhead", load_table("brasileira"), (640, 360)).save(cam)
    assert (
        main(
            [
                "simulate",
                "--random-match",
                "--seconds",
                "1",
                "--out",
                str(tmp_path / "o"),
                "--camera",
                str(cam),
                "--resolution",
                "320x180",
            ]
        )
        == 2
    )
    assert "differs from --resolution 320x180" in capsys.readouterr().err
