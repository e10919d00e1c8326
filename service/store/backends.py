"""Where games are kept: the eventsourcing environment for a database URL, and the schema migrations.

Schema changes are explicit: ``digsite db upgrade`` applies the store's SQL files under ``migrations/<backend>/``
in order, each once, recorded with a checksum in ``digsite_schema_migrations`` as ``store/NNNN``; then it makes the
read models' tables those declared in ``service.store.read_models`` (their fingerprint recorded as ``read-models``),
all in one transaction. The application itself always runs with ``CREATE_TABLE=n``, so workers never race to
create tables.

The runner is this module's, not a library's (yoyo-migrations, Alembic): docs/deploy.md, *Why the schema upgrade
is Digsite's own*, says why.
"""

from __future__ import annotations

import hashlib
import sqlite3
import sys
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import psycopg
from eventsourcing.persistence import PersistenceError

from service.settings import Database
from service.store.read_models import NOT_PROJECTED, PROJECTION_NAME, TRACKING_TABLE, every_table
from service.store.schema import Shape, Table, column_sql, fingerprint_text, found_shape, qualified

LOCK_TIMEOUT_SECONDS = 5
RETRY_AFTER_SECONDS = 2  # what a 503 asks clients to wait before trying again


class StoreUnavailable(PersistenceError):
    """The database cannot record (or serve) anything right now: down, unreachable, or read-only.

    Raised at once while an outage is known, so a request never waits on it. It is deliberately not one of
    the library's ``OperationalError``/``InterfaceError``: the library retries those ten times, 0.2 s apart,
    which is what made requests hang during an outage. The API answers it 503 ``store_unavailable``."""

    def __init__(self, message: str, *, read_only: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.read_only = read_only


class StoreMissing(StoreUnavailable):
    """The server answers but the database is not there (PostgreSQL), or the SQLite file does not exist yet."""


class StoreUnreachable(StoreUnavailable):
    """No server answers at the database's address, or it refuses the user."""


def connect_problem(db: Database, error: Exception) -> StoreUnavailable:
    """What a failed connection to ``db`` means, in a sentence that says what to do (never the password)."""
    text = str(error)
    where = f"{db.host}:{db.port}"
    if f'database "{db.dbname}" does not exist' in text:
        return StoreMissing(
            f"database {db.dbname} does not exist on the PostgreSQL server at {where}: create it with "
            f"`createdb -h {db.host} -p {db.port} -U {db.user} {db.dbname}` (or CREATE DATABASE in psql), "
            "then run `digsite db upgrade`"
        )
    if "password authentication failed" in text or "no password supplied" in text or "role" in text:
        detail = text.rpartition("FATAL:")[2].strip() or text
        return StoreUnreachable(
            f"the PostgreSQL server at {where} refuses user {db.user} ({detail}): check the user and password "
            "in DIGSITE_DATABASE_URL"
        )
    reason = text.rpartition("failed:")[2].strip().splitlines()[0] if text else type(error).__name__
    return StoreUnreachable(
        f"cannot reach the database at {where} ({reason}): is PostgreSQL running there, "
        "and are the host and port in DIGSITE_DATABASE_URL right?"
    )


def _no_sqlite_file(db: Database) -> StoreMissing:
    return StoreMissing(f"there is no store at the SQLite file {db.path} yet: run `digsite db upgrade` to create it")


def _sqlite_problem(db: Database, error: Exception) -> StoreUnavailable:
    return StoreUnreachable(f"cannot open the SQLite file {db.path}: {error}")


def _connect_postgres(db: Database, *, autocommit: bool = False) -> Any:
    """A psycopg connection to ``db``, or the ``StoreUnavailable`` that says why there is none."""
    try:
        return psycopg.connect(db.psycopg_conninfo(), connect_timeout=LOCK_TIMEOUT_SECONDS, autocommit=autocommit)
    except psycopg.OperationalError as error:
        raise connect_problem(db, error) from error


def reach(db: Database) -> None:
    """Raise ``StoreMissing``/``StoreUnreachable`` unless the store is there to be read: the SQLite file exists
    and opens, or the PostgreSQL server answers and has the database (its schema may still need upgrading)."""
    if db.backend == "sqlite":
        if not Path(db.path).exists():
            raise _no_sqlite_file(db)
        try:
            with closing(sqlite3.connect(f"file:{db.path}?mode=rw", uri=True, timeout=1.0)) as conn:
                conn.execute("SELECT 1").fetchall()
        except sqlite3.Error as error:
            raise _sqlite_problem(db, error) from error
        return
    _connect_postgres(db).close()


@dataclass(frozen=True)
class Health:
    """What a cheap check of the store found: ``ok``, ``down`` (unreachable) or ``read_only``."""

    state: str
    message: str = ""

    @property
    def ok(self) -> bool:
        return self.state == "ok"


def eventsourcing_env(db: Database) -> dict[str, str]:
    """The library's settings for this database."""
    if db.backend == "sqlite":
        return {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": db.path,
            "SQLITE_LOCK_TIMEOUT": str(LOCK_TIMEOUT_SECONDS),
            # The ledger's entries written in the same insert as their records:
            "APPLICATION_RECORDER_TOPIC": "service.integrity.ledger:DigsiteSQLiteRecorder",
            "CREATE_TABLE": "n",
        }
    return {
        # The library's factory with a datastore that fails fast while the database is down
        # (service/store/pgrecorder.py).
        "PERSISTENCE_MODULE": "service.store.pgrecorder:DigsitePostgresFactory",
        "POSTGRES_DBNAME": db.dbname,
        "POSTGRES_HOST": db.host,
        "POSTGRES_PORT": db.port,
        "POSTGRES_USER": db.user,
        "POSTGRES_PASSWORD": db.password,
        "POSTGRES_SCHEMA": db.schema,
        "POSTGRES_LOCK_TIMEOUT": str(LOCK_TIMEOUT_SECONDS),
        "APPLICATION_RECORDER_TOPIC": "service.store.pgrecorder:DigsitePostgresRecorder",  # one round trip per append
        "CREATE_TABLE": "n",
    }


# The version under which the read models' fingerprint is recorded (the hash of every declared table's statements):
# when the declarations change, the next upgrade matches the store's tables to them.
READ_MODELS = "read-models"

# The store's migrations are recorded as ``store/NNNN``. The releases before them numbered one SQL file a change,
# read models included; ``store/0001`` gathers what those files made of the store. A store with every one of them
# (the releases up to 2026-12-05 left every store so) has it all: the upgrade marks it done without running it.
EARLIER = {
    "postgresql": tuple(f"{n:04d}" for n in range(1, 11)),
    "sqlite": tuple(f"{n:04d}" for n in range(1, 9)),
}


@dataclass(frozen=True)
class Migration:
    version: str
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()

    @property
    def notes(self) -> list[str]:
        """What the one applying it to a store an earlier release used must know (its ``-- Note:`` comment lines), said
        by ``digsite db upgrade`` there, not on a brand-new store (``_notes``)."""
        return [line.strip()[3:].strip() for line in self.sql.splitlines() if line.strip().startswith("-- Note:")]


def migrations(backend: str) -> list[Migration]:
    """The store's migrations (``migrations/<backend>/NNNN_name.sql``), in order. Their numbers are shared by both
    backends: a change only one of them needs has a file in its folder only (docs/projections.md)."""
    found = []
    for path in sorted((_migrations_folder() / backend).glob("*.sql")):
        number, _, name = path.stem.partition("_")
        found.append(Migration(f"store/{number}", name, path.read_text("utf-8")))
    return found


def read_models_fingerprint(backend: str) -> str:
    return _fingerprint(every_table(), backend)


@cache  # (each service start asks: `pending`)
def _fingerprint(tables: tuple[Table, ...], backend: str) -> str:
    return hashlib.sha256(fingerprint_text(tables, backend).encode()).hexdigest()


def _migrations_folder() -> Path:
    # From a checkout (or an editable install) the folder sits beside the packages; a wheel installs it
    # as data files under <prefix>/share/digsite (see pyproject.toml).
    here = Path(__file__).resolve().parents[2] / "migrations"
    if here.is_dir():
        return here
    return Path(sys.prefix) / "share" / "digsite" / "migrations"


class SchemaError(RuntimeError):
    pass


def upgrade(db: Database, report: Callable[[str], None] = lambda _: None) -> list[str]:
    """Apply every store migration not applied yet, then match the read models' tables to their declarations;
    all in one transaction. Returns what was applied: versions, and ``read-models`` (empty: already up to date)."""
    if db.backend == "sqlite":
        return _upgrade_sqlite(db, report)
    return _upgrade_postgres(db, report)


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _upgrade_sqlite(db: Database, report: Callable[[str], None]) -> list[str]:
    try:  # a folder that cannot be made or written, a file that is no store: one sentence, before any change
        Path(db.path).parent.mkdir(parents=True, exist_ok=True)
        with closing(sqlite3.connect(db.path)) as probe:
            probe.execute("PRAGMA schema_version").fetchall()
    except (OSError, sqlite3.Error) as error:
        raise _sqlite_problem(db, error) from error
    with sqlite3.connect(db.path, isolation_level=None) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("BEGIN IMMEDIATE")  # one upgrader at a time
        try:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS digsite_schema_migrations "
                "(version TEXT PRIMARY KEY, name TEXT, checksum TEXT, applied_at TEXT)"
            )
            applied = _apply(_Upgrade(conn, "sqlite", ""), report)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return applied


