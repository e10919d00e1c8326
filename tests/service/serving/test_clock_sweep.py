"""The background sweep records timeouts on tables where nobody moves; two service processes on one PostgreSQL store
noticing at once record each timeout once; a timeout wakes a request waiting on the push channel. Clocks are
injected: nothing waits for time to pass."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from service.commands.application import Digsite, Viewer
from service.reading.read_port import ReadPort
from service.serving import push
from service.serving.clock_sweep import ClockSweep
from service.settings import Database, Settings
from tests.service.api.support import project
from tests.service.commands.test_clocks import Clock
from tests.stores import Shelf

TIMEOUT = 10.0


@pytest.fixture
def clock() -> Clock:
    return Clock()


def _service(database: Database, clock: Clock) -> Digsite:
    return Digsite(Settings(database=database, api_key="organiser-key"), clock=clock)


@pytest.fixture
def timed(database: Database, clock: Clock) -> Iterator[Digsite]:
    svc = _service(database, clock)
    try:
        yield svc
    finally:
        svc.close()


def _game(service: Digsite, control: dict[str, Any] | None) -> str:
    players = [service.create_player(f"P{i}") for i in range(3)]
    return service.create_game("ruins", players, seed="swept", clock=control)["id"]


def _timeouts(service: Digsite, game_id: str) -> list[dict[str, Any]]:
    return [r for r in service.stored_records(game_id) if r["type"] == "timeout"]


def test_the_sweep_times_out_the_seats_of_a_table_where_nobody_moves_and_skips_untimed_games(
    timed: Digsite, clock: Clock
) -> None:
    from service import bootstrap

    clocked = _game(timed, {"per_move": 60})
    untimed = _game(timed, None)
    project(timed)  # (the sweep finds the games in play in the read models)
    read: ReadPort = bootstrap.read_port(timed)
    try:
        sweep = ClockSweep(timed, read, seconds=0)
        assert sweep.sweep() == 0  # nobody's time has run out yet
        clock.wait(61)
        running = timed.game(clocked)["to_act"]
        assert sweep.sweep() == len(running)
        assert [r["body"]["seat"] for r in _timeouts(timed, clocked)] == running
        assert _timeouts(timed, untimed) == [] and untimed in sweep._untimed
        assert sweep.sweep() == 0  # (the next seats have a minute each from the timeouts)
    finally:
        read.close()


@pytest.mark.postgres
def test_two_services_on_one_postgresql_store_noticing_at_once_record_each_timeout_once(
    pg: Database, clock: Clock
) -> None:
    first, second = _service(pg, clock), _service(pg, clock)
    try:
        game_id = _game(first, {"per_move": 30})
        running = first.game(game_id)["to_act"]
        second.game(game_id)  # (both hold the game in memory, as two API servers would)
        clock.wait(31)
        start = threading.Barrier(2)
        found: dict[str, list[int]] = {}

        def notice(name: str, service: Digsite) -> None:
            start.wait()
            found[name] = service.enforce_clock(game_id)

        threads = [threading.Thread(target=notice, args=(n, s)) for n, s in (("first", first), ("second", second))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(TIMEOUT)
        assert sorted(found["first"] + found["second"]) == sorted(running)  # each seat's timeout, recorded once
        assert [r["body"]["seat"] for r in _timeouts(first, game_id)] == running
        assert first.enforce_clock(game_id) == second.enforce_clock(game_id) == []
    finally:
        first.close()
        second.close()


def test_a_timeout_wakes_a_request_waiting_on_the_push_channel(timed: Digsite, clock: Clock) -> None:
    game_id = _game(timed, {"per_move": 30})
    seat = timed.game(game_id)["to_act"][0]
    version = timed.game(game_id)["version"]
    out: dict[str, Any] = {}
    waiting = threading.Thread(
        target=lambda: out.update(push.updates(timed, game_id, Viewer(seat), version, TIMEOUT)), daemon=True
    )
    waiting.start()
    hub = push.hub_for(timed)
    deadline = time.monotonic() + TIMEOUT
    while not hub.waiting:
        assert time.monotonic() < deadline, "the request never started waiting"
        time.sleep(0.005)
    clock.wait(31)
    started = time.monotonic()
    assert timed.enforce_clock(game_id)
    waiting.join(TIMEOUT)
    assert not waiting.is_alive() and time.monotonic() - started < TIMEOUT / 2
    assert out["ready"] and [r["type"] for r in out["records"]][:1] == ["timeout"]


def test_a_read_on_the_push_channel_that_finds_a_seat_out_of_time_records_the_timeout_first(
    timed: Digsite, clock: Clock
) -> None:
    game_id = _game(timed, {"per_move": 30})
    seat = timed.game(game_id)["to_act"][0]
    clock.wait(30.5)
    answer = push.updates(timed, game_id, Viewer(seat), 1, 0)
    assert "timeout" in [r["type"] for r in answer["records"]]
    assert [r["body"]["seat"] for r in _timeouts(timed, game_id)][:1] == [seat]


# -- one sweeper at a time (service.serving.sweep_lease) ------------------------------------------------------------


def _poll(condition: Any, what: str) -> None:
    """Wait for ``condition()`` to hold, asking again and again (no fixed sleep), for at most TIMEOUT seconds."""
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {TIMEOUT} s: {what}")
        time.sleep(0.01)


@pytest.mark.postgres
def test_on_postgresql_one_sweeper_sweeps_the_other_waits_and_takes_over_when_the_first_stops_or_dies(
    pg: Database, clock: Clock
) -> None:
    from service import bootstrap

    first, second = _service(pg, clock), _service(pg, clock)
    reads = [bootstrap.read_port(first), bootstrap.read_port(second)]
    game_id = _game(first, {"per_move": 30})
    project(first)
    one, two = ClockSweep(first, reads[0], seconds=0), ClockSweep(second, reads[1], seconds=0)
    try:
        assert one.tick() and not two.tick() and not two.tick()  # the first holds the lease; the second waits
        assert (one.passes, one.reads, two.passes, two.waits, two.reads) == (1, 1, 0, 2, 0)

        one.stop()  # a process that stops gives the lease up: the other's next pass sweeps
        assert two.tick() and not one.tick()
        clock.wait(31)
        assert two.tick() and _timeouts(second, game_id)  # and it does record the timeouts due

        three = ClockSweep(first, reads[0], seconds=0)
        assert not three.tick()
        pid = two.lease.backend_pid()  # type: ignore[attr-defined]
        with pg_admin(pg) as admin:  # the holder's session ends as a crash would end it: no release is sent
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        _poll(three.tick, "the lease of a dead session taken over")
        assert not two.tick()  # (its connection broken: it notices, and waits while the other holds the lease)
        three.stop()
    finally:
        for sweep in (one, two):
            sweep.stop()
        for read in reads:
            read.close()
        first.close()
        second.close()


def pg_admin(db: Database) -> Any:
    import psycopg

    return psycopg.connect(db.psycopg_conninfo(), autocommit=True)


def test_on_sqlite_a_file_lock_beside_the_store_lets_one_sweeper_sweep_until_it_stops(
    stores: Shelf, tmp_path_factory: pytest.TempPathFactory, clock: Clock
) -> None:
    from service import bootstrap

    timed = _service(stores.sqlite("empty").copy(tmp_path_factory.mktemp("store")), clock)  # (SQLite's lock only)
    read = bootstrap.read_port(timed)
    one, two = ClockSweep(timed, read, seconds=0), ClockSweep(timed, read, seconds=0)  # (each its own lease file)
    try:
        assert one.tick() and not two.tick()
        one.stop()
        assert two.tick() and not one.tick()
    finally:
        one.stop()
        two.stop()
        read.close()
        timed.close()
