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
- ``connect_kwargs``: what the library's PostgreSQL pool would connect with (``PostgresDatastore.pool.kwargs`` and
  its ``get_password_func``): Digsite's datastore makes its own bounded connections with them.
"""

from __future__ import annotations

import copy
from typing import Any, TypeVar

from eventsourcing.domain import Aggregate
from eventsourcing.persistence import Tracking

A = TypeVar("A", bound=Aggregate)

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
