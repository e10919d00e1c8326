"""The push feed on PostgreSQL (service/serving/push.py): a record appended alone (a move, a new game) is carried by its
notification (migration 0009), so a process woken by another's move answers its waiting requests without reading
the store; a record too long for a notification (or several appended at once) is notified bare and read, and another
schema's records, heard on the same channel, are left out."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any
from uuid import UUID, uuid4

import psycopg
import pytest
from eventsourcing.persistence import StoredEvent

from service.commands.application import Digsite, Viewer
from service.serving import push
from service.settings import Database, Settings
from tests.service.conftest import fresh_schema

# They listen on the database-wide channel: under xdist another worker's moves would be heard too (tests/conftest.py).
pytestmark = [pytest.mark.postgres, pytest.mark.alone]

TIMEOUT = 30  # seconds; only a hang would reach it


@pytest.fixture
def database(pg: Database) -> Database:
    """PostgreSQL only (the shared ``service`` fixture is built on this store)."""
    return pg


@pytest.fixture
def listener(pg: Database) -> Iterator[psycopg.Connection[Any]]:
    """A connection listening on the event table's channel, as the feed's does."""
    with psycopg.connect(pg.psycopg_conninfo(), autocommit=True) as conn:
        conn.execute('LISTEN "digsite_events"')
        yield conn


def heard(conn: psycopg.Connection[Any]) -> list[str]:
    """The payloads of the notifications delivered so far."""
    return [n.payload for n in conn.notifies(timeout=0.5)]


def new_game(service: Digsite) -> str:
    players = [service.create_player(name) for name in ("Ana", "Beto")]
    return str(service.create_game("ruins", players, seed="carried")["id"])


def flip(service: Digsite, game_id: str, seat: int) -> int:
    version = service.game(game_id)["version"]
    return int(service.submit(game_id, Viewer(seat), version, {"type": "flip", "seat": seat, "ruin": None})["version"])


def test_a_move_s_notification_carries_its_record_exactly_as_stored(
    service: Digsite, listener: psycopg.Connection[Any]
) -> None:
    game_id = new_game(service)
    heard(listener)
    flip(service, game_id, 0)
    payloads = heard(listener)
    carried = push.hub_for(service)._carried(payloads)
    assert carried is not None and len(carried) == 1
    (stored,) = service.app.recorder.select_notifications(start=carried[0].id, limit=1)
    assert carried == [stored]
    assert (carried[0].originator_id, carried[0].originator_version) == (UUID(game_id), 2)


def test_a_record_too_long_to_carry_is_notified_bare(service: Digsite, listener: psycopg.Connection[Any]) -> None:
    recorder = service.app.recorder
    recorder._insert_one(StoredEvent(uuid4(), 1, "test:Long", b"x" * 6000))  # base64: over 8000 bytes
    recorder._insert_one(StoredEvent(uuid4(), 1, "test:Short", b"x" * 100))
    long, short = heard(listener)
    assert long == "" and push.hub_for(service)._carried([long]) is None
    (carried,) = push.hub_for(service)._carried([short]) or []
    assert (carried.topic, carried.state) == ("test:Short", b"x" * 100)


def test_another_schema_s_records_heard_on_the_same_channel_are_left_out(
    service: Digsite, listener: psycopg.Connection[Any], postgres_url: str
) -> None:
    with fresh_schema(postgres_url) as other_db:
        other = Digsite(Settings(database=other_db, api_key="key"))
        try:
            game_id = new_game(other)
            heard(listener)
            flip(other, game_id, 0)
            theirs = heard(listener)
        finally:
            other.close()
    assert len(theirs) == 1 and theirs[0].split(" ")[1] == other_db.schema
    assert push.hub_for(service)._carried(theirs) == []


def test_a_request_waiting_in_one_process_wakes_on_another_s_move_without_reading_the_store(
    service: Digsite, pg: Database, monkeypatch: Any
) -> None:
    reads: list[int] = []
    reader = push.Hub._reader

    def counted(hub: push.Hub, conn: Any) -> Any:
        read = reader(hub, conn)
        return lambda position: reads.append(position) or read(position)

    monkeypatch.setattr(push.Hub, "_reader", counted)
    second = Digsite(Settings(database=pg, api_key="key"))  # another process (gunicorn worker) on the same store
    try:
        game_id = new_game(service)
        version = service.game(game_id)["version"]
        out: dict[str, Any] = {}
        waiting = threading.Thread(
            target=lambda: out.update(push.updates(service, game_id, Viewer(0), version, TIMEOUT)), daemon=True
        )
        waiting.start()
        hub = push.hub_for(service)
        deadline = time.monotonic() + TIMEOUT
        while not (hub.waiting and hub.feeding and reads):  # (the feed's first read: what landed before it listened)
            assert time.monotonic() < deadline, "the request never started waiting"
            time.sleep(0.005)
        before = len(reads)
        made = flip(second, game_id, 1)
        waiting.join(TIMEOUT)
        assert not waiting.is_alive()
        assert out["ready"] and out["version"] == made
        assert out["records"] == service.log(game_id, Viewer(0), after=version)
        assert len(reads) == before  # the notification carried the record
        second.app.recorder._insert_one(StoredEvent(uuid4(), 1, "test:Long", b"x" * 6000))  # notified bare: read
        while len(reads) == before:
            assert time.monotonic() < deadline, "the feed never read the bare notification's records"
            time.sleep(0.005)
    finally:
        second.close()


class _NeverWait(threading.Event):
    def wait(self, timeout: float | None = None) -> bool:
        raise AssertionError("a request waited on a hub that had closed")


def test_a_request_armed_after_its_hub_closed_does_not_wait_out_its_deadline() -> None:
    """``Hub.close`` wakes every watch; a request that arms its watch just after (``arm`` clears the wake-up)
    must still see the hub closed and stop waiting, not hold on for its whole deadline."""

    class ClosedHub:
        closed = True

    watch = push.Watch(ClosedHub(), uuid4(), lambda game, to_act: False)  # type: ignore[arg-type]
    watch.woken = _NeverWait()
    watch.woken.set()  # (close's wake-up) ...
    watch.arm()  # ... cleared by the request arming after it
    assert watch.wait(time.monotonic() + 30) is False
