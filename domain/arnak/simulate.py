"""Play whole bot games in-process: the engine loop the tests and benchmarks share."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.arnak.actions import Action
from domain.arnak.decide import step
from domain.arnak.events import Event
from domain.arnak.evolve import replay
from domain.arnak.legal import legal_actions, to_act
from domain.arnak.setup import start
from domain.arnak.state import GameState
from domain.arnak.view import sites, view

if TYPE_CHECKING:
    from domain.arnak.bots import Bot

# Parts of a view that are the same for every seat, built on their own when read before the rest (``view`` builds
# them the same way).
PUBLIC_PARTS: dict[str, Callable[[GameState], Any]] = {"side": lambda state: state.side, "sites": sites}


class SeatView(Mapping[str, Any]):
    """``view(state, seat)`` as a read-only mapping, built on first read: a bot that never looks at the table (the
    random bot) costs nothing, and one that reads only the board's public parts (``PUBLIC_PARTS``: the heuristic
    bot weighing digs) gets just those.

    SPEED: building every bot's view was a seventh of a random four-player game (33 to 43 games per CPU second,
    simulate.play_game); building the heuristic bot's whole view to read the sites was a sixth of a heuristic game
    (43 to 50 four-player heuristic games per CPU second; 253 to 213 million instructions a game, callgrind)."""

    def __init__(self, state: GameState, seat: int) -> None:
        self._state, self._seat = state, seat
        self._view: dict[str, Any] | None = None
        self._parts: dict[str, Any] = {}

    def _built(self) -> dict[str, Any]:
        if self._view is None:
            self._view = view(self._state, self._seat)
        return self._view

    def __getitem__(self, key: str) -> Any:
        if self._view is None and key in PUBLIC_PARTS:
            if key not in self._parts:
                self._parts[key] = PUBLIC_PARTS[key](self._state)
            return self._parts[key]
        return self._built()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._built())

    def __len__(self) -> int:
        return len(self._built())


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
        action = bots[seat].choose(SeatView(state, seat), legal_actions(state, seat), rng)
        new, state = step(state, action)
        actions.append(action)
        events.extend(new)
    raise RuntimeError(f"game {seed} did not end within {max_actions} actions")
