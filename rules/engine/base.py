"""The engine's state and helpers shared by its parts (:mod:`rules.engine.engine`).

:class:`EngineBase` holds what a match's engine remembers between frames: the teams and their
ends, the lance under way, the last touch, the pending restart, the score, the clock and the
turn model; :class:`EngineOptions` how it reads its input.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Any

from geometry.tablespec import TableSpec
from rules.checks import CheckContext
from rules.engine.annotations import Annotations, Decision
from rules.engine.clock import MatchClock
from rules.engine.events import Event, EventSink
from rules.engine.lance import Lance, Restart
from rules.engine.lines import LineJudge
from rules.engine.profiles import get_profile
from rules.engine.state import FloatArray, FrameState
from rules.engine.turns import make_turns
from rules.rulesets import get_ruleset

__all__ = [
    "STRUCK_FRAMES",
    "TOUCH_MERGE_S",
    "EngineBase",
    "EngineOptions",
    "HeldFoul",
    "Row",
    "pt",
    "same_touch",
]

Row = tuple[int, float, str, str, str]

#: Frames (the current one included) whose contacts explain a struck piece's start: one
#: sliding at 3 mm a frame crosses the tracker's moving threshold (60 mm/s, least squares over
#: five positions, two frames running: vision.track_types.TrackerConfig) four frames after the
#: hit, and must not be read as a flick of its own then (a victim pushed on after a foul was a
#: new lance: a free kick taken, and its next contact a foul).
STRUCK_FRAMES = 5
#: Frames judged kept to place a contact reported late: the contact finder traces a hit
#: under a hand back 12 frames at most (vision.contacts._BACK_FRAMES) and finds it up to 8
#: frames after (its striker out of hiding), so 32 frames hold any it reports.
RECENT_FRAMES = 32


#: a piece's contacts with the ball this close in time (s) are one touch (EngineOptions)
TOUCH_MERGE_S = 0.1


def same_touch(last_t: dict[str, float], piece: str, t: float, merge_s: float) -> bool:
    """Whether ``piece``'s contact with the ball at ``t`` (s) is a bounce of the touch it made
    within ``merge_s`` before (or after: contacts may arrive late); ``last_t`` keeps each piece's
    latest contact and is updated.

    >>> last = {}
    >>> [same_touch(last, "A7", t, 0.1) for t in (1.0, 1.05, 1.12, 1.4)]
    [False, True, True, False]
    """
    last = last_t.get(piece, -math.inf)
    last_t[piece] = max(t, last)
    return abs(t - last) <= merge_s


@dataclass
class HeldFoul:
    """A foul waiting for the next frame's contacts (``EngineOptions.order_doubt_s``)."""

    lance: Lance
    offender: str
    victim: str
    t: float
    prev: FrameState
    cur: FrameState
    chained: bool
    cleared: bool = False  # the offender touched the ball within the doubt


