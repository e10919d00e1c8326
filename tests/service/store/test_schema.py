"""The store's schema on both backends: every read model is the table its declaration produces (columns, types,
NOT NULL, defaults, key, indexes) on a brand-new store and on one the earlier releases' migrations made, which
upgrades to the very schema a brand-new store gets, its read models kept; a changed declaration rebuilds them."""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from typing import Any

import psycopg
import pytest

from domain.games import GAMES
from service.settings import Database
from service.store import backends, read_models
from service.store.schema import Column, Index, Shape, Table, found_shape, sqlite_affinity
from tests.service.conftest import _drop_schema
from tests.service.store import earlier_releases

EMPTIED = "the read models were emptied"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Database, Database]]:
    """Two stores nothing was applied to yet, on one backend: SQLite files, or schemas on the test server."""
    if request.param == "sqlite":
        yield tuple(Database.from_url(f"sqlite:///{tmp_path / name}.sqlite") for name in ("new", "old"))  # type: ignore[misc]
        return
    base = request.getfixturevalue("postgres_url")
    schemas = [f"digsite_test_{secrets.token_hex(6)}" for _ in range(2)]
    try:
        yield tuple(Database.from_url(f"{base}?schema={s}") for s in schemas)  # type: ignore[misc]
    finally:
        for schema in schemas:
            _drop_schema(base, schema)


