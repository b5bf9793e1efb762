"""A lance (one flick) and a restart, as the engines record them while play goes on.

000 REGRA 4 LANCE: "É o ato de impulsionar o jogador ... Quando o deslocamento do jogador
provocar a impulsão da bola, toda sua trajetória será considerada como parte integrante do
lance": a :class:`Lance` lasts from the flick until everything on the table stopped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from geometry.pieces import Pieces

__all__ = ["Lance", "Restart"]


@dataclass
class Restart:
    """A dead ball's restart: who takes it, where, and (for one-lance rules) how many lances."""

    kind: str  # kick_off, free_kick, indirect_free_kick, penalty, corner, throw_in, goal_kick;
    # "" when play was stopped by a hand moving the ball (the restart is not known)
    team: str | None
    spot: tuple[float, float] | None = None
    lances: int = 1
    article: str = ""


@dataclass
class Lance:
    """One flick and what happened until everything stopped.

    ``touches`` are the in-play touches of the ball during the lance, in time order;
    ``offside`` the lance team's buttons in an offside position at the flick, with margins.
    """

    number: int
    piece: str
    team: str
    frame: int
    t_s: float
    before: Pieces
    ball_xy0: NDArray[np.float64]
    first: bool  # the coach's first lance of a jogada (000 REGRA 11 exception D)
    restart: Restart | None = None
    announced: bool | None = None  # a shot announced ("vai a gol"); None: not known
    keeper_placed: bool | None = None
    offside: dict[str, float] = field(default_factory=dict)
    offside_exempt: str = ""  # why no offside can be called in this lance ("" : it can)
    touched: bool = False  # the flicked piece touched the ball
    touches: list[str] = field(default_factory=list)
    movers: set[str] = field(default_factory=set)  # own pieces set moving before the ball
    hit_own_first: bool = False  # the flicked piece hit a team-mate before the ball
    displaced_after_ball: bool = False  # an opponent moved after the ball was touched
    keeper_touched: bool = False  # the opponent's goalkeeper touched the ball
    unseen_touch: bool = False  # the ball started moving in this lance with no touch seen
    ended: bool = False
    dead: str = ""  # the call that stopped play during the lance

    @property
    def ball_touched(self) -> bool:
        return bool(self.touches)

    def passed(self, team_of: dict[str, str]) -> bool:
        """000 REGRA 4 PASSE: after the flicked piece, the ball touched a team-mate (or, after
        touching opponents, came back last to the flicked piece)."""
        seen_own = False
        after_opponent = False
        for p in self.touches:
            if p == self.piece:
                if seen_own and after_opponent:
                    return True
                seen_own = True
                after_opponent = False
            elif team_of.get(p) == self.team:
                if seen_own:
                    return True
            elif seen_own:
                after_opponent = True
        return False

    def last_touch_team(self, team_of: dict[str, str]) -> str | None:
        return team_of.get(self.touches[-1]) if self.touches else None
