"""The eventsourcing library's private members Digsite relies on
(``service.store.eventsourcing_workarounds``), checked against the
installed library: an upgrade that changes one fails here, by name, before anything else goes wrong."""

from __future__ import annotations

import inspect
from typing import Any
from uuid import uuid4

from eventsourcing.domain import Aggregate
from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder

from service.store import eventsourcing_workarounds


class Counter(Aggregate):
    class Created(Aggregate.Created):
        start: int

    def __init__(self, start: int) -> None:
        self.count = start
        self.seen: list[Any] = []

    class Bumped(Aggregate.Event):
        def apply(self, aggregate: Any) -> None:
            aggregate.seen.append(eventsourcing_workarounds.carried_state(aggregate))
            aggregate.count += 1


def test_create_makes_an_aggregate_with_the_id_given_from_its_created_event() -> None:
    wanted = uuid4()
    made = eventsourcing_workarounds.create(Counter, Counter.Created, id=wanted, start=3)
    assert isinstance(made, Counter) and made.id == wanted and made.count == 3 and made.version == 1
    (created,) = made.collect_events()
    assert isinstance(created, Counter.Created) and created.originator_id == wanted


def test_a_detached_copy_triggers_its_own_events_and_leaves_the_original_s_pending_ones() -> None:
    original = eventsourcing_workarounds.create(Counter, Counter.Created, id=uuid4(), start=0)
    copy = eventsourcing_workarounds.detached_copy(original)
    copy.trigger_event(Counter.Bumped)
    assert [type(e) for e in copy.collect_events()] == [Counter.Bumped]
    assert [type(e) for e in original.collect_events()] == [Counter.Created]
    assert (original.count, copy.count, original.version, copy.version) == (0, 1, 1, 2)


def test_a_carried_state_reaches_the_event_applied_inside_trigger_event_once() -> None:
    counter = eventsourcing_workarounds.create(Counter, Counter.Created, id=uuid4(), start=0)
    eventsourcing_workarounds.carry_state(counter, "next")
    counter.trigger_event(Counter.Bumped)
    counter.trigger_event(Counter.Bumped)
    assert counter.seen == ["next", None]


def test_both_tracking_recorders_insert_tracking_on_a_given_cursor() -> None:
    for recorder in (PostgresTrackingRecorder, SQLiteTrackingRecorder):
        parameters = list(inspect.signature(recorder._insert_tracking).parameters)
        assert len(parameters) == 3 and parameters[0] == "self", (recorder, parameters)

    class Recorder:
        def _insert_tracking(self, cursor: Any, tracking: Tracking) -> None:
            cursor.append(tracking)

    written: list[Tracking] = []
    eventsourcing_workarounds.insert_tracking(Recorder(), written, Tracking("read-models", 7))
    assert written == [Tracking("read-models", 7)]


def test_the_postgres_datastore_keeps_what_its_pool_would_connect_with() -> None:
    datastore = PostgresDatastore("digsite", "db.example", 5433, "ana", "secret")  # the pool is not opened
    kwargs = eventsourcing_workarounds.connect_kwargs(datastore)
    assert {k: kwargs[k] for k in ("dbname", "host", "port", "user", "password")} == {
        "dbname": "digsite",
        "host": "db.example",
        "port": 5433,
        "user": "ana",
        "password": "secret",
    }
    rotated = PostgresDatastore("digsite", "db.example", 5433, "ana", "old", get_password_func=lambda: "fresh")
    assert eventsourcing_workarounds.connect_kwargs(rotated)["password"] == "fresh"
