"""Whole Arnak bot games in-process: the generic loop every game shares (``domain.play.play_game``) with Arnak's
rules, under the argument order Arnak's tests have always used. The loop is not repeated here: the heuristic bot's
one speed path (a view that answers the board's public parts first) lives with the bot (``bots.PublicFirstView``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain import arnak
from domain.arnak.actions import Action
from domain.arnak.events import Event
from domain.arnak.state import GameState
from domain.play import PlayedGame
from domain.play import play_game as play
from domain.policies import Policy


def play_game(
    players: Sequence[str],
    bots: Sequence[Policy[Action]],
    seed: str | int,
    bot_seed: int | None = None,
    max_actions: int = 20_000,
    options: Mapping[str, Any] | None = None,
) -> PlayedGame[GameState, Action, Event]:
    """Play one game to its end; ``bots[i]`` plays seat i. Deterministic in (seed, bot_seed)."""
    return play(arnak, players, bots, seed, options, bot_seed, max_actions)