def _upgrade_postgres(db: Database, report: Callable[[str], None]) -> list[str]:
    with _connect_postgres(db, autocommit=False) as conn, conn.transaction():
        # Several processes may run the upgrade at once (compose, CI): serialise them.
        conn.execute("SELECT pg_advisory_xact_lock(hashtext('digsite-schema-migrations'))")
        conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{db.schema}"')
        conn.execute(
            f'CREATE TABLE IF NOT EXISTS "{db.schema}".digsite_schema_migrations '
            "(version text PRIMARY KEY, name text, checksum text, applied_at text)"
        )
        return _apply(_Upgrade(conn, "postgresql", db.schema), report)


@dataclass(frozen=True)
class _Upgrade:
    """One upgrade's connection, inside its transaction, and how its backend says things."""

    conn: Any  # sqlite3 or psycopg
    backend: str
    schema: str  # PostgreSQL's; "" on SQLite

    @property
    def prefix(self) -> str:
        return qualified(self.backend, self.schema)

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        """One statement, ``{p}`` before a table's name and ``?`` for each parameter, whatever the backend."""
        sql = sql.replace("{p}", self.prefix)
        if self.backend == "postgresql":
            return self.conn.execute(sql.replace("?", "%s"), params or None)
        return self.conn.execute(sql, params)

    def run_script(self, sql: str) -> None:
        if self.backend == "sqlite":
            for statement in _statements(sql):
                self.conn.execute(statement)
            return
        sql = sql.replace("{schema}", self.schema).replace("{lock_timeout}", str(LOCK_TIMEOUT_SECONDS))
        self.conn.execute(sql.encode())  # several statements: psycopg sends them as one simple query

    def record(self, version: str, name: str, checksum: str) -> None:
        self.execute("DELETE FROM {p}digsite_schema_migrations WHERE version = ?", (version,))
        self.execute("INSERT INTO {p}digsite_schema_migrations VALUES (?, ?, ?, ?)", (version, name, checksum, _now()))


