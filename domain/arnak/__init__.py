"""Lost Ruins of Arnak (Elwen & Mín, CGE) as a pure deterministic engine, with the same small API as Ruins.

>>> from domain import arnak
>>> state = arnak.new_game(["Ana", "Beto"], seed=7)
>>> state.round, len(state.seats[0].hand)
(1, 5)
>>> action = arnak.legal_actions(state, 0)[0]
>>> state = arnak.apply(state, action)      # decide + evolve
>>> arnak.outcome(state) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain.arnak import (
    card_ops,  # noqa: F401  (its ops register in effects.OPS: loaded with the game, once)
    schema,
)
from domain.arnak.actions import (
    Action,
    Buy,
    Choose,
    Dig,
    Discover,
    EndTurn,
    Overcome,
    Pass,
    Payment,
    PlaceIdol,
    Play,
    Research,
    TempleTile,
    UseAssistant,
    UseBoon,
    action_from_dict,
    action_to_dict,
)
from domain.arnak.analytics import ANALYTICS
from domain.arnak.bots import BOTS
from domain.arnak.codec import state_from_dict, state_to_dict
from domain.arnak.components import book
from domain.arnak.decide import decide, step
from domain.arnak.describe import describe
from domain.arnak.events import Event, event_from_dict, event_to_dict
from domain.arnak.evolve import evolve, replay
from domain.arnak.legal import legal_actions, timeout_action, to_act, unaffected
from domain.arnak.plain import to_plain
from domain.arnak.sampling import sample
from domain.arnak.scoring import score
from domain.arnak.setup import start as _start
from domain.arnak.state import GameState, Outcome
from domain.arnak.versions import VERSIONS
from domain.arnak.view import HIDDEN_CHOICES, redact_event, view
from domain.protocol import Progress, Result, Schemas
from domain.seeds import new_seed, seed_of

GAME = "arnak"

__all__ = [
    "ANALYTICS",
    "BOTS",
    "GAME",
    "SCHEMAS",
    "VERSIONS",
    "progress",
    "redact_action",
    "result",
    "seed_of",
    "step",
    "Action",
    "Buy",
    "Choose",
    "Dig",
    "Discover",
    "EndTurn",
    "Event",
    "GameState",
    "Outcome",
    "Overcome",
    "Pass",
    "Payment",
    "PlaceIdol",
    "Play",
    "Research",
    "TempleTile",
    "UseAssistant",
    "UseBoon",
    "action_from_dict",
    "action_to_dict",
    "apply",
    "book",
    "decide",
    "describe",
    "event_from_dict",
    "event_to_dict",
    "evolve",
    "legal_actions",
    "new_game",
    "new_seed",
    "outcome",
    "redact_event",
    "replay",
    "sample",
    "rules_version",
    "start",
    "state_from_dict",
    "state_to_dict",
    "timeout_action",
    "to_act",
    "unaffected",
    "view",
]


# -- rules versions (domain.versions): the release record is domain/arnak/versions.py --------------------------
def start(
    players: Iterable[str],
    options: Mapping[str, Any] | None = None,
    seed: str | int = 0,
    rules_version: str | None = None,
) -> list[Event]:
    """The opening events of a new game under ``rules_version`` (``None``: the current version); a version Arnak
    never released is refused by name."""
    return _start(players, options, seed, rules_version)


# -- end of rules versions -------------------------------------------------------------------------------------


def new_game(players: Iterable[str], options: Mapping[str, Any] | None = None, seed: str | int = 0) -> GameState:
    """A new game, set up and waiting for the first player's first turn of round 1."""
    return replay(start(players, options, seed))


def apply(state: GameState, action: Action) -> GameState:
    """``decide`` then ``evolve``: the state after a legal action (raises on an illegal one)."""
    return step(state, action)[1]


def outcome(state: GameState) -> Outcome | None:
    return state.outcome


def result(state: GameState) -> Result | None:
    """The common summary: the engine's ranking, winners and totals; each seat's score sheet in ``detail``."""
    ended = state.outcome
    if ended is None:
        return None
    totals = {score.seat: score.total for score in ended.scores}
    return Result(
        ranking=ended.ranking,
        winners=ended.winners,
        scores=tuple(totals.get(seat, 0) for seat in range(len(state.players))),
        detail={"score_sheets": [to_plain(score) for score in ended.scores]},
    )


def progress(state: GameState) -> Progress:
    """The round and each seat's score if the game ended now (the rival's too, in a solo game)."""
    return Progress(state.round, tuple(score(state, seat).total for seat in range(len(state.players))))


def redact_action(action: dict[str, Any], events: Sequence[dict[str, Any]], seat: int | None) -> dict[str, Any]:
    """A recorded action as ``seat`` may read it: another seat's choice that names a card only it has seen is
    hidden, as its event is: a card of its hand (``hand:<id>``, e.g. the card it exiles), or a card kept or put back
    after a hidden draw (told by the move's ``DecisionMade`` kind)."""
    if seat is None or action.get("seat") == seat or action.get("type") != "choose":
        return action
    if str(action.get("option", "")).startswith("hand:"):
        return {**action, "option": "hidden"}
    for event in events:
        if event.get("type") == "DecisionMade" and event.get("kind") in HIDDEN_CHOICES:
            return {**action, "option": "hidden"}
    return action


SCHEMAS = Schemas(action=schema.ACTION, options=schema.OPTIONS, view=schema.VIEW, seats=schema.SEATS)


def rules_version() -> str:
    """The current version: new games are created under it."""
    return VERSIONS.current
