"""Write the sample scenes of ``samples/scenes/`` and the verdicts each must give.

Run ``python samples/make_scenes.py`` to regenerate; the verdicts go to ``scenes/expected/``.
Every expected margin below is worked out by hand from the article's geometry (the comment
shows the arithmetic), never copied from the program's output;
``tests/monitor/test_samples.py`` checks the program against them.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent / "scenes"


def btn(pid: str, team: str, x: float, y: float, d: float = 60.0) -> dict[str, Any]:
    return {
        "id": pid,
        "team": team,
        "kind": "button",
        "x": round(x, 4),
        "y": round(y, 4),
        "diameter": d,
        "height": 8.0,
    }


def gk(pid: str, team: str, x: float, y: float, angle: float = 90.0) -> dict[str, Any]:
    return {
        "id": pid,
        "team": team,
        "kind": "goalkeeper",
        "x": x,
        "y": y,
        "length": 70.0,
        "width": 15.0,
        "height": 35.0,
        "angle_deg": angle,
    }


def ball(x: float, y: float) -> dict[str, Any]:
    return {"id": "ball", "kind": "ball", "x": round(x, 4), "y": round(y, 4), "diameter": 10.0}


def formation(team: str, side: str) -> list[dict[str, Any]]:
    """A plausible 11: goalkeeper, four defenders, three midfielders, three forwards."""
    s = -1.0 if side == "left" else 1.0
    spots = [
        (850, -260),
        (870, -90),
        (870, 90),
        (850, 260),
        (560, -200),
        (600, 0),
        (560, 200),
        (250, -300),
        (230, 0),
        (250, 300),
    ]
    out = [gk(f"{team}1", team, s * 990.0, 0.0)]
    out += [btn(f"{team}{k + 2}", team, s * x, y) for k, (x, y) in enumerate(spots)]
    return out


def doc(
    table: str,
    pieces: list[dict[str, Any]],
    context: dict[str, Any] | None = None,
    a_defends: str = "left",
) -> dict[str, Any]:
    d: dict[str, Any] = {
        "format": "scene/1",
        "table": table,
        "teams": {
            "A": {"defends": a_defends},
            "B": {"defends": "right" if a_defends == "left" else "left"},
        },
        "pieces": pieces,
    }
    if context:
        d["context"] = context
    return d


def ring_of_three(cx: float, cy: float, dist: float, team: str) -> list[dict[str, Any]]:
    """Three buttons at 120 deg around (cx, cy), centres ``dist`` from it."""
    out = []
    for k, a in enumerate((90.0, 210.0, 330.0)):
        r = math.radians(a)
        out.append(btn(f"{team}{k + 5}", team, cx + dist * math.cos(r), cy + dist * math.sin(r)))
    return out


def scenes() -> dict[str, tuple[str, dict[str, Any], list[dict[str, Any]]]]:
    """name -> (rules, scene, expected verdicts [{check, team?/piece?, holds, margin_mm, tol}])."""
    out: dict[str, tuple[str, dict[str, Any], list[dict[str, Any]]]] = {}
    both = formation("A", "left") + formation("B", "right")

    # A goal by half a millimetre (000 REGRA 10): trailing edge at 1005.5 - 5 = 1000.5.
    out["goal-by-half-mm"] = (
        "brasileira",
        doc("brasileira", [*both, ball(1005.5, 12.0)]),
        [
            {"check": "ball_in_goal", "team": "B", "holds": True, "margin_mm": 0.5},
        ],
    )
    # Centre on the goal line's outer edge: half the ball still on the line (-5 mm).
    out["ball-on-line"] = (
        "brasileira",
        doc("brasileira", [*both, ball(-1000.0, 40.0)]),
        [
            {"check": "ball_in_goal", "team": "A", "holds": False, "margin_mm": -5.0},
            {"check": "ball_out", "holds": False, "margin_mm": -5.0},
        ],
    )
    # A neutral ball (000 Art. 12): 1 + 5 - 3 = 3 mm of overlap with the halfway line.
    out["neutral-ball"] = (
        "nacional",
        doc("nacional", [*both, ball(3.0, 100.0)]),
        [
            {"check": "ball_neutral", "holds": True, "margin_mm": 3.0},
        ],
    )
    # Ball out over the far touchline by 0.4 mm (000 REGRA 9 A): 700 + 5 + 0.4.
    out["ball-out-touchline"] = (
        "brasileira",
        doc("brasileira", [*both, ball(120.0, 705.4)]),
        [
            {"check": "ball_out", "holds": True, "margin_mm": 0.4},
        ],
    )
    # Blocked ball (000 REGRA 4 BLOQUEIO): three B buttons at 120 deg, centres 68 mm from the
    # ball. Gap between two of them: 2 * 68 * sin(60 deg) - 60 = 57.78 mm, so the largest
    # gabarito that passes has radius 28.89: blocked, with 30 - 28.89 = 1.11 mm to spare.
    bx, by = 380.0, -450.0
    gap68 = 2 * 68 * math.sin(math.radians(60)) - 60
    blocked = [p for p in both if p["id"] not in ("B5", "B6", "B7")]
    out["blocked-ball"] = (
        "brasileira",
        doc(
            "brasileira",
            [*blocked, *ring_of_three(bx, by, 68.0, "B"), ball(bx, by)],
            {"blocking_team": "B"},
        ),
        [
            {
                "check": "ball_blocked",
                "team": "B",
                "holds": True,
                "margin_mm": 30 - gap68 / 2,
                "tol": 0.1,
            },
        ],
    )
    # The same formation with a gap: centres 72 mm away, gap 64.71 mm, radius 32.35 gets in.
    gap72 = 2 * 72 * math.sin(math.radians(60)) - 60
    out["blocked-ball-gap"] = (
        "brasileira",
        doc(
            "brasileira",
            [*blocked, *ring_of_three(bx, by, 72.0, "B"), ball(bx, by)],
            {"blocking_team": "B"},
        ),
        [
            {
                "check": "ball_blocked",
                "team": "B",
                "holds": False,
                "margin_mm": 30 - gap72 / 2,
                "tol": 0.1,
            },
        ],
    )
    # Obstructed ball (000 Art. 22 V-E): two A buttons 72 mm apart, the ball between them; the
    # hull of the pair reaches 30 mm either side of their axis, the ball's edge 5: 25 mm inside.
    obstructed = [p for p in both if p["id"] not in ("A8", "A9")]
    out["obstructed-ball"] = (
        "nacional",
        doc(
            "nacional",
            [
                *obstructed,
                btn("A8", "A", -300.0, 36.0),
                btn("A9", "A", -300.0, -36.0),
                ball(-300.0, 0.0),
            ],
        ),
        [
            {"check": "ball_obstructed", "team": "A", "holds": True, "margin_mm": 25.0},
        ],
    )
    # Offside (000 REGRA 11): A attacks the right goal. Defenders: goalkeeper (front 997.5) and
    # B5 (front 680); the second-last defender's front is 680, the ball's front 205. A9's front
    # at 730: offside by 50 mm.
    few = [
        gk("B1", "B", 990.0, 0.0),
        btn("B5", "B", 650.0, -100.0),
        btn("B8", "B", 300.0, 200.0),
        gk("A1", "A", -990.0, 0.0),
        btn("A4", "A", 150.0, -50.0),
    ]
    out["offside"] = (
        "brasileira",
        doc("brasileira", [*few, btn("A9", "A", 700.0, 150.0), ball(200.0, 0.0)], {"to_play": "A"}),
        [
            {"check": "offside_position", "piece": "A9", "holds": True, "margin_mm": 50.0},
            {"check": "offside_position", "piece": "A4", "holds": False, "margin_mm": -(680 - 180)},
        ],
    )
    # Level with the penultimate defender (exception A): not offside, margin 0.
    out["offside-level"] = (
        "brasileira",
        doc("brasileira", [*few, btn("A9", "A", 650.0, 150.0), ball(200.0, 0.0)], {"to_play": "A"}),
        [
            {"check": "offside_position", "piece": "A9", "holds": False, "margin_mm": 0.0},
        ],
    )
    # A free kick with buttons inside 6 cm (000 Art. 17: "menos de 0,06 m do local da
    # cobrança", measured from the spot). B7's edge is 280 - 30 - 200 = 50 mm from the spot:
    # 10 mm inside, may be removed. The kicker A10 keeps 200 - 5 - (150 + 30) = 15 mm from the
    # ball, 5 mm more than the 1 cm of Art. 8 / Art. 25 E.
    fk = [
        gk("A1", "A", -990.0, 0.0),
        gk("B1", "B", 990.0, 0.0),
        btn("A10", "A", 150.0, 100.0),
        btn("B7", "B", 280.0, 100.0),
        btn("B4", "B", 420.0, -200.0),
        ball(200.0, 100.0),
    ]
    out["free-kick-inside-6cm"] = (
        "nacional",
        doc("nacional", fk, {"restart": "free_kick", "team": "A", "spot": [200.0, 100.0]}),
        [
            {"check": "min_distance", "piece": "B7", "holds": False, "margin_mm": -10.0},
            {"check": "min_distance", "piece": "A10", "holds": True, "margin_mm": 5.0},
        ],
    )
    # A goal kick with too many attackers (000 REGRA 16 B: at most six). Team A has seven
    # button centres past the halfway line; the seventh furthest, A2 at x = 120, decides: it is
    # 120 mm on the wrong side of the line.
    attack = [(120, 0), (320, -300), (320, 300), (520, -550), (520, 0), (520, 550), (720, -250)]
    a_team = [gk("A1", "A", -990.0, 0.0)]
    a_team += [btn(f"A{k + 2}", "A", x, y) for k, (x, y) in enumerate(attack)]
    a_team += [btn("A9", "A", -300, -300), btn("A10", "A", -300, 300), btn("A11", "A", -600, 0)]
    b_spots = [
        (850, -300),
        (850, 300),
        (650, 0),
        (250, -600),
        (250, 600),
        (100, -300),
        (-150, -450),
        (-150, 450),
        (-400, 0),
        (450, -150),
    ]
    b_team = [gk("B1", "B", 990.0, 0.0)]
    b_team += [btn(f"B{k + 2}", "B", x, y) for k, (x, y) in enumerate(b_spots)]
    out["goal-kick-too-many-attackers"] = (
        "brasileira",
        doc(
            "brasileira",
            [*a_team, *b_team, ball(880.0, 150.0)],
            {"restart": "goal_kick", "team": "B", "spot": [880.0, 150.0]},
        ),
        [
            {
                "check": "min_distance",
                "constraint": "goal_kick_attackers",
                "team": "A",
                "piece": "A2",
                "holds": False,
                "margin_mm": -120.0,
            },
        ],
    )
    return out


def main() -> None:
    HERE.mkdir(parents=True, exist_ok=True)
    for name, (rules, scene, expected) in scenes().items():
        (HERE / f"{name}.json").write_text(json.dumps(scene, indent=1) + "\n", "utf-8")
        exp = {"rules": rules, "expect": [{"tol": 0.001, **e} for e in expected]}
        (HERE / "expected").mkdir(exist_ok=True)
        (HERE / "expected" / f"{name}.json").write_text(json.dumps(exp, indent=1) + "\n", "utf-8")
    print(f"wrote {len(scenes())} scenes to {HERE}")


if __name__ == "__main__":
    main()