@dataclass(frozen=True)
class EngineOptions:
    """How the engine reads its input; the defaults suit exact data.

    Attributes
    ----------
    lag_frames : frames held back (0-2): contacts may arrive this late, and the held frames
        confirm line calls. 2 for a tracker that reports contacts up to two frames late.
    noise_mm : the 1-sigma noise of the positions (0 for exact data; a tracker's sigma_mm).
    start_mm : the least displacement of a slow start flagged a frame late.
    still_mm : the ball moved less than this during a lance: it did not move (a furada).
    offside_exceptions : the 000 REGRA 11 exceptions applied besides A-C (positions): ``D``
        (the coach's first lance), ``E`` (after the goalkeeper's rebound), ``F`` (the first
        flick after a goal kick, throw-in or corner may use an offside player).
    offside_flicked : apply 000 REGRA 11 A (flicking a button that was offside when a
        team-mate played the ball).
    throw_in_grace : where touching the touchline is out (001 Art. XXXIV), a lance that
        starts with the ball on the touchline (a throw-in, "sobre a linha", § 2) is not out by
        touching it until the ball has been clear of it.
    swap_sides : the teams change ends at half time (every text): assumed from the half time
        on. At the second half's kick-off the goalkeepers' places say the ends (a match whose
        teams stayed where they were keeps them, and says so); off: assumed they stay.
    settle_frames : frames everything must stay still (by the ``moving`` flags) before a
        lance ends; a tracker that calls a creeping ball stopped a little early wants ~3.
    kick_off : the video starts at a kick-off (a match's start); off for a clip cut from
        play, whose first lance is an ordinary one.
    half_s : overrides the rule set's half length (tests).
    touch_merge_s : a piece's contacts with the ball this close in time are one touch (a ball
        pinched between two pieces, or pushed along, bounces on them many times in a tenth of
        a second: one toque each, not one per bounce; a camera at 30 frames/s cannot part them
        either). 0 counts every contact.
    order_doubt_s : contacts this close in time have no known order (a tracker times them
        from the motion around a frame: a few ms, more in a tangle). A touch of the ball by the
        flicked piece up to this long after its hit on an opponent clears the foul - the ball
        is given first - and a foul is decided only once the next frame's contacts are in (a
        touch may be reported a frame later than the hit). 0, exact data: decided at once.
    """

    lag_frames: int = 0
    noise_mm: float = 0.0
    start_mm: float = 3.0
    still_mm: float = 2.0
    offside_exceptions: tuple[str, ...] = ("D", "E", "F")
    offside_flicked: bool = True
    throw_in_grace: bool = True
    swap_sides: bool = True
    settle_frames: int = 0
    kick_off: bool = True
    half_s: float | None = None
    touch_merge_s: float = TOUCH_MERGE_S
    order_doubt_s: float = 0.0

    def __post_init__(self) -> None:
        if not 0 <= self.lag_frames <= 2:
            raise ValueError(f"lag_frames: expected 0, 1 or 2, got {self.lag_frames}")
        if not 0.0 <= self.order_doubt_s < 0.1:
            raise ValueError(f"order_doubt_s: expected 0 <= s < 0.1, got {self.order_doubt_s}")


