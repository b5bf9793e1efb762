"""Turn models: who plays the next lance, lance and touch counting, per rule set.

Each model is fed the lances as they start and end, and the restarts the engine calls; it
emits ``turn_over`` (the rules give the next lance to the other coach), ``out_of_turn`` (a
lance by the team without the turn: the engine follows what happened), ``touch_limit`` and
``possession`` where its text has them.

- :class:`OneLance`: 000 (a) Art. 8 ("A cada lance regular de um técnico segue-se a vez de
  jogar o adversário"), Art. 9 (the kick-off's two lances), Art. 17 (an indirect kick's two
  lances); 001 Art. I, XVIII, XXIII § 1 b, XXVIII § 2, XXXIV § 1 a.
- :class:`JogadaPadrao`: 000 REGRA 4 JOGADA (A padrão: touch the ball in the first lance and
  pass in the second for the third; B restrita: three lances keeping possession; C normal:
  two, the kick-off) and REGRA 2 POSSE DE BOLA A (the ball must move) and F (the ball last on
  an opponent: his jogada next).
- :class:`TouchCount`: 000 (c) and 002: 12 collective touches, 3 consecutive per button, 3
  more after displacing an opponent (up to the 9th), possession lost by a furada, by the ball
  last on an opponent, or by hitting a team-mate before the ball (002 Do acionamento 10).
- :class:`SevenTouches`: 003 A tua vez: seven touches a turn, a miss passes the turn, and an
  announced shot that stays in play passes it unless a team-mate touched it last.
"""

from __future__ import annotations

from typing import Any

from rules.engine.events import EventSink
from rules.engine.lance import Lance, Restart
from rules.engine.profiles import Profile

__all__ = ["JogadaPadrao", "OneLance", "SevenTouches", "TouchCount", "TurnModel", "make_turns"]


class TurnModel:
    """Shared bookkeeping: the team to play and the switch to the other coach."""

    def __init__(self, profile: Profile, team_of: dict[str, str], teams: tuple[str, str]) -> None:
        self.profile = profile
        self.team_of = team_of
        self.teams = teams
        self.to_play: str | None = None

    def other(self, team: str | None) -> str:
        return self.teams[1] if team == self.teams[0] else self.teams[0]

    def state(self) -> dict[str, Any]:
        """Counts for evidence and display."""
        return {"to_play": self.to_play}

    # ---------------------------------------------------------------- hooks
    def on_restart(self, restart: Restart) -> None:
        self.to_play = restart.team
        self._reset(restart)

    def on_lance_start(self, lance: Lance, sink: EventSink) -> None:
        if self.to_play is not None and lance.team != self.to_play:
            sink.emit(
                "out_of_turn",
                lance.team,
                lance.piece,
                article=self.profile.article("out_of_turn") or self.profile.article("turn"),
                expected=self.to_play,
                state=self.state(),
            )
            self.to_play = None
        if self.to_play is None:  # adopt the team that plays: a new turn for it
            self.to_play = lance.team
            self._reset(lance.restart)
        self._count(lance, sink)

    def on_lance_end(self, lance: Lance, sink: EventSink, furada: bool) -> None:
        if lance.dead:  # the call's restart already decided the next lance
            return
        reason, article = self._turn_passes(lance, furada)
        if reason:
            self.pass_turn(lance, sink, reason, article)

    def pass_turn(self, lance: Lance, sink: EventSink, reason: str, article: str) -> None:
        before = self.state()
        self.to_play = self.other(lance.team)
        self._reset(None)
        sink.emit("turn_over", self.to_play, None, article=article, reason=reason, before=before)

    # ---------------------------------------------------------------- per model
    def _reset(self, restart: Restart | None) -> None:
        raise NotImplementedError

    def _count(self, lance: Lance, sink: EventSink) -> None:
        raise NotImplementedError

    def _turn_passes(self, lance: Lance, furada: bool) -> tuple[str, str]:
        raise NotImplementedError


class OneLance(TurnModel):
    """One lance per coach; two after the restarts that give two (see the module)."""

    left = 1

    def _reset(self, restart: Restart | None) -> None:
        self.left = restart.lances if restart is not None else 1

    def state(self) -> dict[str, Any]:
        return {"to_play": self.to_play, "lances_left": self.left}

    def _count(self, lance: Lance, sink: EventSink) -> None:
        self.left -= 1

    def _turn_passes(self, lance: Lance, furada: bool) -> tuple[str, str]:
        if self.left > 0:
            return "", ""
        return "one lance each", self.profile.article("turn")


