"""The store's ledger: an append-only hash chain of every game's first and final record hash.

A game's own records are chained, but a chain can be cut short (the end of a finished game removed, so that
it is back in play with its seed hidden), deleted whole, or rewritten and rehashed from record 1 on (new
token hashes), and the game still verifies. The ledger anchors what was true:

- when a game is **created**, an entry ``created`` names it and the hash of its record 1;
- when it **ends** (its ``seed_revealed`` record), an entry ``finished`` names its final version and hash;
- each organiser's **ruling** on it (a ``ruling`` record, in play or after the end: ``service.commands.rulings``),
  an entry ``ruling`` names its version and hash, so a ruling cannot be removed or rewritten unseen;
- each record of a **tournament's** own chain (its creation, entries, withdrawals, seated rounds, broadcast settings,
  penalties: ``service.store.aggregates.TOURNAMENT_RECORDS``), an entry ``tournament`` names the tournament (in the
  ``game_id`` column), the record's version and hash (PostgreSQL: migration 0003).

Each entry is written in the same transaction as the record it names, whatever path appends it: on
PostgreSQL a trigger on the events table (migration 0005) covers the library's insert, the multi-row append
and the one-move function alike; on SQLite the application recorder below does it in the insert's own
transaction. Entries are numbered 1, 2, 3, ... and chained: each one's hash covers its fields and the hash
of the entry before it (64 zeros before entry 1)::

    entry_hash = sha256("digsite-ledger/1|seq|kind|game|version|record_hash|origin|at|prev")

Two games ending at once take turns: the entry is appended under a lock on the ledger (PostgreSQL), or
inside SQLite's single writer. ``origin`` is ``live`` for entries written with their record and
``backfill`` for games entered afterwards by ``digsite ledger backfill`` (games stored before the ledger
existed, entered only once they verify).

Against an attacker who can write to the database, the stored chain only catches careless edits: whoever
rewrites an entry can recompute the chain after it. What pins the ledger is a signed checkpoint of it kept
outside the store (``service.integrity.checkpoint``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor
from eventsourcing.utils import get_topic

from service.store.aggregates import TOURNAMENT_RECORDS, Game

if TYPE_CHECKING:
    from service.commands.application import Digsite

FORMAT = "digsite-ledger/1"
GENESIS = "0" * 64
CREATED_TOPIC = get_topic(Game.Created)
FINISHED_TOPIC = get_topic(Game.SeedRevealed)
RULING_TOPIC = get_topic(Game.RulingRecorded)
# Every record of a tournament's chain is entered (kind "tournament", its id in the ``game_id`` column): a tournament
# has no replay to pin the records between its first and its last, as a game's rules pin its moves.
TOURNAMENT_TOPICS = tuple(get_topic(cls) for cls, _ in TOURNAMENT_RECORDS.values())
KIND_OF_TOPIC = {
    CREATED_TOPIC: "created",
    FINISHED_TOPIC: "finished",
    RULING_TOPIC: "ruling",
    **{topic: "tournament" for topic in TOURNAMENT_TOPICS},
}
KINDS = ("created", "finished", "ruling", "tournament")
GAME_KINDS = ("created", "finished", "ruling")  # the entries that name a game (the others name a tournament)
ORIGINS = ("live", "backfill")
COLUMNS = ("seq", "kind", "game_id", "version", "record_hash", "origin", "at", "prev_hash", "entry_hash")


def entry_hash(seq: int, kind: str, game: str, version: int, record_hash: str, origin: str, at: str, prev: str) -> str:
    """The hash of one ledger entry (the PostgreSQL trigger computes the same text)."""
    text = "|".join((FORMAT, str(seq), kind, game, str(version), record_hash, origin, at, prev))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str  # "created" | "finished" | "ruling" (a game's) | "tournament" (a tournament's record)
    game: str  # the game's id, or the tournament's for kind "tournament"
    version: int
    record_hash: str
    origin: str  # "live" | "backfill"
    at: str
    prev_hash: str
    entry_hash: str

    def computed_hash(self) -> str:
        return entry_hash(
            self.seq, self.kind, self.game, self.version, self.record_hash, self.origin, self.at, self.prev_hash
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> Entry:
        """An entry from JSON (a checkpoint file); raises ValueError if it is not one."""
        if not isinstance(data, dict) or set(data) != {f for f in cls.__dataclass_fields__}:
            raise ValueError("a ledger entry has exactly the fields " + ", ".join(cls.__dataclass_fields__))
        for name in ("seq", "version"):
            if isinstance(data[name], bool) or not isinstance(data[name], int):
                raise ValueError(f"a ledger entry's {name} is a number")
        for name in ("kind", "game", "record_hash", "origin", "at", "prev_hash", "entry_hash"):
            if not isinstance(data[name], str):
                raise ValueError(f"a ledger entry's {name} is text")
        return cls(**data)


@dataclass(frozen=True)
class ChainCheck:
    ok: bool
    detail: str
    entries: int
    head: str  # the hash of the last entry (GENESIS for an empty ledger)
    first_bad: int | None = None  # the seq of the first entry that does not hold


def check_chain(entries: Sequence[Entry]) -> ChainCheck:
    """Entries 1..n without a gap, each hash recomputed and chained to the one before."""
    prev = GENESIS
    for expected, entry in enumerate(entries, start=1):
        if entry.seq != expected:
            return ChainCheck(
                False,
                f"ledger entry {expected} is missing (the entries jump to {entry.seq})",
                expected - 1,
                prev,
                expected,
            )
        if entry.kind not in KINDS or entry.origin not in ORIGINS:
            return ChainCheck(False, f"ledger entry {entry.seq} is not a Digsite entry", expected - 1, prev, entry.seq)
        if entry.prev_hash != prev:
            return ChainCheck(
                False,
                f"ledger entry {entry.seq} names {entry.prev_hash[:12]}... as the entry before it, but that entry "
                f"hashes to {prev[:12]}...",
                expected - 1,
                prev,
                entry.seq,
            )
        if entry.computed_hash() != entry.entry_hash:
            return ChainCheck(
                False,
                f"ledger entry {entry.seq} was changed after it was written (its fields hash to "
                f"{entry.computed_hash()[:12]}..., not the stored {entry.entry_hash[:12]}...)",
                expected - 1,
                prev,
                entry.seq,
            )
        prev = entry.entry_hash
    return ChainCheck(
        True, f"{len(entries)} ledger entries recomputed and chained; the head is {prev}", len(entries), prev
    )


# -- writing entries with their records (SQLite; PostgreSQL does it in a trigger) ------------------------------


def _record_hash(stored: StoredEvent) -> str:
    value = json.loads(bytes(stored.state)).get("hash")
    if not isinstance(value, str):
        raise ValueError(f"game record {stored.originator_id} v{stored.originator_version} has no hash")
    return value


def _append(
    c: Any, sql: Callable[[str], str], kind: str, game: str, version: int, record_hash: str, origin: str
) -> Entry:
    c.execute(sql("SELECT seq, entry_hash FROM {ledger} ORDER BY seq DESC LIMIT 1"))
    row = c.fetchone()
    seq, prev = (int(row["seq"]) + 1, str(row["entry_hash"])) if row else (1, GENESIS)
    at = now()
    entry = Entry(seq, kind, game, version, record_hash, origin, at, prev, "")
    entry = Entry(**{**asdict(entry), "entry_hash": entry.computed_hash()})
    c.execute(
        sql(f"INSERT INTO {{ledger}} ({', '.join(COLUMNS)}) VALUES ({', '.join(['?'] * len(COLUMNS))})"),
        [getattr(entry, "game" if column == "game_id" else column) for column in COLUMNS],
    )
    return entry


class DigsiteSQLiteRecorder(SQLiteApplicationRecorder):
    """The library's SQLite recorder, which also enters a game's first and final records in the ledger, in the
    insert's own transaction (SQLite has one writer at a time, so entries never race)."""

    def _insert_events(
        self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        returning = super()._insert_events(c, stored_events, **kwargs)
        for stored in stored_events:
            kind = KIND_OF_TOPIC.get(stored.topic)
            if kind is not None:
                game = str(UUID(str(stored.originator_id)))
                _append(c, _sqlite_sql, kind, game, stored.originator_version, _record_hash(stored), "live")
        return returning


def _sqlite_sql(text: str) -> str:
    return text.format(ledger="digsite_ledger", checkpoints="digsite_checkpoints")


# -- reading and writing through the service's store ----------------------------------------------------------


class Ledger:
    """The ledger and the stored copies of issued checkpoints, through the service's own connections."""

    def __init__(self, service: Digsite) -> None:
        self.service = service
        self.db = service.settings.database

    def _sql(self, text: str) -> str:
        if self.db.backend == "sqlite":
            return _sqlite_sql(text)
        schema = self.db.schema.replace('"', '""')
        return text.format(ledger=f'"{schema}".digsite_ledger', checkpoints=f'"{schema}".digsite_checkpoints').replace(
            "?", "%s"
        )

    @contextmanager
    def _cursor(self, commit: bool = False) -> Iterator[Any]:
        recorder: Any = self.service.app.recorder  # the SQLite recorder: ``datastore`` is its own
        with recorder.datastore.transaction(commit=commit) as c:
            yield c

    def _rows(self, text: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._cursor() as c:
            c.execute(self._sql(text), list(params))
            return list(c.fetchall())

    @staticmethod
    def _entry(row: Any) -> Entry:
        return Entry(
            seq=int(row["seq"]),
            kind=str(row["kind"]),
            game=str(row["game_id"]),
            version=int(row["version"]),
            record_hash=str(row["record_hash"]),
            origin=str(row["origin"]),
            at=str(row["at"]),
            prev_hash=str(row["prev_hash"]),
            entry_hash=str(row["entry_hash"]),
        )

    def entries(self, upto: int | None = None) -> list[Entry]:
        """Every entry in order of seq (up to ``upto``)."""
        where, params = ("WHERE seq <= ?", [upto]) if upto is not None else ("", [])
        return [self._entry(r) for r in self._rows(f"SELECT * FROM {{ledger}} {where} ORDER BY seq", params)]

    def entry(self, seq: int) -> Entry | None:
        rows = self._rows("SELECT * FROM {ledger} WHERE seq = ?", [seq])
        return self._entry(rows[0]) if rows else None

    def entries_of(self, game_id: str) -> list[Entry]:
        game = str(UUID(str(game_id)))
        return [self._entry(r) for r in self._rows("SELECT * FROM {ledger} WHERE game_id = ? ORDER BY seq", [game])]

    def game_entries(self) -> list[Entry]:
        """Every entry that names a game, in order of seq (a tournament's records left out)."""
        return [e for e in self.entries() if e.kind in GAME_KINDS]

    def size(self) -> int:
        rows = self._rows("SELECT MAX(seq) AS n FROM {ledger}")
        return int(rows[0]["n"] or 0) if rows else 0

    def append(self, wanted: Iterable[tuple[str, str, int, str]], origin: str = "backfill") -> list[Entry]:
        """Append entries (kind, game, version, record hash) in one transaction, under the ledger's lock."""
        wanted = list(wanted)
        if not wanted:
            return []
        with self._cursor(commit=True) as c:
            if self.db.backend == "postgresql":
                c.execute(self._sql("LOCK TABLE {ledger} IN SHARE ROW EXCLUSIVE MODE"))
            return [_append(c, self._sql, kind, game, version, hash_, origin) for kind, game, version, hash_ in wanted]

    # -- stored copies of checkpoints (public documents: what proves one is its signature) --------------------

    def keep_checkpoint(
        self, ledger_size: int, head: str, key_id: str, issued_at: str, statement: str, signature: str
    ) -> None:
        with self._cursor(commit=True) as c:
            c.execute(
                self._sql(
                    "INSERT INTO {checkpoints} (ledger_size, head, key_id, issued_at, statement, signature) "
                    "VALUES (?, ?, ?, ?, ?, ?)"
                ),
                [ledger_size, head, key_id, issued_at, statement, signature],
            )

    def checkpoints(self) -> list[dict[str, Any]]:
        """The stored copies, oldest first (ledger size, then issue time)."""
        rows = self._rows(
            "SELECT ledger_size, head, key_id, issued_at, statement, signature FROM {checkpoints} "
            "ORDER BY ledger_size, issued_at"
        )
        return [
            {k: row[k] for k in ("ledger_size", "head", "key_id", "issued_at", "statement", "signature")}
            for row in rows
        ]


# -- games stored before the ledger existed ------------------------------------------------------------------
