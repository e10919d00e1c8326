"""``digsite db upgrade`` says a migration's notes (the previous release's processes to stop) only to a store an earlier
release used: a brand-new store has no previous release. (That the read models were emptied to be rebuilt is said
where a declaration changed a table's rows: tests/service/store/test_schema.py.)"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from service.cli import main
from service.settings import Database
from service.store import backends, read_models
from service.store.schema import found_shape
from tests.service.conftest import _drop_schema
from tests.service.store import earlier_releases


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def new_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """A store nothing was ever applied to: an SQLite file not yet made, or a schema not yet made."""
    if request.param == "sqlite":
        yield Database.from_url(f"sqlite:///{tmp_path / 'digsite.sqlite'}")
        return
    base = request.getfixturevalue("postgres_url")
    schema = f"digsite_test_{secrets.token_hex(6)}"
    try:
        yield Database.from_url(f"{base}?schema={schema}")
    finally:
        _drop_schema(base, schema)


def upgrade(db: Database, home: Path) -> Result:
    result = CliRunner().invoke(
        main, ["db", "upgrade"], env={"DIGSITE_DATABASE_URL": db.url, "DIGSITE_HOME": str(home)}
    )
    assert result.exit_code == 0, result.output
    return result


NOTE = "stop the previous release's `digsite serve` first: it would not read this."


def with_a_noted_migration(monkeypatch: pytest.MonkeyPatch) -> None:
    """The store's migrations and one more that has a note (no migration has one today)."""
    every = backends.migrations
    noted = backends.Migration("store/9999", "noted", f"-- What it changes.\n-- Note: {NOTE}\nSELECT 1;\n")
    monkeypatch.setattr(backends, "migrations", lambda backend: [*every(backend), noted])


def test_a_brand_new_store_is_told_no_note(
    new_store: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_a_noted_migration(monkeypatch)
    output = upgrade(new_store, tmp_path).output
    assert f"applied {len(backends.migrations(new_store.backend)) + 1} migration(s)" in output
    assert "applying store/9999 noted" in output and "matching the read models" in output
    assert NOTE not in output and "previous release" not in output and "emptied" not in output


def test_a_store_an_earlier_release_made_is_told_the_notes_of_what_it_applies_and_no_other(
    new_store: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    earlier_releases.make(new_store)
    with_a_noted_migration(monkeypatch)
    output = upgrade(new_store, tmp_path).output
    # store/0001 marked, the later ones (store/9999 among them) applied, the read models matched
    assert f"applied {len(backends.migrations(new_store.backend)) + 1} migration(s)" in output
    assert f"  Note: {NOTE}" in output.splitlines()
    assert "emptied" not in output  # its read models are the declared ones: kept


def test_a_store_used_before_is_told_the_notes_of_what_it_applies(
    new_store: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    upgrade(new_store, tmp_path)
    with_a_noted_migration(monkeypatch)
    output = upgrade(new_store, tmp_path).output
    assert "applied 1 migration(s)" in output and f"  Note: {NOTE}" in output.splitlines()


def test_the_read_models_statements_printed_make_the_declared_tables_and_touch_no_store(tmp_path: Path) -> None:
    db = Database.from_url(f"sqlite:///{tmp_path / 'none.sqlite'}")
    result = CliRunner().invoke(
        main, ["db", "read-models"], env={"DIGSITE_DATABASE_URL": db.url, "DIGSITE_HOME": str(tmp_path)}
    )
    assert result.exit_code == 0, result.output
    assert not Path(db.path).exists()
    conn = sqlite3.connect(":memory:")
    conn.executescript(result.output)
    for table in read_models.every_table():
        assert found_shape(conn, "sqlite", "", table.name) == table.shape("sqlite")
    postgresql = CliRunner().invoke(
        main, ["db", "read-models", "--backend", "postgresql"], env={"DIGSITE_DATABASE_URL": db.url}
    )
    assert 'CREATE TABLE IF NOT EXISTS "public".rm_players (' in postgresql.output
    assert "DOUBLE PRECISION" in postgresql.output and "DOUBLE PRECISION" not in result.output
