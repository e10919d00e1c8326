"""A store as the releases up to 2026-12-05 made it: their numbered SQL files, kept here as they were (they are what
the stores in use were made of), applied and recorded the way their runner did (each file once, its checksum in
``digsite_schema_migrations``; the core's files, then each game's under its folder, recorded as ``<kind>/NNNN``).

``upto`` stops after that core version, as an older release left the store."""

from __future__ import annotations

import hashlib
import sqlite3
from contextlib import closing
from pathlib import Path

import psycopg

from service.settings import Database

HERE = Path(__file__).resolve().parent
GAME_FOLDERS = ("ruins", "arnak")  # the games that release had, in its registry's order


def files(backend: str, upto: str | None = None) -> list[tuple[str, Path]]:
    """(version, file) in the order that release applied them."""
    core = [(p.stem.partition("_")[0], p) for p in sorted((HERE / backend).glob("*.sql"))]
    if upto is not None:
        return [(v, p) for v, p in core if v <= upto]
    games = [
        (f"{k}/{p.stem.partition('_')[0]}", p) for k in GAME_FOLDERS for p in sorted((HERE / backend / k).glob("*.sql"))
    ]
    return core + games


def make(db: Database, upto: str | None = None) -> list[str]:
    """Make ``db`` as that release's `digsite db upgrade` did; returns the versions recorded."""
    applied = files(db.backend, upto)
    if db.backend == "sqlite":
        with closing(sqlite3.connect(db.path)) as conn, conn:
            conn.execute(
                "CREATE TABLE digsite_schema_migrations "
                "(version TEXT PRIMARY KEY, name TEXT, checksum TEXT, applied_at TEXT)"
            )
            for version, path in applied:
                conn.executescript(path.read_text())
                _record(conn.execute, "?", "", version, path)
        return [v for v, _ in applied]
    with psycopg.connect(db.psycopg_conninfo()) as conn:
        conn.execute(f'CREATE SCHEMA "{db.schema}"')
        conn.execute(
            f'CREATE TABLE "{db.schema}".digsite_schema_migrations '
            "(version text PRIMARY KEY, name text, checksum text, applied_at text)"
        )
        for version, path in applied:
            sql = path.read_text().replace("{schema}", db.schema).replace("{lock_timeout}", "5")
            conn.execute(sql.encode())
            _record(conn.execute, "%s", f'"{db.schema}".', version, path)
    return [v for v, _ in applied]


def _record(execute: object, mark: str, prefix: str, version: str, path: Path) -> None:
    checksum = hashlib.sha256(path.read_text().encode()).hexdigest()
    name = path.stem.partition("_")[2]
    marks = ", ".join([mark] * 4)
    execute(f"INSERT INTO {prefix}digsite_schema_migrations VALUES ({marks})", (version, name, checksum, "then"))  # type: ignore[operator]