class EngineBase:
    """A match's running state (see the module docstring).

    Parameters
    ----------
    table : the table spec.
    rules : a rule set name (``nacional``, ``brasileira``, ``gaucha``, ``paulista``,
        ``mesa-posta``).
    teams : team -> the side it defends at kick-off (default A left, B right).
    annotations : what the camera cannot know; without them the engine assumes and says so.
    options : :class:`EngineOptions`.
    """

    def __init__(
        self,
        table: TableSpec,
        rules: str = "brasileira",
        teams: dict[str, str] | None = None,
        annotations: Annotations | None = None,
        options: EngineOptions | None = None,
    ) -> None:
        self.table = table
        self.rules = get_ruleset(rules)
        self.profile = get_profile(rules)
        self.ctx = CheckContext.build(table, self.rules)
        self.field = self.ctx.field
        self.teams = dict(teams or {"A": "left", "B": "right"})
        if len(self.teams) != 2 or sorted(self.teams.values()) != ["left", "right"]:
            raise ValueError(
                f"teams: expected two teams defending left and right, got {self.teams}"
            )
        self.options = options or EngineOptions()
        self.annotations = annotations
        touching = bool(
            self.rules.has("ball_out_touching_touchline")
            and self.rules.param("ball_out_touching_touchline")
        )
        self.lines = LineJudge(self.field, touching, self.options.noise_mm)
        self.clock = MatchClock(self.options.half_s or self.profile.half_s, self.profile.clock)
        names = tuple(self.teams)
        self.team_of: dict[str, str] = {}
        self.kind_of: dict[str, str] = {}
        self.turns = make_turns(self.profile, self.team_of, (names[0], names[1]))
        self.in_play = False
        self.lance: Lance | None = None
        self.n_lances = 0
        self.last_touch: str | None = None
        # this frame's touches in play: (contact time, the last touch before it)
        self._frame_touches: list[tuple[float, str | None]] = []
        self._held_foul: HeldFoul | None = None  # decided a frame later (order_doubt_s)
        self._ball_contact_t: dict[str, float] = {}  # each piece's last contact with the ball
        self.possessor: str | None = None
        kick = annotations.kick_off if annotations is not None else None
        self.pending: Restart | None = None
        if self.options.kick_off:
            self.pending = Restart("kick_off", kick, (0.0, 0.0), self._lances("kick_off"))
        self.first_kick_off: str | None = kick
        self.score = dict.fromkeys(self.teams, 0)
        self.events: list[Event] = []
        self.emitted_at: list[int] = []  # input frame at which each event was emitted
        self._received: deque[FrameState] = deque()
        self._last_frame: int | None = None
        self._still = 0  # frames everything has been still
        self._ball_est: tuple[float, float] = (0.0, 0.0)  # the line judge's ball position
        self._buckets: dict[int, list[Row]] = {}
        self._prev: FrameState | None = None
        self._prev2: FrameState | None = None  # the frame before ``_prev``
        #: the last frame the ball was seen at rest (the table before a flick seen late)
        self._rest: FrameState | None = None
        self._prev_rows: list[Row] = []
        # the last frame's hits of one piece on another while no lance was under way, with
        # the frames they were judged at: a flick is flagged a frame after its first hit
        # at times, and the lance it then begins owns that hit (RuleEngine._own_first_hits)
        self._loose_hits: list[tuple[Row, FrameState, FrameState]] = []
        # a jump of the ball not judged yet (where it landed, the step): unseen the frame after
        self._jump: tuple[FloatArray, FloatArray] | None = None
        # the lance the current one closed (a hit of its piece reported late may be its)
        self._closed: Lance | None = None
        self._gap = False  # frames were not seen before the next one (RuleEngine.interrupt)
        # the contacts of the frames before ``_prev``'s: a piece struck then may be flagged
        # moving only now (STRUCK_FRAMES)
        self._older_rows: deque[list[Row]] = deque(maxlen=STRUCK_FRAMES - 2)
        # the last frames judged, ``_prev`` the newest: where the pieces were at a contact
        # the finder reports late (a hit under a hand, found once the pieces came out)
        self._recent: deque[FrameState] = deque(maxlen=RECENT_FRAMES)
        self._shut: dict[str, tuple[str, int]] = {}  # check -> (team, rests it has held)
        self._ends_unread = False  # half time passed: read the ends at the next kick-off
        self._fps = 30.0
        self._offside_line: tuple[float, float] | None = None  # (line u, sign) 001 Art. XXXII
        #: (attacking team, x mm) of the offside line at the last flick, for displays.
        self.offside_line: tuple[str, float] | None = None

    @property
    def clock_s(self) -> float:
        return self.clock.clock_s

    # ------------------------------------------------------------------ helpers
    def other(self, team: str | None) -> str:
        names = list(self.teams)
        return names[1] if team == names[0] else names[0]

    def defender(self, side: str) -> str:
        return next(t for t, s in self.teams.items() if s == side)

    def _lances(self, restart: str, cedida: bool = False) -> int:
        """Lances of the turn a restart opens, for one-lance rules (000 Art. 9, 17; 001)."""
        if restart in self.profile.two_lance_restarts:
            return 2
        if cedida and self.profile.name == "gaucha" and restart in ("throw_in", "corner"):
            return 2  # 001 Art. XXVIII § 2 (escanteio cedido), XXXIV § 1 a (lateral cedida)
        return 1

    def _stop(self, restart: Restart, why: str) -> None:
        """Play stops: the ball is dead until the restart's flick."""
        self.in_play = False
        if self.lance is not None and not self.lance.ended:
            self.lance.dead = why
        self.pending = restart
        self.turns.on_restart(restart)

    def _decision(self, kind: str, sink: EventSink) -> Decision | None:
        if self.annotations is None:
            return None
        return self.annotations.decision_for(kind, sink.frame, sink.t_s, self._fps)

    def _roster(self, state: FrameState) -> None:
        p = state.pieces
        self.team_of.clear()
        self.kind_of.clear()
        for pid, team, kind in zip(p.ids.tolist(), p.team.tolist(), p.kind.tolist(), strict=True):
            if team:
                self.team_of[pid] = team
            self.kind_of[pid] = kind
        unknown = set(self.team_of.values()) - set(self.teams)
        if unknown:
            raise ValueError(
                f"FrameState.pieces.team: expected teams {sorted(self.teams)}, "
                f"got {sorted(unknown)}"
            )


def pt(v: Any) -> tuple[float, float]:
    return (float(v[0]), float(v[1]))
