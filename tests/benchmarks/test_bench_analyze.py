"""bench_analyze's split of the late events: written within 2 frames of the camera seeing the
ball and the piece again (a hit under a hand, known when the ball comes out), or later."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.bench_analyze import _bodies, _late_while_unseen


def _tracks(tmp_path: Path, unseen: set[tuple[int, str]]) -> Path:
    p = tmp_path / "tracks.csv"
    rows = ["frame,t,id,team,kind,x,y,vx,vy,moving,status"]
    for f in range(100, 110):
        for pid in ("A7", "B3", "ball"):
            status = "hidden" if (f, pid) in unseen else "seen"
            rows.append(f"{f},{f / 30:.4f},{pid},{pid[0]},button,0,0,0,0,0,{status}")
    p.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return p


@pytest.mark.parametrize(
    ("unseen", "piece", "expected"),
    [
        ({(102, "ball"), (103, "ball")}, "A7", 1),  # the ball seen again 2 frames before
        ({(101, "A7")}, "A7", 0),  # the striker seen again 3 frames before it was written
        ({(102, "B3")}, "A7", 0),  # another piece unseen: no excuse
        (set(), "A7", 0),  # all in sight: late for nothing
        ({(105, "ball")}, "A7", 0),  # unseen only once it was written
        ({(103, "ball")}, "", 1),  # an event without a piece (a goal): the ball alone
        # a foul: its offender and victim (brasileira's ten minutes, frame 950: the victim
        # seen again two frames before the foul was written, the offender four)
        ({(101, "A7"), (102, "B3"), (103, "B3")}, "A7+B3", 1),
        ({(101, "A7")}, "A7+B3", 0),
        ({(103, "ball")}, "A7+B3", 0),  # the ball is no body of a foul
    ],
)
def test_late_events_are_split_by_what_the_camera_saw_meanwhile(
    tmp_path: Path, unseen: set[tuple[int, str]], piece: str, expected: int
) -> None:
    late = [(4, "touch", 101, piece, 105)]  # frame 101, written when 105 frames were judged
    assert _late_while_unseen(_tracks(tmp_path, unseen), late) == expected


def test_no_late_events_reads_nothing(tmp_path: Path) -> None:
    assert _late_while_unseen(tmp_path / "absent.csv", []) == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--replay"], "--replay needs --clip DIR"),
        (["--replay", "--clip", "{tmp}"], "engine_in.npz: no recorded engine inputs"),
    ],
)
def test_a_replay_without_recorded_inputs_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    from benchmarks.bench_analyze import main

    argv = ["--rules", "brasileira", "--seconds", "1", "--speed-seconds", "0"]
    argv += [a.replace("{tmp}", str(tmp_path)) for a in args]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("event", "bodies"),
    [
        ({"type": "foul", "piece": "A7", "evidence": {"victim": "B3"}}, "A7+B3"),
        ({"type": "contact", "piece": "A7", "evidence": {"other": "A2"}}, "A7+A2"),
        ({"type": "touch", "piece": "A7", "evidence": {}}, "A7"),
        ({"type": "goal", "piece": None, "evidence": {}}, ""),
        ({"type": "foul", "piece": "A7", "evidence": {}}, "A7"),  # no victim named: as a touch
    ],
)
def test_the_bodies_of_an_event(event: dict, bodies: str) -> None:
    assert _bodies(event) == bodies
