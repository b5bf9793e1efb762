"""Rule sets: one definition per rule text, naming its checks, parameters and articles.

The texts are in ``shared/rules-texts`` (see its README): ``000`` (a) is ``nacional``,
``000`` (b) ``brasileira``, ``001`` ``gaucha``, ``002`` (with ``000`` (c)) ``paulista`` and
``003`` ``mesa-posta``. A check runs only when its rule set's text has it; every parameter
carries the article it comes from.

Examples
--------
>>> rs = get_ruleset("brasileira")
>>> rs.param("gabarito_diameter_mm"), rs.article("ball_blocked")
(60.0, '000 REGRA 4 BLOQUEIO')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["RULESETS", "PieceDefaults", "RuleSet", "RuleSetError", "get_ruleset"]


class RuleSetError(ValueError):
    """Unknown rule set or parameter."""


@dataclass(frozen=True)
class PieceDefaults:
    """Sizes used where a scene leaves them out (mm), from the rule text's equipment articles."""

    button_diameter: float
    button_height: float
    goalkeeper_length: float
    goalkeeper_width: float
    goalkeeper_height: float
    ball_diameter: float
    ball_height: float
    article: str


@dataclass(frozen=True)
class Param:
    value: Any
    article: str


@dataclass(frozen=True)
class RuleSet:
    name: str
    table: str  # the default table preset
    checks: dict[str, str]  # check name -> article
    params: dict[str, Param] = field(default_factory=dict)
    pieces: PieceDefaults | None = None
    description: str = ""

    def article(self, check: str) -> str:
        return self.checks[check]

    def param(self, name: str) -> Any:
        try:
            return self.params[name].value
        except KeyError:
            raise RuleSetError(f"rule set '{self.name}' has no parameter '{name}'") from None

    def param_article(self, name: str) -> str:
        return self.params[name].article

    def has(self, name: str) -> bool:
        return name in self.params


_NACIONAL = RuleSet(
    name="nacional",
    table="nacional",
    description="000 (a), Art. 1-25: one lance per coach in turn",
    checks={
        "ball_in_goal": "000 Art. 12",
        "ball_out": "000 Art. 14",
        "ball_neutral": "000 Art. 12",
        "ball_in_goal_area": "000 Art. 13",
        "goalkeeper_in_goal_area": "000 Art. 6",
        "piece_out_of_field": "000 Art. 9",
        "ball_obstructed": "000 Art. 22 V-E",
        "ball_enclosed": "000 Art. 22 V-G",
        "min_distance": "000 Art. 14, 15, 17",
    },
    params={
        "removal_radius_mm": Param(60.0, "000 Art. 14, 15, 17: até 6 cm do local de cobrança"),
        "dead_ball_gap_mm": Param(10.0, "000 Art. 8 and Art. 25 E: bola afastada do jogador 1 cm"),
        "obstruction_mode": Param("hull", "000 Art. 22 V-E: entre duas linhas paralelas"),
        "enclosure_mode": Param("hull", "000 Art. 22 V-G: retas que circundam os três jogadores"),
        "enclosure_spacing_mm": Param(60.0, "000 Art. 22 V-G: no máximo 0,06 m entre si"),
    },
    pieces=PieceDefaults(60.0, 10.0, 60.0, 20.0, 38.0, 10.0, 2.0, "000 Art. 4, 7"),
)

_BRASILEIRA = RuleSet(
    name="brasileira",
    table="brasileira",
    description="000 (b), REGRA 1-17: the three-lance jogada padrão",
    checks={
        "ball_in_goal": "000 REGRA 10",
        "ball_out": "000 REGRA 9",
        "ball_neutral": "000 REGRA 10",
        "goalkeeper_in_goal_area": "000 REGRA 4 GOLEIRO NA PEQUENA ÁREA",
        "piece_out_of_field": "000 REGRA 4 REMOÇÃO, MOVIMENTAÇÃO E RETORNO",
        "ball_blocked": "000 REGRA 4 BLOQUEIO",
        "offside_position": "000 REGRA 11",
        "min_distance": "000 REGRA 4, 14, 16",
    },
    params={
        "gabarito_diameter_mm": Param(60.0, "000 REGRA 4 BLOQUEIO: a medida de 6 cm do gabarito"),
        "offside_mode": Param("penultimate", "000 REGRA 11, exceções A-C"),
        "goalkeeper_ball_distance_mm": Param(183.0, "000 REGRA 4 DISTÂNCIA DA BOLA: 18,3 cm"),
        "goalkeeper_opponent_distance_mm": Param(
            60.0, "000 REGRA 4 O GOLEIRO NA GRANDE ÁREA: 6 cm"
        ),
        "penalty_distance_mm": Param(183.0, "000 REGRA 14: a menos de 18,3 cm da bola"),
        "goal_kick_teammate_distance_mm": Param(183.0, "000 REGRA 16 A: 18,3 cm"),
        "goal_kick_opponent_distance_mm": Param(60.0, "000 REGRA 16 A: 6 cm"),
        "goal_kick_attackers": Param((3, 6), "000 REGRA 16 B: mínimo 3, máximo 6 no ataque"),
    },
    pieces=PieceDefaults(60.0, 10.0, 70.0, 15.0, 35.0, 10.0, 10.0, "000 REGRA 2, 3"),
)

