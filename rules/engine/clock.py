"""The match clock: halves, time up, and the running clock of 003 (only while the ball rolls).

- ``"wall"``: the clock runs from the first lance (000 Art. 8, REGRA 7; 001 Art. XVII; 002
  Da duração). When it reaches the half's length the alarm sounds (``time_up``); a lance
  under way is completed ("terá direito ainda a realizar o lance, que será o último", 000
  Art. 12), so the half ends when everything next stops.
- ``"ball_rolling"`` (003 O jogo): "um relógio que só corre enquanto a bola rola"; "quando o
  tempo acaba, a parte termina assim que a bola voltar a sair de jogo": the half ends at the
  next dead ball.

After the first half the sides swap (000 Art. 8, REGRA 7; 001 Art. XVII § 1), which the
engine applies to its team sides.

Examples
--------
>>> c = MatchClock(half_s=1.0, mode="ball_rolling")
>>> c.start(0.0)
>>> c.tick(0.5, rolling=True), c.tick(1.2, rolling=True), c.clock_s
(False, True, 1.0)
"""

from __future__ import annotations

__all__ = ["MatchClock"]


class MatchClock:
    """Counts the half's time; :meth:`tick` says when the time is up."""

    def __init__(self, half_s: float, mode: str = "wall", halves: int = 2) -> None:
        if mode not in ("wall", "ball_rolling"):
            raise ValueError(f"clock mode: expected 'wall' or 'ball_rolling', got {mode!r}")
        if half_s <= 0:
            raise ValueError(f"half_s: expected a positive length, got {half_s}")
        self.half_s = float(half_s)
        self.mode = mode
        self.halves = halves
        self.half = 1
        self.clock_s = 0.0
        self.time_up = False
        self.over = False
        self._t: float | None = None

    @property
    def started(self) -> bool:
        return self._t is not None

    def start(self, t_s: float) -> None:
        """The half's first lance."""
        if self._t is None:
            self._t = float(t_s)

    def tick(self, t_s: float, rolling: bool) -> bool:
        """Advance to ``t_s``; True exactly once per half, when the time is up."""
        if self._t is None or self.over:
            return False
        dt = max(float(t_s) - self._t, 0.0)
        self._t = float(t_s)
        if self.mode == "wall" or rolling:
            self.clock_s = min(self.clock_s + dt, self.half_s)
        if not self.time_up and self.clock_s >= self.half_s:
            self.time_up = True
            return True
        return False

    def end_half(self) -> bool:
        """Close the half; True when the match is over."""
        if self.half >= self.halves:
            self.over = True
            return True
        self.half += 1
        self.clock_s = 0.0
        self.time_up = False
        self._t = None
        return False
