"""Shared helpers for the Arnak rule tests: positions built from a real setup, acting, refusals."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import pytest

from domain import arnak
from domain.arnak import events as ev
from domain.arnak.actions import Action
from domain.arnak.components import RESOURCES, Resources, book
from domain.arnak.state import GameState
from domain.errors import RuleViolation

NAMES = ("Ana", "Beto", "Carla", "Diego")
BOOK = book()


def game(n: int = 2, seed: str | int = "test") -> GameState:
    return arnak.new_game(NAMES[:n], seed=seed)


def res(**amounts: int) -> Resources:
    a, b, c, d, e = (amounts.get(r, 0) for r in RESOURCES)
    return (a, b, c, d, e)


def with_player(state: GameState, seat: int, **changes: Any) -> GameState:
    """``state`` with seat ``seat``'s player changed (``resources`` may be given as a dict)."""
    if isinstance(changes.get("resources"), dict):
        changes["resources"] = res(**changes["resources"])
    return state.with_seat(seat, replace(state.seats[seat], **changes))


def act(state: GameState, action: Action) -> tuple[GameState, list[ev.Event]]:
    events = arnak.decide(state, action)
    for event in events:
        state = arnak.evolve(state, event)
    return state, events


def run(state: GameState, *actions: Action) -> GameState:
    for action in actions:
        state, _ = act(state, action)
    return state


def rejected(state: GameState, action: Action, rule: str, error: type[RuleViolation] = RuleViolation) -> str:
    """``action`` is refused with ``error`` whose message names ``rule``; nothing changes."""
    saved = copy.deepcopy(state)
    with pytest.raises(error) as caught:
        arnak.decide(state, action)
    message = str(caught.value)
    assert rule in message, message
    assert state == saved
    return message


def card_named(name: str) -> int:
    return next(c.id for c in BOOK.cards.values() if c.name == name)


def kinds(events: list[ev.Event]) -> list[str]:
    return [type(e).__name__ for e in events]
