"""``report.html``: one self-contained page a league, a coach or a disputing player opens.

Score and a timeline; each headline event (goal, ball out, foul, offside, blocked ball, a
distance at a restart, ...) with a thumbnail of the camera frame and its evidence drawn
top-down (:func:`monitor.svg.scene_svg` on the tracked pieces at the event's frame); a heatmap
of where the ball was; the ball's speed over the match. Images are inline (base64 JPEG, inline
SVG): the file can be mailed alone.
"""

from __future__ import annotations

import base64
import math
from collections import Counter
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from geometry.scene import Scene
from monitor.svg import _path_d, scene_svg
from rules.checks import CheckContext
from rules.engine import Event, FrameState
from rules.verdict import Verdict

__all__ = ["HEADLINE", "ReportBuilder", "SeriesBuffer"]

#: Event types shown one by one with a thumbnail and their evidence (others are counted).
HEADLINE = (
    "goal",
    "ball_out",
    "foul",
    "offside",
    "ball_blocked",
    "ball_obstructed",
    "ball_enclosed",
    "technical_foul",
    "distance_violation",
    "touch_limit",
    "goalkeeper_ball",
    "ball_neutral",
    "half_time",
    "ends",
    "full_time",
    "time_up",
    "calibration_lost",
    "calibration_restored",
)
MAX_CARDS = 300  # thumbnails kept (a page stays a few MB)
_COLOURS = {
    "goal": "#1a9e3a",
    "ball_out": "#777",
    "foul": "#d43a2f",
    "offside": "#e0a000",
    "ball_blocked": "#8a2be2",
    "distance_violation": "#c0509a",
}


class SeriesBuffer:
    """Growable float columns (time, x, y, speed) without a Python object per sample."""

    def __init__(self, columns: int, capacity: int = 4096) -> None:
        self._a = np.empty((capacity, columns))
        self.n = 0

    def add(self, *values: float) -> None:
        if self.n == len(self._a):
            self._a = np.concatenate([self._a, np.empty_like(self._a)])
        self._a[self.n] = values
        self.n += 1

    @property
    def data(self) -> NDArray[np.float64]:
        return self._a[: self.n]


@dataclass
class _Card:
    """One headline event's card. Its top-down evidence is drawn when first asked for (the
    page is written at the end): drawing it at the event cost a live referee 5-7 ms a card,
    and a restart with a dozen distance violations held the next frame's events 130 ms."""

    event: Event
    thumb_b64: str | None
    scene: Scene | None = None
    ctx: CheckContext | None = None
    _svg: str | None = None

    @property
    def svg(self) -> str | None:
        if self._svg is None and self.scene is not None and self.ctx is not None:
            self._svg = scene_svg(self.scene, self.ctx, _verdicts(self.event))
        return self._svg


