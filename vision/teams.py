"""Team identity from appearance: two clusters of top-face colours, or configured colours.

A piece's appearance is the mean CIE Lab colour of its top face (base colour, ring, stripe or
crest and number together: every piece of a team shares the design, so the mean is shared too,
up to the printed number). :meth:`TeamModel.fit` splits the pieces seen at the start into two
teams with a deterministic 2-means (started from Otsu's best cut along the features' principal
axis, so no random start can split one team); the team whose pieces stand on the left (x < 0)
is named ``A``: it defends the left goal in the first half (INTERFACES.md, scene/1 ``teams``).

Examples
--------
>>> import numpy as np
>>> lab = np.array([[50.0, 60, 40], [52, 62, 41], [40, -5, -40], [41, -4, -42]])
>>> model = TeamModel.fit(lab, np.array([[-300.0, 0], [-200, 50], [300, 0], [200, 9]]))
>>> model.assign(np.array([[49.0, 58, 39], [42, -6, -38]]))[0].tolist()
['A', 'B']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["TeamModel", "TeamModelError", "bgr_to_lab"]

FloatArray = NDArray[np.float64]


class TeamModelError(ValueError):
    """Teams that cannot be told apart or configured colours that cannot be used."""


def bgr_to_lab(bgr: ArrayLike) -> FloatArray:
    """CIE Lab (N, 3) (L in 0..100, a and b about -128..127) of BGR colours (N, 3) in 0..255."""
    arr = np.asarray(bgr, dtype=np.float32).reshape(-1, 1, 3) / np.float32(255.0)
    return np.asarray(cv2.cvtColor(arr, cv2.COLOR_BGR2Lab), np.float64).reshape(-1, 3)


@dataclass(frozen=True)
class TeamModel:
    """Colour centres of the teams in Lab and their per-team piece heights.

    Attributes
    ----------
    names : team names, e.g. ``("A", "B")``.
    lab : (k, 3) the teams' mean top-face colours in Lab.
    spread : (k,) typical Lab distance of a team's pieces from its centre (0 when configured).
    height_mm : optional per-team button height (the rule set's default when absent).
    """

    names: tuple[str, ...]
    lab: FloatArray
    spread: FloatArray
    height_mm: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        lab = np.asarray(self.lab, np.float64).reshape(-1, 3)
        if len(lab) != len(self.names) or len(self.names) < 1:
            raise TeamModelError(
                f"TeamModel: {len(self.names)} names for {len(lab)} colour centres"
            )
        object.__setattr__(self, "lab", lab)
        object.__setattr__(self, "spread", np.asarray(self.spread, np.float64).reshape(-1))
        object.__setattr__(self, "names", tuple(self.names))

    @classmethod
    def from_colours(
        cls, colours_bgr: Mapping[str, ArrayLike], height_mm: Mapping[str, float] | None = None
    ) -> TeamModel:
        """Teams from configured mean top-face colours (BGR 0..255): ``{"A": (40, 40, 200)}``."""
        if len(colours_bgr) < 1:
            raise TeamModelError("TeamModel.from_colours: no team colours given")
        names = tuple(colours_bgr)
        lab = bgr_to_lab(np.array([np.asarray(colours_bgr[n], float) for n in names]))
        return cls(names, lab, np.zeros(len(names)), dict(height_mm or {}))

    @classmethod
    def fit(
        cls,
        features_lab: ArrayLike,
        xy_mm: ArrayLike,
        names: tuple[str, str] = ("A", "B"),
        max_per_team: int = 11,
        height_mm: Mapping[str, float] | None = None,
    ) -> TeamModel:
        """Two teams from the pieces' Lab features (N, 3) and where they stand (N, 2).

        The cluster whose pieces have the lower mean x gets ``names[0]``. Raises
        :class:`TeamModelError` when fewer than two pieces are given, when the two clusters are
        no farther apart than a cluster is wide, or when a cluster holds more than
        ``max_per_team`` pieces (000 REGRA 2: eleven a side).
        """
        lab = np.asarray(features_lab, np.float64).reshape(-1, 3)
        xy = np.asarray(xy_mm, np.float64).reshape(-1, 2)
        if len(lab) < 2:
            raise TeamModelError(f"TeamModel.fit: need at least two pieces, got {len(lab)}")
        label = _two_means(lab)
        centres = np.array([lab[label == k].mean(axis=0) for k in (0, 1)])
        dist = np.linalg.norm(lab[:, None, :] - centres[None], axis=2)
        spread = np.array([np.median(dist[label == k, k]) for k in (0, 1)])
        gap = float(np.linalg.norm(centres[0] - centres[1]))
        if gap < 2.0 * float(spread.max()) + 3.0:
            raise TeamModelError(
                f"TeamModel.fit: the two colour clusters are {gap:.1f} Lab apart, no more than "
                f"their spread ({spread.max():.1f}): the teams cannot be told apart by colour"
            )
        counts = np.bincount(label, minlength=2)
        if counts.max() > max_per_team:
            raise TeamModelError(
                f"TeamModel.fit: a colour cluster holds {counts.max()} pieces, more than "
                f"{max_per_team} a team"
            )
        order = np.argsort([xy[label == k, 0].mean() for k in (0, 1)])
        return cls((names[0], names[1]), centres[order], spread[order], dict(height_mm or {}))

    def assign(self, features_lab: ArrayLike) -> tuple[NDArray[np.str_], FloatArray]:
        """Nearest team (N,) and a confidence (N,) in 0.5..1 (1: far nearer its own team)."""
        lab = np.asarray(features_lab, np.float64).reshape(-1, 3)
        if not len(lab):
            return np.zeros(0, str), np.zeros(0)
        dist = np.linalg.norm(lab[:, None, :] - self.lab[None], axis=2)
        best = np.argmin(dist, axis=1)
        if len(self.names) == 1:
            return np.full(len(lab), self.names[0]), np.ones(len(lab))
        part = np.partition(dist, 1, axis=1)
        conf = part[:, 1] / np.maximum(part[:, 0] + part[:, 1], 1e-9)
        return np.asarray(self.names)[best], conf

    def height(self, team: str, default: float) -> float:
        return float(self.height_mm.get(team, default))


def _two_means(lab: FloatArray, iters: int = 20) -> NDArray[np.intp]:
    """Deterministic 2-means: Otsu's best cut along the principal axis, then Lloyd."""
    centred = lab - lab.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    proj = np.sort(centred @ vt[0])
    order = np.argsort(centred @ vt[0])
    n = len(proj)
    k = np.arange(1, n)
    left = np.cumsum(proj)[:-1]
    # Between-class variance of each cut (the total mean is 0).
    between = left**2 / k + left**2 / (n - k)
    cut = int(np.argmax(between)) + 1
    label = np.zeros(n, np.intp)
    label[order[cut:]] = 1
    for _ in range(iters):
        centres = np.array([lab[label == j].mean(axis=0) for j in (0, 1)])
        new = np.argmin(np.linalg.norm(lab[:, None, :] - centres[None], axis=2), axis=1)
        if (new == label).all() or np.bincount(new, minlength=2).min() == 0:
            break
        label = new
    return label
