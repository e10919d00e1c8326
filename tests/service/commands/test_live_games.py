"""The live games' cache (``LiveGames``): a bounded LRU (cachetools), the least recently used game dropped; and the
locks of the games a move holds, dropped when it is done."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace
from typing import Any
from uuid import uuid4

import pytest

from service.commands.application import Digsite, Viewer
from service.commands.live_games import LiveGames
from service.errors import Conflict


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


def test_a_game_s_lock_is_kept_while_a_move_holds_or_waits_for_it_then_dropped() -> None:
    """Moves on one game wait for each other; a server that runs for months keeps no lock per game it saw."""
    live = LiveGames(repository=None, size=2)
    uid = uuid4()
    order: list[str] = []
    first_in, let_go = threading.Event(), threading.Event()

    def first() -> None:
        with live.locked(uid):
            order.append("first in")
            first_in.set()
            let_go.wait(timeout=30)
            order.append("first out")

    def second() -> None:
        with live.locked(uid):
            order.append("second in")

    one = threading.Thread(target=first)
    one.start()
    assert first_in.wait(timeout=30)
    two = threading.Thread(target=second)
    two.start()
    deadline = time.monotonic() + 30
    while live._locks[uid].users < 2:  # (the second move is waiting for the lock, counted)
        assert time.monotonic() < deadline, "the second move never came to the lock"
        time.sleep(0.001)
    assert live.locks_kept() == 1
    let_go.set()
    one.join(timeout=30)
    two.join(timeout=30)
    assert order == ["first in", "first out", "second in"]
    assert live.locks_kept() == 0


def test_moves_leave_no_lock_behind(service: Digsite) -> None:
    players = [service.create_player(name) for name in ("Ana", "Beto")]
    for n in range(3):
        created = service.create_game("ruins", players, seed=f"locks-{n}")
        seen = service.game(created["id"], Viewer(0))
        service.submit(created["id"], Viewer(0), seen["version"], seen["legal_actions"][0])
        with pytest.raises(Conflict):  # (a refused move too)
            service.submit(created["id"], Viewer(0), seen["version"], seen["legal_actions"][0])
    assert service.live.locks_kept() == 0
