"""Team identity by colour (issue 5, deliverable 2): clustering and configured colours."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.designs import TEAM_DESIGNS
from vision.team_search import named_by_goals
from vision.teams import TeamModel, TeamModelError, bgr_to_lab


def _teams(a: str, b: str, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Lab features of n pieces a side (base colours plus the spread of prints and light)."""
    la = bgr_to_lab([TEAM_DESIGNS[a].base_bgr])[0]
    lb = bgr_to_lab([TEAM_DESIGNS[b].base_bgr])[0]
    feats = np.concatenate([la + rng.normal(0, 2.0, (n, 3)), lb + rng.normal(0, 2.0, (n, 3))])
    xy = np.concatenate([rng.uniform(-900, 100, (n, 2)), rng.uniform(-100, 900, (n, 2))])
    return feats, xy


def test_lab_of_known_colours() -> None:
    lab = bgr_to_lab([(255, 255, 255), (0, 0, 0), (0, 0, 255)])
    assert lab[0, 0] == pytest.approx(100.0, abs=0.5) and abs(lab[0, 1]) < 1 and abs(lab[0, 2]) < 1
    assert lab[1, 0] == pytest.approx(0.0, abs=0.5)
    assert lab[2, 1] > 60  # red: large positive a


@pytest.mark.parametrize(
    ("a", "b"), [("red", "blue"), ("red", "orange"), ("white", "blue"), ("black", "yellow")]
)
def test_fit_splits_the_teams_and_names_the_left_one_a(a: str, b: str) -> None:
    rng = np.random.default_rng(1)
    feats, xy = _teams(a, b, 11, rng)
    model = TeamModel.fit(feats, xy)
    team, conf = model.assign(feats)
    assert team.tolist() == ["A"] * 11 + ["B"] * 11
    assert (conf > 0.6).all()


def test_configured_colours() -> None:
    model = TeamModel.from_colours(
        {"A": TEAM_DESIGNS["red"].base_bgr, "B": TEAM_DESIGNS["orange"].base_bgr},
        height_mm={"B": 8.0},
    )
    team, _ = model.assign(bgr_to_lab([(45, 45, 190), (35, 115, 230)]))
    assert team.tolist() == ["A", "B"]
    assert model.height("B", 10.0) == 8.0 and model.height("A", 10.0) == 10.0


@pytest.mark.parametrize(
    ("feats", "message"),
    [
        (np.array([[50.0, 10.0, 10.0]]), "at least two"),
        (
            np.array([[50.0, 10, 10], [50.5, 10, 10], [50.2, 10.3, 9.9], [50.1, 9.8, 10.2]]),
            "cannot be told",
        ),
        (np.concatenate([np.full((12, 3), 40.0), np.full((3, 3), 80.0)]), "more than 11"),
    ],
)
def test_fit_refuses(feats: np.ndarray, message: str) -> None:
    xy = np.zeros((len(feats), 2))
    with pytest.raises(TeamModelError, match=message):
        TeamModel.fit(feats, xy)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(3, 11))
def test_assignment_does_not_depend_on_order(seed: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    feats, xy = _teams("red", "orange", n, rng)
    perm = rng.permutation(len(feats))
    a = TeamModel.fit(feats, xy).assign(feats)[0]
    b = TeamModel.fit(feats[perm], xy[perm]).assign(feats)[0]
    assert a.tolist() == b.tolist() == ["A"] * n + ["B"] * n


# keepers as (colour team, x mm); which fitted team ends up named "A" (defends left)
GOAL_ROWS = {
    "red's keeper in the left goal": ([("red", -990.0), ("blue", 990.0)], "red"),
    "blue's keeper in the left goal": ([("blue", -990.0), ("red", 990.0)], "blue"),
    # failure rows: the buttons' sides decide (blue's sit left here)
    "one keeper seen": ([("red", -990.0)], "blue"),
    "both keepers one side": ([("red", -990.0), ("blue", -700.0)], "blue"),
    "both keepers one team's colour": ([("red", -990.0), ("red", 990.0)], "blue"),
}


@pytest.mark.parametrize("name", list(GOAL_ROWS))
def test_the_goalkeepers_name_the_teams_by_the_goals_they_defend(name: str) -> None:
    # mid-match: red's buttons attack deep in the right half, blue's stand further left
    rng = np.random.default_rng(7)
    red, blue = (bgr_to_lab([TEAM_DESIGNS[t].base_bgr])[0] for t in ("red", "blue"))
    feats = np.concatenate([red + rng.normal(0, 2.0, (8, 3)), blue + rng.normal(0, 2.0, (8, 3))])
    xy = np.concatenate([rng.uniform(300, 900, (8, 2)), rng.uniform(-500, 200, (8, 2))])
    model = TeamModel.fit(feats, xy)
    assert model.assign([blue])[0][0] == "A"  # by the buttons: blue sits left
    keepers, left = GOAL_ROWS[name]
    lab = np.array([{"red": red, "blue": blue}[t] for t, _ in keepers])
    kxy = np.array([(x, 0.0) for _, x in keepers])
    named = named_by_goals(model, lab, kxy)
    assert named.assign([{"red": red, "blue": blue}[left]])[0][0] == "A"
    assert named.names == ("A", "B")