def query(db: Database, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """``sql`` on ``db`` (``{p}`` before a table's name, ``?`` for a parameter), committed."""
    if db.backend == "sqlite":
        with closing(sqlite3.connect(db.path)) as conn, conn:
            return conn.execute(sql.replace("{p}", ""), params).fetchall()
    with psycopg.connect(db.psycopg_conninfo()) as conn:
        cursor = conn.execute(sql.replace("{p}", f'"{db.schema}".').replace("?", "%s"), params or None)
        return cursor.fetchall() if cursor.description else []


def read_model_shapes(db: Database) -> dict[str, Shape | None]:
    names = [t.name for t in read_models.every_table()]
    if db.backend == "sqlite":
        with closing(sqlite3.connect(db.path)) as conn:
            return {n: found_shape(conn, "sqlite", "", n) for n in names}
    with psycopg.connect(db.psycopg_conninfo()) as conn:
        return {n: found_shape(conn, "postgresql", db.schema, n) for n in names}


def schema_of(db: Database) -> tuple[dict[str, str], list[Any]]:
    """The shape of each of the store's tables, and on PostgreSQL its functions, triggers and types, the store's own
    schema written ``{schema}`` (a sequence's default names it) so that two stores compare."""
    if db.backend == "sqlite":
        with closing(sqlite3.connect(db.path)) as conn:
            names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            return {n: repr(found_shape(conn, "sqlite", "", n)) for n in names}, []
    with psycopg.connect(db.psycopg_conninfo()) as conn:
        found = "SELECT table_name FROM information_schema.tables WHERE table_schema = %s"
        names = [r[0] for r in conn.execute(found, (db.schema,))]
        shapes = {n: repr(found_shape(conn, "postgresql", db.schema, n)).replace(db.schema, "{schema}") for n in names}
        others = conn.execute(
            "SELECT 'routine', routine_name, routine_definition FROM information_schema.routines "
            "WHERE routine_schema = %s UNION ALL "
            "SELECT 'trigger', trigger_name, action_condition || action_statement FROM information_schema.triggers "
            "WHERE trigger_schema = %s UNION ALL "
            "SELECT 'type', t.typname, '' FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace "
            "WHERE n.nspname = %s ORDER BY 1, 2",
            (db.schema, db.schema, db.schema),
        ).fetchall()
    return shapes, [tuple(str(v).replace(db.schema, "{schema}") for v in row) for row in others]


def shipped(db: Database) -> list[str]:
    """The store's migrations this release ships for the backend (0001, and PostgreSQL's ledger trigger after it)."""
    names = [m.version for m in backends.migrations(db.backend)]
    assert names[0] == "store/0001"
    return names


def declared_on(db: Database) -> dict[str, Shape | None]:
    return {t.name: t.shape(db.backend) for t in read_models.every_table()}


def test_a_brand_new_store_has_every_read_model_its_declaration_produces(
    stores: tuple[Database, Database],
) -> None:
    new, _ = stores
    assert backends.upgrade(new) == [*shipped(new), backends.READ_MODELS]
    assert read_model_shapes(new) == declared_on(new)
    assert backends.pending(new) == [] and backends.upgrade(new) == []
    if new.backend == "sqlite":  # SQLite keeps each statement's text: it is the one produced
        with closing(sqlite3.connect(new.path)) as conn:
            kept = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE name LIKE 'rm_%'").fetchall())
        for table in read_models.every_table():
            for statement in table.create_statements("sqlite"):
                name = statement.split(" ON ")[0].split()[-1] if statement.startswith("CREATE INDEX") else table.name
                assert kept[name] == statement.replace(" IF NOT EXISTS", "")


def test_a_store_the_earlier_migrations_made_upgrades_to_a_new_store_s_schema_and_keeps_its_read_models(
    stores: tuple[Database, Database],
) -> None:
    new, old = stores
    earlier = earlier_releases.make(old)
    assert set(backends.EARLIER[old.backend]) <= set(earlier)
    query(old, "INSERT INTO {p}rm_players (player_id, name, kind) VALUES ('p', 'Ada', 'human')")
    tracking = read_models.TRACKING_TABLE[old.backend]
    query(old, f"INSERT INTO {{p}}{tracking} VALUES (?, 42)", (read_models.PROJECTION_NAME,))
    assert backends.pending(old) == [*shipped(old), backends.READ_MODELS]
    said: list[str] = []
    assert backends.upgrade(old, said.append) == [*shipped(old), backends.READ_MODELS]
    assert not any(EMPTIED in line for line in said), said
    assert query(old, "SELECT player_id FROM {p}rm_players") == [("p",)]
    assert query(old, f"SELECT notification_id FROM {{p}}{tracking}") == [(42,)]
    assert backends.pending(old) == [] and backends.upgrade(old) == []

    backends.upgrade(new)
    assert read_model_shapes(old) == declared_on(old)
    assert schema_of(old) == schema_of(new)  # the store's own tables, functions and triggers too


def test_a_store_an_older_release_left_is_sent_to_that_release_first_and_left_unchanged(
    stores: tuple[Database, Database],
) -> None:
    _, old = stores
    earlier_releases.make(old, upto="0004")
    with pytest.raises(backends.SchemaError, match=r"0005.*not applied.*first"):
        backends.upgrade(old)
    assert "store/0001" in backends.pending(old)
    assert read_model_shapes(old)["rm_field_sums"] is None


def _with(table: str, change: Any) -> tuple[Table, ...]:
    return tuple(change(t) if t.name == table else t for t in read_models.every_table())


CHANGES = {
    "a column": ("rm_players", lambda t: replace(t, columns=(*t.columns, Column("rating", "real")))),
    "the key": ("rm_moves", lambda t: replace(t, primary_key=(*t.primary_key, "seat"))),
}


@pytest.mark.parametrize("change", CHANGES)
def test_a_table_whose_rows_change_is_rebuilt_with_every_read_model_and_the_upgrade_says_so(
    stores: tuple[Database, Database], monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    db, _ = stores
    backends.upgrade(db)
    query(db, "INSERT INTO {p}rm_players (player_id, name, kind) VALUES ('p', 'Ada', 'human')")
    query(db, "INSERT INTO {p}rm_moves VALUES ('g', 1, 0, 'p', 'play', 1, 'then', 1.5, 'played')")
    query(db, "INSERT INTO {p}rm_judged_seats VALUES ('g', 9, 1, 8, 0, 3, 90.0, 1.5, 0, 0, 0)")
    tracking = read_models.TRACKING_TABLE[db.backend]
    query(db, f"INSERT INTO {{p}}{tracking} VALUES (?, 42)", (read_models.PROJECTION_NAME,))
    changed, how = CHANGES[change]
    tables = _with(changed, how)
    monkeypatch.setattr(backends, "every_table", lambda: tables)
    assert backends.pending(db) == [backends.READ_MODELS]

    said: list[str] = []
    assert backends.upgrade(db, said.append) == [backends.READ_MODELS]
    [note] = [line for line in said if EMPTIED in line]
    assert f"({changed} changed)" in note
    assert read_model_shapes(db) == {t.name: t.shape(db.backend) for t in tables}
    assert query(db, "SELECT COUNT(*) FROM {p}rm_players") == [(0,)]
    assert query(db, "SELECT COUNT(*) FROM {p}rm_moves") == [(0,)]  # projected together: emptied together
    assert query(db, f"SELECT COUNT(*) FROM {{p}}{tracking}") == [(0,)]  # so the next run starts from the first
    assert query(db, "SELECT COUNT(*) FROM {p}rm_judged_seats") == [(1,)]  # not projected: the judge's rows stay
    assert backends.pending(db) == [] and backends.upgrade(db) == []


def test_columns_added_to_a_judge_s_table_are_added_in_place_its_rows_and_the_others_kept(
    stores: tuple[Database, Database], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Judge version 3's every-seat figures: a store upgraded before them keeps its version 2 judgements (the new
    columns NULL there) and nothing is emptied to be rebuilt."""
    db, _ = stores
    added = sum(1 for c in read_models.JUDGED_MOVES.columns if c.name.endswith(("_wins", "_values")))
    assert added == 6
    before = _with("rm_judged_moves", lambda t: replace(t, columns=t.columns[:-added]))
    monkeypatch.setattr(backends, "every_table", lambda: before)
    backends.upgrade(db)
    query(db, "INSERT INTO {p}rm_players (player_id, name, kind) VALUES ('p', 'Ada', 'human')")
    row = ("g", 9, 2, 8, 0, 3, 0, 1, 3, '{"a":1}', None, 0.5, 1.5, 0.4, 0.5, 1.5, 0.4, 4, 0.0, 100.0, None)
    query(db, f"INSERT INTO {{p}}rm_judged_moves VALUES ({', '.join('?' for _ in row)})", row)
    monkeypatch.undo()

    said: list[str] = []
    assert backends.upgrade(db, said.append) == [backends.READ_MODELS]
    assert not any(EMPTIED in line for line in said), said
    assert read_model_shapes(db) == declared_on(db)
    assert query(db, "SELECT COUNT(*) FROM {p}rm_players") == [(1,)]
    assert query(db, "SELECT judge_version, played_value, played_wins, options_values FROM {p}rm_judged_moves") == [
        (2, 0.4, None, None)
    ]
    assert backends.pending(db) == [] and backends.upgrade(db) == []


def test_an_index_added_or_taken_out_changes_in_place_and_keeps_the_rows(
    stores: tuple[Database, Database], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, _ = stores
    backends.upgrade(db)
    query(db, "INSERT INTO {p}rm_moves VALUES ('g', 1, 0, 'p', 'play', 1, 'then', 1.5, 'played')")
    tables = _with("rm_moves", lambda t: replace(t, indexes=(Index("rm_moves_player", ("player_id", "at")),)))
    tables = tuple(replace(t, indexes=t.indexes[:1]) if t.name == "rm_games" else t for t in tables)
    monkeypatch.setattr(backends, "every_table", lambda: tables)
    said: list[str] = []
    assert backends.upgrade(db, said.append) == [backends.READ_MODELS]
    assert not any(EMPTIED in line for line in said)
    assert read_model_shapes(db) == {t.name: t.shape(db.backend) for t in tables}
    assert query(db, "SELECT COUNT(*) FROM {p}rm_moves") == [(1,)]


def test_each_game_s_fact_tables_are_stored_as_its_analytics_part_declares_them() -> None:
    """The projection writes a fact table's columns in ``FactTable.stored_columns`` order: the stored table has
    them, in that order, keyed by the game and the table's key (an append table's: the move and the row's place)."""
    stored = {t.name: t for t in read_models.every_table()}
    games = [kind for kind in GAMES if GAMES[kind].analytics is not None]
    assert games, "no game has fact tables: this test would prove nothing"
    for kind in games:
        for table in GAMES[kind].analytics.tables:  # type: ignore[union-attr]
            mine = stored[read_models.stored_name(kind, table.name)]
            assert tuple(c.name for c in mine.columns) == table.stored_columns()
            key = ("version", "idx") if table.append else table.key_names()
            assert mine.primary_key == ("game_id", *key)


def test_sqlite_types_are_compared_by_their_affinity() -> None:
    assert sqlite_affinity("DOUBLE PRECISION") == sqlite_affinity("REAL") == "REAL"
    assert [sqlite_affinity(t) for t in ("BIGINT", "VARCHAR(20)", "", "DECIMAL(5)")] == [
        "INTEGER",
        "TEXT",
        "BLOB",
        "NUMERIC",
    ]


def test_a_store_migration_s_number_means_the_same_change_on_both_backends() -> None:
    """One numbering for both: a change only one backend needs has its file there only."""
    named = {b: {m.version: m.name for m in backends.migrations(b)} for b in ("sqlite", "postgresql")}
    assert named["sqlite"] and named["postgresql"]
    for version in named["sqlite"].keys() & named["postgresql"].keys():
        assert named["sqlite"][version] == named["postgresql"][version]
