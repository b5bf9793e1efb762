"""What differs between the rule sets' engines, with the article each choice comes from.

The engines share their machinery (:mod:`rules.engine.engine`); a :class:`Profile` names the
turn model, which calls a rule set makes at rest, how fouls are restarted, the offside mode
and the clock. Articles are the texts in ``shared/rules-texts`` (see its README).

Examples
--------
>>> p = get_profile("paulista")
>>> p.turns, p.collective_touches, p.button_touches
('touch_count', 12, 3)
>>> get_profile("mesa-posta").clock, get_profile("mesa-posta").half_s
('ball_rolling', 60.0)
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["PROFILES", "Profile", "get_profile"]

TURN_MODELS = ("one_lance", "jogada_padrao", "touch_count", "seven_touches")


@dataclass(frozen=True)
class Profile:
    """One rule set's engine choices.

    Attributes
    ----------
    turns : the turn model, one of ``one_lance`` (000 (a), 001), ``jogada_padrao`` (000 (b)),
        ``touch_count`` (12 collective touches and 3 per button: 002, 000 (c)),
        ``seven_touches`` (003).
    two_lance_restarts : restarts after which a one-lance coach plays two lances.
    offside : ``None`` (the text has none), ``"penultimate"`` (000 REGRA 11, with its
        exceptions D, E, F) or ``"goalkeeper_only"`` (001 Art. XXXII, § 1 b).
    foul_chain : a team-mate the flicked piece set moving that hits an opponent before the
        ball is a foul too (002 Do acionamento 11).
    foul_restart : how a foul is restarted outside the area: ``"direct"`` (a direct free
        kick), ``"by_half"`` (000 Art. 18 / 001 Art. XXIII § 2-3: indirect when the foul is in
        the beneficiary's half or on the halfway line), ``"attack_only"`` (002 Do tiro livre
        direto 1: direct only in the beneficiary's attacking half), ``"keeper_kick"`` (003:
        a foul on the goalkeeper gives it the kick).
    goalkeeper_ball : the ball stopped in a goal area: ``None``, ``"goal_kick"`` (a restart
        for that team), ``"possession"`` (000 (c) DA POSSE DE BOLA V).
    rest_checks : the shut-in checks run when everything stops.
    neutral : judge the neutral ball when the ball stops.
    half_s, clock : each half's length and how the clock runs (``"wall"`` or
        ``"ball_rolling"``, 003: only while the ball rolls).
    articles : the article of each call.
    """

    name: str
    turns: str
    articles: dict[str, str]
    two_lance_restarts: tuple[str, ...] = ()
    offside: str | None = None
    foul_chain: bool = False
    foul_restart: str = "direct"
    goalkeeper_ball: str | None = None
    rest_checks: tuple[str, ...] = ()
    neutral: bool = False
    half_s: float = 25 * 60.0
    clock: str = "wall"
    collective_touches: int = 0
    button_touches: int = 0
    touches_per_turn: int = 0
    shut_in_lances: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.turns not in TURN_MODELS:
            raise ValueError(f"Profile.turns: expected one of {TURN_MODELS}, got {self.turns!r}")

    def article(self, key: str) -> str:
        return self.articles.get(key, "")


_NACIONAL = Profile(
    name="nacional",
    turns="one_lance",
    two_lance_restarts=("kick_off", "indirect_free_kick"),
    foul_restart="by_half",
    goalkeeper_ball="goal_kick",
    rest_checks=("ball_obstructed", "ball_enclosed"),
    neutral=True,
    half_s=25 * 60.0,
    # Art. 22 V-E: an obstruction not opened by the third lance; V-G: enclosed after the lance.
    shut_in_lances={"ball_obstructed": 3, "ball_enclosed": 1},
    articles={
        "lance": "000 Art. 8",
        "turn": "000 Art. 8: a cada lance regular segue-se a vez do adversário",
        "kick_off": "000 Art. 9",
        "furada": "000 Art. 8: lance quando o jogador se deslocar o mínimo percebível",
        "foul": "000 Art. 18",
        "penalty": "000 Art. 19",
        "goal": "000 Art. 12",
        "own_goal": "000 Art. 12 (gol contra)",
        "ball_out": "000 Art. 14",
        "throw_in": "000 Art. 14",
        "corner": "000 Art. 15",
        "goal_kick": "000 Art. 13",
        "last_touch": "000 Art. 9: contrária àquela do jogador em que a bola tocou por último",
        "goalkeeper_ball": "000 Art. 13: parar na área pequena",
        "neutral": "000 Art. 12",
        "ball_obstructed": "000 Art. 22 V-E",
        "ball_enclosed": "000 Art. 22 V-G",
        "restart_gap": "000 Art. 8, Art. 25 E",
        "halves": "000 Art. 8: duas fases de 25 minutos",
        "shot": "000 Art. 12: avise o adversário de sua intenção de chutar em gol",
    },
)

_BRASILEIRA = Profile(
    name="brasileira",
    turns="jogada_padrao",
    offside="penultimate",
    goalkeeper_ball=None,
    rest_checks=("ball_blocked",),
    neutral=True,
    half_s=25 * 60.0,
    articles={
        "lance": "000 REGRA 4 LANCE",
        "turn": "000 REGRA 4 JOGADA",
        "possession": "000 REGRA 2 POSSE DE BOLA",
        "possession_lost": "000 REGRA 2 POSSE DE BOLA F",
        "kick_off": "000 REGRA 4 JOGADA C; REGRA 8",
        "furada": "000 REGRA 2 POSSE DE BOLA A",
        "foul": "000 REGRA 12 FALTA",
        "penalty": "000 REGRA 14",
        "goal": "000 REGRA 10",
        "own_goal": "000 REGRA 10 GOL CONTRA",
        "invalid_goal": "000 REGRA 10 GOL SEM VALIDADE",
        "ball_out": "000 REGRA 9",
        "throw_in": "000 REGRA 15",
        "corner": "000 REGRA 17",
        "goal_kick": "000 REGRA 16",
        "offside": "000 REGRA 11",
        "neutral": "000 REGRA 10",
        "ball_blocked": "000 REGRA 4 BLOQUEIO",
        "halves": "000 REGRA 7",
        "shot": "000 REGRA 10: falar alto e claro a sua intenção; goleiro colocado",
    },
)

_GAUCHA = Profile(
    name="gaucha",
    turns="one_lance",
    # Art. XVIII (saída), XXIII § 1 b (indirect), XXVIII § 2 (escanteio cedido), XXXIV § 1 a.
    two_lance_restarts=("kick_off", "indirect_free_kick"),
    offside="goalkeeper_only",
    foul_restart="by_half",
    goalkeeper_ball="goal_kick",
    rest_checks=("ball_obstructed", "ball_enclosed"),
    neutral=True,
    half_s=15 * 60.0,
    # Art. XXIX j: two more lances to open; l: open in the first lance.
    shut_in_lances={"ball_obstructed": 3, "ball_enclosed": 2},
    articles={
        "lance": "001 Art. I",
        "turn": "001 Art. I: apenas um lance para cada técnico",
        "kick_off": "001 Art. XVIII",
        "furada": "001 Art. I",
        "foul": "001 Art. XXIV",
        "penalty": "001 Art. XXVII",
        "goal": "001 Art. XXXI",
        "own_goal": "001 Art. XXXI § 2",
        "ball_out": "001 Art. XXXIV",
        "throw_in": "001 Art. XXXIV",
        "corner": "001 Art. XXVIII",
        "goal_kick": "001 Art. XXXIII",
        "offside": "001 Art. XXXII",
        "goalkeeper_ball": "001 Art. XXXV",
        "neutral": "001 Art. XXI § ÚNICO",
        "ball_obstructed": "001 Art. XXIX j",
        "ball_enclosed": "001 Art. XXIX l",
        "halves": "001 Art. XVII: duas fases de quinze minutos",
        "shot": "001 Art. XXI c: prévio aviso ao técnico adversário",
    },
)

_PAULISTA = Profile(
    name="paulista",
    turns="touch_count",
    foul_chain=True,
    foul_restart="attack_only",
    goalkeeper_ball="possession",
    rest_checks=("ball_blocked", "ball_obstructed"),
    neutral=True,
    half_s=10 * 60.0,
    collective_touches=12,
    button_touches=3,
    articles={
        "lance": "002 Do acionamento 1",
        "turn": "000 (c) DA POSSE DE BOLA",
        "possession": "000 (c) DA POSSE DE BOLA",
        "possession_lost": "000 (c) DA POSSE DE BOLA III",
        "own_piece_first": "002 Do acionamento 10",
        "collective": "002 Do acionamento 2; 000 (c) DO ACIONAMENTO",
        "button": "002 Do acionamento 3",
        "displaced": "002 Do acionamento 5",
        "kick_off": "002 Do acionamento 8",
        "furada": "002 Da furada 1",
        "out_of_turn": "002 Do tiro livre indireto h",
        "foul": "002 Do acionamento 11",
        "penalty": "002 Do goleiro 1; 000 REGRA 14",
        "goal": "002 Do acionamento 6; 000 REGRA 10",
        "own_goal": "000 REGRA 10 GOL CONTRA",
        "ball_out": "002 Do lateral",
        "throw_in": "002 Do lateral",
        "corner": "000 REGRA 17",
        "goal_kick": "000 REGRA 16",
        "goalkeeper_ball": "000 (c) DA POSSE DE BOLA V",
        "neutral": "000 (c) DO CHUTE A GOL I",
        "ball_blocked": "002 Do tiro livre indireto k (bola bloqueada)",
        "ball_obstructed": "002 Do tiro livre indireto k (bola obstruída)",
        "second_furada": "002 Do tiro livre indireto k",
        "halves": "002 Da duração da partida",
        "shot": "000 (c) DO CHUTE A GOL: aviso oral",
    },
)

_MESA_POSTA = Profile(
    name="mesa-posta",
    turns="seven_touches",
    foul_restart="keeper_kick",
    goalkeeper_ball="goal_kick",
    half_s=60.0,
    clock="ball_rolling",
    touches_per_turn=7,
    articles={
        "lance": "003 A tua vez",
        "turn": "003 A tua vez: sete toques na bola por vez",
        "miss": "003 A tua vez: uma palhetada que falhe a bola passa a vez",
        "shot_in_play": "003 Remates anunciados: um remate que fique em jogo passa",
        "kick_off": "003 Pontapé de saída",
        "furada": "003 A tua vez",
        "foul": "003 Faltas",
        "penalty": "003 Penáltis",
        "keeper_foul": "003 A bola do guarda-redes: uma falta sobre o guarda-redes",
        "goal": "003 Remates anunciados",
        "own_goal": "003 Remates anunciados",
        "invalid_goal": "003 Remates anunciados: um golo não anunciado dá pontapé de baliza",
        "ball_out": "003 Bola fora",
        "throw_in": "003 Bola fora",
        "corner": "003 Bola fora",
        "goal_kick": "003 Bola fora",
        "goalkeeper_ball": "003 A bola do guarda-redes",
        "halves": "003 O jogo: duas partes de um minuto, relógio só corre com a bola a rolar",
        "shot": "003 Remates anunciados",
    },
)

PROFILES: dict[str, Profile] = {
    p.name: p for p in (_NACIONAL, _BRASILEIRA, _GAUCHA, _PAULISTA, _MESA_POSTA)
}


def get_profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown rule set '{name}' (known: {', '.join(PROFILES)})") from None