def thumbnail(image_bgr: NDArray[np.uint8], width: int = 360) -> NDArray[np.uint8]:
    """``image_bgr`` shrunk to ``width`` pixels wide (its aspect kept), averaging its pixels.

    Shrunk first by the largest whole factor that keeps it at least ``width`` wide (OpenCV
    averages whole blocks fast: 1.4 ms against 4.0 for one step from 1920x1080), then by
    what is left.

    Examples
    --------
    >>> import numpy as np
    >>> thumbnail(np.zeros((1080, 1920, 3), np.uint8)).shape
    (202, 360, 3)
    """
    h, w = image_bgr.shape[:2]
    size = (width, max(2, round(width * h / w)))
    f = max(1, w // width)
    if f > 1 and h >= f * size[1]:
        hh, ww = (h // f) * f, (w // f) * f
        image_bgr = np.asarray(
            cv2.resize(image_bgr[:hh, :ww], (ww // f, hh // f), interpolation=cv2.INTER_AREA),
            np.uint8,
        )
    return np.asarray(cv2.resize(image_bgr, size, interpolation=cv2.INTER_AREA), np.uint8)


def margin_text(e: Event) -> str:
    """An event's margin for a person: ``+2.4 mm``; a goal's or an out's with its measured
    1-sigma, ``+0.29 +/- 0.50 mm``, and ``too close to call`` where the margin lies inside
    twice it; ``""`` without a margin.

    >>> margin_text({"margin_mm": 0.29, "evidence": {"sigma_mm": 0.5, "too_close": True}})
    '+0.29 +/- 0.50 mm, too close to call'
    >>> margin_text({"margin_mm": 2.4})
    '+2.4 mm'
    """
    m = e.get("margin_mm")
    if m is None:
        return ""
    ev = e.get("evidence") or {}
    sigma = ev.get("sigma_mm")
    if not sigma:
        return f"{m:+.1f} mm"
    close = ", too close to call" if ev.get("too_close") else ""
    return f"{m:+.2f} +/- {sigma:.2f} mm{close}"


def _verdicts(e: Event) -> list[Verdict]:
    """The event's evidence as the verdicts :func:`scene_svg` knows how to draw."""
    ev = e.get("evidence") or {}
    t = str(e["type"])
    check, holds, extra = t, True, {}
    if t == "offside" and "line_x_mm" in ev:
        check, extra = "offside_position", {"line_x_mm": ev["line_x_mm"]}
    elif t in ("ball_blocked", "ball_obstructed", "ball_enclosed") and "gabarito" in ev:
        extra = {"contact": ev["gabarito"], "gabarito_mm": 60.0}
    elif t == "distance_violation" and ev.get("other"):
        check, holds = "min_distance", False
        extra = {"other": ev["other"], "limit_mm": ev.get("limit_mm") or 0.0}
    margin = e.get("margin_mm")
    return [
        Verdict(
            check,
            holds,
            None if margin is None else float(margin),
            str(ev.get("detail") or t.replace("_", " ")),
            str(e.get("article") or ""),
            e.get("team"),
            e.get("piece"),
            extra,
        )
    ]


class ReportBuilder:
    """Collects what ``report.html`` shows while a video is analysed; :meth:`write` at the end."""

    def __init__(self, ctx: CheckContext, teams: dict[str, str], title: str, fps: float) -> None:
        self.ctx = ctx
        self.teams = dict(teams)
        self.title = title
        self.fps = fps
        self.cards: list[_Card] = []
        self.counts: Counter[str] = Counter()
        self.ball = SeriesBuffer(4)  # t, x, y, speed (known ball positions only)
        self.dropped_cards = 0
        self._thumb: tuple[object, str | None] = (None, None)  # the last frame's thumbnail

    def add_ball(self, t: float, xy_mm: NDArray[np.float64], speed_mm_s: float) -> None:
        self.ball.add(t, float(xy_mm[0]), float(xy_mm[1]), speed_mm_s)

    def add_event(
        self, e: Event, image_bgr: NDArray[np.uint8] | None, state: FrameState | None
    ) -> None:
        self.counts[e["type"]] += 1
        teams = (e.get("evidence") or {}).get("teams")
        if teams and e["type"] in ("half_time", "ends"):
            self.teams = dict(teams)  # the evidence drawn from here on shows the new ends
        if e["type"] not in HEADLINE:
            return
        if len(self.cards) >= MAX_CARDS:
            self.dropped_cards += 1
            return
        thumb = None
        if image_bgr is not None:
            if self._thumb[0] is not image_bgr:  # one thumbnail for a frame's events
                ok, buf = cv2.imencode(".jpg", thumbnail(image_bgr), [cv2.IMWRITE_JPEG_QUALITY, 80])
                b64 = base64.b64encode(buf.tobytes()).decode("ascii") if ok else None
                self._thumb = (image_bgr, b64)
            thumb = self._thumb[1]
        scene = None
        if state is not None:
            scene = Scene(
                self.ctx.table.name,
                dict(self.teams),
                state.known_pieces,
                {},
                source=f"frame {e['frame']}, t = {e['t']:.2f} s",
            )
            if e["type"] == "distance_violation":
                scene.context["spot"] = (e.get("evidence") or {}).get("spot")
        self.cards.append(_Card(e, thumb, scene, self.ctx))

    # ------------------------------------------------------------------ page
    def _timeline(self, duration_s: float) -> str:
        w, h = 1000.0, 46.0
        out = [
            f'<svg viewBox="0 0 {w:.0f} {h:.0f}" width="100%" class="timeline">',
            f'<rect x="0" y="18" width="{w}" height="10" fill="#ddd"/>',
        ]
        for c in self.cards:
            e = c.event
            x = w * e["t"] / max(duration_s, 1e-9)
            colour = _COLOURS.get(e["type"], "#333")
            out.append(
                f'<a href="#ev{id(c)}"><rect x="{x - 2:.1f}" y="8" width="4" height="30" '
                f'fill="{colour}"><title>{escape(e["type"])} {e["t"]:.1f} s</title></rect></a>'
            )
        for k in range(int(duration_s // 60) + 1):
            x = w * 60 * k / max(duration_s, 1e-9)
            out.append(f'<text x="{x:.1f}" y="45" font-size="10">{k}:00</text>')
        out.append("</svg>")
        return "".join(out)

    def _heatmap(self) -> str:
        fm = self.ctx.field
        xmin, ymin, xmax, ymax = fm.rail_box
        bins = 25.0
        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{xmin:.0f} {-ymax:.0f} '
            f'{xmax - xmin:.0f} {ymax - ymin:.0f}" width="100%">',
            f'<rect x="{xmin}" y="{-ymax}" width="{xmax - xmin}" height="{ymax - ymin}" '
            'fill="#1d5e2c"/>',
            f'<path d="{_path_d(fm.painted)}" fill="#f4f4f4" opacity="0.7"/>',
        ]
        d = self.ball.data
        if len(d):
            nx, ny = math.ceil((xmax - xmin) / bins), math.ceil((ymax - ymin) / bins)
            hist, _, _ = np.histogram2d(
                d[:, 1],
                d[:, 2],
                bins=[nx, ny],
                range=[[xmin, xmin + nx * bins], [ymin, ymin + ny * bins]],
            )
            top = hist.max() or 1.0
            for i, j in zip(*np.nonzero(hist), strict=True):
                a = 0.15 + 0.85 * math.sqrt(hist[i, j] / top)
                x0, y0 = xmin + i * bins, ymin + (j + 1) * bins
                out.append(
                    f'<rect x="{x0:.0f}" y="{-y0:.0f}" width="{bins:.0f}" height="{bins:.0f}" '
                    f'fill="#ff4000" fill-opacity="{a:.2f}"/>'
                )
        out.append("</svg>")
        return "".join(out)

    def _speeds(self) -> str:
        d = self.ball.data
        if len(d) < 2:
            return "<p>No ball positions.</p>"
        t, v = d[:, 0], d[:, 3] / 1000.0
        step = max(1, len(t) // 1500)
        t, v = t[::step], v[::step]
        w, h = 1000.0, 200.0
        vmax = max(float(v.max()), 0.5)
        pts = " ".join(
            f"{w * a / max(t[-1], 1e-9):.1f},{h - h * b / vmax:.1f}"
            for a, b in zip(t, v, strict=True)
        )
        return (
            f'<svg viewBox="0 -12 {w:.0f} {h + 24:.0f}" width="100%">'
            f'<polyline points="{pts}" fill="none" stroke="#2f62d4" stroke-width="1.2"/>'
            f'<text x="2" y="0" font-size="12">{vmax:.2f} m/s</text>'
            f'<text x="2" y="{h + 12:.0f}" font-size="12">0 m/s, 0 s</text>'
            f'<text x="{w - 60:.0f}" y="{h + 12:.0f}" font-size="12">{t[-1]:.0f} s</text></svg>'
        )

    def write(self, path: str | Path, summary: dict[str, Any]) -> None:
        score = summary.get("score", {})
        duration = float(summary.get("seconds_of_video", 0.0))
        rows = []
        for c in self.cards:
            e = c.event
            margin = margin_text(e)
            holds = "" if e.get("holds", True) else " (not given)"
            thumb = (
                f'<img src="data:image/jpeg;base64,{c.thumb_b64}" alt="frame {e["frame"]}">'
                if c.thumb_b64
                else ""
            )
            ev = escape(", ".join(f"{k}: {v}" for k, v in (e.get("evidence") or {}).items()))
            colour = _COLOURS.get(e["type"], "#333")
            who = escape(f"team {e.get('team') or '-'} {e.get('piece') or ''} {margin}")
            rows.append(
                f'<div class="card" id="ev{id(c)}"><div class="head"><b>{e["t"]:.2f} s</b> '
                f'frame {e["frame"]} &middot; <b style="color:{colour}">{escape(e["type"])}'
                f"</b>{escape(holds)} &middot; {who}<br>"
                f"<small>{escape(e.get('article') or '')}</small></div>"
                f'<div class="pics">{thumb}<div class="svg">{c.svg or ""}</div></div>'
                f'<small class="ev">{ev}</small></div>'
            )
        counts = ", ".join(f"{k} {n}" for k, n in sorted(self.counts.items()))
        damage = summary.get("damage")
        d = self.ball.data
        top = ""
        if len(d):
            top = f"top ball speed {d[:, 3].max() / 1000.0:.2f} m/s, median while moving " + (
                f"{np.median(d[d[:, 3] > 50, 3]) / 1000.0:.2f} m/s" if (d[:, 3] > 50).any() else "-"
            )
        facts = (
            f"{summary.get('frames', 0)} frames, {duration:.1f} s of video; rule set "
            f"{summary.get('rules', '')}; events: {counts}."
        )
        more = (
            f"<p>{self.dropped_cards} more headline events are in events.jsonl.</p>"
            if self.dropped_cards
            else ""
        )
        page = f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>{escape(self.title)}</title><style>
body{{font-family:sans-serif;max-width:1100px;margin:1em auto;color:#222}}
.card{{border:1px solid #ccc;border-radius:6px;padding:8px;margin:10px 0}}
.pics{{display:flex;gap:10px;align-items:flex-start;margin-top:6px}} .pics img{{width:360px}}
.svg svg{{width:520px;height:auto}} .ev{{color:#666}} .score{{font-size:2em}}
.warn{{background:#fee;border:1px solid #d33;padding:6px}}</style></head><body>
<h1>{escape(self.title)}</h1>
<p class="score">{escape("  ".join(f"{t} {n}" for t, n in score.items()))}</p>
<p>{escape(facts)}</p>
{f'<p class="warn">{escape(str(damage))}</p>' if damage else ""}
<h2>Timeline</h2>{self._timeline(duration)}
<h2>Events</h2>{"".join(rows) or "<p>No headline events.</p>"}
{more}
<h2>Where the ball was</h2>{self._heatmap()}
<h2>Ball speed</h2><p>{escape(top)}</p>{self._speeds()}
<p><small>Generated by botão. Positions in table millimetres (origin at the centre mark, +x
toward the right goal); margins are positive when the call holds. Every event is in
events.jsonl.</small></p>
</body></html>
"""
        Path(path).write_text(page, encoding="utf-8")
