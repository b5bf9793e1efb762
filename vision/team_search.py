"""Teams for :class:`vision.detect.Detector` (functions of the detector, ``det``, that are its
methods): each piece's team from its top face's mean Lab colour against a
:class:`vision.teams.TeamModel` (fitted on the first frame's buttons, or configured), and the
buttons refitted at their team's diameter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from vision.solids import (
    Solid,
    close,
    sample,
    top_samples,
)
from vision.teams import TeamModel, TeamModelError, bgr_to_lab

if TYPE_CHECKING:
    from vision.detect import Detector

FloatArray = NDArray[np.float64]
U8 = NDArray[np.uint8]


def assign_teams(det: Detector, solids: list[Solid]) -> None:
    """Each solid's team and team confidence, from its top face's mean Lab colour."""
    if not solids:
        return
    feats = np.array([det._lab(x) for x in solids])
    det._fitting = solids
    teams, conf = det._teams(feats, np.array([x.p[:2] for x in solids]))
    for x, team, c in zip(solids, teams, conf, strict=True):
        x.team, x.team_conf = str(team), float(c)


def team_sizes(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    solids: list[Solid],
    hands: NDArray[np.bool_],
    kept: list[Solid] | None = None,
) -> list[Solid]:
    """Refit the buttons at their team's diameter (the median of the team's free fits).

    A diameter fitted with the centre trades against it where one side of a piece is seen
    less well; a team's buttons share one size (or the configured one), which pins it.

    A measured size is at most the rule set's button diameter, the largest its text allows
    (000 Art. 4, 000 REGRA 2, 001 Art. VIII: 60 mm): the fits read a button wide, not narrow
    (JPEG's and H.264's halved colour resolution blurs a hue's edge outward: +0.9 mm on the
    ten-minute renders' H.264, +1.8 mm at the median on JPEG stills), so a size over the
    largest legal one is that bias, not a larger button. A configured size is kept as given.
    """
    if not det.learned or not det.team_diameter:
        for team in {x.team for x in solids if x.team}:
            ds = [x.p[2] for x in solids if x.kind == "button" and x.team == team]
            if len(ds) >= 3 and team not in det._configured_diameter:
                det.team_diameter[team] = min(float(np.median(ds)), det.sizes.button_diameter)
    out = []
    for i, x in enumerate(solids):
        d = det.team_diameter.get(x.team)
        # a team's own button height (a set of taller buttons), else the rule set's
        h = det.teams.height(x.team, x.height) if det.teams and x.team else x.height
        others = [y for j, y in enumerate(solids) if j != i and close(x, y)]
        others += [y for y in kept or [] if close(x, y)]
        same_h = abs(h - x.height) < 0.01
        if x.kind != "button" or ((d is None or x.sized) and not others and same_h):
            out.append(x)
            continue
        y = Solid("button", np.array([x.p[0], x.p[1], d or x.p[2]]), h, team=x.team)
        y.team_conf = x.team_conf
        excl = det._excluded(others, hands)
        y = det._fit(img, bgf, y, excl, fit_size=d is None)
        out.append(y if det._good(y) else x)
    return out


def top_lab(det: Detector, x: Solid) -> FloatArray:
    """The mean Lab colour of a solid's top face, leaving out what a hand covers (a palm over
    half a blue button read it as the black team's; still 535 of ``bench_detect``)."""
    uv = top_samples(det.camera, x)
    hands = det._hands_now
    if hands is not None and len(uv):
        s, o = det.stride, det.stride // 2
        h, w = hands.shape
        j = np.clip(np.rint((uv[:, 0] - o) / s).astype(np.intp), 0, w - 1)
        i = np.clip(np.rint((uv[:, 1] - o) / s).astype(np.intp), 0, h - 1)
        free = ~hands[i, j]
        if free.sum() >= 5:  # else the whole top, as seen: a guess either way
            uv = uv[free]
    assert det._last_image is not None
    return bgr_to_lab(sample(det._last_image, uv)).mean(axis=0)


def teams_of(
    det: Detector, feats: FloatArray, xy: FloatArray
) -> tuple[NDArray[np.str_], FloatArray]:
    if det.teams is None or (not det.learned and not det._fixed_teams):
        # the buttons define the teams (a goalkeeper's box shows its design differently)
        use = np.array([x.kind == "button" for x in det._fitting])
        try:
            det.teams = TeamModel.fit(feats[use], xy[use])
        except TeamModelError:
            return np.full(len(feats), ""), np.full(len(feats), 0.5)
        keepers = np.array([x.kind == "goalkeeper" for x in det._fitting])
        det.teams = named_by_goals(det.teams, feats[keepers], xy[keepers])
    return det.teams.assign(feats)


def named_by_goals(model: TeamModel, keepers_lab: FloatArray, keepers_xy: FloatArray) -> TeamModel:
    """``model`` with its first name on the team whose goalkeeper stands in the left goal,
    when each team's one goalkeeper is seen, one either side: a goalkeeper never leaves its
    areas (000 ATUAÇÃO DO GOLEIRO, 001 Art. XVI § 1), while a team's buttons may stand deep in
    the other half (a video that starts mid-match). Else ``model`` as fitted (the team whose
    buttons sit left first: a match filmed from its kick-off)."""
    if len(keepers_lab) != 2 or len(model.names) != 2:
        return model
    teams, _ = model.assign(keepers_lab)
    x = keepers_xy[:, 0]
    if set(teams.tolist()) != set(model.names) or x[0] * x[1] >= 0.0:
        return model
    if str(teams[int(np.argmin(x))]) == model.names[0]:
        return model
    return TeamModel(model.names, model.lab[::-1], model.spread[::-1], model.height_mm)
