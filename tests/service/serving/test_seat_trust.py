"""A seat's token checked on the cached game while the push feed vouches for it (``LiveGames.as_stored``,
``Hub.vouches``), and a voided link refused all the same by every process from the moment its ruling answers: two
services on one store stand for two processes (gunicorn workers), on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

import pytest

from service.commands.application import Digsite, Viewer
from service.commands.live_games import TRUST_SECONDS
from service.errors import Unauthorized
from service.serving import push
from service.settings import Database
from tests.service.conftest import opened_service

TIMEOUT = 30  # seconds; only a hang would reach it


@pytest.fixture
def other(database: Database) -> Iterator[Digsite]:
    """A second service on the same store: another process."""
    with opened_service(database) as made:
        yield made


def new_game(service: Digsite) -> tuple[UUID, list[str]]:
    players = [service.create_player(name) for name in ("Ana", "Beto")]
    created = service.create_game("ruins", players, seed="trust")
    return UUID(created["id"]), [t["token"] for t in created["tokens"]]


@contextmanager
def feed_running(service: Digsite, uid: UUID) -> Iterator[push.Hub]:
    """The service's push feed running, as it does while any request waits: one waits on ``uid`` for a record."""
    hub = push.hub_for(service)
    with hub.watch(uid, lambda game, to_act: False):
        yield hub


def store_reads(service: Digsite, monkeypatch: pytest.MonkeyPatch) -> list[UUID]:
    """Each game the service's live games read from the store (``LiveGames.current``), from now on."""
    reads: list[UUID] = []
    current = service.live.current

    def counted(uid: UUID) -> Any:
        reads.append(uid)
        return current(uid)

    monkeypatch.setattr(service.live, "current", counted)
    return reads


def checked_unread(service: Digsite, uid: UUID, token: str, reads: list[UUID]) -> int:
    """The token's seat, once a check of it reads nothing from the store (the feed vouches for the cached game once
    it has read where the log ends after the game was confirmed: a poll or two)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        before = len(reads)
        seat = service.seat_for_token(uid, token)
        if len(reads) == before:
            return seat
        assert time.monotonic() < deadline, "the feed never vouched for the cached game"
        time.sleep(0.005)


def test_while_the_feed_runs_a_token_is_checked_without_a_store_read_until_another_process_moves_the_game(
    service: Digsite, other: Digsite, monkeypatch: pytest.MonkeyPatch
) -> None:
    uid, tokens = new_game(service)
    reads = store_reads(other, monkeypatch)
    assert other.seat_for_token(uid, tokens[0]) == 0 and reads == [uid]  # no feed: the store is read, every time
    assert other.seat_for_token(uid, tokens[0]) == 0 and reads == [uid, uid]
    with feed_running(other, uid) as hub:
        assert checked_unread(other, uid, tokens[1], reads) == 1
        assert all(other.seat_for_token(uid, tokens[1]) == 1 for _ in range(20))
        seen, deadline = hub.fresh_at, time.monotonic() + TIMEOUT
        while hub.fresh_at is None or seen is None or hub.fresh_at <= seen:  # checks asking: the feed reads again
            assert other.seat_for_token(uid, tokens[1]) == 1
            assert time.monotonic() < deadline, "the feed stopped reading where the log ends while checks asked"
            time.sleep(0.005)
        version = other.live.peek(uid).version  # type: ignore[union-attr]
        service.submit(str(uid), Viewer(0), version, {"type": "flip", "seat": 0, "ruin": None})
        deadline = time.monotonic() + TIMEOUT
        while hub.heard.get(uid, 0) <= version:  # the feed hears of the move (it brings the watched game forward)
            assert time.monotonic() < deadline, "the feed never heard of the other process's move"
            time.sleep(0.005)
        assert checked_unread(other, uid, tokens[0], reads) == 0
        assert other.live.peek(uid).version == version + 1  # type: ignore[union-attr]
        hub.fresh_at = time.monotonic() - TRUST_SECONDS  # the feed's last read of the log's end is too old now
        before = len(reads)
        assert other.seat_for_token(uid, tokens[0]) == 0 and len(reads) == before + 1


def test_a_link_voided_by_one_process_is_refused_by_another_whose_feed_vouched_for_its_cached_game(
    service: Digsite, other: Digsite, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other process's feed is held from reading anything after the void (as a busy machine may hold it): the
    game it cached before is vouched for no longer than the ruling takes to answer, so the old token is refused on
    the very next request there, and the new one opens the seat."""
    uid, tokens = new_game(service)
    reads = store_reads(other, monkeypatch)
    with feed_running(other, uid) as hub:
        assert checked_unread(other, uid, tokens[0], reads) == 0
        held, catch_up = threading.Event(), hub.catch_up

        def held_back(*args: Any) -> None:
            held.wait(TIMEOUT)
            catch_up(*args)

        monkeypatch.setattr(hub, "catch_up", held_back)
        try:
            ruled = service.rulings.rule_on_game(str(uid), {"ruling": "void_link", "seat": 0, "reason": "sheet lost"})
            with pytest.raises(Unauthorized) as refused:
                other.seat_for_token(uid, tokens[0])
            assert refused.value.code == "link_voided"
            assert other.seat_for_token(uid, ruled["token"]["token"]) == 0
            assert other.seat_for_token(uid, tokens[1]) == 1
        finally:
            held.set()
