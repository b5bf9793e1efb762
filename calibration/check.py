"""The pre-match check: balls on the centre mark and the penalty marks, seen through a camera.

``botao check-camera`` (issue 4, deliverable 4): the referee puts a ball on the centre mark and on
both penalty marks; :func:`check_marks` looks for each ball near its mark, brings it down to
the table at the ball's centre height and compares it with the mark. A camera whose model is
off (a bumped table, a stale calibration) sees the balls away from their marks.

Failures are values: a mark whose ball is not found, or found too far off, has ``ok`` False and
a ``reason`` a user understands.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.camera import Camera
from geometry.field import FieldModel
from geometry.tablespec import TableSpec

__all__ = ["MARKS", "BallSighting", "check_marks", "find_ball"]

U8 = NDArray[np.uint8]
#: The marks of the check: (name in the report, FieldModel marking).
MARKS = (
    ("centre_mark", "center_mark"),
    ("penalty_mark_left", "penalty_mark_left"),
    ("penalty_mark_right", "penalty_mark_right"),
)


@dataclass(frozen=True)
class BallSighting:
    """A ball found near a mark: its pixel, its table position at the ball's centre height.

    ``mark_only``: what was found is the painted mark with no ball on it (positions NaN).
    """

    uv_px: tuple[float, float]
    xy_mm: tuple[float, float]
    mark_only: bool = False


def _outline(
    camera: Camera, centre_mm: NDArray[np.float64], radius_mm: float, sphere: bool, n: int = 64
) -> NDArray[np.float64]:
    """Image outline (n, 2) of a sphere (its exact silhouette: the circle where the cone from
    the camera touches it) or of a flat disc on the plane ``z = centre_mm[2]``."""
    ang = np.linspace(0.0, 2 * math.pi, n, endpoint=False)
    if not sphere:
        e1, e2, c, rho = np.array([1.0, 0, 0]), np.array([0, 1.0, 0]), centre_mm, radius_mm
    else:
        to_cam = camera.centre_mm - centre_mm
        d = float(np.linalg.norm(to_cam))
        axis = to_cam / d
        e1 = np.cross(axis, [0.0, 0.0, 1.0] if abs(axis[2]) < 0.9 else [1.0, 0.0, 0.0])
        e1 /= np.linalg.norm(e1)
        e2 = np.cross(axis, e1)
        c = centre_mm + axis * radius_mm**2 / d
        rho = radius_mm * math.sqrt(max(1.0 - (radius_mm / d) ** 2, 0.0))
    pts = c + rho * (np.cos(ang)[:, None] * e1 + np.sin(ang)[:, None] * e2)
    return camera.table_to_image(pts)


def _crossings(
    c: NDArray[np.float64], u: NDArray[np.float64], poly: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Where rays ``c + t u`` (u (R, 2)) enter and leave a convex polygon (E, 2); NaN: missed."""
    a = poly - c
    e = np.roll(poly, -1, axis=0) - poly
    det = u[:, 1:2] * e[None, :, 0] - u[:, 0:1] * e[None, :, 1]  # (R, E)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (a[None, :, 0] * -e[None, :, 1] + a[None, :, 1] * e[None, :, 0]) / det
        lam = (u[:, 0:1] * a[None, :, 1] - u[:, 1:2] * a[None, :, 0]) / det
    hit = (lam >= 0) & (lam < 1) & np.isfinite(t)
    t_in = np.where(hit, t, np.inf).min(axis=1)
    t_out = np.where(hit, t, -np.inf).max(axis=1)
    missed = ~hit.any(axis=1)
    return np.where(missed, np.nan, t_in), np.where(missed, np.nan, t_out)