def _apply(upgrade: _Upgrade, report: Callable[[str], None]) -> list[str]:
    rows = upgrade.execute("SELECT version, checksum FROM {p}digsite_schema_migrations").fetchall()
    done = {str(v): str(c) for v, c in rows}
    made_earlier = _made_by_earlier_releases(upgrade.backend, done)
    applied: list[str] = []
    for migration in migrations(upgrade.backend):
        if _already(migration, done):
            continue
        if made_earlier and migration.version == "store/0001":
            report(f"marking {migration.version} {migration.name}: the earlier releases' migrations made it")
        else:
            report(f"applying {migration.version} {migration.name}")
            upgrade.run_script(migration.sql)
            for note in _notes(migration, done):
                report(f"  {note}")
        upgrade.record(migration.version, migration.name, migration.checksum)
        applied.append(migration.version)
    fingerprint = read_models_fingerprint(upgrade.backend)
    if done.get(READ_MODELS) != fingerprint:
        report("matching the read models to their declarations")
        for note in _match_read_models(upgrade):
            report(f"  {note}")
        upgrade.record(READ_MODELS, "read models", fingerprint)
        applied.append(READ_MODELS)
    return applied


def _made_by_earlier_releases(backend: str, done: dict[str, str]) -> bool:
    """Whether the earlier releases' numbered migrations made this store (all of them: ``EARLIER``). A store they
    made only in part cannot be brought on from here."""
    earlier = [version for version in EARLIER[backend] if version in done]
    if earlier and len(earlier) < len(EARLIER[backend]):
        missing = ", ".join(v for v in EARLIER[backend] if v not in done)
        raise SchemaError(
            f"this store was last upgraded by a release older than 2026-12-05 (its migrations {missing} are not "
            "applied): run `digsite db upgrade` with that release (up to 2026-12-05) first, then with this one"
        )
    return bool(earlier)


