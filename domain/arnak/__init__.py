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
from importlib import resources
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
from domain.arnak.components import Book, book
from domain.arnak.decide import decide, step
from domain.arnak.describe import describe
from domain.arnak.events import Event, event_from_dict, event_to_dict
from domain.arnak.evolve import evolve, replay
from domain.arnak.legal import legal_actions, to_act
from domain.arnak.setup import start as _start
from domain.arnak.state import GameState, Outcome
from domain.arnak.view import redact_event, view
from domain.versions import Release, Versions

GAME = "arnak"

__all__ = [
    "GAME",
    "VERSIONS",
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


# -- rules versions (domain.versions): Arnak has released one; its data files are pinned as released --------
VERSIONS: Versions[Book] = Versions(
    "arnak",
    resources.files("domain.arnak") / "data",
    lambda name, data: book(),  # one version: the engine's own book (components.book) is that version's
    [
        Release(
            "arnak-0",
            {
                "components": ("components.json", "607f5dd20f45ab801dd237f2bb25c9ff1535cf58e74b39164e19ac4726ad1a26"),
                "board": ("board.json", "15f33ca36d7349168ff6ab107345a59dffb24c6aea787c5f1be8739182e41dd7"),
                "cards": ("cards.json", "761c6b7665287a570945737d3b377e3b5d7a720f005fe705c1e1b7f4b71d9aec"),
                "rival": ("rival.json", "c48f98d390eeb866b42353955933206b9a6720e9eb20d234c5e187658da892f7"),
            },
        ),
    ],
)


def start(
    players: Iterable[str],
    options: Mapping[str, Any] | None = None,
    seed: str | int = 0,
    rules_version: str | None = None,
) -> list[Event]:
    """The opening events of a new game under ``rules_version`` (``None``: the current, and only, version)."""
    VERSIONS.book(rules_version)  # refuses, by name, a version Arnak never released
    return _start(players, options, seed)


# -- end of rules versions -------------------------------------------------------------------------------------


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
