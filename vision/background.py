"""A model of the empty table in the image: per-pixel colour, a global gain, and masks.

Two ways to get one:

- from video (:meth:`Background.learn`): the per-pixel median of frames spread over time removes
  hands and moving pieces; the pieces that never moved are then painted over by the caller
  (:class:`vision.detect.Detector` replaces them with the estimate below);
- from one still (:func:`estimate_background`): the felt's colour is estimated from the image
  (a robust, smooth colour map of the pixels that look like felt) and the field markings, whose
  place the camera model and the table spec give, are painted over it in the line colour read
  from the image.

The model survives slow light changes twice over: a per-channel gain measured every frame on a
fixed sample of felt pixels (a webcam's auto-exposure, a cloud), and a slow running average of
the pixels no piece or hand covers (:meth:`Background.update`).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.camera import Camera
from geometry.field import FieldModel
from geometry.tablespec import TableSpec
from vision.foreground import nonzero_yx, take_px
from vision.median import median_of_frames
from vision.table_masks import (
    coverage_map,
    felt_region,
    goal_frames,
    goal_frames_coverage,
    goal_mask,
)

__all__ = ["Background", "estimate_background"]

FloatArray = NDArray[np.float64]
F32 = NDArray[np.float32]
U8 = NDArray[np.uint8]
_N_GAIN = 4000  # felt pixels sampled for the gain
_UNSTEADY_LEVEL = 45.0  # summed channel change of a pixel between frames that is no noise
_HEAL_S = 1.0  # an unexplained, unchanging, table-like foreground this old joins the table
_TABLE_LIKE = 45.0  # summed channel distance to the table's model (felt, line or goal colour)


def _normalised_blur(img: F32, weight: F32, sigma: float) -> tuple[F32, F32]:
    """Weighted Gaussian mean of ``img`` (h, w, 3) and the blurred weight (h, w)."""
    num = cv2.GaussianBlur(img * weight[:, :, None], (0, 0), sigma)
    den = cv2.GaussianBlur(weight, (0, 0), sigma)
    return np.asarray(num / np.maximum(den, 1e-6)[:, :, None], np.float32), np.asarray(den)


def _felt_colour_map(small: F32, region: NDArray[np.bool_], sigma_px: float) -> F32:
    """Smooth felt colour (h, w, 3) of a low-resolution image from its felt-like pixels.

    Felt-like: close in colour to the region's median first, then to the smooth map itself; so
    pieces, hands and lines drop out and the light gradient and vignette stay in.
    """
    pix = small[region]
    median = np.median(pix, axis=0) if len(pix) else np.full(3, 128.0)
    ratio = small / np.maximum(median, 1.0)
    # Brightness may drift by a third over the table; the hue must stay.
    inlier = region & (np.abs(ratio - ratio.mean(axis=2, keepdims=True)).max(axis=2) < 0.12)
    inlier &= np.abs(ratio.mean(axis=2) - 1.0) < 0.35
    smooth = np.broadcast_to(median.astype(np.float32), small.shape).copy()
    for _ in range(3):
        if inlier.sum() < 20:
            break
        smooth, den = _normalised_blur(small, inlier.astype(np.float32), sigma_px)
        wide, _ = _normalised_blur(small, inlier.astype(np.float32), 4.0 * sigma_px)
        smooth = np.where((den < 0.05)[:, :, None], wide, smooth)
        err = np.abs(small - smooth).max(axis=2)
        inlier = region & (err < 0.06 * smooth.mean(axis=2) + 6.0)
    return smooth


def estimate_background(
    image_bgr: U8, camera: Camera, table: TableSpec, markings: F32 | None = None
) -> F32:
    """The empty table (h, w, 3) float32 estimated from one image, inside the felt region.

    Outside the felt (rails, surroundings) the image itself is returned: nothing is looked for
    there. ``markings`` is the coverage of the painted lines (:func:`coverage_map`), computed
    here when not given.
    """
    h, w = image_bgr.shape[:2]
    k = 8
    small = cv2.resize(image_bgr, (w // k, h // k), interpolation=cv2.INTER_AREA).astype(np.float32)
    region_full = felt_region(camera, table)
    region = cv2.resize(region_full, (w // k, h // k), interpolation=cv2.INTER_NEAREST) > 0
    field = FieldModel(table)
    if markings is None:
        markings = coverage_map(camera, field.painted)
    line_small = cv2.resize(markings, (w // k, h // k), interpolation=cv2.INTER_AREA) > 0.02
    mm_per_px = float(np.median(camera.pixel_size_mm(np.array([[0.0, 0.0, 0.0]]))))
    felt_small = _felt_colour_map(small, region & ~line_small, sigma_px=40.0 / (mm_per_px * k))
    felt = cv2.resize(felt_small, (w, h), interpolation=cv2.INTER_LINEAR)
    # The line colour, relative to the felt's brightness under it (same light falls on both).
    core = markings > 0.9
    if core.sum() < 50:
        core = markings > 0.6
    img = image_bgr.astype(np.float32)
    if core.sum() >= 10:
        rel = img[core] / np.maximum(felt[core], 1.0)
        line_rel = np.median(rel, axis=0).astype(np.float32)
    else:
        line_rel = np.full(3, 1.6, np.float32)
    cov = markings[:, :, None]
    bg = felt * (1.0 - cov) + np.minimum(felt * line_rel, 255.0) * cov
    inside = region_full.astype(bool)[:, :, None]
    return np.asarray(np.where(inside, bg, img), np.float32)


def _standing_out(diff: NDArray[Any], lab: NDArray[Any], n: int, thr: float) -> NDArray[np.bool_]:
    """Which of the ``n`` labelled blobs of ``diff`` (the median's summed difference from the
    still) stand out as a thing: twice the threshold at their peak, or a sharp edge (a blurred
    step of their height rises at about a fifth of it a pixel). A mottled felt's blotches
    differ from the still's smooth felt by little more than the threshold, rising over tens of
    pixels: they are the table (painted over with the still, each was a standing foreground
    that a fit on it made a piece: offside drill 4013's false last defender). A faint white ball
    on a pale felt peaks at three times the threshold, rising a fifth of that a pixel."""
    idx = np.arange(n)
    peak = np.zeros(n)
    np.maximum.at(peak, lab.ravel(), diff.ravel())
    smooth = cv2.GaussianBlur(diff, (0, 0), 1.0)
    grad = np.asarray(
        cv2.magnitude(
            cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3),
            cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3),
        ),
        np.float32,
    ) / np.float32(8.0)
    edge = np.zeros(n)
    np.maximum.at(edge, lab.ravel(), cv2.dilate(grad, np.ones((5, 5), np.uint8)).ravel())
    return np.asarray((peak >= 2.0 * thr) | (edge >= 0.4 * thr) | (idx == 0))


class Background:
    """The empty table as seen by one camera, with a global gain and a slow running update.

    Parameters
    ----------
    camera, table : the camera (its ``image_size`` is the image size) and the table spec.
    stride : the coarse search looks at every ``stride``-th pixel (:attr:`sub`).
    """

    def __init__(self, camera: Camera, table: TableSpec, stride: int = 3) -> None:
        self.camera, self.table, self.stride = camera, table, int(stride)
        self.w, self.h = camera.image_size
        self.region = felt_region(camera, table)
        self.markings = coverage_map(camera, FieldModel(table).painted)
        self.goals = goal_mask(camera, table)
        self.image: F32 | None = None  # (h, w, 3) float32
        # (h, w) uint8: pixels where the frames :meth:`learn` saw were not steady
        self.unsteady = np.zeros((self.h, self.w), np.uint8)
        self.gain = np.ones(3, np.float32)
        self._sub: U8 | None = None
        self._scaled: F32 | None = None  # image x gain, when the gain is not 1
        self._band = 0
        # the still's model of the empty table at the coarse grid and the colours of the goals
        # (posts, net) as learned: what "looks like the table" means for :meth:`heal`
        self._model_sub: F32 | None = None
        self._goal_colours = np.zeros((0, 3), np.float32)
        self._near_lines = np.zeros((0, 0), bool)
        self._heal_since = np.full((0, 0), np.nan, np.float64)
        self._heal_ref = np.zeros((0, 0, 3), np.int16)
        # the learned table's pixels painted with the still's estimate (row and column indices)
        # and how many times each was refreshed from a frame since (:meth:`refresh`)
        self._provisional: tuple[NDArray[np.intp], NDArray[np.intp]] = (
            np.zeros(0, np.intp),
            np.zeros(0, np.intp),
        )
        self._refreshed = np.zeros(0, np.uint8)
        # :meth:`refresh`'s flat indices into its coarse mask: (the rows they are of, the
        # mask's shape, the indices)
        self._busy_idx: tuple[NDArray[np.intp], tuple[int, ...], NDArray[np.intp]] | None = None
        # Gain samples: felt pixels away from the lines, fixed so the estimate does not jitter;
        # sorted flat indices (y * w + x): gathered in memory order (vision.foreground.take_px)
        rng = np.random.default_rng(0)
        ok = np.flatnonzero((self.region > 0).ravel() & (self.markings.ravel() < 0.01))
        pick = rng.choice(ok, size=min(_N_GAIN, len(ok)), replace=False) if len(ok) else ok
        self._gain_idx: NDArray[np.intp] = np.sort(pick)

    @property
    def ready(self) -> bool:
        return self.image is not None

    def set(self, image: F32) -> None:
        """Use ``image`` (h, w, 3) as the empty table (gain reset to 1)."""
        if image.shape[:2] != (self.h, self.w):
            raise ValueError(f"Background.set: expected {(self.h, self.w)}, got {image.shape[:2]}")
        self.image = np.ascontiguousarray(image, np.float32)
        self.gain[:] = 1.0
        self._sub = self._scaled = None

    def from_still(self, image_bgr: U8) -> None:
        """Use :meth:`still` of one image as the model."""
        self.set(self.still(image_bgr))
        self._provisional = (np.zeros(0, np.intp), np.zeros(0, np.intp))
        self._refreshed = np.zeros(0, np.uint8)

    def refresh(self, image_bgr: U8, busy: NDArray[np.bool_], times: int = 4) -> None:
        """Blend the free pixels the still's estimate painted (:meth:`paint_pieces`) into the
        model at half weight, until each has been seen ``times`` times.

        Where a piece rested while the table was learned the model is the still's estimate,
        which is a few grey levels off the felt and a pixel off a painted mark: a leftover
        that a fit explains in part (a bare penalty mark taken for the ball). The slow
        :meth:`update` takes hundreds of frames to remove it; what is seen there once the
        piece has gone is the table. ``busy`` is the coarse mask (every ``stride``-th pixel)
        of the pieces, the ball, the hands and the foreground, grown: never blended.
        """
        ys, xs = self._provisional
        if not len(ys):
            return
        # each pixel's flat index in ``busy``, kept while the pixels stay the same (most frames:
        # a piece resting where the table was learned keeps its pixels for the whole match)
        got = self._busy_idx
        if got is None or got[0] is not ys or got[1] != busy.shape:
            s = self.stride
            bi = np.minimum(ys // s, busy.shape[0] - 1)
            bj = np.minimum(xs // s, busy.shape[1] - 1)
            got = self._busy_idx = (ys, busy.shape, bi * busy.shape[1] + bj)
        free = ~busy.reshape(-1)[got[2]]
        if free.any():
            # not a shadow there, which the foreground excuses: a piece's or a hand's, the
            # model made darker where the piece that rested there while learning casts it (a
            # drill's button nudged 4 mm on, its old shadow's cell then a 'ball' for 10 frames)
            on = np.flatnonzero(free)
            assert self.image is not None
            model = self.image[ys[on], xs[on]]
            k = image_bgr[ys[on], xs[on]].astype(np.float32) / self.gain / np.maximum(model, 1.0)
            shade = (
                (model.min(axis=1) >= 20.0)
                & ((k > 0.5) & (k < 0.95)).all(axis=1)
                & (np.ptp(k, axis=1) < 0.08)
            )
            free[on[shade]] = False
        if free.any():
            self.blend(image_bgr, (ys[free], xs[free]), 0.5)
            self._refreshed[free] += 1
        left = self._refreshed < times
        if not left.all():
            self._provisional = (ys[left], xs[left])
            self._refreshed = self._refreshed[left]

    def still(self, image_bgr: U8) -> F32:
        """The empty table estimated from one image (:func:`estimate_background`).

        The goals (posts, net) are not painted on the felt: where the image inside a goal's
        outline has the goal's own colour (its median there), the image itself is the model;
        a goalkeeper or a ball there keeps its colour and stays a thing.
        """
        bg = estimate_background(image_bgr, self.camera, self.table, self.markings)
        goal = self.goals > 0
        if goal.any():
            n, lab = cv2.connectedComponents(self.goals)
            img = image_bgr.astype(np.float32)
            for k in range(1, n):
                part = lab == k
                med = np.median(img[part], axis=0)
                clutter = part & (np.abs(img - med).sum(axis=2) < 60.0)
                bg[clutter] = img[clutter]
        return bg

    def learn(self, frames: Iterable[U8], max_frames: int = 25) -> F32:
        """Per-pixel median of up to ``max_frames`` frames (spread over the given ones).

        Returns the median; pieces that never moved are still in it (see the module notes).
        """
        stack = [np.asarray(f) for f in frames]
        if not stack:
            raise ValueError("Background.learn: no frames")
        if len(stack) > max_frames:
            stack = [stack[i] for i in np.linspace(0, len(stack) - 1, max_frames).astype(int)]
        # a band of rows at a time: the frames' cube and the median's temporaries stay small
        # (the whole cube, its sorted copy and a float64 median were ~300 MB at 1080p)
        h = stack[0].shape[0]
        med = np.empty(stack[0].shape, np.float32)
        away = np.zeros(med.shape[:2], np.float32)
        for r0 in range(0, h, 64):
            cube = np.stack([f[r0 : r0 + 64] for f in stack])
            m = med[r0 : r0 + 64]
            m[:] = median_of_frames(cube)  # np.median's values, a sorting network's speed
            # where the frames disagree with their median (a piece moved there while they
            # were taken) the median is a mixture of felt and piece, no empty table
            for f in cube:
                diff = cv2.absdiff(f.astype(np.float32), m)
                away[r0 : r0 + 64] += (
                    cv2.transform(diff, np.ones((1, 3), np.float32)) > _UNSTEADY_LEVEL
                )
        self.unsteady = (away >= max(2.0, 0.2 * len(stack))).astype(np.uint8)
        self.set(med)
        return med

    def paint_pieces(
        self, median: F32, still: F32, covered: U8, tight: U8, area_px: tuple[float, float]
    ) -> F32:
        """The learned empty table: the frames' median, the still's estimate where pieces rested.

        ``covered`` (h, w) uint8 marks the pieces found on the median, grown; ``tight`` the same
        grown by 2 px only. Painted over are the pieces' own pixels (``tight``) and (with a rim
        of 3 px) the blobs where the median differs from
        the still (summed channel difference over a noise-scaled threshold; shadows count: the
        empty table casts none) that touch a found piece (the piece, its shadow) or have a
        piece's size (``area_px``, min and max pixels: a piece the fits on the median missed),
        and the pixels the frames did not agree on (:attr:`unsteady`). Along the painted lines
        the still's model is no better than the median (a pixel of calibration error moves
        it): only a strong difference counts there. In a goal, whose posts and net the still
        does not know, only the pieces' own pixels and the darker differences beside them
        (their shadows); the goals' posts and crossbar (:func:`goal_frames`) are no piece's,
        and behind a piece painted over they take the frame's colour as seen (the still lacks
        them there). The still (coarse) and the goals' colours are kept as the model
        :meth:`heal` compares with.
        """
        region = self.region > 0
        diff = cv2.transform(cv2.absdiff(median, still), np.ones((1, 3), np.float32))
        sample = diff[::4, ::4][region[::4, ::4]]
        thr = max(30.0, 4.0 * float(np.median(sample))) if len(sample) else 30.0
        lines = cv2.dilate((self.markings > 0.02).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
        differs = region & (diff > thr) & (~lines | (diff > 2.5 * thr))
        goal = self.goals > 0
        n, lab = cv2.connectedComponents(differs.astype(np.uint8))
        near = cv2.dilate(covered, np.ones((7, 7), np.uint8)) > 0
        keep = np.zeros(n, bool)
        keep[np.unique(lab[near & differs])] = True
        # a piece's size on the field (a goalkeeper on its line stands half in the goal)
        field_area = np.bincount(lab[differs & ~goal], minlength=n)
        keep |= (
            (field_area >= area_px[0])
            & (field_area <= area_px[1])
            & _standing_out(diff, lab, n, thr)
        )
        keep[0] = False
        # only what differs (with its soft rim): where the median is the table already it is
        # the better model (a mark half under a piece keeps its visible half)
        kept = keep[lab]
        paint = cv2.dilate((kept & ~goal).astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
        paint |= tight > 0  # the pieces' own pixels (a white ball on a white mark differs little)
        lum = np.array([[0.114, 0.587, 0.299]], np.float32)
        darker = cv2.transform(median, lum) < 0.97 * cv2.transform(still, lum)
        # in a goal, what differs beside the pieces (the goal's own frame and net differ from
        # the still's felt everywhere): their tops seen over the goal, their shadows
        # (not of the goal's own colours, read away from the pieces: the net differs as much)
        field_part = tight | (kept & ~goal).astype(np.uint8)
        beside = cv2.dilate(field_part, np.ones((31, 31), np.uint8)) > 0
        piece = cv2.dilate((differs & (tight > 0)).astype(np.uint8), np.ones((5, 5))) > 0
        own = goal & differs & beside & (kept | darker)
        # the goals' posts and crossbar differ from the still's felt beside a piece as the
        # piece does, and join its blob: they are the goal's, not the piece's
        frame = goal_frames(self.camera, self.table, margin_px=0) > 0
        own &= ~frame
        colours = _palette(median[goal & ~beside])
        if len(colours) and own.any():
            dist = np.abs(median[own][:, None, :] - colours[None]).sum(axis=2).min(axis=1)
            own[own] = dist >= _TABLE_LIKE + 15.0
        in_goal = goal & (piece | own)
        paint = (paint & ~goal) | in_goal | (self.unsteady > 0)
        out = np.where(paint[:, :, None], still, median).astype(np.float32)
        py, px = np.nonzero(paint & region & ~goal)
        self._provisional = (py, px)
        self._refreshed = np.zeros(len(self._provisional[0]), np.uint8)
        # the still keeps a goal's own colours only where they are seen: the posts and crossbar
        # behind a piece painted over in a goal were left out, and the bar a goalkeeper hid came
        # out as a white thing once it left (a 'ball' 22 mm inside the goal, whose fit explains
        # it: never healed). Behind the pieces they take the colour of the goal's frame as seen.
        # (their anti-aliased outline: a thin bar's pixels are mostly its edge)
        cover = goal_frames_coverage(self.camera, self.table)
        n, lab = cv2.connectedComponents(self.goals)
        for k in range(1, n):
            part = lab == k
            hidden = (cover > 0) & part & paint
            seen = (cover > 0.75) & part & ~paint
            if hidden.any() and seen.sum() >= 10:
                # the bars' own pixels: the half that differs most from the felt (a pixel
                # along the outline is the net's or the felt's in part)
                bar = seen & (diff >= np.median(diff[seen]))
                a = cover[hidden][:, None]
                out[hidden] = a * np.median(median[bar], axis=0) + (1.0 - a) * out[hidden]
        s = self.stride
        self._model_sub = np.ascontiguousarray(still[s // 2 :: s, s // 2 :: s], np.float32)
        band = cv2.dilate((self.markings > 0.02).astype(np.uint8), np.ones((6 * s + 1,) * 2))
        self._near_lines = np.asarray(band[s // 2 :: s, s // 2 :: s] > 0)
        self._goal_colours = _palette(out[goal & ~paint])
        return out

    @property
    def sub(self) -> U8:
        """The background at the coarse grid (every ``stride``-th pixel), gain applied."""
        if self._sub is None:
            assert self.image is not None
            s = self.stride
            base = self.image[s // 2 :: s, s // 2 :: s] * self.gain
            self._sub = np.clip(base + 0.5, 0, 255).astype(np.uint8)
        return self._sub

    def measure_gain(self, image_bgr: U8) -> NDArray[np.float32]:
        """Per-channel gain of ``image_bgr`` against the model, from the fixed felt sample.

        The median ratio ignores the pieces and hands that cover a part of the sample. The
        coarse background (:attr:`sub`) is rebuilt when the gain moved by more than 1 %.
        """
        assert self.image is not None
        if not len(self._gain_idx):
            return self.gain
        seen = take_px(image_bgr, self._gain_idx).astype(np.float32)
        ref = take_px(self.image, self._gain_idx)
        ratio = seen / np.maximum(ref, 4.0)
        good = (ratio > 0.3).all(axis=1) & (ratio < 3.0).all(axis=1)
        if good.sum() < 100:
            return self.gain
        gain = np.median(ratio[good], axis=0).astype(np.float32)
        if np.abs(gain - self.gain).max() > 0.01:
            self.gain = gain
            self._sub = self._scaled = None
        return self.gain

    def scaled(self) -> F32:
        """The background (h, w, 3) with the gain applied (kept between frames: rebuilt when
        the gain moves, a band at a time as :meth:`update` blends one in)."""
        assert self.image is not None
        if np.allclose(self.gain, 1.0):
            return self.image
        if self._scaled is None:
            self._scaled = np.asarray(self.image * self.gain, np.float32)
        return self._scaled

    def table_problem(self, image_bgr: U8) -> str:
        """Why the table is not where the camera says it is ("" when it is).

        The painted lines must stand out from the felt beside them (brighter, on most of their
        length), and the felt must be one colour: a black frame, another room or a camera file
        of another set-up fail.
        """
        lum = image_bgr @ np.array([0.114, 0.587, 0.299], np.float32)
        lines, near = self._check_idx
        if len(lines[0]) < 50 or len(near[0]) < 50:
            return "the camera sees no field markings of the table"
        on, off = lum[lines], lum[near]
        felt = float(np.median(off))
        steady = float(np.mean(np.abs(off - felt) < 0.25 * max(felt, 8.0)))
        contrast = float(np.median(on) - felt)
        if felt < 8.0 or steady < 0.6 or contrast < 15.0:
            return (
                f"no table where the camera looks (lines {contrast:+.0f} grey levels over the "
                f"felt, felt uniform on {steady:.0%}): wrong camera file or no table in view"
            )
        return ""

    @cached_property
    def _check_idx(self) -> tuple[tuple[NDArray[np.intp], ...], tuple[NDArray[np.intp], ...]]:
        """Samples of line pixels and of the felt 4-7 px beside the lines."""
        m = self.markings
        core = (m > 0.8) & (self.region > 0)
        if core.sum() < 200:  # a small image: lines narrower than a pixel
            core = (m > 0.45) & (self.region > 0)
        lines = (m > 0.02).astype(np.uint8)
        around = cv2.dilate(lines, np.ones((15, 15), np.uint8)) > 0
        inner = cv2.dilate(lines, np.ones((7, 7), np.uint8)) > 0
        ring = around & ~inner & (self.region > 0)
        rng = np.random.default_rng(0)

        def pick(mask: NDArray[np.bool_]) -> tuple[NDArray[np.intp], ...]:
            flat = np.flatnonzero(mask.ravel())
            if len(flat) > 4000:
                flat = np.sort(rng.choice(flat, 4000, replace=False))
            return np.unravel_index(flat, mask.shape)

        return pick(core), pick(ring)

    def felt_colour(self, u: int, v: int, radius: int = 12) -> NDArray[np.float32]:
        """The felt's colour (gain applied) near pixel (u, v): the median of the model's pixels
        around it off the painted lines."""
        assert self.image is not None
        y0, y1 = max(0, v - radius), min(self.h, v + radius + 1)
        x0, x1 = max(0, u - radius), min(self.w, u + radius + 1)
        patch = self.image[y0:y1, x0:x1]
        off = self.markings[y0:y1, x0:x1] < 0.01
        pix = patch[off] if off.sum() >= 10 else patch.reshape(-1, 3)
        return np.asarray(np.median(pix, axis=0) * self.gain, np.float32)

    def roi(self, x0: int, y0: int, x1: int, y1: int) -> F32:
        """The background (gain applied) in ``[y0:y1, x0:x1]``."""
        assert self.image is not None
        return np.asarray(self.image[y0:y1, x0:x1] * self.gain, np.float32)

    def band_rows(self, bands: int = 16) -> tuple[int, int]:
        """The rows ``(r0, r1)`` the next :meth:`update` blends in."""
        b = self._band % bands
        return b * self.h // bands, (b + 1) * self.h // bands

    def update(self, image_bgr: U8, covered: U8, rate: float = 0.1, bands: int = 16) -> None:
        """Blend the uncovered pixels of one horizontal band of rows into the model.

        ``covered`` (h, w) uint8 is non-zero where pieces, hands and their shadows are (or only
        its rows of the band, :meth:`band_rows`); one band of ``h / bands`` rows is updated per
        call, so the cost is a fraction of a frame's and a pixel's time constant is
        ``bands / rate`` frames.
        """
        assert self.image is not None
        r0, r1 = self.band_rows(bands)
        self._band += 1
        if covered.shape[0] != r1 - r0:
            covered = covered[r0:r1]
        seen = image_bgr[r0:r1].astype(np.float32) / self.gain
        free = (covered == 0) & (self.region[r0:r1] > 0)
        band = self.image[r0:r1]
        # band += rate * (seen - band) where free: on the whole band, then copied where free
        # (faster than picking the free pixels out; the same float32 operations)
        np.copyto(band, band + np.float32(rate) * (seen - band), where=free[:, :, None])
        # the derived images follow for this band's rows only
        if self._scaled is not None:
            self._scaled[r0:r1] = self.image[r0:r1] * self.gain
        if self._sub is not None:
            s, o = self.stride, self.stride // 2
            i0, i1 = -(-(r0 - o) // s), -(-(r1 - o) // s)
            rows = self.image[o + s * i0 : o + s * i1 : s, o::s] * self.gain
            self._sub[i0:i1] = np.clip(rows + 0.5, 0, 255).astype(np.uint8)

    def blend(
        self, image_bgr: U8, yx: tuple[NDArray[np.intp], NDArray[np.intp]], rate: float
    ) -> None:
        """Blend the pixels ``yx`` (row and column indices) of ``image_bgr`` into the model at
        ``rate``, the derived images (:meth:`scaled`, :attr:`sub`) with them."""
        assert self.image is not None
        seen = image_bgr[yx].astype(np.float32) / self.gain
        self.image[yx] += np.float32(rate) * (seen - self.image[yx])
        if self._scaled is not None:
            self._scaled[yx] = self.image[yx] * self.gain
        if self._sub is not None:
            s, o = self.stride, self.stride // 2
            on = ((yx[0] - o) % s == 0) & ((yx[1] - o) % s == 0)
            ys, xs = yx[0][on], yx[1][on]
            rows = self.image[ys, xs] * self.gain
            self._sub[(ys - o) // s, (xs - o) // s] = np.clip(rows + 0.5, 0, 255).astype(np.uint8)

    def heal(
        self,
        image_bgr: U8,
        sub_bgr: U8,
        fg: NDArray[np.bool_],
        explained: NDArray[np.bool_],
        t_s: float,
        ball_px: float = 3.0,
    ) -> NDArray[np.bool_] | None:
        """Absorb into the model the foreground that no fit explains, that has not changed for
        :data:`_HEAL_S` seconds and whose pixels look like the table: a ghost of a piece that
        rested while the table was learned, or of a model that was wrong.

        ``fg`` and ``explained`` are coarse masks: the foreground, and what the fitted pieces,
        the ball and the hands explain; ``t_s`` the frame's time. Looks like the table: the
        colour of the still's model (felt, or a painted line within 2 coarse pixels: the
        model's lines may sit a pixel off) or, in a goal, one of the goal's learned colours;
        what only the shifted lines or the goal's colours explain must not be ball-sized and
        as wide as a ball (``ball_px``, its diameter in coarse pixels: a white ball on a line).
        A thing that does not (a piece no fit explained) keeps a margin of a coarse pixel (its
        shaded rim). A pixel's clock restarts when it changes, is explained or is a thing's;
        not when it drops out of the foreground for a frame (noise at the threshold). Returns
        the coarse mask of what was absorbed, None when nothing was.
        """
        if self._model_sub is None or self.image is None:
            return None
        shape = fg.shape
        if self._heal_since.shape != shape:
            self._heal_since = np.full(shape, np.nan, np.float64)
            self._heal_ref = np.zeros((*shape, 3), np.int16)
        since = self._heal_since
        since[explained] = np.nan
        iy, ix = nonzero_yx(fg & ~explained)
        if not len(iy):
            return None
        like = self.table_like(sub_bgr, iy, ix)
        cand = np.zeros(shape, np.uint8)
        cand[iy[like], ix[like]] = 1
        thing = np.zeros(shape, np.uint8)
        thing[iy[~like], ix[~like]] = 1
        # a line a pixel off, a goal's frame are a white ball's colour too: what only the loose
        # model explains joins the table unless it is ball-sized and as wide as a ball
        loose = like & ~self.table_like(sub_bgr, iy, ix, loose=False)
        if loose.any():
            only = np.zeros(shape, np.uint8)
            only[iy[loose], ix[loose]] = 1
            n, lab, stats, _ = cv2.connectedComponentsWithStats(only)
            k = max(2, round(0.6 * ball_px))
            core = cv2.erode(only, np.ones((k, k), np.uint8)) > 0
            ball_like = stats[:, 4] <= 4.0 * max(ball_px, 1.0) ** 2
            ball_like &= np.bincount(lab[core], minlength=n) > 0
            ball_like[0] = False
            thing |= ball_like[lab].astype(np.uint8)
        if thing.any():
            near = cv2.dilate(thing, np.ones((3, 3), np.uint8)) > 0
            cand[near] = 0
            since[near] = np.nan
        jy, jx = nonzero_yx(cand)
        now = sub_bgr[jy, jx].astype(np.int16)
        before = since[jy, jx]
        moved = np.abs(now - self._heal_ref[jy, jx]).sum(axis=1) > _UNSTEADY_LEVEL
        fresh = np.isnan(before) | moved
        start = np.where(fresh, t_s, before)
        self._heal_ref[jy[fresh], jx[fresh]] = now[fresh]
        since[jy, jx] = start
        ripe = t_s - start >= _HEAL_S
        if not ripe.any():
            return None
        since[jy[ripe], jx[ripe]] = np.nan
        s = self.stride
        block = np.zeros(shape, np.uint8)
        block[jy[ripe], jx[ripe]] = 1
        full = np.repeat(np.repeat(block, s, axis=0), s, axis=1)[: self.h, : self.w]
        full = np.pad(full, ((0, self.h - full.shape[0]), (0, self.w - full.shape[1])))
        # the blocks' seams and the anti-aliased edge of the ghost
        full = np.asarray(cv2.dilate(full, np.ones((s + 1, s + 1), np.uint8)), np.uint8)
        m = (full > 0) & (self.region > 0)
        self.image[m] = image_bgr[m].astype(np.float32) / self.gain
        self._sub = self._scaled = None  # the cached copies follow the model
        return block > 0

    def table_like(
        self,
        sub_bgr: U8,
        iy: NDArray[np.intp],
        ix: NDArray[np.intp],
        loose: bool = True,
    ) -> NDArray[np.bool_]:
        """Whether coarse pixels look like the empty table (see :meth:`heal`); all False
        before :meth:`paint_pieces` gave the model. Not ``loose``: the model at the pixel
        itself only (no shift, no goal colours)."""
        if self._model_sub is None:
            return np.zeros(len(iy), bool)
        seen = sub_bgr[iy, ix].astype(np.float32)
        model = self._model_sub
        hs, ws = model.shape[:2]
        like = np.abs(seen - model[iy, ix] * self.gain).sum(axis=1) < _TABLE_LIKE
        s = self.stride
        # shifted: only near the painted lines (the felt's model is smooth)
        todo = np.flatnonzero(~like & self._near_lines[iy, ix] if loose else np.zeros(0, bool))
        if len(todo):
            ty, tx, ts = iy[todo], ix[todo], seen[todo]
            # the 25 shifts at once (their distances are the same sums; the least is exact)
            shift = np.arange(-2, 3)
            y = np.clip(ty[None, :] + shift[:, None], 0, hs - 1)[:, None, :]  # (5, 1, n)
            x = np.clip(tx[None, :] + shift[:, None], 0, ws - 1)[None, :, :]  # (1, 5, n)
            dist = np.abs(ts - model[y, x] * self.gain).sum(axis=3)  # (5, 5, n)
            best = dist.reshape(25, -1).min(axis=0)
            like[todo] = best < _TABLE_LIKE
        goal = self.goals[s // 2 :: s, s // 2 :: s][iy, ix] > 0
        if loose and goal.any() and len(self._goal_colours):
            cols = self._goal_colours * self.gain
            d = np.abs(seen[goal][:, None, :] - cols[None]).sum(axis=2).min(axis=1)
            like[goal] |= d < _TABLE_LIKE + 15.0
        return np.asarray(like)


def _palette(pix: F32, k: int = 6) -> F32:
    """Up to ``k`` colours (k-means) of pixels (n, 3); none for fewer than 50."""
    if len(pix) < 50:
        return np.zeros((0, 3), np.float32)
    pick = pix[np.random.default_rng(0).choice(len(pix), min(len(pix), 5000), False)]
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    labels = np.zeros((len(pick), 1), np.int32)
    pick = np.ascontiguousarray(pick, np.float32)
    # k-means++ draws its starts from OpenCV's RNG (the calling thread's, never reseeded): the
    # palette, so the learned table, depended on how many palettes the process made before
    cv2.setRNGSeed(0)
    _, _, centres = cv2.kmeans(pick, k, labels, crit, 2, cv2.KMEANS_PP_CENTERS)
    return np.asarray(centres, np.float32)
