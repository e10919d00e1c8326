"""The one registry of the games Digsite plays: ``GAMES`` maps each kind to its ``Game``, the bundle of its parts.

Every layer reaches a game through here (``game(kind)``) and never imports a game's package: the service plays
it through ``Game.rules``, the API validates with ``Game.schemas``, the simulator and bot clients seat
``Game.bots`` (each game's own, and the search bot every game gets: ``domain.search``), the read models ask
``Game.analytics``. What only some games can do is a field that is ``None`` for the others (``analytics``,
``craft_steps``): a caller asks the field, never the module for a name it may lack. The parts that are not pure
(a game's dashboard renderer, its projection tables) live in a module named after the kind inside their own
layer, found from the kind.

Each game module is assigned below to a variable typed ``GameRules[State, Action, Event]`` with its own types,
so mypy checks the module against the protocol, function by function, without a cast. A new game plugs in by
adding its package, those few lines and its entry in ``GAMES``; ``tests/domain/test_conformance.py`` then runs
the conformance suite on it. See docs/games.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from domain import arnak, ruins
from domain.errors import SetupError
from domain.metrics import Analytics
from domain.policies import Bots
from domain.protocol import CraftSteps, GameRules, Schemas
from domain.search import with_search

State = TypeVar("State")
Action = TypeVar("Action")
Event = TypeVar("Event")


@dataclass(frozen=True)
class Game(Generic[State, Action, Event]):
    """One game's parts: its rules engine, JSON Schemas, bots and (optionally) analytics and card crafting."""

    kind: str  # the registry key, stored in every game's record ("ruins")
    title: str  # for people ("Lost Ruins of Arnak")
    rules: GameRules[State, Action, Event]
    state_type: type[State]  # stored in snapshots through the rules' state codec
    schemas: Schemas
    bots: Bots[Action]
    analytics: Analytics[State, Event] | None = None  # None: the read models keep only the common rows
    craft_steps: CraftSteps[State, Action] | None = None  # None: the game's moves are not built up (service.reading)


_RUINS_RULES: GameRules[ruins.GameState, ruins.Action, ruins.Event] = ruins
_ARNAK_RULES: GameRules[arnak.GameState, arnak.Action, arnak.Event] = arnak

RUINS: Game[ruins.GameState, ruins.Action, ruins.Event] = Game(
    ruins.GAME,
    "Ruins",
    _RUINS_RULES,
    ruins.GameState,
    ruins.SCHEMAS,
    with_search(_RUINS_RULES, ruins.BOTS),
    ruins.ANALYTICS,
    ruins.craft_steps,
)
ARNAK: Game[arnak.GameState, arnak.Action, arnak.Event] = Game(
    arnak.GAME,
    "Lost Ruins of Arnak",
    _ARNAK_RULES,
    arnak.GameState,
    arnak.SCHEMAS,
    with_search(_ARNAK_RULES, arnak.BOTS),
    arnak.ANALYTICS,
)

GAMES: dict[str, Game[Any, Any, Any]] = {g.kind: g for g in (RUINS, ARNAK)}


def game(kind: str) -> Game[Any, Any, Any]:
    """The registered game of this kind; ``SetupError`` names the kinds there are."""
    found = GAMES.get(kind) if isinstance(kind, str) else None
    if found is None:
        raise SetupError(f"unknown game {kind!r}; Digsite plays {', '.join(sorted(GAMES))}")
    return found
