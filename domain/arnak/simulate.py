"""Play whole bot games in-process: the engine loop the tests and benchmarks share."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.arnak.actions import Action
from domain.arnak.bots import Bot
from domain.arnak.decide import step
from domain.arnak.events import Event
from domain.arnak.evolve import replay
from domain.arnak.legal import legal_actions, to_act
from domain.arnak.setup import start
from domain.arnak.state import GameState
from domain.arnak.view import view


@dataclass(frozen=True, slots=True)
class PlayedGame:
    seed: str
    state: GameState
    actions: tuple[Action, ...]
    events: tuple[Event, ...]


def play_game(
    players: Sequence[str],
    bots: Sequence[Bot],
    seed: str | int,
    bot_seed: int | None = None,
    max_actions: int = 20_000,
    options: Mapping[str, Any] | None = None,
) -> PlayedGame:
    """Play one game to its end; ``bots[i]`` plays seat i. Deterministic in (seed, bot_seed)."""
    rng = random.Random(f"bots:{seed}" if bot_seed is None else bot_seed)
    events = start(players, options, seed)
    state = replay(events)
    actions: list[Action] = []
    for _ in range(max_actions):
        if state.outcome is not None:
            return PlayedGame(str(seed), state, tuple(actions), tuple(events))
        seat = to_act(state)[0]
        action = bots[seat].choose(view(state, seat), legal_actions(state, seat), rng)
        new, state = step(state, action)
        actions.append(action)
        events.extend(new)
    raise RuntimeError(f"game {seed} did not end within {max_actions} actions")
