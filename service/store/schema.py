"""A table declared once, in Python: its ``CREATE`` statements for SQLite and PostgreSQL are produced from the
declaration, and the shape a database really has is read back in the same terms, so the two can be compared.

Every read model is declared this way (``service.store.read_models``); ``digsite db upgrade`` creates what is
missing and rebuilds what differs (``service.store.backends``). The event store's own tables stay in SQL files
(``migrations/<dialect>/``): they come with dialect-specific functions and triggers that no declaration covers.

The DDL is written here rather than by a library (SQLAlchemy's ``CreateTable``): read models use three column
types, a primary key and plain indexes, and the statements must be exactly those the stores made by the earlier
hand-written SQL already have (SQLite keeps a column's declared type as written), which twenty lines say more
plainly than a dependency configured to agree with them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Dialect = Literal["sqlite", "postgresql"]
ColumnType = Literal["int", "text", "real"]  # the types of ``domain.metrics.Column``, and all a read model needs

TYPES: dict[str, dict[ColumnType, str]] = {
    "sqlite": {"int": "INTEGER", "text": "TEXT", "real": "REAL"},
    "postgresql": {"int": "INTEGER", "text": "TEXT", "real": "DOUBLE PRECISION"},
}


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    type: ColumnType = "int"
    not_null: bool = False
    default: str | None = None  # an SQL literal, as written after DEFAULT: "0", "'[]'"


@dataclass(frozen=True, slots=True)
class Index:
    name: str
    columns: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...]
    indexes: tuple[Index, ...] = ()

    def create_statements(self, dialect: str, schema: str = "") -> list[str]:
        """``CREATE TABLE`` and ``CREATE INDEX`` for ``dialect``, each ``IF NOT EXISTS``; on PostgreSQL in
        ``schema`` (a placeholder such as ``{schema}`` gives the text independent of the store)."""
        prefix = qualified(dialect, schema)
        lines = [f"    {column_sql(c, dialect)}" for c in self.columns]
        lines.append(f"    PRIMARY KEY ({', '.join(self.primary_key)})")
        statements = [f"CREATE TABLE IF NOT EXISTS {prefix}{self.name} (\n" + ",\n".join(lines) + "\n)"]
        statements += [
            f"CREATE INDEX IF NOT EXISTS {i.name} ON {prefix}{self.name} ({', '.join(i.columns)})" for i in self.indexes
        ]
        return statements

    def shape(self, dialect: str) -> Shape:
        """The shape the statements give this table in ``dialect``, as ``found_shape`` reads it back."""
        key = set(self.primary_key)
        columns = tuple(
            # PostgreSQL makes a primary key's columns NOT NULL; SQLite keeps them as declared.
            (c.name, TYPES[dialect][c.type], c.not_null or (dialect == "postgresql" and c.name in key), c.default)
            for c in self.columns
        )
        return Shape(columns, self.primary_key, frozenset((i.name, i.columns) for i in self.indexes))


def qualified(dialect: str, schema: str) -> str:
    return f'"{schema}".' if dialect == "postgresql" else ""


def column_sql(column: Column, dialect: str) -> str:
    sql = f"{column.name} {TYPES[dialect][column.type]}"
    if column.not_null:
        sql += " NOT NULL"
    if column.default is not None:
        sql += f" DEFAULT {column.default}"
    return sql


@dataclass(frozen=True, slots=True)
class Shape:
    """What a table is made of: its columns in order (name, type, NOT NULL, default), its key, its indexes."""

    columns: tuple[tuple[str, str, bool, str | None], ...]
    primary_key: tuple[str, ...]
    indexes: frozenset[tuple[str, tuple[str, ...]]] = field(default_factory=frozenset)

    def same_rows(self, other: Shape) -> bool:
        """The same columns and key: rows of one fit the other (indexes aside, which can change in place)."""
        return self.columns == other.columns and self.primary_key == other.primary_key


def found_shape(conn: Any, dialect: str, schema: str, name: str) -> Shape | None:
    """The shape of table ``name`` as the database has it, or None if there is no such table."""
    if dialect == "sqlite":
        return _sqlite_shape(conn, name)
    return _postgres_shape(conn, schema, name)


def _sqlite_shape(conn: sqlite3.Connection, name: str) -> Shape | None:
    rows = conn.execute(f"PRAGMA table_info({name})").fetchall()  # cid, name, type, notnull, default, pk
    if not rows:
        return None
    columns = tuple((r[1], sqlite_affinity(r[2]), bool(r[3]), r[4]) for r in rows)
    key = tuple(r[1] for r in sorted((r for r in rows if r[5]), key=lambda r: r[5]))
    indexes = frozenset(
        (index[1], tuple(c[2] for c in sorted(conn.execute(f"PRAGMA index_info({index[1]})").fetchall())))
        for index in conn.execute(f"PRAGMA index_list({name})").fetchall()  # seq, name, unique, origin, partial
        if index[3] == "c"  # made by CREATE INDEX (not the primary key's own)
    )
    return Shape(columns, key, indexes)


def sqlite_affinity(declared: str) -> str:
    """The type SQLite gives a column declared ``declared`` (its rules in order: sqlite.org/datatype3.html, 3.1):
    ``DOUBLE PRECISION``, as an earlier migration wrote it, is stored exactly as ``REAL``."""
    upper = declared.upper()
    if "INT" in upper:
        return "INTEGER"
    if any(word in upper for word in ("CHAR", "CLOB", "TEXT")):
        return "TEXT"
    if not upper or "BLOB" in upper:
        return "BLOB"
    if any(word in upper for word in ("REAL", "FLOA", "DOUB")):
        return "REAL"
    return "NUMERIC"


def _postgres_shape(conn: Any, schema: str, name: str) -> Shape | None:
    rows = conn.execute(
        "SELECT column_name, data_type, is_nullable, column_default FROM information_schema.columns "
        "WHERE table_schema = %s AND table_name = %s ORDER BY ordinal_position",
        (schema, name),
    ).fetchall()
    if not rows:
        return None
    columns = tuple((n, str(t).upper(), nullable == "NO", _pg_default(d)) for n, t, nullable, d in rows)
    indexes = conn.execute(
        "SELECT c.relname, i.indisprimary, ARRAY("
        "  SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)"
        "  JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum ORDER BY k.n)"
        " FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
        " WHERE i.indrelid = to_regclass(format('%%I.%%I', %s::text, %s::text))",
        (schema, name),
    ).fetchall()
    key = next((tuple(cols) for _, primary, cols in indexes if primary), ())
    return Shape(columns, key, frozenset((n, tuple(cols)) for n, primary, cols in indexes if not primary))


def _pg_default(default: str | None) -> str | None:
    """PostgreSQL shows a default with its cast (``'[]'::text``); the declaration writes the literal alone."""
    if default is None:
        return None
    literal, _, _cast = default.partition("::")
    return literal


def fingerprint_text(tables: Sequence[Table], dialect: str) -> str:
    """The statements of every table, independent of the store's schema: what a recorded fingerprint hashes."""
    return "\n".join(s for t in tables for s in t.create_statements(dialect, "{schema}"))
