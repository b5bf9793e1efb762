"""The ball at rest on a painted line, for :class:`vision.detect.Detector` (a function of the
detector, ``det``, that is its method).

The search starts from the coarse foreground (every third pixel), whose threshold on the
painted lines is two and a half times the felt's: a line's edges ring after compression and
differ from any model of them. A throw-in is taken from the touchline (000 REGRA 12,
"cobrança de lateral": the ball on the line where it went out). At half a pixel a millimetre
a 10 mm ball is 4-5 pixels across and the line 2: the coarse samples that fall on the ball
may all land on its part over the line, 30-50 levels from the line's own colour against that
threshold of 75, and the search is left no blob. The ball was lost for as long as it lay there
(nacional seed 45's ten minutes, frames 5878-5934 and 9129-9181: the kicks of two throw-ins
unread, the first's team wrong).

So in a video, when every other search found nothing, the band of the painted lines is searched
at full resolution as a still's faint ball is (:func:`vision.ball_search.faint_peaks`): a
centre-surround filter of the difference from the learned table, one ball across, over the
pixels within a ball's diameter of a line less the pieces' and hands'; its strongest peaks
fitted, and a fit kept only as the ball: seen whole (at rest on the line there is nothing in
front of it), explaining its pixels, near its peak, scored as a ball and of the ball's learned
colour. Nothing is searched before the ball's colour is learned (a lost ball is never invented),
nor before the ball has been lost :data:`_LOST_FRAMES` frames (most losses are a hand passing
over it, a moment), and then at most once every :data:`_EVERY` frames: a search takes about 10
ms on 1920x1080, and once found the ball is kept while its pixels are unchanged
(:class:`vision.frame_memory.FrameMemory`). A ball put down for a throw-in rests seconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.ball import BallFit, fit_ball
from vision.ball_search import (
    _BALL_MIN_SCORE,
    _FAINT_RAIL_PX,
    _ball_px,
    _box,
    ball_bars,
    ball_fit_ok,
    ball_masks,
)
from vision.ball_stay import _like_the_ball
from vision.foreground import _SHADOW_K
from vision.solids import Solid

if TYPE_CHECKING:
    from vision.detect import Detector

__all__ = ["LineBand", "ball_on_a_line", "line_band"]

FloatArray = NDArray[np.float64]
F32 = NDArray[np.float32]
U8 = NDArray[np.uint8]

_LOST_FRAMES = 6  # the ball lost this many frames (a fifth of a second) before it is searched
_EVERY = 3  # frames between two searches while the ball stays lost
_LINE = 0.05  # the painted coverage (Background.markings) of a line's pixel
_SIGMAS = 6.0  # a peak this many of the filter's noise over the band (robust) above its median
_PEAKS = 4  # the strongest peaks fitted, at most
_VISIBLE = 0.8  # at rest on a line nothing stands in front of the ball: seen whole
_EXPLAINED = 0.7  # a fit explaining less of its pixels is a line's edge, a print or noise
_NEAR = 0.75  # of the ball's diameter in pixels: the fit's centre this near its peak


@dataclass(frozen=True)
class LineBand:
    """The pixels within a ball's diameter of a painted line (felt, not the goals), cropped to
    their bounding box ``(y0, y1, x0, x1)`` and shrunk ``scale`` times (the ball three pixels
    across at least: a search on a third of a million pixels, not a million), and the ball's
    diameter in those pixels (the median over the lines: one filter size)."""

    box: tuple[int, int, int, int]
    scale: int
    mask: NDArray[np.bool_]
    ball_px: int

    def shrunk(self, image: NDArray[np.uint8] | NDArray[np.float32]) -> F32:
        """The band's box of a full-resolution image, each ``scale x scale`` pixels averaged."""
        y0, y1, x0, x1 = self.box
        crop = image[y0:y1, x0:x1]
        if self.scale == 1:
            return crop.astype(np.float32)
        h, w = self.mask.shape
        return np.asarray(cv2.resize(crop, (w, h), interpolation=cv2.INTER_AREA), np.float32)


