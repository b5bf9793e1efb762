"""A simulated clip on disk: ``video.mp4`` + ``camera.json`` + the truth files.

The truth files (``truth.csv``, ``contacts.jsonl``, ``events.jsonl``) come from
:class:`simulator.truth.TruthWriter`, fed the same frames as the renderer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from calibration.camera import Camera
from geometry.tablespec import TableSpec
from simulator.designs import RenderStyle
from simulator.render import Renderer
from simulator.state import FrameTruth
from simulator.truth import TruthWriter
from simulator.video import VideoWriter

__all__ = ["write_clip"]


def write_clip(
    frames: Iterable[FrameTruth],
    table: TableSpec,
    camera: Camera,
    out_dir: str | Path,
    fps: float,
    renderer_style: RenderStyle | None = None,
    progress: Callable[[int], None] | None = None,
    rules_name: str | None = None,
    teams: dict[str, str] | None = None,
    seed: int | None = None,
) -> int:
    """Render ``frames`` into ``out_dir/video.mp4``, write ``camera.json`` and the truth files.

    ``progress`` is called with the number of frames written so far after each frame.
    ``rules_name`` (default: the table's rule set) and ``teams`` (team -> side it defends)
    are passed to the truth writer's referee. Returns the number of frames written.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    camera.save(out / "camera.json")
    renderer = Renderer(table, camera, renderer_style, rng=seed)
    rules = rules_name or table.rules or "brasileira"
    n = 0
    with (
        VideoWriter(out / "video.mp4", fps, camera.image_size) as video,
        TruthWriter(out, table, rules, teams) as truth,
    ):
        for frame in frames:
            video.write(renderer.render(frame))
            truth.write(frame)
            n += 1
            if progress is not None:
                progress(n)
    return n