def _match_read_models(upgrade: _Upgrade) -> list[str]:
    """Make the store's read-model tables the declared ones (``service.store.read_models``); returns the notes.

    A table that is missing is created, an index added or dropped in place. A table whose columns or key differ
    is dropped and created anew, and since the read models are projected together, the others are emptied with
    it and the projection's position reset in the same transaction: the next `digsite projections run` fills
    them all from the first record, exactly once. The judge's tables (``NOT_PROJECTED``) keep their rows unless
    they changed themselves: no projection fills them again; columns added at the end of one of them (each nullable
    or with a default) are added in place, its rows kept (``_add_columns``). Tables no longer declared are left
    alone."""
    tables = every_table()
    found = {t.name: found_shape(upgrade.conn, upgrade.backend, upgrade.schema, t.name) for t in tables}
    for table in tables:
        if table.name in NOT_PROJECTED and (have := found[table.name]) is not None:
            found[table.name] = _add_columns(upgrade, table, have)
    changed = [t.name for t in tables if (f := found[t.name]) is not None and not f.same_rows(t.shape(upgrade.backend))]
    if changed:
        for table in tables:
            if table.name in changed:
                upgrade.execute(f"DROP TABLE {{p}}{table.name}")
            elif found[table.name] is not None and table.name not in NOT_PROJECTED:  # (the judge's rows stay)
                upgrade.execute(f"DELETE FROM {{p}}{table.name}")
        tracking = TRACKING_TABLE[upgrade.backend]
        upgrade.execute(f"DELETE FROM {{p}}{tracking} WHERE application_name = ?", (PROJECTION_NAME,))
    for table in tables:
        have = found[table.name]
        if have is not None and table.name not in changed:
            for name, _ in sorted(have.indexes - table.shape(upgrade.backend).indexes):
                upgrade.execute(f"DROP INDEX {{p}}{name}")
        for statement in table.create_statements(upgrade.backend, upgrade.schema):
            upgrade.execute(statement)
    if not changed:
        return []
    return [
        f"the read models were emptied to be rebuilt ({', '.join(changed)} changed): stop the previous release's "
        "`digsite projections run`, then fill them with this release's `digsite projections rebuild`"
    ]