_GAUCHA = RuleSet(
    name="gaucha",
    table="gaucha-max",
    description="001, Regra Gaúcha (1982): one lance per coach",
    checks={
        "ball_in_goal": "001 Art. XXXI",
        "ball_out": "001 Art. XXXIV",
        "ball_neutral": "001 Art. XXI § ÚNICO",
        "ball_in_goal_area": "001 Art. XXXV",
        "goalkeeper_in_goal_area": "001 Art. XXIX b",
        "piece_out_of_field": "001 Art. XXXVII",
        "ball_obstructed": "001 Art. XXIX j",
        "ball_enclosed": "001 Art. XXIX l",
        "offside_position": "001 Art. XXXII",
        "min_distance": "001 Art. XXIII § 5, XXXIX",
    },
    params={
        # "Lateral é o lance em que a bola ultrapassa ou apenas toca a linha demarcatória."
        "ball_out_touching_touchline": Param(True, "001 Art. XXXIV: ultrapassa ou apenas toca"),
        "removal_radius_mm": Param(60.0, "001 Art. XXIII § 5 and XXXIX: 60 mm"),
        "obstruction_mode": Param("reach", "001 Art. XXIX j: o menor jogador adversário"),
        "enclosure_mode": Param("reach", "001 Art. XXIX l: passagem do menor jogador adversário"),
        "smallest_button_mm": Param(25.0, "001 Art. VIII § 1: diâmetro mínimo 25 mm"),
        "offside_mode": Param("goalkeeper_only", "001 Art. XXXII: tendo à frente apenas o goleiro"),
    },
    pieces=PieceDefaults(60.0, 9.0, 60.0, 34.0, 20.0, 10.0, 3.0, "001 Art. VIII, XV"),
)

_PAULISTA = RuleSet(
    name="paulista",
    table="paulista",
    description="002, Regra 12 toques (Federação Paulista), with 000 (c)",
    checks={
        "ball_in_goal": "002 Do acionamento 6; 000 REGRA 10",
        "ball_out": "002 Do lateral",
        "ball_neutral": "000 (c) DO CHUTE A GOL I",
        "ball_in_goal_area": "000 (c) DA POSSE DE BOLA V; 002 Da furada 3",
        "goalkeeper_in_goal_area": "002 Do goleiro 1",
        "piece_out_of_field": "002 Do acionamento 12",
        "ball_blocked": "002 Do tiro livre indireto k (bola bloqueada)",
        "ball_obstructed": "002 Do tiro livre indireto k (bola obstruída)",
        "min_distance": "002 Do posicionamento dos botões 1-4",
    },
    params={
        "gabarito_diameter_mm": Param(60.0, "002 k with the 6 cm gabarito of 000 REGRA 4"),
        "obstruction_mode": Param("reach", "002 k: sem espaço físico para o adversário"),
        "smallest_button_mm": Param(25.0, "not in 002: the smallest legal button, 001 Art. VIII"),
        "kick_off_spacing_mm": Param(80.0, "002 Do posicionamento 2 and 4: 8 cm entre si"),
        "kick_off_halfway_mm": Param(240.0, "002 Do posicionamento 2: 24 cm da linha central"),
        "kick_off_placed": Param(5, "002 Do posicionamento 1 a-b: five buttons placed by the text"),
    },
    pieces=PieceDefaults(60.0, 10.0, 70.0, 15.0, 35.0, 10.0, 10.0, "000 REGRA 2, 3"),
)

_MESA_POSTA = RuleSet(
    name="mesa-posta",
    table="mesa-posta",
    description="003, A mesa está posta: seven touches, announced shots, running clock",
    checks={
        "ball_in_goal": "003 Remates anunciados",
        "ball_out": "003 Bola fora",
        "ball_in_goal_area": "003 A bola do guarda-redes",
        "goalkeeper_in_goal_area": "003 Cantos",
        "min_distance": "003 Penáltis",
    },
    params={},
    pieces=PieceDefaults(
        60.0, 10.0, 70.0, 15.0, 35.0, 10.0, 10.0, "000 REGRA 2, 3 (003 gives none)"
    ),
)

RULESETS: dict[str, RuleSet] = {
    rs.name: rs for rs in (_NACIONAL, _BRASILEIRA, _GAUCHA, _PAULISTA, _MESA_POSTA)
}


def get_ruleset(name: str) -> RuleSet:
    try:
        return RULESETS[name]
    except KeyError:
        known = ", ".join(RULESETS)
        raise RuleSetError(f"unknown rule set '{name}' (known: {known})") from None
