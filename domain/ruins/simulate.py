"""Play whole bot games in-process: the engine loop the CLI, the tests and the benchmarks share."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from domain.ruins.actions import Action
from domain.ruins.bots import Bot, Seen
from domain.ruins.decide import decide
from domain.ruins.events import Event
from domain.ruins.evolve import evolve, replay
from domain.ruins.legal import legal_actions, to_act
from domain.ruins.setup import start
from domain.ruins.state import GameState


@dataclass(frozen=True, slots=True)
class PlayedGame:
    seed: str
    state: GameState
    actions: tuple[Action, ...]
    events: tuple[Event, ...]

    @property
    def rounds(self) -> int:
        return self.state.round

    @property
    def showdown(self) -> bool:
        return self.state.showdown


def play_game(
    players: Sequence[str],
    bots: Sequence[Bot],
    seed: str | int,
    bot_seed: int | None = None,
    max_actions: int = 100_000,
) -> PlayedGame:
    """Play one game to its end; ``bots[i]`` plays seat i. Deterministic in (seed, bot_seed)."""
    rng = random.Random(f"bots:{seed}" if bot_seed is None else bot_seed)
    events = start(players, None, seed)
    state: GameState | None = None
    for event in events:
        state = evolve(state, event)
    assert state is not None
    actions: list[Action] = []
    for _ in range(max_actions):
        if state.outcome is not None:
            return PlayedGame(str(seed), state, tuple(actions), tuple(events))
        seat = to_act(state)[0]
        action = bots[seat].choose(Seen.from_state(state, seat), legal_actions(state, seat), rng)
        new = decide(state, action)
        state = replay(new, state)  # evolve, event by event, without building the states in between
        actions.append(action)
        events.extend(new)
    raise RuntimeError(f"game {seed} did not end within {max_actions} actions")