def _add_columns(upgrade: _Upgrade, table: Table, have: Shape) -> Shape:
    """A judge's table whose declaration adds columns at its end, each nullable or with a default, gains them in
    place (``ALTER TABLE ... ADD COLUMN``, both backends), its rows kept: the judge computed them at a cost no
    rebuild repays, and the rows of an earlier judge version stay readable, the new columns NULL there. Returns the
    shape the table has now (``have`` when it needed nothing, or something else than columns added)."""
    declared = table.shape(upgrade.backend)
    known = len(have.columns)
    added = table.columns[known:]
    if (
        not added
        or have.primary_key != declared.primary_key
        or have.columns != declared.columns[:known]
        or any(c.not_null and c.default is None for c in added)
    ):
        return have
    for column in added:
        upgrade.execute(f"ALTER TABLE {{p}}{table.name} ADD COLUMN {column_sql(column, upgrade.backend)}")
    return Shape(declared.columns, have.primary_key, have.indexes)


def _notes(migration: Migration, done: dict[str, str]) -> list[str]:
    """The notes to say while applying ``migration`` to a store on which the migrations ``done`` were applied before
    this upgrade began. Every note speaks to someone upgrading a store an earlier release already used (read models
    it emptied, that release's processes to stop): on a brand-new store (nothing applied before) none applies."""
    return migration.notes if done else []


def _already(migration: Migration, done: dict[str, str]) -> bool:
    if migration.version not in done:
        return False
    if done[migration.version] != migration.checksum:
        raise SchemaError(
            f"migration {migration.version} ({migration.name}) was changed after it was applied; "
            "add a new migration instead of editing an applied one"
        )
    return True


def _statements(sql: str) -> list[str]:
    """Split a SQLite migration into statements (our files keep one statement per ';'-terminated block)."""
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def pending(db: Database) -> list[str]:
    """What an upgrade would apply: store migration versions, and ``read-models`` when the read models' declarations
    changed since (used to give a clear error before serving). A store that is not there (no SQLite file, no such
    PostgreSQL database) or cannot be reached raises ``StoreMissing``/``StoreUnreachable``: upgrading a schema is
    not what it needs first."""
    known = [m.version for m in migrations(db.backend)]
    try:
        if db.backend == "sqlite":
            if not Path(db.path).exists():  # not a schema to upgrade but no store at all (a path mistyped?)
                raise _no_sqlite_file(db)
            with closing(sqlite3.connect(db.path)) as conn:
                rows = conn.execute("SELECT version, checksum FROM digsite_schema_migrations").fetchall()
        else:
            with _connect_postgres(db) as conn:
                rows = conn.execute(f'SELECT version, checksum FROM "{db.schema}".digsite_schema_migrations').fetchall()
    except StoreUnavailable:  # unreachable or missing: not a schema to upgrade
        raise
    except Exception as error:
        if _no_table(error):  # nothing applied yet
            return [*known, READ_MODELS]
        raise StoreUnavailable(f"cannot read the schema version of {db.display()}: {error}") from error
    done = {str(v): str(c) for v, c in rows}
    missing = [v for v in known if v not in done]
    return missing if done.get(READ_MODELS) == read_models_fingerprint(db.backend) else [*missing, READ_MODELS]


def _no_table(error: Exception) -> bool:
    if isinstance(error, sqlite3.OperationalError):
        return "no such table" in str(error)
    return getattr(error, "sqlstate", None) in ("42P01", "3F000")  # PostgreSQL: undefined table, unknown schema


def sqlite_health(db: Database, timeout: float = 1.0) -> Health:
    """A bounded check of the SQLite file: it must exist and answer a query within ``timeout`` seconds."""
    if not Path(db.path).is_file():
        return Health("down", f"the SQLite file {db.path} is missing")
    try:
        with closing(sqlite3.connect(f"file:{db.path}?mode=rw", uri=True, timeout=timeout)) as conn:
            conn.execute("SELECT version FROM digsite_schema_migrations LIMIT 1").fetchall()
    except sqlite3.Error as error:
        return Health("down", f"the SQLite file cannot be read: {error}")
    return Health("ok")
