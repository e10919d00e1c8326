"""Ruins (John D. Clair): a climbing card game with card crafting, as a pure deterministic engine.

The public API, in the style of python-chess and OpenSpiel::

    >>> from domain import ruins
    >>> state = ruins.new_game(["Ana", "Beto", "Carla"], seed=7)
    >>> state.round, len(state.hands[0])
    (1, 9)
    >>> action = ruins.legal_actions(state, 0)[0]
    >>> state = ruins.apply(state, action)      # decide + evolve
    >>> ruins.outcome(state) is None
    True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from domain.protocol import Progress, Result, Schemas
from domain.ruins import schema
from domain.ruins.actions import (
    Action,
    Discard,
    Flip,
    Pass,
    Play,
    Purchase,
    action_from_dict,
    action_from_str,
    action_to_dict,
)
from domain.ruins.analytics import ANALYTICS, move_facts
from domain.ruins.bots import BOTS
from domain.ruins.codec import action_from_record, event_from_dict, state_from_dict, state_to_dict
from domain.ruins.decide import decide
from domain.ruins.describe import describe
from domain.ruins.events import Event, event_to_dict
from domain.ruins.evolve import evolve, replay
from domain.ruins.legal import craft_options, legal_actions, plays, timeout_action, to_act, unaffected
from domain.ruins.sampling import sample
from domain.ruins.setup import start
from domain.ruins.setup_position import new_game_from_setup, start_from_setup
from domain.ruins.state import GameState, Outcome, Ruin
from domain.ruins.versions import VERSIONS, book_of
from domain.ruins.view import redact_action, redact_event, view
from domain.seeds import new_seed, seed_of

GAME = "ruins"

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
    "action_from_record",
    "move_facts",
    "describe",
    "new_seed",
    "redact_event",
    "rules_version",
    "state_from_dict",
    "state_to_dict",
    "Action",
    "Discard",
    "Event",
    "Flip",
    "GameState",
    "Outcome",
    "Pass",
    "Play",
    "Purchase",
    "Ruin",
    "action_from_dict",
    "action_from_str",
    "action_to_dict",
    "apply",
    "craft_options",
    "craft_steps",
    "decide",
    "event_from_dict",
    "event_to_dict",
    "evolve",
    "legal_actions",
    "new_game",
    "new_game_from_setup",
    "outcome",
    "plays",
    "replay",
    "sample",
    "book_of",
    "start",
    "start_from_setup",
    "timeout_action",
    "to_act",
    "unaffected",
    "view",
]


def new_game(
    players: Iterable[str],
    options: Mapping[str, Any] | None = None,
    seed: str | int = 0,
    rules_version: str | None = None,
) -> GameState:
    """A new game under ``rules_version`` (``None``: the current one), dealt and waiting for the round-1 night flips."""
    return replay(start(players, options, seed, rules_version))


def apply(state: GameState, action: Action) -> GameState:
    """``decide`` then ``evolve``: the state after a legal action (raises on an illegal one)."""
    return replay(decide(state, action), state)


def step(state: GameState, action: Action) -> tuple[list[Event], GameState]:
    """``decide``, and the state its events lead to."""
    events = decide(state, action)
    return events, replay(events, state)


def outcome(state: GameState) -> Outcome | None:
    return state.outcome


def result(state: GameState) -> Result | None:
    """The common summary: the winner first (going out first, or the Showdown), then the others by VP (ties
    by seat); the game's own words (how it was won, in which round) in ``detail``."""
    ended = state.outcome
    if ended is None:
        return None
    others = sorted((s for s in range(len(state.vp)) if s != ended.winner), key=lambda s: (-state.vp[s], s))
    return Result(
        ranking=(ended.winner, *others),
        winners=(ended.winner,),
        scores=tuple(state.vp),
        detail={"how": ended.how, "round": ended.round},
    )


def progress(state: GameState) -> Progress:
    """The round (the Showdown counts as the round after the last regular one) and the VP so far."""
    return Progress(state.round, tuple(state.vp))


SCHEMAS = Schemas(action=schema.ACTION, options=schema.OPTIONS, view=schema.VIEW, seats=schema.SEATS)


def craft_steps(state: GameState, action: Action) -> list[Action]:
    """The game's crafting for any move (``domain.games.Game.craft_steps``): a play's forms with one more purchase
    or claim (``craft_options``), none for a move that is never crafted (a flip, a discard, a pass)."""
    return [*craft_options(state, action)] if isinstance(action, Play) else []


def rules_version() -> str:
    """The current rules version: the one new games are created under (``VERSIONS`` lists every release)."""
    return VERSIONS.current
