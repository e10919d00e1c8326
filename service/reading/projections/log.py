"""Reading the notification log for the projection: rows in log order, decoded into domain events one by one.

The library's path (``select_notifications`` and the mapper) builds a ``Notification`` with a parsed UUID
per row and decodes the JSON with an object hook called for every dict; for a 500-byte move record that
is about a quarter of what the projection spends on it. When the store is plain (no cipher, no
compression, the library's JSON transcoder, SQLite or PostgreSQL recorders) the projection reads the
same rows itself, in the same order and from the same table, as tuples, and decodes them with the C
scanner that ``json.loads`` runs: what the mapper does, less the hook and the ``timestamp`` field (the
one transcoded value of an event, which the projection never reads; it is left out so that reading it
fails loudly).

A record is still handed to the library's mapper when its class could need upcasting (``class_version``),
its JSON holds any other transcoded value (a ``"_type_"`` key beyond the timestamp's) or is not one plain
JSON object. Any other store is read through the library alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from json.decoder import JSONDecoder
from json.scanner import make_scanner
from typing import Any
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import JSONTranscoder, Notification
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.sqlite import SQLiteApplicationRecorder
from eventsourcing.utils import resolve_topic

_TYPE_KEY = b'"_type_"'
# The C scanner json.loads runs, called directly (typeshed types make_scanner's argument as make_scanner itself).
_scan = make_scanner(JSONDecoder())  # type: ignore[arg-type]


class LibraryLog:
    """The library's own path: ``select_notifications`` and the mapper."""

    def __init__(self, app: Application[Any]) -> None:
        self.recorder = app.recorder
        self.mapper = app.mapper

    def select(self, after: int, limit: int) -> Sequence[Any]:
        return self.recorder.select_notifications(start=after, limit=limit, inclusive_of_start=False)

    def last_id(self, rows: Sequence[Any]) -> int:
        last: int = rows[-1].id
        return last

    def row_id(self, row: Any) -> int:
        found: int = row.id
        return found

    def where(self, row: Any) -> dict[str, Any]:
        """Which record a row is: notification id, aggregate (originator) id, version, topic."""
        return {
            "notification_id": row.id,
            "originator_id": str(row.originator_id),
            "version": row.originator_version,
            "topic": row.topic,
        }

    def decode(self, row: Any) -> Any:
        return self.mapper.to_domain_event(row)


class PlainLog(LibraryLog):
    """The same rows as tuples ``(notification id, originator id, version, topic, state)``, decoded plainly."""

    def __init__(self, app: Application[Any]) -> None:
        super().__init__(app)
        recorder = self.recorder
        if isinstance(recorder, PostgresApplicationRecorder):
            schema, table = recorder.datastore.schema, recorder.events_table_name
            self._sql = (
                "SELECT notification_id, originator_id, originator_version, topic, state "
                f'FROM "{schema}"."{table}" WHERE notification_id > %s ORDER BY notification_id LIMIT %s'
            )
        else:
            assert isinstance(recorder, SQLiteApplicationRecorder)
            self._sql = (
                "SELECT rowid, originator_id, originator_version, topic, state "
                f"FROM {recorder.events_table_name} WHERE rowid > ? ORDER BY rowid LIMIT ?"
            )
        self._classes: dict[str, type[Any] | None] = {}  # topic -> event class (None: needs the mapper)
        self._ids: dict[Any, UUID] = {}  # stored originator id -> UUID (a game's records share one)

    @staticmethod
    def usable(app: Application[Any]) -> bool:
        mapper = app.mapper
        return (
            mapper.cipher is None
            and mapper.compressor is None
            and type(mapper.transcoder) is JSONTranscoder
            and isinstance(app.recorder, (SQLiteApplicationRecorder, PostgresApplicationRecorder))
        )

    def select(self, after: int, limit: int) -> Sequence[Any]:
        recorder = self.recorder
        if isinstance(recorder, PostgresApplicationRecorder):
            from psycopg.rows import tuple_row

            with recorder.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
                curs.execute(self._sql, (after, limit), prepare=True)
                return curs.fetchall()
        assert isinstance(recorder, SQLiteApplicationRecorder)
        with recorder.datastore.transaction(commit=False) as curs:
            cursor = curs.sqlite_cursor  # (the library's wrapper of it)
            cursor.row_factory = None  # plain tuples, as from PostgreSQL (the pool's connections make Rows)
            cursor.execute(self._sql, (after, limit))
            return cursor.fetchall()

    def last_id(self, rows: Sequence[Any]) -> int:
        last: int = rows[-1][0]
        return last

    def row_id(self, row: Any) -> int:
        found: int = row[0]
        return found

    def where(self, row: Any) -> dict[str, Any]:
        notification_id, stored_id, version, topic, _ = row
        originator_id = stored_id if isinstance(stored_id, UUID) else UUID(str(stored_id))
        return {
            "notification_id": notification_id,
            "originator_id": str(originator_id),
            "version": version,
            "topic": topic,
        }

    def decode(self, row: Any) -> Any:
        notification_id, stored_id, version, topic, state = row
        originator_id = self._ids.get(stored_id)
        if originator_id is None:
            if len(self._ids) > 10_000:
                self._ids.clear()
            originator_id = self._ids[stored_id] = stored_id if isinstance(stored_id, UUID) else UUID(stored_id)
        cls = self._classes.get(topic, ...)
        if cls is ...:
            found = resolve_topic(topic)
            cls = self._classes[topic] = found if getattr(found, "class_version", 1) == 1 else None
        state = bytes(state)
        values: Any = None
        if cls is not None and state.count(_TYPE_KEY) <= 1:
            text = state.decode("utf8")  # as the library's transcoder does
            try:
                values, end = _scan(text, 0)  # json.loads without its checks for what cannot be there
            except (StopIteration, ValueError):
                values = None
            else:
                if end != len(text) or type(values) is not dict:
                    values = None
        if values is None:  # anything unusual: the library decodes it (or says what is wrong)
            return self.mapper.to_domain_event(
                Notification(
                    id=notification_id,
                    originator_id=originator_id,
                    originator_version=version,
                    topic=topic,
                    state=state,
                )
            )
        assert cls is not None  # values are decoded here only for a known class
        values.pop("timestamp", None)
        values["originator_id"] = originator_id
        values["originator_version"] = version
        event = object.__new__(cls)
        object.__setattr__(event, "__dict__", values)
        return event


def log_for(app: Application[Any]) -> LibraryLog:
    return PlainLog(app) if PlainLog.usable(app) else LibraryLog(app)
