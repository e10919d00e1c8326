"""The first hour from a fresh clone: each command that needs the store says in one line what is wrong with it
(a malformed URL, a server that cannot be reached, a database that does not exist, a fresh home with no store yet,
a schema not upgraded) and what to do, exits non-zero, and never shows a traceback or a password."""

from __future__ import annotations

import secrets
import socket
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from service.cli import main
from service.settings import Database
from service.store import backends

PASSWORD = "s3cret-pw"

# Every command that opens the store, with the arguments it needs to get that far.
STORE_COMMANDS = [
    ["db", "upgrade"],
    ["db", "status"],
    ["projections", "run"],
    ["projections", "rebuild"],
    ["projections", "status"],
    ["verify", "--all"],
    ["export", "--all", "-o", "-"],
    ["ledger", "backfill"],
    ["serve", "--port", "0"],
    ["simulate", "--game", "ruins", "--store", "--games", "1"],
]
READING_COMMANDS = [c for c in STORE_COMMANDS if c != ["db", "upgrade"]]  # upgrade creates a missing SQLite file


def run(args: list[str], home: Path, url: str | None) -> Result:
    env = {"DIGSITE_DATABASE_URL": url, "DIGSITE_HOME": str(home), "DIGSITE_API_KEY": "organiser-key"}
    return CliRunner().invoke(main, args, env=env)


