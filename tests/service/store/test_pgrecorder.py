"""The PostgreSQL append when a connection is lost mid-append: retried once on a fresh connection, never
recorded twice, and a move another worker recorded meanwhile still wins (a secret choice of another seat made
at the same time is followed by ours, once); while the store is down, requests
are refused at once. The losses are made by hand (a real server cannot be made to lose one answer on cue);
tests/service/api/test_outage.py stops and restarts a real server."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import psycopg
import pytest
from eventsourcing.persistence import StoredEvent

from service.commands.application import Digsite, Viewer
from service.errors import Conflict
from service.settings import Database, Settings
from service.store import backends
from service.store.backends import Health, StoreUnavailable
from service.store.pgrecorder import OPEN_PER_LIST, DigsitePostgresRecorder, StoreGuard
from tests.service.conftest import _drop_schema

pytestmark = pytest.mark.postgres

FLIP = {"type": "flip", "seat": 0, "ruin": None}


@pytest.fixture
def service(postgres_url: str) -> Iterator[Digsite]:
    schema = f"digsite_test_{secrets.token_hex(6)}"
    db = Database.from_url(f"{postgres_url}{'&' if '?' in postgres_url else '?'}schema={schema}")
    backends.upgrade(db)
    svc = Digsite(Settings(database=db, api_key="key"))
    try:
        yield svc
    finally:
        svc.close()
        _drop_schema(postgres_url, schema)


def new_game(service: Digsite) -> str:
    players = [service.create_player(name) for name in ("Ana", "Beto")]
    return str(service.create_game("ruins", players, seed="lost")["id"])


def recorder_of(service: Digsite) -> DigsitePostgresRecorder:
    recorder = service.app.recorder
    assert isinstance(recorder, DigsitePostgresRecorder)
    return recorder


def moves(service: Digsite, game: str) -> list[tuple[int, int]]:
    return [(r["version"], r["body"]["seat"]) for r in service.stored_records(game) if r["type"] == "move"]


def lose_the_first_answer(
    monkeypatch: pytest.MonkeyPatch, service: Digsite, meanwhile: Any = None
) -> list[Sequence[StoredEvent]]:
    """The first append commits (after ``meanwhile`` ran, if given), then its connection is lost before the answer."""
    recorder = recorder_of(service)
    real = recorder._insert_events_once
    calls: list[Sequence[StoredEvent]] = []

    def append(stored: Sequence[StoredEvent]) -> Sequence[int]:
        calls.append(stored)
        if len(calls) > 1:
            return real(stored)
        if meanwhile is not None:
            meanwhile()
            raise psycopg.OperationalError("server closed the connection unexpectedly")
        real(stored)
        raise psycopg.OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(recorder, "_insert_events_once", append)
    return calls


def test_a_move_whose_answer_was_lost_after_it_committed_is_acknowledged_once(
    service: Digsite, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(service)
    calls = lose_the_first_answer(monkeypatch, service)
    answer = service.submit(game, Viewer(0), 1, FLIP)
    assert answer["version"] == 2 and len(calls) == 2  # retried once; the retry found its own record stored
    assert moves(service, game) == [(2, 0)]


def test_a_move_lost_before_it_committed_is_recorded_by_the_retry(
    service: Digsite, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(service)
    calls = lose_the_first_answer(monkeypatch, service, meanwhile=lambda: None)  # nothing was written
    assert service.submit(game, Viewer(0), 1, FLIP)["version"] == 2 and len(calls) == 2
    assert moves(service, game) == [(2, 0)]


def test_a_lost_append_whose_version_the_same_seat_took_elsewhere_is_a_conflict_not_a_double(
    service: Digsite, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(service)
    other = Digsite(service.settings)  # another API worker on the same store: the same seat from another device
    try:
        lose_the_first_answer(monkeypatch, service, meanwhile=lambda: other.submit(game, Viewer(0), 1, FLIP))
        with pytest.raises(Conflict):
            service.submit(game, Viewer(0), 1, FLIP)
    finally:
        other.close()
    assert moves(service, game) == [(2, 0)]


def test_a_lost_append_whose_version_another_seat_s_secret_choice_took_lands_after_it_once(
    service: Digsite, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(service)
    other = Digsite(service.settings)  # another API worker on the same store
    try:
        seat_one = {"type": "flip", "seat": 1, "ruin": None}
        lose_the_first_answer(monkeypatch, service, meanwhile=lambda: other.submit(game, Viewer(1), 1, seat_one))
        assert service.submit(game, Viewer(0), 1, FLIP)["version"] == 3  # (both chose in secret, at once)
    finally:
        other.close()
    assert moves(service, game) == [(2, 1), (3, 0)]


def test_while_the_store_is_down_requests_fail_at_once_and_one_probe_finds_it_back(
    service: Digsite, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(service)
    guard = recorder_of(service)._guard
    probes: list[str] = []
    answer = ["down"]
    real_probe = StoreGuard.probe

    def probe(self: StoreGuard) -> Health:
        probes.append(answer[0])
        return Health("down", "unreachable") if answer[0] == "down" else real_probe(self)

    monkeypatch.setattr(StoreGuard, "probe", probe)
    lose_the_first_answer(monkeypatch, service, meanwhile=lambda: None)
    with pytest.raises(StoreUnavailable):
        service.submit(game, Viewer(0), 1, FLIP)
    assert guard.down and probes == ["down"]
    for _ in range(20):  # within the probe interval: refused without asking the server again
        with pytest.raises(StoreUnavailable):
            service.game(game)
    assert probes == ["down"]
    answer[0] = "up"
    monkeypatch.setattr(guard, "_next_probe", 0.0)  # the probe interval has passed
    assert service.submit(game, Viewer(0), 1, FLIP)["version"] == 2
    assert probes == ["down", "up"] and not guard.down
    assert moves(service, game) == [(2, 0)]


def test_a_burst_of_readers_opens_no_more_connections_than_a_list_allows(service: Digsite) -> None:
    """Sixty requests reading at once, each finding no idle connection and each connect slow (as a SCRAM handshake
    starved by a worker's other threads is): at most ``OPEN_PER_LIST`` connections are opened, the rest wait for one
    to come back. Unbounded, a burst of waits opened hundreds, past PostgreSQL's max_connections."""
    game = new_game(service)
    datastore = recorder_of(service).datastore
    connections = datastore.connections
    connections.clear()
    real_connect = connections._connect
    made = []

    def slow_connect() -> psycopg.Connection[Any]:
        time.sleep(0.05)
        conn = real_connect()
        made.append(conn)
        return conn

    connections._connect = slow_connect  # type: ignore[method-assign]
    start = threading.Barrier(60)

    def read() -> int:
        start.wait()
        return int(service.game(game)["version"])

    with ThreadPoolExecutor(60) as pool:
        versions = list(pool.map(lambda _: read(), range(60)))
    assert versions == [1] * 60
    assert 1 <= len(made) <= OPEN_PER_LIST


def test_a_health_check_asks_a_connection_in_use_not_a_new_one(
    service: Digsite, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A busy server whose new connections run out of time (their handshake waiting behind a worker's hundreds of
    threads) is healthy if the connections it has answer; a server that answers none is down (503)."""
    game = new_game(service)
    service.game(game)  # a connection in use, kept idle
    guard = recorder_of(service)._guard

    def timed_out(**options: Any) -> psycopg.Connection[Any]:
        raise psycopg.errors.ConnectionTimeout("connection timeout expired")

    monkeypatch.setattr(guard, "_connect", timed_out)
    assert service.store_health() == Health("ok")
    assert not guard.down
    # Every connection busy (none free within the probe's timeout): the last answer stands.
    connections = recorder_of(service).datastore.connections
    held = [connections.take() for _ in range(OPEN_PER_LIST)]
    monkeypatch.setattr(guard, "_health", (0.0, Health("ok")))  # (an answer older than the cache keeps)
    assert service.store_health() == Health("ok")
    assert not guard.down
    for conn in held:
        connections.give(conn)
    # With no connection that answers, the new one decides: down.
    guard.drop_idle()
    monkeypatch.setattr(recorder_of(service).datastore.connections, "_connect", timed_out)
    monkeypatch.setattr(guard, "_answered", float("-inf"))
    monkeypatch.setattr(guard, "_health", None)
    assert service.store_health().state == "down"
    assert guard.down


def test_a_new_connection_timing_out_while_others_answer_is_busy_not_an_outage(
    service: Digsite, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The request that could not connect gets a 503, the store is not taken for down: the next request, on a
    connection in use, is served. The same timeout with no answer from the server for a while is an outage."""
    game = new_game(service)
    connections = recorder_of(service).datastore.connections
    service.game(game)
    guard = recorder_of(service)._guard

    def timed_out() -> psycopg.Connection[Any]:
        raise psycopg.errors.ConnectionTimeout("connection timeout expired")

    real_connect = connections._connect
    connections.clear()
    monkeypatch.setattr(connections, "_connect", timed_out)
    with pytest.raises(StoreUnavailable):
        service.game(game)
    assert not guard.down
    monkeypatch.setattr(connections, "_connect", real_connect)
    assert service.game(game)["version"] == 1
    connections.clear()
    monkeypatch.setattr(connections, "_connect", timed_out)
    monkeypatch.setattr(guard, "_answered", float("-inf"))
    with pytest.raises(StoreUnavailable):
        service.game(game)
    assert guard.down