def line_band(det: Detector) -> LineBand | None:
    """The band of the painted lines searched for the ball (made once a detector: it depends on
    the camera and the table only); None when the camera sees no line on the felt."""
    px = _ball_px(det)
    lines = det.bg.markings > _LINE
    rail = np.ones((_FAINT_RAIL_PX, _FAINT_RAIL_PX), np.uint8)
    felt = (cv2.erode(det.bg.region, rail) > 0) & (det.bg.goals == 0)
    on = lines & felt
    if not on.any():
        return None
    d = max(3, round(float(np.median(px[on]))))
    grow = np.ones((2 * d + 1, 2 * d + 1), np.uint8)
    band = (cv2.dilate(lines.astype(np.uint8), grow) > 0) & felt
    ys, xs = np.nonzero(band)
    f = max(1, d // 3)
    # the box a whole number of shrunk pixels (within the image)
    y0, x0 = int(ys.min()), int(xs.min())
    y1 = y0 + (int(ys.max()) + 1 - y0) // f * f
    x1 = x0 + (int(xs.max()) + 1 - x0) // f * f
    crop = band[y0:y1, x0:x1].astype(np.float32)
    if f > 1:
        crop = cv2.resize(crop, ((x1 - x0) // f, (y1 - y0) // f), interpolation=cv2.INTER_AREA)
    return LineBand((y0, y1, x0, x1), f, np.ascontiguousarray(crop >= 0.5), max(3, round(d / f)))


def _level(seen: F32, ref: F32) -> F32:
    """The summed channel difference of an image from the table, 0 where it is a cast shadow
    (the table's colour darkened, as :func:`vision.foreground.foreground` excuses it): the
    ball's own shadow beside it drew the difference's peak two pixels off the ball."""
    ones = np.ones((1, 3), np.float32)
    level = np.asarray(cv2.transform(cv2.absdiff(seen, ref), ones), np.float32)
    norm2 = np.maximum(cv2.transform(ref * ref, ones), 1.0)
    k = cv2.transform(seen * ref, ones) / norm2
    off2 = cv2.transform((seen - k[:, :, None] * ref) ** 2, ones)
    shadow = (k > _SHADOW_K) & (k < 0.97) & (off2 < (12.0 + 0.06 * np.sqrt(norm2)) ** 2)
    level[shadow] = 0.0
    return level


def _peaks(
    img: U8, bgf: NDArray[np.float32], band: LineBand, excluded: NDArray[np.bool_]
) -> list[FloatArray]:
    """Where a ball-sized spot in the band differs from the learned table more than the band
    about it does (px, strongest first, at most :data:`_PEAKS`, three diameters apart)."""
    y0, _, x0, _ = band.box
    f = band.scale
    ok = band.mask & (band.shrunk(excluded.view(np.uint8)) < 0.5)
    if not ok.any():
        return []
    level = _level(band.shrunk(img), band.shrunk(bgf))
    level[~ok] = 0.0
    okf = ok.astype(np.float32)
    k, big = band.ball_px, 3 * band.ball_px
    s_in, n_in = _box(level, k), _box(okf, k)
    s_out, n_out = _box(level, big) - s_in, _box(okf, big) - n_in
    resp = s_in / np.maximum(n_in, 1.0) - s_out / np.maximum(n_out, 1.0)
    # most of the ball's own pixels in the band, and enough of it about them to compare with
    fair = ok & (n_in >= 0.5 * k * k) & (n_out >= 0.25 * (big * big - k * k))
    sample = resp[fair]
    if len(sample) < 100:
        return []
    sample = sample[:: max(1, len(sample) // 20_000)]
    med = float(np.median(sample))
    sigma = 1.4826 * float(np.median(np.abs(sample - med)))
    resp[~fair] = 0.0
    top = cv2.dilate(resp, np.ones((k, k), np.uint8))
    py, px = np.nonzero((resp >= top) & (resp > med + _SIGMAS * max(sigma, 1e-3)))
    peaks: list[FloatArray] = []
    for i in np.argsort(-resp[py, px]):
        # a shrunk pixel's centre in the full image's pixels
        uv = np.array([(px[i] + 0.5) * f - 0.5 + x0, (py[i] + 0.5) * f - 0.5 + y0], np.float64)
        if all(np.hypot(*(uv - q)) > big * f for q in peaks):
            peaks.append(uv)
            if len(peaks) == _PEAKS:
                break
    return peaks


def _refined(img: U8, bgf: NDArray[np.float32], peak: FloatArray, d_px: int) -> FloatArray:
    """A shrunk peak (a pixel of it two to three of the image's) brought to the full-resolution
    pixel within a ball of it whose ball-sized box differs most from the table: started two
    pixels off across a line, the fit slid off the ball along the line's edge (7 mm off,
    explaining 0.2 of its pixels, where from the ball it explains 0.8)."""
    h, w = img.shape[:2]
    u, v = round(float(peak[0])), round(float(peak[1]))
    r = 2 * d_px
    x0, x1, y0, y1 = max(0, u - r), min(w, u + r + 1), max(0, v - r), min(h, v + r + 1)
    if x1 - x0 <= d_px or y1 - y0 <= d_px:
        return peak
    level = _level(img[y0:y1, x0:x1].astype(np.float32), bgf[y0:y1, x0:x1])
    mean = cv2.blur(level, (d_px, d_px), borderType=cv2.BORDER_REPLICATE)
    ys, xs = np.mgrid[y0:y1, x0:x1]
    mean[np.hypot(xs - peak[0], ys - peak[1]) > d_px] = -1.0
    j, i = np.unravel_index(int(np.argmax(mean)), mean.shape)
    return np.array([x0 + i, y0 + j], np.float64)


def ball_on_a_line(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    solids: list[Solid],
    hands: NDArray[np.bool_],
) -> BallFit | None:
    """The ball at rest on a painted line that the other searches missed (module docstring);
    None if none is, if the ball was found under :data:`_LOST_FRAMES` frames ago, or if the
    band was searched under :data:`_EVERY` frames ago."""
    if not det.learned or det.ball_colour is None:
        return None
    if det._frames - det._line_search_at < _EVERY:
        return None
    if det._ball_prior is not None and det._frames - det._ball_prior[1] < _LOST_FRAMES:
        return None  # lost a moment: under a hand, or found again by the other searches
    det._line_search_at = det._frames
    if not det._line_band_made:
        det._line_band, det._line_band_made = line_band(det), True
    band = det._line_band
    if band is None:
        return None
    sz = det.sizes
    z_c = sz.ball_diameter / 2 if sz.ball_height >= 0.8 * sz.ball_diameter else sz.ball_height
    excluded, hiders = ball_masks(det, solids, hands)
    # the goalkeepers too (a fit models them in front of the ball; here they are no ball): a
    # box on its goal line, unlike the painted table learned under it, peaked over the ball
    keepers = [x for x in solids if x.kind == "goalkeeper" and len(x.hull)]
    unlike = excluded | det._excluded(keepers, np.zeros_like(hands)) if keepers else excluded
    best: tuple[float, BallFit] | None = None
    d_px = band.ball_px * band.scale
    bars = ball_bars(det)

    def fit_from(uv: FloatArray) -> BallFit | None:
        xy0 = det.camera.image_to_table(uv[None], z_c)[0]
        f = fit_ball(
            img,
            bgf,
            det.camera,
            xy0,
            sz.ball_diameter,
            sz.ball_height,
            excluded=excluded,
            hiders=hiders,
            bars=bars,
        )
        if f is None or not ball_fit_ok(f):
            return None
        return f if f.visible >= _VISIBLE and f.explained >= _EXPLAINED else None

    for peak in _peaks(img, bgf, band, unlike):
        peak = _refined(img, bgf, peak, d_px)
        fit = fit_from(peak)
        for dv in (-0.5 * d_px, 0.5 * d_px):
            # a start a pixel or two across the line from the ball falls off it along the
            # line's edge: tried from half a ball either side across the rows (a touchline's
            # way in the image) and across the columns (a goal line's) as well
            if fit is None:
                fit = fit_from(peak + np.array([0.0, dv])) or fit_from(peak + np.array([dv, 0.0]))
        if fit is None or det._in_goal(fit.xy_mm):
            continue
        if float(np.hypot(*(fit.uv_px - peak))) > _NEAR * d_px:
            continue
        score = det._ball_score(fit, bgf, fit.uv_px)
        if score < _BALL_MIN_SCORE or not _like_the_ball(det, fit, bgf):
            continue
        if best is None or score > best[0]:
            best = (score, fit)
    return best[1] if best is not None else None
