"""Team designs, field colours and the render style of the simulator's renderer.

Colours are BGR uint8 triples (OpenCV's order). The presets include the pairs a vision system
finds hard: red against orange, and a white team on a light field (``HARD_PAIRS``).

Examples
--------
>>> style = RenderStyle(teams={"A": TEAM_DESIGNS["red"], "B": TEAM_DESIGNS["orange"]})
>>> style.design("A").base_bgr, style.design("Z").pattern
((40, 40, 200), 'crest')
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "FIELD_COLOURS",
    "HARD_PAIRS",
    "TEAM_DESIGNS",
    "RenderStyle",
    "TeamDesign",
]

BGR = tuple[int, int, int]
PATTERNS = ("plain", "ring", "stripe", "crest")


@dataclass(frozen=True)
class TeamDesign:
    """How a team's buttons and goalkeeper look from above.

    ``pattern``: ``plain`` (base colour only), ``ring`` (a ring of ``ring_bgr`` near the rim),
    ``stripe`` (a band across the top face) or ``crest`` (a small disc of ``ring_bgr`` above
    the number). The number (from the piece id's digits) is printed in ``number_bgr``.
    """

    base_bgr: BGR
    ring_bgr: BGR
    number_bgr: BGR
    pattern: str = "ring"

    def __post_init__(self) -> None:
        if self.pattern not in PATTERNS:
            raise ValueError(
                f"TeamDesign.pattern: expected one of {PATTERNS}, got {self.pattern!r}"
            )


TEAM_DESIGNS: dict[str, TeamDesign] = {
    "red": TeamDesign((40, 40, 200), (235, 235, 235), (250, 250, 250), "ring"),
    "orange": TeamDesign((30, 120, 240), (20, 20, 20), (20, 20, 20), "ring"),
    "blue": TeamDesign((170, 70, 20), (240, 240, 240), (250, 250, 250), "ring"),
    "white": TeamDesign((235, 235, 235), (60, 60, 60), (30, 30, 30), "ring"),
    "black": TeamDesign((35, 35, 35), (230, 230, 230), (240, 240, 240), "stripe"),
    "yellow": TeamDesign((40, 210, 235), (120, 60, 10), (90, 40, 10), "crest"),
    "green": TeamDesign((60, 150, 30), (235, 235, 235), (250, 250, 250), "plain"),
}

FIELD_COLOURS: dict[str, BGR] = {
    "green": (60, 135, 45),
    "dark_green": (40, 95, 30),
    "blue": (140, 90, 40),
    "light": (200, 212, 214),  # a pale felt: the hard case for a white team
}

# Pairs of (team A design, team B design, field colour) that stress colour classification.
HARD_PAIRS: dict[str, tuple[str, str, str]] = {
    "red_vs_orange": ("red", "orange", "green"),
    "white_on_light": ("white", "blue", "light"),
}


@dataclass(frozen=True)
class RenderStyle:
    """Everything about the look of a render that is not geometry.

    Lighting: ``light_gradient`` is the relative brightness change across the table along
    ``light_dir_xy`` (also the direction the light comes from, for shadows); ``vignette`` the
    relative darkening at the image corners. ``noise_sigma`` is the sensor noise (grey levels),
    ``exposure_s`` the shutter time that sets motion blur, ``jpeg_quality`` (None = none) an
    extra JPEG round trip per frame. ``bars_over_pieces`` draws the goals' crossbars over the
    pieces, as a camera looking down from over the field sees them (a ball under a bar is
    behind it); off, the bars are the background's and a ball in the net is drawn over them.
    """

    teams: dict[str, TeamDesign] = field(
        default_factory=lambda: {"A": TEAM_DESIGNS["red"], "B": TEAM_DESIGNS["blue"]}
    )
    field_bgr: BGR = FIELD_COLOURS["green"]
    line_bgr: BGR = (235, 240, 240)
    rail_bgr: BGR = (40, 80, 130)  # varnished wood
    surround_bgr: BGR = (45, 45, 50)
    ball_bgr: BGR = (235, 240, 245)
    net_bgr: BGR = (215, 215, 215)
    side_darken: float = 0.65  # a button's side against its top face
    texture_strength: float = 0.05  # felt texture, relative
    light_gradient: float = 0.15
    light_dir_xy: tuple[float, float] = (-0.6, 0.8)
    vignette: float = 0.2
    shadow_strength: float = 0.35
    shadow_blur_mm: float = 6.0
    noise_sigma: float = 3.0
    exposure_s: float = 1.0 / 120.0
    jpeg_quality: int | None = None
    rail_width_mm: float = 40.0
    bars_over_pieces: bool = False
    seed: int = 0

    def design(self, team: str) -> TeamDesign:
        """The design of ``team``; unknown teams get a stable preset by name."""
        if team in self.teams:
            return self.teams[team]
        names = sorted(TEAM_DESIGNS)
        return TEAM_DESIGNS[names[sum(map(ord, team)) % len(names)]]

    @classmethod
    def hard_pair(cls, name: str, **kwargs: object) -> RenderStyle:
        """A style from :data:`HARD_PAIRS` (teams ``A`` and ``B``)."""
        a, b, fld = HARD_PAIRS[name]
        teams = {"A": TEAM_DESIGNS[a], "B": TEAM_DESIGNS[b]}
        return cls(teams=teams, field_bgr=FIELD_COLOURS[fld], **kwargs)  # type: ignore[arg-type]