def _union_exit(
    c: NDArray[np.float64], u: NDArray[np.float64], polys: list[NDArray[np.float64]]
) -> NDArray[np.float64]:
    """Distance along rays from ``c`` to where they leave the union of two convex polygons."""
    (in_a, out_a), (in_b, out_b) = (_crossings(c, u, p) for p in polys)
    in_a, in_b = np.nan_to_num(in_a, nan=np.inf), np.nan_to_num(in_b, nan=np.inf)
    out_a, out_b = np.nan_to_num(out_a, nan=-np.inf), np.nan_to_num(out_b, nan=-np.inf)
    from_a = (in_a <= 0) & (out_a > 0)
    from_b = (in_b <= 0) & (out_b > 0)
    e = np.where(from_a, out_a, np.where(from_b, out_b, np.nan))
    e = np.where(from_a & (in_b <= e), np.maximum(e, out_b), e)
    e = np.where(~from_a & from_b & (in_a <= e), np.maximum(e, out_a), e)
    return np.asarray(e, np.float64)


def find_ball(
    image_bgr: U8,
    camera: Camera,
    xy_mm: tuple[float, float],
    diameter_mm: float,
    z_mm: float,
    search_mm: float = 50.0,
    mark_diameter_mm: float = 0.0,
) -> BallSighting | None:
    """The small ball nearest to the table point ``xy_mm`` within ``search_mm``, or None.

    In a window around the point's projection (at the ball's centre height ``z_mm``), pixels
    far in colour from the felt (the window's median colour) are opened with a disc of 60% of
    the ball's projected diameter, so the thin lines through a mark vanish; the blob of about
    the ball's area nearest the point is the ball. Its outline is measured along rays from the
    blob's centre (sub-pixel crossings of half the ball's contrast) and fitted robustly (a line
    leaving the ball is an outlier) with the outline the camera predicts: the sphere's
    silhouette (an ellipse off the image centre) united with the painted mark under it
    (``mark_diameter_mm``, 0 for none), which peeks out toward the camera from a tilted view.
    Only a shift (the ball's position) and a scale (edge blur) are fitted. When the outline is
    better explained by the mark alone, the sighting is ``mark_only``.
    """
    h, w = image_bgr.shape[:2]
    ball_c = np.array([xy_mm[0], xy_mm[1], z_mm])
    uv0 = camera.table_to_image(ball_c[None])[0]
    if not np.isfinite(uv0).all():
        return None
    px_per_mm = 1.0 / float(camera.pixel_size_mm(ball_c[None])[0])
    r_px = 0.5 * diameter_mm * px_per_mm
    half = math.ceil(search_mm * px_per_mm + 3 * r_px + 4)
    u0, v0 = round(float(uv0[0])), round(float(uv0[1]))
    x0, y0 = max(u0 - half, 0), max(v0 - half, 0)
    x1, y1 = min(u0 + half + 1, w), min(v0 + half + 1, h)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    win = image_bgr[y0:y1, x0:x1].astype(np.float32)
    felt = np.median(win.reshape(-1, 3), axis=0)
    dist = np.sqrt(((win - felt) ** 2).sum(axis=2))
    noise = 1.4826 * float(np.median(np.abs(dist - np.median(dist))))
    hi = float(np.percentile(dist, 99.5))
    if hi < max(6.0 * noise, 15.0):
        return None
    # Brighter and darker than the felt apart: a ball's shadow is not the ball.
    lum = win @ np.array([0.114, 0.587, 0.299], np.float32)
    brighter = lum > float(felt @ np.array([0.114, 0.587, 0.299]))
    strong = dist > 0.5 * hi
    k = max(3, round(1.2 * r_px) | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    area_px = math.pi * r_px**2
    best: tuple[float, NDArray[np.float64]] | None = None
    for side in (brighter, ~brighter):
        mask = cv2.morphologyEx((strong & side).astype(np.uint8), cv2.MORPH_OPEN, disc)
        n, _, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
        for i in range(1, n):
            if not min(0.3 * area_px, 4.0) <= stats[i, cv2.CC_STAT_AREA] <= 3.0 * area_px + 9:
                continue
            d = math.hypot(cents[i, 0] + x0 - uv0[0], cents[i, 1] + y0 - uv0[1])
            if best is None or d < best[0]:
                best = (d, cents[i].astype(np.float64))
    if best is None or best[0] > search_mm * px_per_mm:
        return None
    origin = np.array([x0, y0], float)
    shapes = [_outline(camera, ball_c, diameter_mm / 2.0, sphere=True) - uv0]
    if mark_diameter_mm > 0:
        floor = np.array([xy_mm[0], xy_mm[1], 0.0])
        shapes.append(_outline(camera, floor, mark_diameter_mm / 2.0, sphere=False) - uv0)
    if not all(np.isfinite(s_).all() for s_ in shapes):
        return None
    fit = _fit_outline(dist, best[1], uv0 - origin, shapes, r_px)
    if fit is None:
        return None
    if isinstance(fit, str):
        return BallSighting((math.nan, math.nan), (math.nan, math.nan), mark_only=True)
    uv = (fit + origin)[None]
    xy = camera.image_to_table(uv, z_mm)[0]
    if not np.isfinite(xy).all():
        return None
    return BallSighting((float(uv[0, 0]), float(uv[0, 1])), (float(xy[0]), float(xy[1])))


def _fit_outline(
    dist: NDArray[np.float32],
    c: NDArray[np.float64],
    uv0: NDArray[np.float64],
    shapes: list[NDArray[np.float64]],
    r_px: float,
) -> NDArray[np.float64] | str | None:
    """The ball's image centre from its outline along rays from ``c`` (see :func:`find_ball`);
    ``"mark"`` when the outline is the painted mark's alone. ``shapes``: the ball's predicted
    outline and the mark's, relative to the ball's predicted centre ``uv0``."""
    from scipy.optimize import least_squares

    ang = np.linspace(0.0, 2 * math.pi, 64, endpoint=False)
    u = np.column_stack([np.cos(ang), np.sin(ang)])
    step = 0.1
    reach = max(float(np.abs(s_).max()) for s_ in shapes)
    radii = np.arange(0.0, 2.0 * reach + 3.0, step)
    mu = (c[0] + u[:, :1] * radii).astype(np.float32)
    mv = (c[1] + u[:, 1:] * radii).astype(np.float32)
    prof = cv2.remap(dist, mu, mv, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    # The edge is where the profile falls below half the ball's contrast (its inside's median).
    level = 0.5 * float(np.median(prof[:, radii <= 0.4 * r_px]))
    start = int(0.3 * r_px / step)
    below = prof[:, start:] < level
    j = np.argmax(below, axis=1) + start
    rows = np.flatnonzero(below.any(axis=1) & (j > start))
    if len(rows) < 12:
        return None
    j = j[rows]
    a, b = prof[rows, j - 1], prof[rows, j]
    rho = radii[j - 1] + (a - level) / np.maximum(a - b, 1e-6) * step
    ur = u[rows]

    # Each outline may grow or shrink about its own centre: a sphere's shaded limb puts its
    # edge inside the silhouette, a painted mark's edge is where it is (a prior of 1 +- 0.05
    # keeps the mark's scale from trading off against the position). The shift between the
    # two centres is the camera's.
    centres = [p_.mean(axis=0) for p_ in shapes]

    def residuals(x: NDArray[np.float64], idx: tuple[int, ...]) -> Any:
        placed = [
            uv0 + x[:2] + centres[i] + x[2 + k] * (shapes[i] - centres[i])
            for k, i in enumerate(idx)
        ]
        e = _crossings(c, ur, placed[0])[1] if len(placed) == 1 else _union_exit(c, ur, placed)
        r = np.nan_to_num(e - rho, nan=10.0)
        return np.append(r, (x[-1] - 1.0) / 0.05) if idx[-1] == 1 else r

    both = tuple(range(len(shapes)))
    x0 = np.array([0.0, 0.0] + [1.0] * len(both))
    fit = least_squares(residuals, x0, args=(both,), loss="soft_l1", f_scale=0.3)
    if not fit.success or not (0.6 <= fit.x[2:]).all() or not (fit.x[2:] <= 1.6).all():
        return None
    # The fitted outline must explain most of the measured one: rays that miss it (a blob that
    # is not the ball) leave the fit where it started, which would pass any camera.
    r_fit = np.abs(residuals(fit.x, both)[: len(rho)])
    if np.mean(r_fit < max(1.0, 0.2 * r_px)) < 0.6:
        return None
    if len(shapes) == 2 and fit.x[2] < 0.75:
        return "mark"  # the ball shrank into the mark: its own outline is nowhere seen
    if len(shapes) == 2 and np.hypot(*(centres[1] - centres[0])) >= 0.5:
        # The other hypothesis: the painted mark alone (no ball on it).
        alone = least_squares(residuals, x0[:3], args=((1,),), loss="soft_l1", f_scale=0.3)
        if alone.cost < 0.6 * fit.cost:
            return "mark"
    return np.asarray(uv0 + fit.x[:2], np.float64)


def _disc_diameter(geom: Any) -> float:
    """Diameter of a filled disc marking; 0 for a ring (its middle is felt)."""
    if getattr(geom, "interiors", None):
        return 0.0
    x0, _, x1, _ = geom.bounds
    return float(x1 - x0)


def check_marks(
    image_bgr: U8,
    camera: Camera,
    table: TableSpec,
    tolerance_mm: float,
    ball_diameter_mm: float,
    ball_height_mm: float,
) -> list[dict[str, Any]]:
    """One record per mark of :data:`MARKS`: where the ball should be and where it is seen.

    Parameters
    ----------
    image_bgr : the picture (h, w, 3), the size of ``camera``'s images.
    camera, table : the camera model under test and the table spec.
    tolerance_mm : the largest distance between a ball and its mark that passes.
    ball_diameter_mm, ball_height_mm : the ball's size (the rule set's); it is brought down to
        the table at half its height.

    Returns
    -------
    list of dict
        ``mark``, ``expected_mm`` [x, y], ``seen_mm`` and ``seen_px`` (None when not found),
        ``error_mm`` (None when not found), ``ok`` and ``reason`` (empty when ok).
    """
    h_img, w_img = image_bgr.shape[:2]
    if (w_img, h_img) != camera.image_size:
        raise ValueError(
            f"image_bgr: a {w_img}x{h_img} picture for a camera of "
            f"{camera.image_size[0]}x{camera.image_size[1]}"
        )
    fm = FieldModel(table)
    z = ball_height_mm / 2.0  # the ball's centre (a flat ball: half its thickness)
    search = max(50.0, 5.0 * tolerance_mm)
    w, h = camera.image_size
    out = []
    for name, key in MARKS:
        xy = (0.0, 0.0) if key == "center_mark" else fm.penalty_mark(key.rsplit("_", 1)[1])
        # A painted disc under the ball shows around it from a tilted view (a ring does not).
        seen = find_ball(
            image_bgr, camera, xy, ball_diameter_mm, z, search, _disc_diameter(fm.markings[key])
        )
        bare = seen is not None and seen.mark_only
        seen = None if bare else seen
        err = None if seen is None else math.hypot(seen.xy_mm[0] - xy[0], seen.xy_mm[1] - xy[1])
        ok = err is not None and err <= tolerance_mm
        uv = camera.table_to_image(np.array([[xy[0], xy[1], z]]))[0]
        if ok:
            why = ""
        elif err is not None:
            why = f"ball seen {err:.1f} mm off"
        elif bare:
            why = "only the painted mark is seen, no ball on it"
        elif not (np.isfinite(uv).all() and 0 <= uv[0] <= w - 1 and 0 <= uv[1] <= h - 1):
            why = "the mark is outside the picture"
        else:
            why = f"no ball found within {search:.0f} mm (is it there, and distinct from the felt?)"
        out.append(
            {
                "mark": name,
                "expected_mm": [float(xy[0]), float(xy[1])],
                "seen_mm": None if seen is None else list(seen.xy_mm),
                "seen_px": None if seen is None else list(seen.uv_px),
                "error_mm": err,
                "ok": ok,
                "reason": why,
            }
        )
    return out
