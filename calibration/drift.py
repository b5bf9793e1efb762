"""Drift watch: a cheap per-frame test that the camera model still fits the video.

A bumped table or camera moves the painted markings in the image away from where the camera
model projects them. :class:`DriftWatch` precomputes, once per camera, a few thousand sample
points on the markings' centre lines (:attr:`geometry.field.FieldModel.markings`), each with a
pair of points just off either side of the line, and every ``every_n_frames`` frames gathers the
colours at those pixels (one vectorised bilinear gather, no full-frame conversion). Per sample:

- the *sides* are compared with their own reference colours (learned from the first frames the
  camera was accepted on), allowing a brightness scale (shadows, auto exposure);
- the *line* pixel is rated by its "lineness" ``lambda``: 1 where it shows the line's reference
  contrast over the field, 0 where it shows field.

A sample with at least one field-like side is **ok** when ``lambda >= 0.5`` and **drifted**
otherwise; a sample with no field-like side is **covered** (a piece, a hand, a shadow: it says
nothing about the camera) and is left out. Samples are grouped into chunks (one orientation bin
of the line's image normal within one 120 mm cell of the table); a bin's score is the median
over its chunks of ok / (ok + drifted), so a piece or a hand that fools a few samples spoils only
its own chunk while a bump spoils them all; the frame's score is the minimum over the four bins,
so a shift along one axis cannot hide behind the lines parallel to it.

Hysteresis: ``calibration_lost`` after ``k_lost`` consecutive checks below ``lost_below`` (or
``k_hidden`` checks with too little to see); a camera set with :meth:`DriftWatch.set_camera` is
validated without references (its lines must stand out from their sides) before it is adopted
and ``calibration_restored`` is emitted. While lost, the same camera fitting again for
``k_accept`` checks (the table put back, the view cleared) also restores it. The automatic
recalibration between the two events is :class:`calibration.keeper.CameraKeeper`'s.

Examples
--------
>>> from calibration.camera import preset_camera
>>> from geometry.tablespec import load_table
>>> table = load_table("brasileira")
>>> watch = DriftWatch(preset_camera("overhead", table, (640, 360)), table, every_n_frames=5)
>>> watch.n_samples > 300
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray

from calibration.camera import Camera
from geometry.field import FieldModel
from geometry.tablespec import TableSpec

__all__ = ["DriftCheck", "DriftWatch", "MarkingSamples", "marking_samples"]

FloatArray = NDArray[np.float64]
F32 = NDArray[np.float32]
N_BINS = 4  # orientation bins of the line's image normal: 0, 45, 90, 135 degrees


@dataclass(frozen=True)
class MarkingSamples:
    """Sample points on the markings' centre lines and just off both sides (pixels).

    ``uv_px`` (3, N, 2): line centre, side A, side B. ``xy_mm`` (N, 2) the centre in the table
    frame; ``bin`` (N,) the orientation bin of the image normal; ``name`` (N,) the marking.
    """

    uv_px: FloatArray
    xy_mm: FloatArray
    bin: NDArray[np.int64]
    name: NDArray[np.str_]

    def __len__(self) -> int:
        return int(self.xy_mm.shape[0])


def _fold_radius(camera: Camera) -> float:
    """Undistorted normalised radius (x 0.95) beyond which the radial polynomial folds back."""
    k1, k2, _, _, k3 = camera.dist
    r = np.linspace(0.0, 4.0, 4001)
    bad = np.flatnonzero(np.diff(r * (1 + k1 * r**2 + k2 * r**4 + k3 * r**6)) <= 0)
    return float(r[bad[0]]) * 0.95 if len(bad) else 4.0


def _ring_points(geom: Any, step_mm: float) -> tuple[FloatArray, FloatArray]:
    """Points (M, 2) every ``step_mm`` along every ring of a (multi)polygon, and unit tangents."""
    pts, tans = [], []
    for poly in getattr(geom, "geoms", [geom]):
        if not isinstance(poly, shapely.Polygon) or poly.is_empty:
            continue
        for ring in (poly.exterior, *poly.interiors):
            xy = np.asarray(ring.coords)
            seg = np.diff(xy, axis=0)
            length = np.hypot(seg[:, 0], seg[:, 1])
            for (x0, y0), (dx, dy), n in zip(xy[:-1], seg, length, strict=True):
                if n < 1e-9:
                    continue
                t = (np.arange(max(1, int(n // step_mm))) + 0.5) * (n / max(1, int(n // step_mm)))
                pts.append(np.column_stack([x0 + t * dx / n, y0 + t * dy / n]))
                tans.append(np.tile([dx / n, dy / n], (len(t), 1)))
    if not pts:
        return np.zeros((0, 2)), np.zeros((0, 2))
    return np.concatenate(pts), np.concatenate(tans)


def marking_samples(
    camera: Camera,
    table: TableSpec,
    *,
    spacing_px: float = 3.0,
    margin_px: float = 1.5,
    max_samples: int = 2400,
) -> MarkingSamples:
    """Centre-line samples of every painted marking visible to ``camera``, with side points.

    Candidates come from the strips' outlines moved half a line width inward; a candidate is
    kept when the strip spans exactly one line width across it (so end caps and corners drop
    out), both side points fall off every marking and all three points are inside the image.
    The side points sit ``margin_px`` beyond the line's projected half width. Survivors are
    thinned to one per ``spacing_px`` image cell, then to at most ``max_samples``.
    """
    fm = FieldModel(table)
    lw = table.line_width
    names = [k for k in fm.markings if not k.startswith("posts")]
    cand_c, cand_n, cand_name = [], [], []
    for name in names:
        strip = fm.markings[name]
        p, t = _ring_points(strip, 1.0)
        if not len(p):
            continue
        n = np.column_stack([-t[:, 1], t[:, 0]])
        probe = p + 0.25 * lw * n
        inward = np.where(shapely.contains_xy(strip, probe[:, 0], probe[:, 1]), 1.0, -1.0)
        n *= inward[:, None]
        c = p + 0.5 * lw * n
        inside = np.ones(len(c), bool)
        for f in (-0.45, 0.45):  # the strip spans the line width across c, and no more
            q = c + f * lw * n
            inside &= shapely.contains_xy(strip, q[:, 0], q[:, 1])
        for f in (-0.6, 0.6):
            q = c + f * lw * n
            inside &= ~shapely.contains_xy(strip, q[:, 0], q[:, 1])
        cand_c.append(c[inside])
        cand_n.append(n[inside])
        cand_name.append(np.full(int(inside.sum()), name))
    c = np.concatenate(cand_c)
    n = np.concatenate(cand_n)
    name_arr = np.concatenate(cand_name)

    # Project, keeping only points in front of the camera and inside the lens's monotone zone.
    xyz = np.column_stack([c, np.zeros(len(c))])
    pc = camera.to_camera_frame(xyz)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.hypot(pc[:, 0], pc[:, 1]) / pc[:, 2]
    ok = (pc[:, 2] > 1.0) & (r < _fold_radius(camera))
    c, n, name_arr, xyz = c[ok], n[ok], name_arr[ok], xyz[ok]
    uv = camera.table_to_image(xyz)
    step = 0.5  # mm across the line
    duv = (camera.table_to_image(xyz + np.column_stack([step * n, np.zeros(len(n))])) - uv) / step
    px_per_mm = np.hypot(duv[:, 0], duv[:, 1])
    n_img = duv / np.maximum(px_per_mm, 1e-12)[:, None]
    side = 0.5 * lw * px_per_mm + margin_px
    uv_a = uv - side[:, None] * n_img
    uv_b = uv + side[:, None] * n_img
    w, h = camera.image_size
    ok = np.ones(len(uv), bool)
    for q in (uv, uv_a, uv_b):
        ok &= (q[:, 0] >= 1.0) & (q[:, 0] <= w - 2.0) & (q[:, 1] >= 1.0) & (q[:, 1] <= h - 2.0)
    ok &= np.isfinite(uv).all(axis=1) & (px_per_mm > 0.2)  # at least 0.4 px a line
    keep = np.flatnonzero(ok)

    # One sample per image cell (the strip's two edges give each centre point twice).
    cell = np.floor(uv[keep] / spacing_px).astype(np.int64)
    _, first = np.unique(cell[:, 0] * 1_000_003 + cell[:, 1], return_index=True)
    keep = keep[np.sort(first)]

    # The side points must land on the field, clear of every marking by half a pixel.
    painted = fm.painted
    shapely.prepare(painted)
    clear = np.ones(len(keep), bool)
    for q in (uv_a[keep], uv_b[keep]):
        xy = camera.image_to_table(q, 0.0)
        good = np.isfinite(xy).all(axis=1)
        d = np.zeros(len(q))
        d[good] = shapely.distance(shapely.points(xy[good]), painted)
        clear &= good & (d > 0.5 / px_per_mm[keep])
    keep = keep[clear]
    if len(keep) > max_samples:
        keep = keep[np.linspace(0, len(keep) - 1, max_samples).round().astype(int)]
    ang = np.arctan2(n_img[keep, 1], n_img[keep, 0]) % math.pi
    bins = np.round(ang / (math.pi / N_BINS)).astype(np.int64) % N_BINS
    return MarkingSamples(
        uv_px=np.stack([uv[keep], uv_a[keep], uv_b[keep]]),
        xy_mm=c[keep],
        bin=bins,
        name=name_arr[keep],
    )


class _Gather:
    """Bilinear colour gather at fixed sub-pixel positions of (h, w, 3) uint8 frames.

    Indices into the flat byte buffer are precomputed for the four neighbours and three
    channels, so a call is one ``take`` and a weighted sum (about 0.3 ms for 7000 points).
    """

    def __init__(self, uv_px: FloatArray, image_size: tuple[int, int]) -> None:
        w, h = image_size
        self.size = (h, w)
        self.m = len(uv_px)
        u, v = uv_px[:, 0], uv_px[:, 1]
        u0 = np.clip(np.floor(u), 0, w - 2).astype(np.intp)
        v0 = np.clip(np.floor(v), 0, h - 2).astype(np.intp)
        fu, fv = (u - u0).astype(np.float32), (v - v0).astype(np.float32)
        base = v0 * w + u0
        idx = np.stack([base, base + 1, base + w, base + w + 1])
        self.idx = (idx[:, :, None] * 3 + np.arange(3)).reshape(4, -1)
        wts = np.stack([(1 - fu) * (1 - fv), fu * (1 - fv), (1 - fu) * fv, fu * fv])
        self.wts = np.repeat(wts, 3, axis=1).astype(np.float32)

    def __call__(self, frame_bgr: NDArray[np.uint8]) -> F32:
        if frame_bgr.shape != (*self.size, 3):
            h, w = self.size
            raise ValueError(f"frame: expected shape ({h}, {w}, 3), got {frame_bgr.shape}")
        g = np.ascontiguousarray(frame_bgr).reshape(-1).take(self.idx).astype(np.float32)
        g *= self.wts
        out: F32 = (g[0] + g[1] + g[2] + g[3]).reshape(self.m, 3)
        return out


@dataclass(frozen=True)
class DriftCheck:
    """One test of a frame against the camera model.

    ``score``: minimum over orientation bins of the median over the bin's chunks of
    ok / (ok + drifted) (NaN when no bin had enough uncovered samples); ``covered``: the share of
    usable samples that were covered.
    """

    score: float
    n_ok: int
    n_drifted: int
    n_covered: int
    bin_scores: tuple[float, ...]

    @property
    def covered(self) -> float:
        total = self.n_ok + self.n_drifted + self.n_covered
        return self.n_covered / total if total else 1.0


def _rowdot(a: F32, b: F32) -> F32:
    out: F32 = np.einsum("ij,ij->i", a, b)
    return out


class _References:
    """Per-sample reference colours learned from accepted frames, for the usable samples.

    A sample is usable when its line showed at least 40% of the median contrast (a piece that
    rested on the line while the references were learned leaves it out).
    """

    def __init__(self, stack: list[F32], samples: MarkingSamples, size: tuple[int, int]) -> None:
        obs = np.median(np.stack(stack), axis=0).astype(np.float32)  # (3, N, 3)
        line, a, b = obs
        field = 0.5 * (a + b)
        diff = np.median(line - field, axis=0)
        self.axis = (diff / max(float(np.linalg.norm(diff)), 1e-6)).astype(np.float32)
        contrast = (line - field) @ self.axis
        # Temporal noise: two accepted frames differ by noise only (the texture is static).
        noise = float(np.median(np.linalg.norm(stack[-1][1] - stack[0][1], axis=1))) / math.sqrt(2)
        self.valid = np.flatnonzero(
            contrast >= max(0.4 * float(np.median(contrast)), 4.0 * noise, 6.0)
        )
        v = self.valid
        field_norm = float(np.median(np.linalg.norm(field, axis=1)))
        self.tol2 = max(4.0 * noise, 0.12 * field_norm, 10.0) ** 2
        self.side_a, self.side_b = a[v], b[v]
        self.norm2_a, self.norm2_b = _rowdot(a[v], a[v]), _rowdot(b[v], b[v])
        self.field_lvl = (field[v] @ self.axis).astype(np.float32)
        self.contrast = (contrast[v]).astype(np.float32)
        self.gather = _Gather(samples.uv_px[:, v].reshape(-1, 2), size)


class DriftWatch:
    """Watches a video for a bumped table or camera (issue 4, deliverable 5).

    Parameters
    ----------
    camera, table : the calibrated camera and the table spec.
    every_n_frames : :meth:`update` tests one frame in this many (the first one included).
    lost_below : score under which a check counts as failed.
    k_lost : consecutive failed checks before ``calibration_lost``.
    k_accept : consecutive accepted frames before a camera's references are learned (and
        ``calibration_restored`` emitted after a loss).
    min_bin : uncovered samples an orientation bin needs to take part in the score.
    k_hidden : consecutive checks with too few uncovered samples (a hand over the lens, the
        camera knocked off the table) before ``calibration_lost``.
    chunk_mm : size of the table cells that group samples into chunks.
    """

    def __init__(
        self,
        camera: Camera,
        table: TableSpec,
        every_n_frames: int = 5,
        *,
        lost_below: float = 0.7,
        k_lost: int = 3,
        k_accept: int = 3,
        min_bin: int = 40,
        k_hidden: int = 30,
        max_samples: int = 2400,
        chunk_mm: float = 120.0,
    ) -> None:
        if every_n_frames < 1:
            raise ValueError(f"every_n_frames: expected >= 1, got {every_n_frames}")
        self.table = table
        self.every_n_frames = int(every_n_frames)
        self.lost_below, self.k_lost, self.k_accept = lost_below, k_lost, k_accept
        self.min_bin, self.max_samples, self.k_hidden = min_bin, max_samples, k_hidden
        self.chunk_mm = chunk_mm
        self._calls = 0
        self.state = "validating"  # -> "ok" -> "lost"
        self.last: DriftCheck | None = None
        self._lost_since_accept = False
        self._install(camera)

    # ------------------------------------------------------------------ setup
    def _install(self, camera: Camera) -> None:
        self.camera = camera
        self.samples = marking_samples(camera, self.table, max_samples=self.max_samples)
        self._gather = _Gather(self.samples.uv_px.reshape(-1, 2), camera.image_size)
        # Chunks: one orientation bin within one cell of the table. Occluders are local and
        # drift is global, so a bin's score is the median over its chunks.
        cell = np.floor(self.samples.xy_mm / self.chunk_mm).astype(np.int64)
        key = (cell[:, 0] * 4099 + cell[:, 1]) * N_BINS + self.samples.bin
        uniq, chunk = np.unique(key, return_inverse=True)
        self._chunk_all = chunk.reshape(-1)
        self._n_chunks = len(uniq)
        self._chunk_bin = uniq % N_BINS
        self._refs: _References | None = None
        self._chunk = self._chunk_all
        self._accepted: list[F32] = []
        self._fails = self._passes = self._hidden = 0

    @property
    def n_samples(self) -> int:
        return len(self.samples)

    @property
    def failures(self) -> int:
        """Consecutive failed checks (while validating: frames that did not accept the camera)."""
        return self._fails

    def set_camera(self, camera: Camera, t: float | None = None) -> None:
        """Adopt a new camera (e.g. after recalibration); it must pass before it is trusted.

        The next ``k_accept`` tested frames must show its lines standing out from the felt;
        then its references are learned and, after a loss, ``calibration_restored`` is emitted
        (``t`` is only for the caller's log: events carry the time of the frame that passed).
        """
        self._lost_since_accept = self._lost_since_accept or self.state == "lost"
        self._install(camera)
        self.state = "validating"

    # ------------------------------------------------------------------ tests
    def _observe(self, frame_bgr: NDArray[np.uint8]) -> F32:
        return self._gather(frame_bgr).reshape(3, -1, 3)

    @staticmethod
    def accepts(obs: F32) -> bool:
        """Reference-free test of gathered samples (3, N, 3): do most lines stand out?

        The line pixel must differ from each side by three times the typical difference
        between the two sides (field texture and noise); a camera that misses the lines scores
        near zero, pieces and hands cover a minority of the samples.
        """
        line, a, b = obs
        contrast = np.minimum(np.linalg.norm(line - a, axis=1), np.linalg.norm(line - b, axis=1))
        noise = float(np.median(np.linalg.norm(a - b, axis=1)))
        return float(np.mean(contrast > max(3.0 * noise, 8.0))) >= 0.5

    def check(self, frame_bgr: NDArray[np.uint8]) -> DriftCheck:
        """Test one frame against the learned references (no state change)."""
        if self._refs is None:
            raise RuntimeError("DriftWatch.check: no references yet (the camera is not accepted)")
        return self._check(self._refs.gather(frame_bgr).reshape(3, -1, 3), self._refs)

    def _check(self, obs: F32, refs: _References) -> DriftCheck:
        line, a, b = obs
        # Each side against its reference up to a brightness scale (shadow, exposure).
        dot_a, dot_b = _rowdot(a, refs.side_a), _rowdot(b, refs.side_b)
        sa, sb = dot_a / refs.norm2_a, dot_b / refs.norm2_b
        like_a = (_rowdot(a, a) - sa * dot_a < refs.tol2) & (sa > 0.55) & (sa < 1.35)
        like_b = (_rowdot(b, b) - sb * dot_b < refs.tol2) & (sb > 0.55) & (sb < 1.35)
        uncovered = like_a | like_b
        n_like = like_a.astype(np.float32) + like_b
        scale = (np.where(like_a, sa, 0) + np.where(like_b, sb, 0)) / np.maximum(n_like, 1)
        lineness = ((line @ refs.axis) / np.where(uncovered, scale, 1) - refs.field_lvl) / (
            refs.contrast
        )
        ok = uncovered & (lineness >= 0.5)
        n_ok = np.bincount(self._chunk[ok], minlength=self._n_chunks)
        n_un = np.bincount(self._chunk[uncovered], minlength=self._n_chunks)
        used = n_un >= 3
        share = n_ok / np.maximum(n_un, 1)
        scores = []
        for k in range(N_BINS):
            sel = used & (self._chunk_bin == k)
            enough = sel.sum() >= 3 and n_un[sel].sum() >= self.min_bin
            scores.append(float(np.median(share[sel])) if enough else math.nan)
        finite = [s for s in scores if not math.isnan(s)]
        n_unc = int(uncovered.sum())
        return DriftCheck(
            score=min(finite) if finite else math.nan,
            n_ok=int(ok.sum()),
            n_drifted=n_unc - int(ok.sum()),
            n_covered=len(uncovered) - n_unc,
            bin_scores=tuple(scores),
        )

    # ------------------------------------------------------------------ stream
    @property
    def due(self) -> bool:
        """Whether the next :meth:`update` tests its frame (others need not be decoded)."""
        return self._calls % self.every_n_frames == 0

    def update(
        self, frame_bgr: NDArray[np.uint8] | None, t: float, frame: int | None = None
    ) -> list[dict[str, Any]]:
        """Feed every video frame; returns the events (``event/1`` dicts) this frame caused.

        ``frame_bgr`` may be None for a frame that is not :attr:`due`.
        """
        due = self.due
        self._calls += 1
        if not due:
            return []
        if frame_bgr is None:
            raise ValueError("frame_bgr: this frame is due for a test, got None")
        if self._refs is None or self.state == "validating":
            return self._validate(self._observe(frame_bgr), t, frame)
        res = self.check(frame_bgr)
        self.last = res
        hidden = math.isnan(res.score)  # too few uncovered samples: no verdict on drift
        self._hidden = self._hidden + 1 if hidden else 0
        failed = not res.score >= self.lost_below
        if self.state == "ok":
            if not hidden:
                self._fails = self._fails + 1 if failed else 0
            if self._fails >= self.k_lost or self._hidden >= self.k_hidden:
                self.state = "lost"
                self._passes = 0
                return [self._event("calibration_lost", t, frame, res.score, self._reason(res))]
        else:  # lost: the same camera fits again (the table was put back, the view cleared)
            self._passes = 0 if failed else self._passes + 1
            if self._passes >= self.k_accept:
                self.state, self._fails, self._hidden = "ok", 0, 0
                return [self._event("calibration_restored", t, frame, res.score, "markings back")]
        return []

    def _validate(self, obs: F32, t: float, frame: int | None) -> list[dict[str, Any]]:
        if self.accepts(obs):
            self._accepted.append(obs)
            self._fails = 0
        else:
            self._accepted.clear()
            self._fails += 1
        if len(self._accepted) >= self.k_accept:
            self._refs = _References(self._accepted, self.samples, self.camera.image_size)
            self._chunk = self._chunk_all[self._refs.valid]
            self._accepted = []
            self.state, self._fails = "ok", 0
            if self._lost_since_accept:
                self._lost_since_accept = False
                return [self._event("calibration_restored", t, frame, 1.0, "camera accepted")]
        elif self._fails == self.k_lost and not self._lost_since_accept:
            self._lost_since_accept = True
            reason = "the camera's markings do not stand out from the field in the image"
            return [self._event("calibration_lost", t, frame, 0.0, reason)]
        return []

    def _reason(self, res: DriftCheck) -> str:
        if math.isnan(res.score):
            return f"markings hidden: {res.covered:.0%} of the samples covered"
        worst = int(np.nanargmin(res.bin_scores))
        return (
            f"markings moved: in the median place only {res.score:.0%} of the uncovered samples "
            f"of lines with image normals near {worst * 180 // N_BINS} deg lie on their line"
        )

    @staticmethod
    def _event(kind: str, t: float, frame: int | None, score: float, reason: str) -> dict[str, Any]:
        return {
            "format": "event/1",
            "t": round(float(t), 3),
            "frame": frame,
            "type": kind,
            "score": None if math.isnan(score) else round(float(score), 3),
            "reason": reason,
        }
