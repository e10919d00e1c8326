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

from collections.abc import Iterable, Mapping
from typing import Any

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
from domain.arnak.codec import state_from_dict, state_to_dict
from domain.arnak.components import book
from domain.arnak.decide import decide, step
from domain.arnak.describe import describe
from domain.arnak.events import Event, event_from_dict, event_to_dict
from domain.arnak.evolve import evolve, replay
from domain.arnak.legal import legal_actions, to_act
from domain.arnak.setup import start
from domain.arnak.state import GameState, Outcome
from domain.arnak.view import redact_event, view

GAME = "arnak"

__all__ = [
    "GAME",
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
    "rules_version",
    "start",
    "state_from_dict",
    "state_to_dict",
    "to_act",
    "view",
]


def new_game(players: Iterable[str], options: Mapping[str, Any] | None = None, seed: str | int = 0) -> GameState:
    """A new game, set up and waiting for the first player's first turn of round 1."""
    return replay(start(players, options, seed))


def apply(state: GameState, action: Action) -> GameState:
    """``decide`` then ``evolve``: the state after a legal action (raises on an illegal one)."""
    return step(state, action)[1]


def outcome(state: GameState) -> Outcome | None:
    return state.outcome


def rules_version() -> str:
    return book().version


def new_seed() -> str:
    """A fresh secret seed: 128 random bits, so its published hash cannot be reversed by guessing."""
    import secrets

    return secrets.token_hex(16)
