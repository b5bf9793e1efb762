"""``Detections``: what the detector found in one frame, as one column-oriented record.

Every row is one piece seen in the image, already brought down to its footprint on the table
through the camera model (its seen height removed: parallax). The tracker consumes these and the
``hands`` (regions of the table covered by a coach's hand or arm, in table millimetres) so tracks
under a hand are frozen instead of lost.

Examples
--------
>>> import numpy as np
>>> d = Detections(kind=np.array(["ball"]), team=np.array([""]), xy_mm=np.array([[3.0, 4.0]]),
...                uv_px=np.array([[640.2, 360.9]]), size_mm=np.array([[10.0, 10.0]]),
...                angle_rad=np.zeros(1), confidence=np.array([0.97]), sigma_mm=np.array([0.2]))
>>> len(d), d.of_kind("ball").xy_mm.tolist()
(1, [[3.0, 4.0]])
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np
from numpy.typing import NDArray

__all__ = ["Detections"]

FloatArray = NDArray[np.float64]
_KINDS = ("button", "goalkeeper", "ball")


@dataclass(frozen=True)
class Detections:
    """N detections.

    Attributes
    ----------
    kind : (N,) ``"button"``, ``"goalkeeper"`` or ``"ball"``.
    team : (N,) team name, or ``""`` (the ball, or not yet assigned).
    xy_mm : (N, 2) footprint centres in the table frame.
    uv_px : (N, 2) where the piece was found in the image (its seen centre).
    size_mm : (N, 2) diameter twice for discs, (length, width) for goalkeepers.
    angle_rad : (N,) a goalkeeper's long side against +x (0 for discs).
    confidence : (N,) 0-1.
    sigma_mm : (N,) 1-sigma position uncertainty of ``xy_mm``.
    label : (N,) optional appearance label (e.g. a number read on the top), ``""`` if none.
    hands : list of (M, 2) polygons in table mm covering hands and arms in this frame.
    frame, t : where the detections come from.
    """

    kind: NDArray[np.str_]
    team: NDArray[np.str_]
    xy_mm: FloatArray
    uv_px: FloatArray
    size_mm: FloatArray
    angle_rad: FloatArray
    confidence: FloatArray
    sigma_mm: FloatArray
    label: NDArray[np.str_] = field(default_factory=lambda: np.zeros(0, dtype=str))
    hands: list[FloatArray] = field(default_factory=list)
    frame: int = 0
    t: float = 0.0

    def __post_init__(self) -> None:
        n = len(self.kind)
        if not len(self.label):
            object.__setattr__(self, "label", np.full(n, "", dtype=object).astype(str))
        shapes = {
            "kind": (n,),
            "team": (n,),
            "xy_mm": (n, 2),
            "uv_px": (n, 2),
            "size_mm": (n, 2),
            "angle_rad": (n,),
            "confidence": (n,),
            "sigma_mm": (n,),
            "label": (n,),
        }
        for name, shape in shapes.items():
            arr = np.asarray(getattr(self, name))
            if arr.shape != shape:
                raise ValueError(f"Detections.{name}: expected shape {shape}, got {arr.shape}")
            object.__setattr__(self, name, arr)
        bad = ~np.isin(self.kind, _KINDS)
        if bad.any():
            raise ValueError(
                f"Detections.kind: expected one of {_KINDS}, got {self.kind[bad][0]!r}"
            )

    def __len__(self) -> int:
        return len(self.kind)

    def select(self, mask: NDArray[np.bool_] | NDArray[np.intp]) -> Detections:
        kw = {f.name: getattr(self, f.name) for f in fields(self)}
        for name in (
            "kind",
            "team",
            "xy_mm",
            "uv_px",
            "size_mm",
            "angle_rad",
            "confidence",
            "sigma_mm",
            "label",
        ):
            kw[name] = kw[name][mask]
        return Detections(**kw)

    def of_kind(self, kind: str) -> Detections:
        return self.select(self.kind == kind)

    @classmethod
    def empty(cls, frame: int = 0, t: float = 0.0) -> Detections:
        z = np.zeros(0)
        return cls(
            np.zeros(0, str),
            np.zeros(0, str),
            np.zeros((0, 2)),
            np.zeros((0, 2)),
            np.zeros((0, 2)),
            z,
            z,
            z,
            frame=frame,
            t=t,
        )
