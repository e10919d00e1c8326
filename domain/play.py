"""Whole bot games in-process, for any registered game: the engine loop the simulator and the conformance tests
share. Each seat's policy gets a ``SeatView`` (the seat's view, built only if the policy reads it) and the
seat's legal actions; who acts is always the engine's ``to_act``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from domain.policies import Policy
from domain.protocol import GameRules, Result

State = TypeVar("State")
Action = TypeVar("Action")
Event = TypeVar("Event")


class SeatView(Mapping[str, Any]):
    """``rules.view(state, seat)`` as a read-only mapping built on first read, so a policy that never looks at
    the table costs nothing; a game's own policies may read ``state`` directly instead (only ever for this
    seat's own view: the engine's policies are the game's code, held to the same hidden-information tests)."""

    __slots__ = ("_built", "rules", "seat", "state")

    def __init__(self, rules: GameRules[Any, Any, Any], state: Any, seat: int) -> None:
        self.rules, self.state, self.seat = rules, state, seat
        self._built: dict[str, Any] | None = None

    def _view(self) -> dict[str, Any]:
        if self._built is None:
            self._built = self.rules.view(self.state, self.seat)
        return self._built

    def __getitem__(self, key: str) -> Any:
        return self._view()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._view())

    def __len__(self) -> int:
        return len(self._view())


@dataclass(frozen=True, slots=True)
class PlayedGame(Generic[State, Action, Event]):
    seed: str
    state: State
    actions: tuple[Action, ...]
    events: tuple[Event, ...]
    result: Result


def play_game(
    rules: GameRules[State, Action, Event],
    players: Sequence[str],
    policies: Sequence[Policy[Action]],
    seed: str | int,
    options: Mapping[str, Any] | None = None,
    bot_seed: int | str | None = None,
    max_actions: int = 100_000,
) -> PlayedGame[State, Action, Event]:
    """Play one game to its end; ``policies[seat]`` plays each seat ``to_act`` names (a seat the engine plays
    itself, like a solo rival, is never named). Deterministic in (seed, bot_seed)."""
    rng = random.Random(f"bots:{seed}" if bot_seed is None else bot_seed)
    events = list(rules.start(players, options, seed))
    state = rules.replay(events)
    actions: list[Action] = []
    for _ in range(max_actions):
        result = rules.result(state)
        if result is not None:
            return PlayedGame(str(seed), state, tuple(actions), tuple(events), result)
        seat = rules.to_act(state)[0]
        action = policies[seat].choose(SeatView(rules, state, seat), rules.legal_actions(state, seat), rng)
        new, state = rules.step(state, action)
        actions.append(action)
        events.extend(new)
    raise RuntimeError(f"game {seed} did not end within {max_actions} actions")
