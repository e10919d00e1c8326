"""``digsite db upgrade`` says a migration's notes (read models emptied, the previous release's processes to stop)
only to a store an earlier release used: a brand-new store has nothing to empty and no previous release."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from service.cli import main
from service.settings import Database
from service.store import backends
from tests.service.conftest import _drop_schema


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


def noted(backend: str) -> list[backends.Migration]:
    found = [m for m in backends.migrations(backend) if m.notes]
    assert found, "no migration has a note: this test would prove nothing"
    return found


def test_a_brand_new_store_is_told_no_note(new_store: Database, tmp_path: Path) -> None:
    output = upgrade(new_store, tmp_path).output
    assert f"applied {len(backends.migrations(new_store.backend))} migration(s)" in output
    for migration in noted(new_store.backend):
        assert f"applying {migration.version} {migration.name}" in output
        for note in migration.notes:
            assert note not in output
    assert "previous release" not in output and "emptied" not in output


def test_a_store_an_earlier_release_used_is_told_the_notes_of_what_it_applies(
    new_store: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    every = backends.migrations(new_store.backend)
    first_noted = every.index(noted(new_store.backend)[0])
    with monkeypatch.context() as earlier:  # the store as the release before the first noted migration left it
        earlier.setattr(backends, "migrations", lambda backend: every[:first_noted])
        assert backends.upgrade(new_store) == [m.version for m in every[:first_noted]]
    output = upgrade(new_store, tmp_path).output
    assert f"applied {len(every) - first_noted} migration(s)" in output
    for migration in noted(new_store.backend):
        for note in migration.notes:
            assert f"  {note}" in output.splitlines()
