"""The PostgreSQL append when a connection is lost mid-append: retried once on a fresh connection, never
recorded twice, and a move another worker recorded meanwhile still wins (a secret choice of another seat made
at the same time is followed by ours, once); while the store is down, requests
are refused at once. The losses are made by hand (a real server cannot be made to lose one answer on cue);
tests/service/api/test_outage.py stops and restarts a real server."""

from __future__ import annotations

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
from service.store.backends import Health, StoreUnavailable
from service.store.connection_pool import OPEN_PER_POOL, TAKE_TIMEOUT_SECONDS
from service.store.pgrecorder import DigsitePostgresRecorder
from service.store.store_guard import BUSY, StoreGuard

pytestmark = pytest.mark.postgres

FLIP = {"type": "flip", "seat": 0, "ruin": None}


@pytest.fixture
def service(pg: Database) -> Iterator[Digsite]:
    svc = Digsite(Settings(database=pg, api_key="key"))
    try:
        yield svc
    finally:
        svc.close()


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


def test_a_burst_of_readers_opens_no_more_connections_than_a_pool_allows(service: Digsite) -> None:
    """Forty readers at once, each holding its connection a while (as a slow page does) and each connect slow (as a
    SCRAM handshake starved by a worker's other threads is): at most ``OPEN_PER_POOL`` connections are opened, the
    rest wait for one to come back, and every reader is served. Unbounded, a burst of waits opened hundreds, past
    PostgreSQL's max_connections."""
    connections = recorder_of(service).datastore.connections
    real_connect = connections._connect
    made = []

    def slow_connect() -> psycopg.Connection[Any]:
        time.sleep(0.02)
        conn = real_connect()
        made.append(conn)
        return conn

    connections._connect = slow_connect  # type: ignore[method-assign]
    connections.clear()
    start = threading.Barrier(40)

    def read() -> int:
        start.wait()
        with connections.taken() as conn:
            row = conn.execute("SELECT 1 AS one, pg_sleep(0.2)").fetchone()
        return int(row["one"]) if row is not None else 0

    with ThreadPoolExecutor(40) as pool:
        answers = list(pool.map(lambda _: read(), range(40)))
    assert answers == [1] * 40
    assert OPEN_PER_POOL // 2 <= len(made) <= OPEN_PER_POOL


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
    held = [connections.take() for _ in range(OPEN_PER_POOL)]
    monkeypatch.setattr(guard, "_health", (0.0, Health("ok")))  # (an answer older than the cache keeps)
    assert service.store_health() == Health("ok")
    assert not guard.down
    for conn in held:
        connections.give(conn)
    # With no connection that answers, the new one decides: down.
    monkeypatch.setattr(connections, "_connect", timed_out)
    monkeypatch.setattr(guard, "_answered", float("-inf"))
    monkeypatch.setattr(guard, "_health", None)
    guard.drop_idle()
    assert service.store_health().state == "down"
    assert guard.down


def test_a_new_connection_timing_out_while_others_answer_is_busy_not_an_outage(
    service: Digsite, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A request that finds no connection free and cannot make one waits (503 'busy' past its timeout), the store is
    not taken for down: once a connection can be made again, the next request is served. The same timeout with no
    answer from the server for a while is an outage, and the request waiting fails at once."""
    game = new_game(service)
    connections = recorder_of(service).datastore.connections
    service.game(game)
    guard = recorder_of(service)._guard
    tried: list[float] = []

    def timed_out() -> psycopg.Connection[Any]:
        tried.append(time.monotonic())
        raise psycopg.errors.ConnectionTimeout("connection timeout expired")

    real_connect = connections._connect
    monkeypatch.setattr(connections, "_connect", timed_out)
    connections.clear()
    with pytest.raises(StoreUnavailable) as refused:
        connections.take(timeout=0.5)
    assert refused.value.message == BUSY and tried and not guard.down
    monkeypatch.setattr(connections, "_connect", real_connect)
    assert service.game(game)["version"] == 1
    monkeypatch.setattr(connections, "_connect", timed_out)
    monkeypatch.setattr(guard, "_answered", float("-inf"))
    connections.clear()
    started = time.monotonic()
    with pytest.raises(StoreUnavailable):
        service.game(game)
    assert guard.down and time.monotonic() - started < TAKE_TIMEOUT_SECONDS / 2  # not the pool's waiting timeout


def test_after_a_failed_connect_the_pool_keeps_no_connect_waiting_on_a_back_off(
    service: Digsite, monkeypatch: pytest.MonkeyPatch
) -> None:
    """psycopg-pool by default tries a failed connect again and again, a back-off apart, and grows no further while
    it does: a server back from an outage would wait for the next try. Here a failed connect is given up at once,
    and the first request once the guard finds the server back opens a fresh connection."""
    game = new_game(service)
    connections = recorder_of(service).datastore.connections
    guard = recorder_of(service)._guard

    def refused() -> psycopg.Connection[Any]:
        raise psycopg.OperationalError("connection refused")

    real_connect = connections._connect
    monkeypatch.setattr(connections, "_connect", refused)
    connections.clear()
    with pytest.raises(StoreUnavailable):
        service.game(game)
    assert guard.down
    deadline = time.monotonic() + 5
    while connections.opened() > 0:  # the pool gave the failed connects up
        assert time.monotonic() < deadline, "a failed connect is still counted: the pool tries it again later"
        time.sleep(0.01)
    monkeypatch.setattr(connections, "_connect", real_connect)
    monkeypatch.setattr(guard, "_next_probe", 0.0)  # the probe interval has passed: the next request probes
    assert service.game(game)["version"] == 1 and not guard.down
    assert connections.opened() >= 1
