"""Builders for scene/1 documents used across the tests."""

from __future__ import annotations

from typing import Any

import numpy as np

from geometry.pieces import Pieces
from geometry.scene import Scene, scene_from_dict
from simulator.designs import FIELD_COLOURS, RenderStyle
from simulator.state import FrameTruth


def button(pid: str, team: str, x: float, y: float, d: float = 60.0) -> dict[str, Any]:
    return {"id": pid, "team": team, "kind": "button", "x": x, "y": y, "diameter": d}


def keeper(
    pid: str,
    team: str,
    x: float,
    y: float,
    angle_deg: float = 90.0,
    length: float = 70.0,
    width: float = 15.0,
) -> dict[str, Any]:
    return {
        "id": pid,
        "team": team,
        "kind": "goalkeeper",
        "x": x,
        "y": y,
        "length": length,
        "width": width,
        "angle_deg": angle_deg,
    }


def ball(x: float, y: float, d: float = 10.0) -> dict[str, Any]:
    return {"id": "ball", "kind": "ball", "x": x, "y": y, "diameter": d}


def scene_doc(
    pieces: list[dict[str, Any]],
    table: str = "brasileira",
    a_defends: str = "left",
    context: dict[str, Any] | None = None,
) -> dict[str, Any]:
    b_defends = "right" if a_defends == "left" else "left"
    doc: dict[str, Any] = {
        "format": "scene/1",
        "table": table,
        "teams": {"A": {"defends": a_defends}, "B": {"defends": b_defends}},
        "pieces": pieces,
    }
    if context:
        doc["context"] = context
    return doc


def make_scene(pieces: list[dict[str, Any]], **kw: Any) -> Scene:
    return scene_from_dict(scene_doc(pieces, **kw), source="test")


def mirror_doc(doc: dict[str, Any], axis: str) -> dict[str, Any]:
    """Mirror a scene in x (swap sides, teams swap the goal they defend) or in y."""
    out = {**doc, "pieces": [dict(p) for p in doc["pieces"]]}
    for p in out["pieces"]:
        if axis == "x":
            p["x"] = -p["x"]
            if "angle_deg" in p:
                p["angle_deg"] = 180.0 - p["angle_deg"]
        else:
            p["y"] = -p["y"]
            if "angle_deg" in p:
                p["angle_deg"] = -p["angle_deg"]
    if axis == "x":
        out["teams"] = {
            t: {"defends": "right" if s["defends"] == "left" else "left"}
            for t, s in doc["teams"].items()
        }
        ctx = dict(doc.get("context", {}))
        if "spot" in ctx:
            ctx["spot"] = [-ctx["spot"][0], ctx["spot"][1]]
        if ctx:
            out["context"] = ctx
    elif "context" in doc and "spot" in doc["context"]:
        ctx = dict(doc["context"])
        ctx["spot"] = [ctx["spot"][0], -ctx["spot"][1]]
        out["context"] = ctx
    return out


def still_truth(
    ids: list[str],
    team: list[str],
    kind: list[str],
    xy_mm: list[Any],
    size_mm: list[Any],
    angle_rad: list[float] | None = None,
    height_mm: list[float] | None = None,
    frame: int = 0,
    fps: float = 30.0,
) -> FrameTruth:
    """A simulator ``FrameTruth`` of pieces at rest (``frame``, at ``fps``) for rendering: the
    columns as lists; angles 0 and heights 10 mm unless given."""
    m = len(ids)
    pieces = Pieces(
        np.array(ids),
        np.array(team),
        np.array(kind),
        np.array(xy_mm, float),
        np.array(size_mm, float),
        np.zeros(m) if angle_rad is None else np.array(angle_rad, float),
        np.full(m, 10.0) if height_mm is None else np.array(height_mm, float),
    )
    return FrameTruth(frame, frame / fps, pieces, np.zeros((m, 2)), np.zeros(m, bool))


def seeded_style(
    rng: np.random.Generator, seed: int, felt: str, ball_bgr: tuple[int, int, int]
) -> RenderStyle:
    """A still's style on the felt ``felt`` with a ball of ``ball_bgr``: noise 2-5, JPEG 75-94
    and a light gradient up to 0.3 drawn from ``rng`` (in that order), the noise seeded
    ``seed``."""
    return RenderStyle(
        field_bgr=FIELD_COLOURS[felt],
        ball_bgr=ball_bgr,
        noise_sigma=float(rng.uniform(2.0, 5.0)),
        jpeg_quality=int(rng.integers(75, 95)),
        light_gradient=float(rng.uniform(0.0, 0.3)),
        seed=seed,
    )