class JogadaPadrao(TurnModel):
    """000 REGRA 4 JOGADA: padrão (3 lances, pass in the 2nd), restrita, normal (2 lances)."""

    n = 0
    kind = "padrao"

    def _reset(self, restart: Restart | None) -> None:
        self.n = 0
        kind = restart.kind if restart is not None else None
        # C: "saída de centro de campo" is a jogada normal; B: corners and throw-ins restrita.
        self.kind = {"kick_off": "normal", "throw_in": "restrita", "corner": "restrita"}.get(
            kind or "", "padrao"
        )

    def state(self) -> dict[str, Any]:
        return {"to_play": self.to_play, "lance": self.n, "jogada": self.kind}

    def _count(self, lance: Lance, sink: EventSink) -> None:
        self.n += 1

    def _turn_passes(self, lance: Lance, furada: bool) -> tuple[str, str]:
        art = self.profile.article("turn")
        if furada:
            return "furada: the ball did not move", self.profile.article("furada")
        last = lance.last_touch_team(self.team_of)
        if last is not None and last != lance.team:
            return "the ball last touched an opponent", self.profile.article("possession_lost")
        limit = 2 if self.kind == "normal" else 3
        if self.n >= limit:
            return f"jogada {self.kind} complete ({limit} lances)", art
        if self.kind == "padrao" and self.n == 2 and not lance.passed(self.team_of):
            return "no pass in the second lance", f"{art} A"
        return "", ""


class TouchCount(TurnModel):
    """000 (c) / 002: collective and per-button touch limits, and possession."""

    collective = 0
    limit = 12
    button: str | None = None
    consecutive = 0

    def _reset(self, restart: Restart | None) -> None:
        self.collective = 0
        self.limit = self.profile.collective_touches
        self.button = None
        self.consecutive = 0

    def state(self) -> dict[str, Any]:
        return {
            "to_play": self.to_play,
            "touches": self.collective,
            "limit": self.limit,
            "button": self.button,
            "button_touches": self.consecutive,
        }

    def _count(self, lance: Lance, sink: EventSink) -> None:
        self.collective += 1
        if lance.piece == self.button:
            self.consecutive += 1
        else:
            self.button, self.consecutive = lance.piece, 1
        p = self.profile
        if self.consecutive > p.button_touches:
            self._limit(
                lance, sink, f"touch {self.consecutive} in a row by {lance.piece}", "button"
            )
        elif self.collective > self.limit:
            self._limit(
                lance, sink, f"touch {self.collective} over the limit {self.limit}", "collective"
            )

    def _limit(self, lance: Lance, sink: EventSink, why: str, key: str) -> None:
        # "punido com tiro livre indireto": the flick itself is the offence.
        lance.dead = "touch_limit"
        sink.emit(
            "touch_limit",
            lance.team,
            lance.piece,
            article=self.profile.article(key),
            reason=why,
            awarded_to=self.other(lance.team),
            restart="indirect_free_kick",
            state=self.state(),
        )

    def note_displacement(self, lance: Lance) -> None:
        """002 Do acionamento 5: after displacing an opponent, three more touches (to the 9th)."""
        if self.collective <= 9:
            self.limit = min(self.limit, self.collective + 3)

    def _turn_passes(self, lance: Lance, furada: bool) -> tuple[str, str]:
        p = self.profile
        if lance.hit_own_first:
            return "the flicked button hit a team-mate before the ball", p.article(
                "own_piece_first"
            )
        if furada:
            return "furada", p.article("furada")
        last = lance.last_touch_team(self.team_of)
        if last is not None and last != lance.team:
            return "the ball last touched an opponent", p.article("possession_lost")
        return "", ""

    def at_limit(self) -> bool:
        return self.collective >= self.limit


class SevenTouches(TurnModel):
    """003 A tua vez."""

    used = 0

    def _reset(self, restart: Restart | None) -> None:
        self.used = 0

    def state(self) -> dict[str, Any]:
        return {
            "to_play": self.to_play,
            "touches": self.used,
            "limit": self.profile.touches_per_turn,
        }

    def _count(self, lance: Lance, sink: EventSink) -> None:
        self.used += 1

    def _turn_passes(self, lance: Lance, furada: bool) -> tuple[str, str]:
        p = self.profile
        if not lance.touched:
            return "the flick missed the ball", p.article("miss")
        last = lance.last_touch_team(self.team_of)
        if (
            lance.announced
            and last is not None
            and (last != lance.team or lance.touches[-1] == lance.piece)
        ):
            return "an announced shot stayed in play", p.article("shot_in_play")
        if self.used >= p.touches_per_turn:
            return f"{p.touches_per_turn} touches used", p.article("turn")
        return "", ""


def make_turns(profile: Profile, team_of: dict[str, str], teams: tuple[str, str]) -> TurnModel:
    cls: type[TurnModel] = {
        "one_lance": OneLance,
        "jogada_padrao": JogadaPadrao,
        "touch_count": TouchCount,
        "seven_touches": SevenTouches,
    }[profile.turns]
    return cls(profile, team_of, teams)
