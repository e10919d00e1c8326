"""tests/stores.py: a store is built once for every process of the run that asks (two shelves on one folder stand
for two xdist workers), and each copy is a store of its own."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from service.settings import Database
from tests.stores import Shelf


def _players(db: Database) -> list[str]:
    with closing(sqlite3.connect(db.path)) as conn:
        return [name for (name,) in conn.execute("SELECT name FROM probe ORDER BY name")]


def _add(db: Database, name: str) -> None:
    with closing(sqlite3.connect(db.path)) as conn, conn:
        conn.execute("INSERT INTO probe VALUES (?)", (name,))


def test_a_store_is_built_once_for_every_worker_and_each_copy_is_its_own(tmp_path: Path) -> None:
    built_by: list[str] = []

    def build(db: Database) -> dict[str, str]:
        built_by.append(db.path)
        with closing(sqlite3.connect(db.path)) as conn, conn:
            conn.execute("CREATE TABLE probe (name TEXT)")
            conn.execute("INSERT INTO probe VALUES ('built')")
        return {"seed": "s"}

    first, second = Shelf(tmp_path / "stores"), Shelf(tmp_path / "stores")
    one = first.sqlite("probe", build)
    other = second.sqlite("probe", build)
    assert len(built_by) == 1 and one.facts == other.facts == {"seed": "s"}

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    mine, theirs = one.copy(tmp_path / "a"), other.copy(tmp_path / "b")
    _add(mine, "mine")
    assert _players(mine) == ["built", "mine"]
    assert _players(theirs) == ["built"]  # what one test wrote no other copy sees, nor the store built
    assert _players(Database.from_url(f"sqlite:///{one.path}")) == ["built"]


def test_a_builder_that_failed_leaves_nothing_and_the_next_ask_builds_again(tmp_path: Path) -> None:
    def broken(db: Database) -> None:
        raise RuntimeError("the bots fell over")

    shelf = Shelf(tmp_path / "stores")
    with pytest.raises(RuntimeError, match="fell over"):
        shelf.sqlite("probe", broken)
    assert Shelf(tmp_path / "stores").sqlite("probe").facts is None  # built afresh (empty), not the broken one