def error_line(result: Result) -> str:
    """The one "Error: ..." line of a command that failed cleanly (no exception escaped click)."""
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code != 0, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1, result.output
    assert not [line for line in result.output.splitlines() if line.lower().startswith("error:") and line not in errors]
    return errors[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(
    "url",
    ["mysql://root@db/games", f"postgresql://organiser:{PASSWORD}@db.example:fivefour/games", "sqlite://"],
)
@pytest.mark.parametrize("args", STORE_COMMANDS, ids=" ".join)
def test_a_malformed_database_url_is_one_line_without_its_password(args: list[str], url: str, tmp_path: Path) -> None:
    line = error_line(run(args, tmp_path, url))
    assert "malformed DIGSITE_DATABASE_URL" in line
    assert PASSWORD not in line
    assert not (tmp_path / "digsite.sqlite").exists()  # nothing was made elsewhere instead


@pytest.mark.parametrize("args", STORE_COMMANDS, ids=" ".join)
def test_an_unreachable_server_is_named_with_its_address_and_no_upgrade_advice(args: list[str], tmp_path: Path) -> None:
    port = free_port()  # nothing listens there
    line = error_line(run(args, tmp_path, f"postgresql://postgres:{PASSWORD}@127.0.0.1:{port}/postgres"))
    assert f"cannot reach the database at 127.0.0.1:{port}" in line
    assert "db upgrade" not in line and "not up to date" not in line and "pending" not in line
    assert PASSWORD not in line


@pytest.mark.postgres
@pytest.mark.parametrize("args", STORE_COMMANDS, ids=" ".join)
def test_a_missing_database_says_how_to_create_it(args: list[str], tmp_path: Path, postgres_url: str) -> None:
    server = Database.from_url(postgres_url)
    name = f"digsite_missing_{secrets.token_hex(4)}"  # no such database on the test server
    line = error_line(run(args, tmp_path, f"postgresql://{server.user}@{server.host}:{server.port}/{name}"))
    assert f"database {name} does not exist" in line
    assert f"createdb -h {server.host} -p {server.port} -U {server.user} {name}" in line
    assert "not up to date" not in line and "pending" not in line


def test_db_status_tells_a_missing_database_apart_from_pending_migrations(tmp_path: Path) -> None:
    port = free_port()
    unreachable = run(["db", "status"], tmp_path, f"postgresql://postgres@127.0.0.1:{port}/postgres")
    assert unreachable.exit_code == 2 and "pending" not in unreachable.output
    fresh = run(["db", "status"], tmp_path, None)
    assert fresh.exit_code == 2 and "pending" not in fresh.output
    empty = tmp_path / "empty.sqlite"
    sqlite3.connect(empty).close()  # a file, but no migration applied
    pending = run(["db", "status"], tmp_path, f"sqlite:///{empty}")
    assert (
        pending.exit_code == 1
        and "pending store/0001, read-models" in pending.output
        and "digsite db upgrade" in pending.output
    )


@pytest.mark.parametrize("args", READING_COMMANDS, ids=" ".join)
def test_a_fresh_home_says_there_is_no_store_yet_and_db_upgrade_makes_it(args: list[str], tmp_path: Path) -> None:
    home = tmp_path / "home"
    line = error_line(run(args, home, None))
    assert f"no store at the SQLite file {home / 'digsite.sqlite'} yet" in line
    assert "run `digsite db upgrade` to create it" in line
    assert not (home / "digsite.sqlite").exists()  # refusing made nothing


def test_db_upgrade_creates_the_store_in_digsite_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    upgraded = run(["db", "upgrade"], home, None)
    assert upgraded.exit_code == 0, upgraded.output
    assert (home / "digsite.sqlite").is_file()
    assert run(["db", "status"], home, None).exit_code == 0
    assert run(["projections", "status"], home, None).output.startswith("position 0, 0 record(s) behind")


def test_an_unopenable_sqlite_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    line = error_line(run(["db", "upgrade"], tmp_path, f"sqlite:///{tmp_path / 'a-file' / 'games.sqlite'}"))
    assert f"cannot open the SQLite file {tmp_path / 'a-file' / 'games.sqlite'}" in line


def _schemaless(kind: str, tmp_path: Path, postgres_url: str | None) -> str:
    if kind == "sqlite":
        path = tmp_path / "old.sqlite"
        sqlite3.connect(path).close()
        return f"sqlite:///{path}"
    assert postgres_url is not None
    return f"{postgres_url}{'&' if '?' in postgres_url else '?'}schema=digsite_never_{secrets.token_hex(4)}"


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
@pytest.mark.parametrize("args", READING_COMMANDS, ids=" ".join)
def test_a_schema_not_upgraded_says_run_db_upgrade(
    args: list[str], kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = _schemaless(kind, tmp_path, request.getfixturevalue("postgres_url") if kind == "postgres" else None)
    result = run(args, tmp_path, url)
    if args == ["db", "status"]:
        assert result.exit_code == 1 and "pending" in result.output and "Traceback" not in result.output
        return
    line = error_line(result)
    assert "not up to date" in line and "run `digsite db upgrade`" in line
    assert "cannot reach" not in line and "does not exist" not in line


def test_the_store_check_is_the_one_the_service_uses(tmp_path: Path) -> None:
    """backends.reach and backends.pending, which the commands ask, raise the service's StoreUnavailable kinds."""
    port = free_port()
    with pytest.raises(backends.StoreUnreachable):
        backends.reach(Database.from_url(f"postgresql://postgres@127.0.0.1:{port}/postgres"))
    with pytest.raises(backends.StoreUnreachable):
        backends.pending(Database.from_url(f"postgresql://postgres@127.0.0.1:{port}/postgres"))
    with pytest.raises(backends.StoreMissing):
        backends.reach(Database.from_url(f"sqlite:///{tmp_path / 'none.sqlite'}"))


def test_an_upgrade_the_database_refuses_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "other-app.sqlite"
    with sqlite3.connect(path) as conn:  # another program's file, with a table of the same name
        conn.execute("CREATE TABLE digsite_schema_migrations (version TEXT PRIMARY KEY)")
    line = error_line(run(["db", "upgrade"], tmp_path, f"sqlite:///{path}"))
    assert line.startswith(f"Error: the upgrade of SQLite file {path} stopped and changed nothing")
    with sqlite3.connect(path) as conn:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"digsite_schema_migrations"}
