"""Rule-set engines: tracked state, frame by frame, into ``event/1`` events (issue 6).

One :class:`RuleEngine` per match, fed :class:`FrameState` records (built by thin adapters
from the simulator's truth or the vision tracker's output, outside ``rules``), emits events
with margins and articles (:data:`EVENT_TYPES`). The five rule sets share the machinery and
differ by a :class:`Profile` and a turn model:

============  ==============================================================================
rule set      what its engine does besides the shared calls (touch, contact, foul, goal,
              ball_out with restart and team, distances at restarts)
============  ==============================================================================
nacional      one lance each (000 Art. 8), two at kick-off and indirect kicks; neutral ball;
              the ball stopped in a goal area is a goal kick (Art. 13); obstruction by two
              (V-E, three lances to open) and three (V-G) players; halves of 25 min
brasileira    the 3-lance jogada padrão, normal and restrita (000 REGRA 4); possession
              (REGRA 2); offside at the moment a team-mate plays the ball (REGRA 11 A-F);
              blocked ball (REGRA 4 BLOQUEIO); neutral ball; halves of 25 min
gaucha        one lance each (001 Art. I), two at kick-off, indirect kicks and ceded
              throw-ins and corners; offside when the ball passes the last outfield defender
              (Art. XXXII); goalkeeper's ball (XXXV); shut-in ball (XXIX j, l); 15 min
paulista      12 collective touches, 3 consecutive per button, 3 more after displacing an
              opponent, possession (000 (c), 002); fouls by a team-mate set moving (002 11);
              direct free kicks only in attack; 10 min halves
mesa-posta    seven touches a turn, a miss passes it; announced shots; a foul on the
              goalkeeper is its kick; the goalkeeper's ball; two halves of one minute on a
              clock that runs only while the ball rolls (003)
============  ==============================================================================

What a camera cannot know comes as :class:`Annotations` (``annotations/1``); without them
the engine assumes, and says so in ``evidence["assumed"]``.
"""

from rules.engine.annotations import AnnotationError, Annotations, load_annotations
from rules.engine.engine import EngineOptions, RuleEngine
from rules.engine.events import EVENT_TYPES, Event, make_event
from rules.engine.profiles import PROFILES, Profile, get_profile
from rules.engine.state import Contacts, FrameState, StateError

__all__ = [
    "EVENT_TYPES",
    "PROFILES",
    "AnnotationError",
    "Annotations",
    "Contacts",
    "EngineOptions",
    "Event",
    "FrameState",
    "Profile",
    "RuleEngine",
    "StateError",
    "get_profile",
    "load_annotations",
    "make_engine",
    "make_event",
]


def make_engine(
    rules: str = "brasileira",
    table_name: str | None = None,
    teams: dict[str, str] | None = None,
    annotations: Annotations | None = None,
    options: EngineOptions | None = None,
) -> RuleEngine:
    """An engine for ``rules`` on its default table (or the table preset ``table_name``)."""
    from geometry.tablespec import load_table
    from rules.rulesets import get_ruleset

    table = load_table(table_name or get_ruleset(rules).table)
    return RuleEngine(table, rules, teams, annotations, options)
