"""The one module that touches the eventsourcing library's private members (9.5.x), each behind a function that
says what Digsite needs from it. ``tests/service/store/test_eventsourcing_workarounds.py`` checks every one against the
installed
library, so an upgrade that changes them fails there, loudly, not somewhere in the service.

- ``detached_copy``: a game aggregate copied to make a move on, without the records its original has pending
  (``Aggregate._pending_events``), so readers of the cached original keep a consistent game.
- ``create``: a new aggregate from its created event with an id we choose (``Aggregate._create``).
- ``carry_state`` / ``carried_state``: the next rules state computed by the command path, handed to the event's
  ``apply`` that the library runs inside ``trigger_event`` (so the move is not evolved twice).
- ``insert_tracking``: the tracking row written in the read models' own transaction
  (``TrackingRecorder._insert_tracking``: the library's projection docs ask for exactly that).
- ``adopt``: the library's PostgreSQL datastore, built by its factory, made Digsite's subclass in place (the
  factory has no hook for the datastore's class: ``PostgresFactory.__init__`` builds a ``PostgresDatastore``).
- ``append``: a move's records stored with the application's mapper and recorder, without ``Application.save``'s
  bookkeeping, which cost as much as the append on the move's path (``save`` is checked to do nothing else that
  Digsite's application would need).
- ``connect_kwargs``: what the library's PostgreSQL pool would connect with (``PostgresDatastore.pool.kwargs`` and
  its ``get_password_func``): Digsite's datastore makes its own bounded connections with them.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, TypeVar

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import Tracking

A = TypeVar("A", bound=Aggregate)
T = TypeVar("T")

_CARRIED = "_digsite_next_state"  # an attribute of ours on the aggregate, only between trigger and apply


def detached_copy(aggregate: A) -> A:
    """A shallow copy of ``aggregate`` with no pending events of its own (new ones are triggered on the copy)."""
    out = copy.copy(aggregate)
    out.__dict__["_pending_events"] = []
    return out


def create(cls: type[A], created: type[Any], **kwargs: Any) -> A:
    """``cls`` created by its ``created`` event class, with the given ``id`` and fields (the library's
    ``Aggregate._create``: ``Aggregate.__init__`` takes the fields, not the id)."""
    made: A = cls._create(created, **kwargs)
    return made


def carry_state(aggregate: Aggregate, state: Any) -> None:
    aggregate.__dict__[_CARRIED] = state


def carried_state(aggregate: Aggregate) -> Any:
    """The state ``carry_state`` left for the event being applied, once (``None`` on a replay)."""
    return aggregate.__dict__.pop(_CARRIED, None)


def insert_tracking(recorder: Any, cursor: Any, tracking: Tracking) -> None:
    """Write ``tracking`` with the recorder's own SQL on ``cursor`` (the read models' transaction)."""
    recorder._insert_tracking(cursor, tracking)


def connect_kwargs(datastore: Any) -> dict[str, Any]:
    """The psycopg connection arguments the library's PostgreSQL datastore was configured with (a password from
    its ``get_password_func`` if it has one)."""
    pool = datastore.pool
    kwargs = dict(pool.kwargs or {})
    if pool.get_password_func is not None:
        kwargs["password"] = pool.get_password_func()
    return kwargs


def adopt(obj: object, cls: type[T]) -> T:
    """``obj`` made an instance of ``cls``, a subclass of its class, in place (the caller then sets what ``cls``
    adds). The library's ``PostgresFactory`` builds its ``PostgresDatastore`` in ``__init__`` from some twenty
    settings it parses there, and offers class hooks for its recorders but none for the datastore: building a
    second datastore would parse them again, and differently as the library changes."""
    if not issubclass(cls, type(obj)):
        raise TypeError(f"{cls.__name__} is not a subclass of {type(obj).__name__}")
    obj.__class__ = cls
    assert isinstance(obj, cls)
    return obj


def append(app: Application[Any], records: Sequence[Any]) -> None:
    """Store ``records`` (collected from their aggregate) with ``app``'s mapper and recorder: what
    ``Application.save`` stores for them, without its bookkeeping around that (a ``ProcessingEvent``, the
    snapshotting intervals, the ``notify`` hooks; Digsite's application sets none of them: it takes its snapshots
    itself), which cost as much as the append itself on the move's path."""
    app.recorder.insert_events([app.mapper.to_stored_event(e) for e in records])
