"""The live games' cache (``LiveGames``): a bounded LRU (cachetools), the least recently used game dropped."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any
from uuid import uuid4

from service.commands.live_games import LiveGames


def test_a_full_cache_drops_the_game_used_least_recently_not_the_one_stored_first() -> None:
    live = LiveGames(repository=None, size=2)
    first, second, third = (SimpleNamespace(id=uuid4()) for _ in range(3))
    game: Any
    for game in (first, second):
        live.remember(game)
    assert live.load(first.id) is first  # used again: now the most recent
    live.remember(third)
    assert live.peek(second.id) is None
    assert live.peek(first.id) is first and live.peek(third.id) is third
