"""The detector: buttons, goalkeepers, the ball and the coaches' hands in one image, in table mm.

Pipeline (one frame):

1. **Coarse search** on every ``stride``-th pixel: the colour distance to the empty table
   (:mod:`vision.background`, its gain measured on the frame) above a noise-scaled threshold,
   inside the playing surface; cast shadows (the table's own colour, uniformly darker) are
   dropped. Blobs are sized in mm through a per-pixel table-coordinate lookup.
2. **Hands**: a blob larger than any piece that reaches the rim of the playing surface is a
   hand and forearm; its pixels of the arm's colour become a hand polygon (table mm, as seen
   over a button's top); the rest of the blob (a piece beside the hand) goes on.
3. **Buttons** are seeded where the blobs' distance transform is wide enough and fitted as 3D
   cylinders (:mod:`vision.solids`: footprint centre and diameter, at the team's or the rule
   set's height); then, once the teams are known, again at their team's diameter.
4. **Goalkeepers**: what the buttons leave, when long, is fitted as a 3D box (centre and angle),
   from several starts when the first is poor (a goal's net beside it), then again from where
   it stopped; a 'button' on a goal line, or a poor one in a penalty area, is tried as a box.
   On a still, the goals' posts and crossbars (which its model of the table lacks) are left
   out of the fits, and the mouth of a goal where none was found is searched as a whole.
5. **The ball**: what the pieces leave, ball-sized, is fitted by :func:`vision.ball.fit_ball`
   (sphere silhouette, motion streak, hidden pixels left out); the best fit wins, a ball on the
   centre or a penalty mark is looked for there; none is reported when none fits. In a video,
   a ball the search missed where it was a moment ago, a hand now beside it, is fitted there
   with only the hand's own pixels left out (:mod:`vision.ball_hands`).
6. **Teams**: the mean Lab colour of each top face, against a :class:`vision.teams.TeamModel`
   fitted on the first frame (or configured).

In a video (after :meth:`Detector.learn_background`) the fits of the last frame whose pixels
did not change are kept: only what moved is fitted again; a blob where a search (button,
goalkeeper, ball) failed is not searched again for that kind while its pixels stay the same;
the ball's candidates are tried most ball-like first (a matched filter at full resolution) and
the search stops at a sure fit. The learned table is the median of frames spread over time,
painted over with the still's estimate where pieces stood or moved while they were taken (in a
goal, only the pieces' own pixels: the posts stay); it follows slow light changes on the
pixels that look like the table. ``sigma_mm`` comes from each fit's residuals and Jacobian.

The ball's search, the goalkeepers' and the teams' live in :mod:`vision.ball_search`,
:mod:`vision.ball_hands`, :mod:`vision.keeper_search` and :mod:`vision.team_search`: functions
of the detector that are its methods here.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.camera import Camera
from geometry.pieces import rectangle_corners
from geometry.tablespec import TableSpec
from rules.rulesets import get_ruleset
from vision.background import Background
from vision.ball import BallFit
from vision.ball_goal import still_ball_or_goal
from vision.ball_hands import ball_by_hand, still_ball_beside_hand
from vision.ball_lines import LineBand, ball_on_a_line
from vision.ball_refit import refit
from vision.ball_search import (
    _BALL_MM2,
    _BALL_SURE,
    _MIN_BALL,
    ball_elsewhere,
    ball_fit_ok,
    ball_on_spot,
    ball_score,
    ball_strength,
    find_ball,
    refresh_spots,
)
from vision.ball_stay import (
    ball_behind_a_box,
    ball_beside_a_box,
    ball_out_of_reach,
    ball_where_it_was,
    could_be_beside,
    not_the_ball_far_off,
    sliver_off_a_covered_ball,
    still_where_it_rested,
)
from vision.detections import Detections
from vision.foreground import foreground, hand_mask, hand_polygons, nonzero_yx
from vision.frame_memory import FrameMemory
from vision.keeper_search import (
    crossbars_mask,
    goal_frames_mask,
    goal_mouths,
    keeper_at,
    keeper_each_goal,
    keeper_or,
    keeper_place,
    keepers_again,
    one_fit_a_box,
)
from vision.memory import release_free_memory
from vision.solids import (
    Solid,
    centres_inside,
    distinct,
    fit_solid,
    noise_floor,
)
from vision.team_search import assign_teams, team_sizes, teams_of, top_lab
from vision.teams import TeamModel

__all__ = [
    "BUTTON_DIAMETER_MM",
    "Detector",
    "DetectorError",
    "ball_sigma_axes_mm",
    "ball_sigma_mm",
]

FloatArray = NDArray[np.float64]
U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]
BUTTON_DIAMETER_MM = (22.0, 66.0)  # accepted fitted diameters (buttons are 25-60 mm)
_HAND_MM2 = 4500.0  # a blob this large reaching the rails is a hand (a 60 mm button: 2827)
# The models' own error (JPEG's chroma blur, shading, a side seen in part), which the fits'
# residuals do not show, added to their sigma: the spread measured by bench_detect (stills).
# The ball's: 2D errors within 2 sigma on 86.5% of stills is a calibrated per-axis sigma; with
# 0.05 mm it was 59% / 91% (seeds 500-521 / 900-922), with 0.08 mm 91% / 96%.
_MODEL_SIGMA_MM = {"button": 0.3, "goalkeeper": 0.6, "ball": 0.08}
# A ball beside a goalkeeper's box that hides part of it (vision/ball_search.py touching_box):
# its fit's error against the truth, 167 fits of the goal-line protocol's keeper place on 10
# rigs (true cameras; three shares hidden, both goals). Where the box's fit agrees with the
# ball's (within a millimetre, 153 fits) the errors are 0.18 mm RMS at a mean hidden share of
# 0.42, hardly related to it (maximum likelihood 0.22 mm x the share, RMS over the mean share
# 0.43); where it does not (a box fitted 1.5-4 mm off) the ball's fit lay up to 2 mm off with
# it (and once, beside a box fitted 23 mm off, 15.7 mm: 5 sigma). The ball may lie anywhere
# from where it is fitted to against the box: half that distance is its 1-sigma (2 sigma
# reach the box). On 6 other rigs (104 fits): |error| > 2 sigma on none (the largest 1.9
# sigma), the median sigma 0.30 mm (2.05 mm with 5 mm x the share).
_HIDDEN_SIGMA_MM = 0.3  # x the ball's hidden share
_GAP_SIGMA = 0.5  # x the distance between the ball's footprint and the box (mm)
# A hand's outline is its pixels' (no pose, a shadow, a blurred edge): fits of a ball beside a
# hand were up to 1.7 mm off at half hidden on renders (tests/vision/test_hand_ball.py), where
# the box's 0.3 mm x the share would call them sure; the share of a radius holds them.
_HAND_SIGMA_MM = 5.0  # x the share a hand hides
_SEED_MM = 10.0  # distance-transform radius that seeds a button
_HOLE_MM2 = math.pi * (BUTTON_DIAMETER_MM[1] / 2) ** 2  # the largest hole a printed ring makes
_MIN_INLIERS = 0.4
_MIN_INLIERS_KEEPER = 0.6
_MAX_SIGMA_KEEPER_MM = 3.0  # a goalkeeper's fit pinned down no better is a few pixels' fit
# a piece that differs from the felt in hue more than in light (black on dark green): JPEG's
# half-resolution colour blurs its edge over about two pixels
_CHROMA_BLUR_PX = 1.6
# diameters closer than this are one size to a fit (the teams' sizes sharing one in a video)
_SAME_SIZE_MM = 1.0
# a good button fit this far under a known size is tried at it (:meth:`Detector._outermost`):
# from 1.1 x (a white button's printed ring, its outer edge at 0.9 of the diameter), kept when
# it grows past 1.08 x; from 1.25 x (an inner ring), when past 1.15 x
_OUTER_TRY, _OUTER_GROWN = 1.1, 1.08
_OUTER_FAR, _OUTER_GROWN_FAR = 1.25, 1.15


def _components(mask: NDArray[np.bool_]) -> tuple[int, NDArray[np.integer], NDArray[np.int32]]:
    """8-connected components of a mask: count, labels and stats (x, y, w, h, area), with
    16-bit labels when they fit (less than half the time of 32-bit ones)."""
    m = mask.astype(np.uint8)
    ltype = cv2.CV_16U if cv2.countNonZero(m) < 65000 else cv2.CV_32S
    n, labels, stats, _ = cv2.connectedComponentsWithStats(m, connectivity=8, ltype=ltype)
    return int(n), np.asarray(labels), np.asarray(stats, np.int32)


def _split(points: NDArray[np.int32], hulls: list[FloatArray]) -> list[NDArray[np.int32]]:
    """``points`` (the hulls' vertices, concatenated and converted in one pass: a numpy call
    per solid cost more than its arithmetic) cut back into one array per hull."""
    ends = list(itertools.accumulate(len(h) for h in hulls))
    return [points[e - len(h) : e] for h, e in zip(hulls, ends, strict=True)]


def _bounds(mask: NDArray[np.bool_]) -> tuple[int, int, int, int] | None:
    """The rows ``y0:y1`` and columns ``x0:x1`` that hold every set pixel of a mask (its
    bounding box), or None for an empty mask."""
    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    if not len(rows):
        return None
    return int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1


def _holes_filled(fg: NDArray[np.bool_], px_mm2: FloatArray, max_mm2: float) -> NDArray[np.bool_]:
    """``fg`` with its holes (4-connected parts of the rest it encloses) of at most ``max_mm2``
    filled (``px_mm2``: each pixel's area in mm2). A white button on a pale felt differs from it
    by its printed ring and number only: an annulus a few mm wide, whose distance transform
    seeds nothing; filled it is the disc it bounds. Within the mask's bounding box only."""
    box = _bounds(fg)
    if box is None:
        return fg
    y0, y1, x0, x1 = box
    rest = ~fg[y0:y1, x0:x1]
    n, lab, stats, _ = cv2.connectedComponentsWithStats(rest.astype(np.uint8), connectivity=4)
    if n <= 2:  # all of the rest reaches the box's edge (one part or none)
        return fg
    h, w = rest.shape
    x, y, bw, bh = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
    inner = (x > 0) & (y > 0) & (x + bw < w) & (y + bh < h)
    inner[0] = False  # (label 0: the mask itself)
    if not inner.any():
        return fg
    area = np.bincount(lab.ravel(), weights=px_mm2[y0:y1, x0:x1].ravel(), minlength=n)
    fill = inner & (area <= max_mm2)
    if not fill.any():
        return fg
    out = fg.copy()
    out[y0:y1, x0:x1] |= fill[lab]
    return out


def _peaks(fg: NDArray[np.bool_]) -> tuple[NDArray[np.intp], NDArray[np.intp], F32]:
    """The local maxima (5 x 5, at least 2) of a mask's distance transform (OpenCV's 5 x 5
    chamfer): rows, columns and distances (coarse px), in raster order.

    Computed within the mask's bounding box and 3 pixels around it only: a zero pixel there
    lies on the way to any farther one, so the (fixed-point) distances and their maxima are
    the whole image's; in a video the foreground left to seed is a few moving pieces."""
    box = _bounds(fg)
    if box is None:
        return np.zeros(0, np.intp), np.zeros(0, np.intp), np.zeros(0, np.float32)
    y0, y1 = max(0, box[0] - 3), min(fg.shape[0], box[1] + 3)
    x0, x1 = max(0, box[2] - 3), min(fg.shape[1], box[3] + 3)
    dt = cv2.distanceTransform(fg[y0:y1, x0:x1].astype(np.uint8), cv2.DIST_L2, 5)
    peak = (dt >= cv2.dilate(dt, np.ones((5, 5), np.uint8))) & (dt >= 2.0)
    iy, ix = nonzero_yx(peak)
    return iy + y0, ix + x0, np.asarray(dt[iy, ix], np.float32)


def _subsample(img: U8, stride: int) -> U8:
    """Every ``stride``-th pixel of an image from ``stride // 2`` (a contiguous copy).

    Where the size is a multiple of the stride, OpenCV's exact nearest-neighbour resize picks
    the same pixels (``floor((x + 0.5) * stride)``) five times faster than numpy's strided copy.
    """
    h, w = img.shape[:2]
    if stride > 1 and w % stride == 0 and h % stride == 0:
        size = (w // stride, h // stride)
        return np.asarray(cv2.resize(img, size, interpolation=cv2.INTER_NEAREST_EXACT), np.uint8)
    o = stride // 2
    return np.ascontiguousarray(img[o::stride, o::stride])


def candidate_diameters(team_mm: Iterable[float], default_mm: float) -> list[float]:
    """The diameters (mm, ascending) a button's seed is fitted at: the teams' measured sizes,
    those within :data:`_SAME_SIZE_MM` of each other as one (their median), and the rule set's
    default only where no team's size is that close to it.

    A size a fraction of a millimetre off moves a fitted outline by a fraction of a pixel: the
    default and two teams' measured 60.6 and 61.0 mm are nearly one fit tried three times, and
    a seed that is no button (a fold of the net, a hand's edge) paid for each of them.
    """
    groups: list[list[float]] = []
    for d in sorted(team_mm):
        if groups and d - groups[-1][0] < _SAME_SIZE_MM:
            groups[-1].append(d)
        else:
            groups.append([d])
    sizes = [float(np.median(g)) for g in groups]
    if all(abs(default_mm - d) >= _SAME_SIZE_MM for d in sizes):
        sizes.append(float(default_mm))
    return sorted(sizes)


def ball_sigma_mm(fit: BallFit) -> float:
    """The 1-sigma (mm, per axis) of a ball fit's footprint: twice the fit's own figure (it
    leaves out the model's shading and blur errors), the model's floor and, for a ball partly
    hidden beside a goalkeeper, its hidden share of :data:`_HIDDEN_SIGMA_MM` and half its
    distance from the box (``box_gap_mm``: the box's pose decides what the ball's fit sees,
    and a box fitted off leaves a gap or an overlap no ball and box at rest show), in
    quadrature; for a ball beside a coach's hand, the share the hand hides of a radius
    (:data:`_HAND_SIGMA_MM`). Before, the hidden share of a radius for any hider: 1.9 mm at the
    median beside a goalkeeper, where the fits were 0.1-0.2 mm off, and the calls TOO_CLOSE."""
    base, gap = _ball_sigma_parts(fit)
    return math.hypot(base, gap)


def ball_sigma_axes_mm(fit: BallFit) -> FloatArray:
    """The 1-sigma (mm) of a ball fit's footprint along the table's x and y axes (a goal
    line's normal, a touchline's): :func:`ball_sigma_mm` with the box's part taken along
    the line from the fit to the box (``box_dir_xy``), where the ball may lie.

    Beside a box the fit is off along that line, as the box's pose is off across its side:
    on the goal-line protocol's keeper place (rig 380, a box beside the ball along the goal
    line), fits 0.5-0.8 mm off along y and 0.0-0.3 mm along x, 1 mm from the box. The whole
    gap on both axes called a ball 0.9 mm over the line TOO_CLOSE at a sigma of 0.6 mm.
    Without a direction both axes take the whole gap.

    Examples
    --------
    >>> import numpy as np
    >>> from vision.ball import BallFit
    >>> fit = BallFit(np.zeros(2), np.zeros(2), 0.0, np.zeros(2), np.zeros(3), 1.0, 0.6, 1.0,
    ...               box_gap_mm=1.0, box_dir_xy=np.array([0.0, 1.0]))
    >>> np.round(ball_sigma_axes_mm(fit), 3).tolist(), round(ball_sigma_mm(fit), 3)
    ([0.144, 0.52], 0.52)
    """
    base, gap = _ball_sigma_parts(fit)
    d = fit.box_dir_xy
    along = np.ones(2) if d is None or not np.isfinite(d).all() else np.abs(np.asarray(d, float))
    return np.asarray(np.hypot(base, gap * along), np.float64)


def _ball_sigma_parts(fit: BallFit) -> tuple[float, float]:
    """(the isotropic part, the box's gap part) of a ball fit's 1-sigma (mm)."""
    s_mm = 2.0 * fit.sigma_mm if np.isfinite(fit.sigma_mm) else 1.0
    hidden = max(0.0, 1.0 - fit.visible) * _HIDDEN_SIGMA_MM
    gap = _GAP_SIGMA * abs(fit.box_gap_mm) if math.isfinite(fit.box_gap_mm) else 0.0
    hand = max(0.0, fit.hand_hidden) * _HAND_SIGMA_MM
    return math.sqrt(s_mm**2 + _MODEL_SIGMA_MM["ball"] ** 2 + hidden**2 + hand**2), gap


class DetectorError(ValueError):
    """An image the detector cannot use (wrong size, no table where the camera looks)."""


class Detector:
    """Finds the pieces, the ball and the hands in images of one camera over one table.

    Parameters
    ----------
    camera : the calibrated camera (images must have its ``image_size``).
    table : the table spec.
    rules_name : rule set whose piece sizes and heights are the defaults (000 REGRA 2, 3).
    teams : a :class:`TeamModel` (its colours, per-team button heights); when None it is
        fitted on the first image with pieces.
    stride : the coarse search looks at every ``stride``-th pixel.
    button_diameter_mm : per-team button diameters, when known; else learned from the fits.

    Without :meth:`learn_background` every image is a still: its empty table is estimated
    from itself (slower and less sure than a learned one).
    """

    def __init__(
        self,
        camera: Camera,
        table: TableSpec,
        rules_name: str = "brasileira",
        teams: TeamModel | None = None,
        stride: int = 3,
        button_diameter_mm: Mapping[str, float] | None = None,
    ) -> None:
        self.camera, self.table = camera, table
        pieces = get_ruleset(rules_name).pieces or get_ruleset("brasileira").pieces
        assert pieces is not None
        self.sizes = pieces
        self.teams = teams
        self._fixed_teams = teams is not None
        self.bg = Background(camera, table, stride)
        self.stride = int(stride)
        self.learned = False
        self._learning = False  # the frames' median is being searched for the resting pieces
        # the video's frames since the table was learned, from detect's frame numbers (one a
        # call where they do not increase): the ball's finds are dated in them, so that frames
        # a live referee dropped count (its last two finds two frames apart are not one)
        self._frames = 0
        self._frame_no: int | None = None  # the last frame number detect was given
        self._calls = 0  # detect calls since the table was learned: the light's cadence
        self._clock = -math.inf  # the video's time (s): detect's t, or 1/30 s a frame
        # button diameters per team: configured, or learned (the median of the free fits)
        self.team_diameter: dict[str, float] = dict(button_diameter_mm or {})
        self._configured_diameter = set(self.team_diameter)
        self._last_image: U8 | None = None
        self._last_found: tuple[list[Solid], NDArray[np.bool_]] | None = None
        self._fitting: list[Solid] = []
        self._hands_now: NDArray[np.bool_] | None = None  # the coarse hands of this frame
        self.memory = FrameMemory(self.stride)
        self._sub = np.zeros((1, 1, 3), np.uint8)
        self._floor = 0.0  # the felt's typical distance to the table's model in this image
        self._frames_mask: NDArray[np.bool_] | None = None  # the goals' posts and crossbars
        self._bars_mask: NDArray[np.bool_] | None = None  # the crossbars, no margin
        # the crossbars' lengths (px) and their pixels (rows, columns, each length's end); on
        # this image, the lengths shown and the bars' colour in the table (ball_search)
        self._bar_hulls: (
            tuple[list[FloatArray], NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]] | None
        ) = None
        self._bars_front: tuple[list[FloatArray], FloatArray] | None = None
        self.ball_colour: FloatArray | None = None
        # the last ball found in a video and the frame (``_frames``) it was found on, and the
        # one found before it (where the ball should be next: :func:`predicted_ball`)
        self._ball_prior: tuple[BallFit, int] | None = None
        self._ball_seen_s = -math.inf  # the clock when the ball was last found (_ball_prior)
        self._ball_before: tuple[BallFit, int] | None = None
        # the painted lines' band searched for a ball at rest on a line (vision/ball_lines.py),
        # made at its first search, and the frame (``_frames``) of the last search
        self._line_band: LineBand | None = None
        self._line_band_made = False
        self._line_search_at: float = -math.inf
        self._spots: list[tuple[FloatArray, tuple[NDArray[np.intp], NDArray[np.intp]]]] | None = (
            None
        )
        w, h = camera.image_size
        o = self.stride // 2
        uu, vv = np.meshgrid(np.arange(o, w, self.stride), np.arange(o, h, self.stride))
        self._uv_sub = np.stack([uu, vv], axis=2).astype(np.float64)
        self._level = np.zeros(self._uv_sub.shape[:2], np.uint16)
        self._fg = np.zeros(self._uv_sub.shape[:2], bool)
        xy = camera.image_to_table(self._uv_sub.reshape(-1, 2), self.sizes.button_height)
        self._xy_sub = xy.reshape(*uu.shape, 2)
        # mm per full-resolution pixel at each coarse pixel (at a button's height)
        step = np.asarray(np.gradient(self._xy_sub, axis=1))
        self._mm_px = np.nan_to_num(np.hypot(step[..., 0], step[..., 1]) / self.stride, nan=0.0)
        self._px_mm2 = (self._mm_px * self.stride) ** 2  # a coarse pixel's area on the table
        # three pixels in from the rails, where a still's model of the felt meets the wood's;
        # a learned table is the wood's own pixels there: two (three hid a ball resting
        # against a far rail, a few pixels across, from the foreground)
        finite = np.isfinite(self._xy_sub).all(axis=2)
        region = cv2.erode(self.bg.region, np.ones((7, 7), np.uint8))
        self._region = (region[o :: self.stride, o :: self.stride] > 0) & finite
        region = cv2.erode(self.bg.region, np.ones((5, 5), np.uint8))
        self._region_learned = (region[o :: self.stride, o :: self.stride] > 0) & finite
        vals = self._mm_px[self._region]
        self._mm_per_px = float(np.median(vals)) if len(vals) else 1.0
        inner = cv2.erode(self._region.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
        self._rim = self._region & ~inner
        # where an arm crosses the rim: not in a goal (its net joins a hand reaching into it)
        self._arm_rim = self._rim & (self.bg.goals[o :: self.stride, o :: self.stride] == 0)
        lines = cv2.dilate((self.bg.markings > 0.05).astype(np.uint8), np.ones((5, 5), np.uint8))
        self._lines = lines[o :: self.stride, o :: self.stride] > 0

    # ------------------------------------------------------------------ background
    def learn_background(self, frames: Iterable[U8]) -> None:
        """Learn the empty table from frames spread over time (hands and moving pieces vanish
        in the median; the pieces that never moved are painted over with the felt as a still
        would estimate it)."""
        median = self.bg.learn(frames)
        still = self.bg.still(np.clip(median + 0.5, 0, 255).astype(np.uint8))
        self.bg.set(still)
        img = np.clip(median + 0.5, 0, 255).astype(np.uint8)
        self._last_image = img
        self._learning = True
        try:
            found = self._detect(img)
        finally:
            self._learning = False
        covered = self._covered(found, grow_px=max(6, round(8.0 / self._scale())))
        # in a goal (posts, crossbar, net: white things the still paints as felt, and so finds
        # as a 'hand') only the pieces' own pixels are painted over, not a margin or a hand
        hands = found["hands"]
        assert isinstance(hands, np.ndarray)
        tight = self._covered({**found, "hands": np.zeros_like(hands)}, grow_px=2)
        covered = np.where(self.bg.goals > 0, tight, covered)
        # and where a piece moved while the frames were taken (a mixture, no table)
        self.bg.unsteady = np.asarray(cv2.dilate(self.bg.unsteady, np.ones((5, 5), np.uint8)))
        # and what differs from the still that the fits missed: a piece that rested through the
        # frames (a goalkeeper half in its goal, a ball on a spot) and the pieces' shadows
        px_mm2 = self._scale() ** 2
        sz = self.sizes
        area_px = (
            _MIN_BALL * _BALL_MM2 / px_mm2,
            4.0 * sz.goalkeeper_length * sz.goalkeeper_width / px_mm2,
        )
        self.bg.set(self.bg.paint_pieces(median, still, covered, tight.astype(np.uint8), area_px))
        self.learned = True
        self._region = self._region_learned  # (the rim, where hands enter, stays the still's)
        release_free_memory()  # the frames' stack and the full-size temporaries (~130 MB)

    def _scale(self) -> float:
        """The field's median mm per pixel (fixed with the camera; was a median a frame)."""
        return self._mm_per_px

    # ------------------------------------------------------------------ public
    def detect(self, image_bgr: U8, frame: int = 0, t: float = 0.0) -> Detections:
        """Detections of one BGR image (h, w, 3) uint8 of the camera's size."""
        img = np.asarray(image_bgr)
        w, h = self.camera.image_size
        if img.ndim != 3 or img.shape[2] != 3 or img.shape[:2] != (h, w):
            raise DetectorError(
                f"image is {img.shape[1] if img.ndim > 1 else '?'}x{img.shape[0]}, the camera's "
                f"is {w}x{h} (a camera file from another resolution?)"
            )
        if not self.learned:
            self.bg.from_still(img)
        elif self._calls % 3 == 0:  # the light drifts slowly: its gain every third frame
            self.bg.measure_gain(img)
        self._last_image = img
        if self.learned:  # the video's time, never back (a clip of its own starts at 0 again)
            self._clock = t if t > self._clock else self._clock + 1.0 / 30.0
            last, self._frame_no = self._frame_no, int(frame)
            self._frames += int(frame) - last if last is not None and frame > last else 1
        found = self._detect(img)
        if self.learned:
            # a ghost (what rested while the table was learned, then left) joins the table
            ball_px = self.sizes.ball_diameter / (self._scale() * self.stride)
            expl = self._explained(found)
            healed = self.bg.heal(img, self._sub, self._fg, expl, self._clock, ball_px)
            if healed is not None:
                self._forget(healed)
            # what the still painted where pieces rested while learning, seen free: the table
            busy = cv2.dilate(self._fg.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
            self.bg.refresh(img, expl | busy)
            ball = found["ball"]
            if isinstance(ball, BallFit):
                assert self._last_found is not None
                refresh_spots(self, img, ball, *self._last_found)
            self._calls += 1
            if self._calls % 4 == 0:  # the light drifts slowly: a band every fourth frame
                # only what looks like the table already: a piece the fits missed (blurred,
                # half hidden) must not be blended in and leave a ghost
                rows = self.bg.band_rows()
                covered = self._covered(found, grow_px=4, rows=rows)
                fg = cv2.dilate(self._fg.astype(np.uint8), np.ones((3, 3), np.uint8))
                covered |= self._upsample(np.asarray(fg, np.uint8), rows)
                self.bg.update(img, covered)
        return self._detections(found, frame, t)

    def check_table(self, image_bgr: U8) -> None:
        """Raise :class:`DetectorError` unless the table is where the camera says it is
        (:meth:`vision.background.Background.table_problem`)."""
        img = np.asarray(image_bgr)
        w, h = self.camera.image_size
        if img.ndim != 3 or img.shape[:2] != (h, w):
            raise DetectorError(f"image is not {w}x{h} BGR")
        problem = self.bg.table_problem(img)
        if problem:
            raise DetectorError(problem)

    # ------------------------------------------------------------------ internals
    def _detect(self, img: U8) -> dict[str, object]:
        s = self.stride
        sub = self._sub = _subsample(img, s)
        fg, self._level = foreground(sub, self.bg.sub, self._region, lines=self._lines)
        self._fg = fg
        n, labels, stats = _components(fg)
        # each blob's area in mm2 (label 0, the table, left at 0): summed over the foreground's
        # pixels only, in the same order as over the whole grid
        on = np.flatnonzero(fg)
        area = np.bincount(labels.ravel()[on], weights=self._px_mm2.ravel()[on], minlength=n)
        rim_hit = np.bincount(labels[self._rim], minlength=n) > 0
        hands = np.zeros_like(fg)
        for k in range(1, n):
            if area[k] >= _HAND_MM2 and (rim_hit[k] or area[k] >= 4 * _HAND_MM2):
                x, y, bw, bh = stats[k, :4]
                win = (slice(y, y + bh), slice(x, x + bw))
                blob = labels[win] == k
                hands[win] |= hand_mask(sub[win], blob, self._rim[win], arm_rim=self._arm_rim[win])
        hands = cv2.dilate(hands.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        pieces_fg = fg & ~hands
        bgf = self._bg_full()
        self._floor = noise_floor(img, bgf, self.bg._gain_idx)
        self._bars_front = None  # the crossbars' lengths shown on this image (ball_search)
        kept, ball = self.memory.unchanged(sub, hands) if self.learned else ([], None)
        if self.learned:  # a goalkeeper beside a hand: from where it stood first
            kept = kept + keepers_again(self, img, bgf, kept, hands)
        solids = self._buttons(img, bgf, pieces_fg & ~self._raster(kept, sub.shape[:2]), hands)
        sil = self._raster(kept + solids, sub.shape[:2])
        rest = pieces_fg & ~sil
        keepers, balls = self._leftovers(img, bgf, rest, kept + solids, hands)
        new = distinct([x for x in solids + keepers if not self._in_goal(x.p[:2])], kept)
        self._hands_now = hands
        self._assign_teams(new)
        sized = self._team_sizes(img, bgf, new, hands, kept)
        if self.learned:  # a fit to a ghost hides no ball and is not reported (the kept fits
            sized = self._real(sized)  # were judged when made, and have not changed since)
        solids = keeper_each_goal(self._one_keeper_a_team(kept + sized))
        if ball is not None and self._ball_elsewhere(balls, ball, hands):
            # the ball kept (its pixels unchanged) may be a stand-in, a painted mark or a print,
            # while a ball-sized blob that changed since it was last tried is the ball that moved
            ball = None
        if ball is None:
            # not grown: a ball a few mm from a button (just hit) keeps its pixels
            sil = self._raster(solids, sub.shape[:2], grow=0)
            tried: set[tuple[int, int, int]] = set()  # blobs fitted: the second search skips them
            ball = self._ball(img, bgf, pieces_fg & ~sil, solids, hands, balls, tried=tried)
            if ball is not None and self.learned and not_the_ball_far_off(self, ball, bgf):
                # a piece's edge half seen, a metre from the ball found at rest a frame ago
                # (a goalkeeper's top end in its goal: tests/vision/test_ball_stay.py)
                ball = None
            if ball is not None and self.learned and sliver_off_a_covered_ball(self, ball, hands):
                ball = None  # the ball rests under the hand: a sliver beside it is not it
            boxes = [x.hull for x in solids if x.kind == "goalkeeper" and len(x.hull)]
            if (
                ball is None
                and self.learned
                and any(
                    x.kind == "goalkeeper" and len(x.hull) and could_be_beside(self, x)
                    for x in solids
                )
            ):
                # the ball's sliver beside a box in front of it is a coarse pixel or two, which
                # the box's outline touches: its silhouette only where its pixels' centres are
                # (not at first: the box's edge left so joins a ball seen whole beside it; not
                # on a still, whose model of the table leaves a box's rim a ball-like blob).
                # Only where the ball could have got beside a box since it was last found: on
                # the live clip and gaucha seed 32 this search never found the ball, and two
                # thirds of its time (30-50 ms a frame) went on frames after a hit in midfield
                sil = self._raster([x for x in solids if x.kind != "goalkeeper"], sub.shape, 0)
                sil |= centres_inside(boxes, sub.shape, s)
                ball = self._ball(img, bgf, pieces_fg & ~sil, solids, hands, balls, "box", tried)
                if ball is not None and ball_out_of_reach(self, ball):
                    # a box's edge, far from where the ball was a moment ago: the ball is looked
                    # for there (a faint ball at rest on a pale felt, tests/vision/test_ball_stay)
                    ball = None
                if ball is not None and sliver_off_a_covered_ball(self, ball, hands):
                    ball = None  # found again beside the box: still not the ball under the hand
            if ball is None and self.learned:  # a hand beside it may have hidden its blob
                ball = self._ball_by_hand(img, bgf, solids, hands)
            if ball is None and self.learned:  # a faint ball's blob lost to the noise
                ball = self._ball_where_it_was(img, bgf, solids, hands)
            if boxes and self.learned and (ball is None or ball_out_of_reach(self, ball)):
                # a box's fit drawn over the ball where it rested beside it
                ball = self._ball_behind_a_box(img, bgf, solids, hands) or ball
            if ball is None and boxes and self.learned:  # ... where it was not seen before
                ball = self._ball_beside_a_box(img, bgf, solids, hands)
            if ball is None and self.learned:  # at rest on a painted line, no blob left of it
                ball = ball_on_a_line(self, img, bgf, solids, hands)
            if ball is not None and self.learned:  # a weak fit elsewhere, the ball still there
                ball = still_where_it_rested(self, ball, img, bgf, solids, hands) or ball
            if (
                not self.learned
                and hands.any()
                and (ball is None or self._ball_score(ball, bgf, ball.uv_px) < _BALL_SURE)
            ):
                # a still's ball whose few coarse pixels a hand's grown mask took (no blob)
                ball = still_ball_beside_hand(self, img, bgf, solids, hands) or ball
            if not self.learned:  # a still's ball in a goal's net (vision/ball_goal.py)
                ball = still_ball_or_goal(self, ball, img, bgf, solids, hands)
        if self.learned:
            if ball is not None:
                self._ball_before, self._ball_prior = self._ball_prior, (ball, self._frames)
                self._ball_seen_s = self._clock
            self.memory.remember(sub, [(x, x.hull) for x in solids if len(x.hull)], ball)
        self._last_found = (solids, hands)
        return {"solids": solids, "ball": ball, "hands": hands}

    # the ball's search: vision/ball_search.py
    refit_ball = refit
    _ball_elsewhere = ball_elsewhere
    _ball = find_ball
    _ball_score = ball_score
    _ball_fit_ok = staticmethod(ball_fit_ok)
    _ball_strength = ball_strength
    _ball_on_spot = ball_on_spot
    _ball_by_hand = ball_by_hand
    _ball_where_it_was = ball_where_it_was
    _ball_behind_a_box = ball_behind_a_box
    _ball_beside_a_box = ball_beside_a_box

    def _fit(
        self,
        img: U8,
        bgf: NDArray[np.float32],
        s: Solid,
        excluded: NDArray[np.bool_] | None = None,
        fit_size: bool = True,
        blur_px: float | None = None,
    ) -> Solid:
        """:func:`fit_solid` against this image's noise floor."""
        if blur_px is None:
            return fit_solid(
                self.camera, img, bgf, s, excluded, fit_size=fit_size, floor=self._floor
            )
        return fit_solid(
            self.camera,
            img,
            bgf,
            s,
            excluded,
            fit_size=fit_size,
            blur_px=blur_px,
            floor=self._floor,
        )

    def _in_goal(self, xy: FloatArray) -> bool:
        """Whether a still should not report a piece here: inside a goal's net, which a still's
        model of the table cannot tell from a piece (a learned background can)."""
        t = self.table
        return (
            not self.learned
            and abs(float(xy[0])) > t.half_length + 1.0
            and abs(float(xy[1])) < t.goal_width / 2.0 + t.post_diameter + 10.0
        )

    def _one_keeper_a_team(self, solids: list[Solid]) -> list[Solid]:
        """At most one goalkeeper a team (000 REGRA 3: "dez botões e um goleiro"): of a
        team's boxes the one standing in a small area (000 ATUAÇÃO DO GOLEIRO: placed in the
        large area at times, it returns to the small one; 001 Art. XVI § 1: under the goal or
        in the small area), then the best fit. The others were a coach's palm lit brighter
        than the arm or a button's crescent beside an arm, fitted as a box."""
        keepers = [x for x in solids if x.kind == "goalkeeper" and x.team]
        if len(keepers) < 2:
            return solids
        t = self.table
        reach = t.half_length - t.goal_area.depth - 10.0

        def rank(x: Solid) -> tuple[bool, float]:
            in_area = abs(float(x.p[0])) > reach and abs(float(x.p[1])) < t.goal_area.width / 2
            return in_area, float(np.clip(x.inliers, 0.0, 1.0)) * float(x.team_conf)

        best: dict[str, Solid] = {}
        for x in keepers:
            if x.team not in best or rank(x) > rank(best[x.team]):
                best[x.team] = x
        return [x for x in solids if x.kind != "goalkeeper" or not x.team or best[x.team] is x]

    # teams and the team's diameter: vision/team_search.py
    _assign_teams = assign_teams
    _team_sizes = team_sizes
    _lab = top_lab
    _teams = teams_of

    def _bg_full(self) -> NDArray[np.float32]:
        return self.bg.scaled()

    def _raster(
        self, solids: list[Solid], shape: tuple[int, ...], grow: int = 1
    ) -> NDArray[np.bool_]:
        """Coarse mask of the solids' silhouettes, grown by ``grow`` coarse pixels."""
        mask = np.zeros(shape[:2], np.uint8)
        s, o = self.stride, self.stride // 2
        hulls = [x.hull for x in solids if len(x.hull)]
        if hulls:
            polys = _split(np.round((np.concatenate(hulls) - o) / s * 16).astype(np.int32), hulls)
            cv2.fillPoly(mask, polys, 1, cv2.LINE_8, 4)
        if grow:
            mask = np.asarray(cv2.dilate(mask, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8)))
        return mask > 0

    def _excluded(
        self,
        solids: list[Solid],
        hands: NDArray[np.bool_],
        skip: int = -1,
        rows: tuple[int, int] | None = None,
    ) -> NDArray[np.bool_]:
        """Full-resolution mask of other solids (grown 2 px) and hands (only the rows
        ``r0:r1`` when ``rows`` is given: exact there but for the dilations' reach at its
        ends, 3 px)."""
        w, h = self.camera.image_size
        r0, r1 = rows if rows is not None else (0, h)
        mask = np.zeros((r1 - r0, w), np.uint8)
        hulls = [x.hull for i, x in enumerate(solids) if i != skip and len(x.hull)]
        if hulls:
            pts = np.round(np.concatenate(hulls) * 16).astype(np.int32) - np.array(
                [0, 16 * r0], np.int32
            )
            polys = _split(pts, hulls)
            cv2.fillPoly(mask, polys, 1, cv2.LINE_8, 4)
            # grown 2 px within the vertices' bounding box only (the filled pixels lie within a
            # pixel of it; outside it all is 0, as the dilation's border is): the same pixels
            lo, hi = pts.min(axis=0) // 16 - 3, pts.max(axis=0) // 16 + 4
            x0, y0 = max(0, int(lo[0])), max(0, int(lo[1]))
            x1, y1 = min(w, int(hi[0])), min(mask.shape[0], int(hi[1]))
            if x0 < x1 and y0 < y1:
                box = mask[y0:y1, x0:x1]
                box[:] = cv2.dilate(box, np.ones((5, 5), np.uint8))
        hb = _bounds(hands)
        if hb is not None:
            # only about the hands (their full-resolution pixels, grown 3 px, lie within a
            # stride and 4 px of their coarse ones): the same pixels at a fraction of the cost
            hc, wc = hands.shape
            m = 4 + self.stride
            y0, y1 = max(r0, hb[0] * h // hc - m), min(r1, hb[1] * h // hc + m)
            x0, x1 = max(0, hb[2] * w // wc - m), min(w, hb[3] * w // wc + m)
            if y0 < y1:
                a, b = max(0, y0 - 3), min(h, y1 + 3)  # the dilation's reach
                up = self._upsample(hands.astype(np.uint8), (a, b), (x0, x1))
                grown = cv2.dilate(up, np.ones((7, 7), np.uint8))[y0 - a : y1 - a]
                mask[y0 - r0 : y1 - r0, x0:x1] |= np.asarray(grown, np.uint8)
        # every value is 0 or 1 (filled with 1, dilated, or-ed): the bytes are a boolean
        # mask as they are (comparing the frame's two million pixels cost more than the rest)
        return mask.view(np.bool_)

    def _buttons(
        self,
        img: U8,
        bgf: NDArray[np.float32],
        fg: NDArray[np.bool_],
        hands: NDArray[np.bool_] | None = None,
    ) -> list[Solid]:
        """Seeds where the distance transform is wide enough for a button; cylinder fits.

        In a video (``hands`` given), a seed fitted in vain is remembered with its pixels and
        the hands about it, and not fitted again while they stay the same (a fold of the net, a
        print the model of the table lacks, a hand's edge at rest)."""
        s = self.stride
        iy, ix, d_px = _peaks(fg)
        r_mm = d_px * s * self._mm_px[iy, ix]
        order = np.argsort(-r_mm)
        order = order[r_mm[order] >= _SEED_MM]
        # then the discs that printed rings bound (a white button on a pale felt shows its ring
        # and number only), where the mask itself seeded nothing: the seeds above stay as they
        # were (a disc's start moved the fits of printed buttons, up to 0.35 mm in a still's
        # median)
        filled = _holes_filled(fg, self._px_mm2, _HOLE_MM2)
        if filled is not fg:
            jy, jx, e_px = _peaks(filled)  # (the mask's own peaks again: skipped below)
            e_mm = e_px * s * self._mm_px[jy, jx]
            more = np.argsort(-e_mm)
            more = more[e_mm[more] >= _SEED_MM] + len(iy)
            iy, ix = np.concatenate([iy, jy]), np.concatenate([ix, jx])
            d_px, r_mm = np.concatenate([d_px, e_px]), np.concatenate([r_mm, e_mm])
            order = np.concatenate([order, more])
        seeds: list[tuple[FloatArray, float]] = []
        boxes: list[FloatArray] = []  # each seed's pixels (a square of its radius, px)
        for j in order:
            xy = self._xy_sub[iy[j], ix[j]]
            if all(np.hypot(*(xy - q)) > 0.8 * max(r_mm[j], rq) for q, rq in seeds):
                r_px = float(d_px[j]) * s
                box = self._uv_sub[iy[j], ix[j]] + np.array([[-r_px, -r_px], [r_px, r_px]])
                if self.learned and self.memory.rejected(self._sub, box, "button", hands):
                    continue  # fitted in vain before, and nothing about it has changed
                seeds.append((xy, float(r_mm[j])))
                boxes.append(box)
        h = self.sizes.button_height
        solids = []
        sizes = candidate_diameters(self.team_diameter.values(), self.sizes.button_diameter)
        known = list(self.team_diameter.values())
        # in a video whose teams share one size, a button is fitted at that size at once
        common = (
            float(np.median(known))
            if self.learned and known and np.ptp(known) < _SAME_SIZE_MM
            else None
        )
        for (xy, r), box in zip(seeds, boxes, strict=True):
            if common is not None:
                x = Solid("button", np.array([*xy, common]), h, sized=True)
                x = self._fit(img, bgf, x, fit_size=False)
                if self._good(x):
                    solids.append(x)
                    continue
            d0 = float(np.clip(2 * r + 6.0, 25.0, 62.0))
            x = self._fit(img, bgf, Solid("button", np.array([*xy, d0]), h))
            for d in sizes:  # a seed that sees only a part of its piece starts too small
                if self._good(x) or d <= d0:
                    continue
                x = self._fit(img, bgf, Solid("button", np.array([*xy, d]), h))
            x = self._outermost(img, bgf, x, sizes)
            if not self._good(x):
                # the free diameter trades against the edge's blur and a faint side (a 60 mm
                # button fitted at 66): at a known size only the centre is free
                for d, blur in ((d, b) for b in (None, _CHROMA_BLUR_PX) for d in sizes):
                    if blur is None and d == common:
                        continue  # the first fit above, failed
                    y = Solid("button", np.array([*xy, d]), h)
                    y = self._fit(img, bgf, y, fit_size=False, blur_px=blur)
                    if self._good(y):
                        x = y
                        break
            if not self._good(x) and hands is not None:
                self._reject(box, hands, "button")
            solids.append(x)
        return [self._keeper_or(img, bgf, x, hands) for x in solids if self._good(x)]

    def _beside_hand(self, uv_px: FloatArray, hands: NDArray[np.bool_] | None) -> bool:
        """Whether a hand (the coarse mask) lies within two coarse pixels of these pixels'
        bounding box (px)."""
        if hands is None or not len(uv_px):
            return False
        return bool(hands[self.memory.window(hands.shape, np.asarray(uv_px))].any())

    def _outermost(self, img: U8, bgf: NDArray[np.float32], x: Solid, sizes: list[float]) -> Solid:
        """A ring printed on a top face (a dark ring inside a white button's pale rim, which a
        pale felt hides) fits as a smaller button: the outermost circle that explains the
        pixels is the piece, so a good fit well under a known size is tried at that size.

        The ring's outer edge (0.9 of a white button's diameter) fitted a 60 mm button at
        49-51 mm, 4 mm off, explaining 0.59-0.61 of its pixels (0.79 at its size): below the
        1.25 x the only trial asked for, and the rim it left beyond its pixels was fitted as
        a ball. Tried at 60 mm it grows out to 59.6, 0.1 mm off, though its share is no better
        (0.58: the pale rim is faint), so the nearer size is kept when the fit grows out (a
        smaller button's own edge pulls a fit started outside it back in)."""
        if not self._good(x):
            return x
        for d in sorted(sizes, reverse=True):
            if d < _OUTER_TRY * x.p[2]:
                break
            y = self._fit(img, bgf, Solid("button", np.array([*x.p[:2], d]), x.height))
            if not self._good(y):
                continue
            if d >= _OUTER_FAR * x.p[2]:  # an inner ring: as far under as the known sizes
                if y.p[2] > _OUTER_GROWN_FAR * x.p[2]:
                    return y
            elif y.p[2] > _OUTER_GROWN * x.p[2]:
                return y
        return x

    # goalkeepers: vision/keeper_search.py
    _keeper_or = keeper_or
    _goal_mouths = goal_mouths
    _keeper_place = keeper_place
    _keeper = keeper_at
    _goal_frames = goal_frames_mask
    _crossbars = crossbars_mask

    def _good(self, x: Solid) -> bool:
        if x.kind == "button":
            explained = x.inliers >= _MIN_INLIERS or (x.inliers >= 0.25 and x.robust >= 0.8)
            return explained and BUTTON_DIAMETER_MM[0] <= x.p[2] <= BUTTON_DIAMETER_MM[1]
        # a goalkeeper stands on the field: not wholly inside a goal's net (on a still its
        # centre; against a learned table a corner: a box steps back into its goal)
        reach = abs(x.p[0])
        if self.learned:
            c4 = rectangle_corners(x.p[None, :2], np.array([x.size]), x.p[None, 2])[0]
            reach = float(np.abs(c4[:, 0]).min())
        inside = reach <= self.table.half_length + 2.0
        # a print on the box (a stripe, a number) or a post behind it costs the plain share;
        # the share with those outliers weighed down still tells a box from a blob
        explained = x.inliers >= _MIN_INLIERS_KEEPER or (x.inliers >= 0.25 and x.robust >= 0.8)
        # a fit on a few pixels (the rest of a box another fit already covers) explains them
        # all and pins nothing down: not a goalkeeper
        pinned = not x.sigma > _MAX_SIGMA_KEEPER_MM
        return explained and inside and pinned

    def _blobs(self, mask: NDArray[np.bool_]) -> list[tuple[FloatArray, float, FloatArray]]:
        """Blobs of a coarse mask: (table points (k, 2), area mm2, full-res pixels (k, 2)),
        in the order of their first pixels (raster order)."""
        # labelled within the mask's bounding box (a third of the frame, typically): from an
        # even row and column, so the labelling's 2 x 2 blocks and its order are the whole
        # mask's
        box = _bounds(mask)
        if box is None:
            return []
        y0, x0 = box[0] & ~1, box[2] & ~1
        n, labels, _ = _components(mask[y0 : box[1], x0 : box[3]])
        if n <= 1:
            return []
        # every blob's pixels in one pass (grouped by label, in raster order within each, as a
        # blob's own search of its box gives them), then cut: a numpy call per blob cost more
        on = np.flatnonzero(labels)
        lab = labels.ravel()[on]
        on = on[np.argsort(lab, kind="stable")]
        cuts = np.cumsum(np.bincount(lab, minlength=n)[1:])[:-1]
        iy, ix = np.divmod(on, labels.shape[1])
        iy += y0
        ix += x0
        xy = np.split(self._xy_sub[iy, ix], cuts)
        uv = np.split(self._uv_sub[iy, ix], cuts)
        area = np.split(self._px_mm2[iy, ix], cuts)
        return [(p, float(a.sum()), q) for p, a, q in zip(xy, area, uv, strict=True)]

    def _leftovers(
        self,
        img: U8,
        bgf: NDArray[np.float32],
        rest: NDArray[np.bool_],
        solids: list[Solid],
        hands: NDArray[np.bool_],
    ) -> tuple[list[Solid], list[tuple[FloatArray, float, FloatArray]]]:
        """Goalkeepers among what the buttons left, and the ball-sized rest."""
        sz = self.sizes
        gk_area = sz.goalkeeper_length * sz.goalkeeper_width
        keepers, small = [], []
        excluded: NDArray[np.bool_] | None = None
        for xy, area, uv in self._blobs(rest):
            if area >= 0.35 * gk_area and len(xy) >= 5:
                c = xy.mean(axis=0)
                ev, evec = np.linalg.eigh(np.cov((xy - c).T))
                ang = math.atan2(evec[1, 1], evec[0, 1])
                # a box is long; or seen from its side near the image's edge a fat blob, on its
                # goal line where a goalkeeper stands
                long = ev[1] > 2.0 * max(ev[0], 1e-9)
                long |= abs(abs(float(c[0])) - self.table.half_length) < 80.0
                if (
                    long
                    and self._keeper_place(c)
                    and not self.memory.rejected(self._sub, uv, "keeper", hands)
                ):
                    if excluded is None:
                        # not the goalkeepers fitted already (from a 'button' on the line): a
                        # fit that cannot see one explains its rest (its net's ghost) at 96%
                        # and beats it, misplaced; seeing it, the better of the two wins
                        others = [x for x in solids if x.kind != "goalkeeper"]
                        excluded = self._excluded(others, hands)
                    # beside a hand in a video, from the blob's centre and axis only: an arm
                    # across a goal area leaves blobs along its edge on every frame it moves,
                    # each searched from 20 starts in vain (80-130 ms a blob; the seed-3
                    # clip's frames 950-964), and what the hand moves is tracked once it
                    # leaves (the tracker holds the tracks under a hand)
                    around = not (self.learned and self._beside_hand(uv, hands))
                    g = self._keeper(img, bgf, c, ang, excluded, around)
                    if g is not None:
                        keepers.append(g)
                        continue
                    if self.learned:  # a blob that is no goalkeeper: not tried again unchanged
                        self.memory.reject(self._sub, uv, "keeper", hands)
            if _MIN_BALL * _BALL_MM2 <= area <= 12 * _BALL_MM2:
                small.append((xy, area, uv))
        if not self.learned:
            more = self._goal_mouths(img, bgf, rest, solids + keepers, hands)
            reach = sz.goalkeeper_length / 2.0 + 10.0
            for g in more:  # its fragments are no ball
                small = [b for b in small if np.hypot(*(b[0].mean(axis=0) - g.p[:2])) > reach]
            keepers += more
        return one_fit_a_box(self, img, bgf, keepers, excluded), small

    def _reject(self, uv: FloatArray, hands: NDArray[np.bool_], kind: str) -> None:
        """Remember a blob (its pixels, px) where the search for ``kind`` failed, with the
        hands about it: beside a hand it is tried again once the hand moves (what the hand
        hid may be the piece's), not on every frame the hand rests there."""
        if self.learned:
            self.memory.reject(self._sub, uv, kind, hands)

    def _covered(
        self, found: dict[str, object], grow_px: int, rows: tuple[int, int] | None = None
    ) -> U8:
        """Full-resolution mask of the found pieces, the ball and the hands, grown (only its
        rows ``r0:r1`` when ``rows`` is given: computed on them and a margin, not the frame)."""
        solids = found["solids"]
        assert isinstance(solids, list)
        hands = found["hands"]
        assert isinstance(hands, np.ndarray)
        h = self.camera.image_size[1]
        r0, r1 = rows if rows is not None else (0, h)
        a, b = max(0, r0 - grow_px - 4), min(h, r1 + grow_px + 4)  # the dilations' reach
        mask = self._excluded(solids, hands, rows=(a, b)).astype(np.uint8)
        ball = found["ball"]
        if isinstance(ball, BallFit):
            cv2.circle(mask, (int(ball.uv_px[0]), int(ball.uv_px[1]) - a), 12, 1, -1)
        grown = cv2.dilate(mask, np.ones((2 * grow_px + 1, 2 * grow_px + 1), np.uint8))
        return np.asarray(grown[r0 - a : r1 - a])

    def _upsample(
        self, coarse: U8, rows: tuple[int, int] | None = None, cols: tuple[int, int] | None = None
    ) -> U8:
        """A coarse mask at full resolution, nearest neighbour (its rows ``r0:r1`` and columns
        ``c0:c1`` only, when given)."""
        w, h = self.camera.image_size
        r0, r1 = rows if rows is not None else (0, h)
        c0, c1 = cols if cols is not None else (0, w)
        s = self.stride
        if w % s or h % s:  # OpenCV's nearest resize; the same as repeating where it divides
            up = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_NEAREST)
            return np.asarray(up[r0:r1, c0:c1])
        part = coarse[r0 // s : -(-r1 // s), c0 // s : -(-c1 // s)]
        full = np.repeat(np.repeat(part, s, axis=0), s, axis=1)
        return np.asarray(full[r0 - s * (r0 // s) :, c0 - s * (c0 // s) :][: r1 - r0, : c1 - c0])

    def _explained(self, found: dict[str, object]) -> NDArray[np.bool_]:
        """Coarse mask of what the fits explain: the pieces (grown 2, no ghosts: :meth:`_real`),
        the ball and the hands (grown 5 coarse pixels: fingers and the arm's edge the hand mask
        leaves out). A fitted ball always explains its pixels: a white ball on a painted mark
        looks like the table."""
        solids, ball, hands = found["solids"], found["ball"], found["hands"]
        assert isinstance(solids, list) and isinstance(hands, np.ndarray)
        mask = self._raster(solids, self._fg.shape, grow=2).astype(np.uint8)
        if isinstance(ball, BallFit):
            o, s = self.stride // 2, self.stride
            uv = (ball.uv_px - o) / s
            cv2.circle(mask, (round(uv[0]), round(uv[1])), round(12 / s) + 2, 1, -1)
        if hands.any():
            mask |= np.asarray(cv2.dilate(hands.astype(np.uint8), np.ones((11, 11), np.uint8)))
        return mask > 0

    def _forget(self, healed: NDArray[np.bool_]) -> None:
        """Forget the fits and failed searches kept where the table was healed (coarse mask),
        and the ball: a fit to a ghost stays while its pixels do not change, and they do not;
        the ball kept may be a stand-in (a painted mark) for one the ghost hid."""
        mem = self.memory
        mem.things = [e for e in mem.things if not healed[e[1]].any()]
        mem.ball = None  # the ball is searched afresh: a ghost may have hidden it
        mem.rejects = [e for e in mem.rejects if not healed[e[1]].any()]

    def _real(self, solids: list[Solid]) -> list[Solid]:
        """The solids that are things: of the foreground in their silhouette, three tenths at
        least do not look like the table. A fit to a ghost (a goal's frame that the learned
        table lacks, a ball beside it) is not: a piece differs from the felt where it differs
        from the model (a pale piece on a pale felt: little foreground, but its own)."""
        s, o = self.stride, self.stride // 2
        lab = np.zeros(self._fg.shape, np.uint8)
        for i, x in enumerate(solids[:254]):
            if len(x.hull):
                poly = np.round((x.hull - o) / s * 16).astype(np.int32)
                cv2.fillPoly(lab, [poly], i + 1, cv2.LINE_8, 4)
        iy, ix = nonzero_yx(self._fg & (lab > 0))
        ids = lab[iy, ix]
        like = self.bg.table_like(self._sub, iy, ix)
        n = np.bincount(ids, minlength=len(solids) + 1)
        thing = np.bincount(ids[~like], minlength=len(solids) + 1)
        ghost = (n >= 3) & (thing < 0.3 * n)
        return [x for i, x in enumerate(solids) if i >= 254 or not ghost[i + 1]]

    def _detections(self, found: dict[str, object], frame: int, t: float) -> Detections:
        solids, ball, hands = found["solids"], found["ball"], found["hands"]
        assert isinstance(solids, list) and isinstance(hands, np.ndarray)
        rows: list[tuple[object, ...]] = []
        xyz = np.array([[x.p[0], x.p[1], x.height] for x in solids]).reshape(-1, 3)
        tops = self.camera.table_to_image(xyz) if len(xyz) else np.zeros((0, 2))
        for x, top in zip(solids, tops, strict=True):
            disc = x.kind == "button"
            angle = 0.0 if disc else float(np.mod(x.p[2] + np.pi / 2, np.pi) - np.pi / 2)
            floor = _MODEL_SIGMA_MM[x.kind]
            sigma = math.hypot(x.sigma if np.isfinite(x.sigma) else 1.0, floor)
            conf = float(np.clip(x.inliers, 0.0, 1.0)) * float(x.team_conf)
            size = (x.p[2], x.p[2]) if disc else x.size
            rows.append((x.kind, x.team, x.p[:2].copy(), top, size, angle, conf, sigma))
        if isinstance(ball, BallFit):
            d = self.sizes.ball_diameter
            conf = float(np.clip(ball.explained, 0, 1))
            sigma = ball_sigma_mm(ball)
            rows.append(("ball", "", ball.xy_mm, ball.uv_px, (d, d), 0.0, conf, sigma))
        polys = hand_polygons(hands, self.camera, self.stride, self.sizes.button_height)
        if not rows:
            return Detections(**{**Detections.empty(frame, t).__dict__, "hands": polys})
        c = list(zip(*rows, strict=True))
        return Detections(
            np.array(c[0]), np.array(c[1]), np.array(c[2]), np.array(c[3]),
            np.array(c[4], float), np.array(c[5]), np.array(c[6]), np.array(c[7]),
            hands=polys, frame=frame, t=t,
        )  # fmt: skip
