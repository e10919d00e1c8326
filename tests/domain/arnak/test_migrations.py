"""Arnak's fact tables as its migrations create them (migrations/<dialect>/arnak/) are exactly the ones its analytics
part declares (``domain.arnak.analytics.TABLES``): the same tables, columns in the same order, types, which columns
may be NULL (set and kept ones) and which add up from 0, and the key. Read from the SQL text for both dialects,
and on SQLite also from the tables the file really creates."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from domain.arnak.analytics import ANALYTICS
from domain.metrics import FactTable

ROOT = Path(__file__).resolve().parents[3] / "migrations"
TYPES = {"int": "INTEGER", "text": "TEXT", "real": "REAL"}
PREFIX = {"postgresql": '"{schema}".', "sqlite": ""}
CREATE = re.compile(r"CREATE TABLE IF NOT EXISTS (\S+) \((.*?)\n\);", re.S)
COLUMN = re.compile(r"(\w+) (INTEGER|TEXT|REAL)( NOT NULL)?(?: DEFAULT (\S+))?")

# (name, type, not null, default) per column, and the key, as the SQL should say them.
Shape = tuple[tuple[tuple[str, str, bool, str | None], ...], tuple[str, ...]]


def declared(table: FactTable) -> Shape:
    """An append table's rows are keyed by the move that gave them (its version, and the row's place in it)."""
    columns = [("game_id", "TEXT", True, None)]
    if table.append:
        columns += [("version", "INTEGER", True, None), ("idx", "INTEGER", True, None)]
    columns += [(c.name, TYPES[c.type], True, None) for c in table.key]
    columns += [(c.name, TYPES[c.type], c.combine == "add", "0" if c.combine == "add" else None) for c in table.columns]
    key = ("version", "idx") if table.append else tuple(c.name for c in table.key)
    return tuple(columns), ("game_id", *key)


def parsed(sql: str, dialect: str) -> dict[str, Shape]:
    sql = "\n".join(line for line in sql.splitlines() if not line.lstrip().startswith("--"))
    tables: dict[str, Shape] = {}
    for name, body in CREATE.findall(sql):
        assert name.startswith(PREFIX[dialect] + "rm_arnak_"), name
        columns, key = [], ()
        for part in (p.strip() for p in body.split(",\n")):
            primary = re.fullmatch(r"PRIMARY KEY \((.*)\)", part)
            if primary:
                key = tuple(c.strip() for c in primary.group(1).split(","))
                continue
            match = COLUMN.fullmatch(part)
            assert match, f"{name}: cannot read {part!r}"
            columns.append((match.group(1), match.group(2), bool(match.group(3)), match.group(4)))
        tables[name.removeprefix(PREFIX[dialect] + "rm_arnak_")] = (tuple(columns), key)
    assert len(tables) == sql.count("CREATE TABLE"), "a statement the test cannot read"
    return tables


@pytest.mark.parametrize("dialect", ["postgresql", "sqlite"])
def test_the_migrations_create_exactly_the_declared_fact_tables(dialect: str) -> None:
    files = sorted((ROOT / dialect / "arnak").glob("*.sql"))
    assert [f.name for f in files] == ["0001_facts.sql"]
    found = parsed(files[0].read_text(), dialect)
    assert found == {table.name: declared(table) for table in ANALYTICS.tables}


def test_sqlite_creates_those_tables_as_declared() -> None:
    db = sqlite3.connect(":memory:")
    db.executescript((ROOT / "sqlite" / "arnak" / "0001_facts.sql").read_text())
    for table in ANALYTICS.tables:
        info = db.execute(f"PRAGMA table_info(rm_arnak_{table.name})").fetchall()
        columns, key = declared(table)
        assert [(row[1], row[2], bool(row[3]), row[4]) for row in info] == list(columns)
        assert [row[1] for row in sorted(info, key=lambda row: row[5]) if row[5]] == list(key)
        # every row a fact gives fits the table: one value per column after game_id
        db.execute(f"INSERT INTO rm_arnak_{table.name} VALUES ({', '.join('?' * (len(columns)))})",
                   ("g", *(1 for _ in columns[1:])))  # fmt: skip
