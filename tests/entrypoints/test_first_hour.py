"""The composed commands (``up``, ``dashboard``) in the first hour: a busy port, a store that is not there, the
organiser key's home, and help texts written for a terminal."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from entrypoints.cli import main
from entrypoints.up import _api_key
from service.settings import Database, Settings


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _error_line(output: str) -> str:
    assert "Traceback" not in output
    errors = [line for line in output.splitlines() if line.lower().startswith("error:")]
    assert len(errors) == 1 and errors[0].startswith("Error: "), output
    return errors[0]


@pytest.mark.parametrize("which", ["--api-port", "--port"])
def test_up_with_a_busy_port_says_so_once_and_exits_non_zero(which: str, tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        ports = {"--api-port": str(_free_port()), "--port": str(_free_port()), which: str(taken)}
        env = {**os.environ, "DIGSITE_HOME": str(tmp_path), "DIGSITE_API_KEY": "k"}
        env.pop("DIGSITE_DATABASE_URL", None)
        command = [sys.executable, "-m", "entrypoints", "up", "--demo-games", "1"]
        for option, port in ports.items():
            command += [option, port]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    line = _error_line(done.stdout + done.stderr)
    assert done.returncode == 1
    assert f"port {taken} on 127.0.0.1 is already in use" in line and which in line
    assert "restarting" not in done.stdout + done.stderr
    assert not (tmp_path / "digsite.sqlite").exists()  # refused before any work: no store, no demo games


@pytest.mark.parametrize(
    "url", ["mysql://x", "postgresql://u:pw-secret@127.0.0.1:{port}/postgres", "postgresql://u:pw-secret@h:port/db"]
)
@pytest.mark.parametrize("command", ["up", "dashboard"])
def test_up_and_dashboard_name_the_store_problem_in_one_line(command: str, url: str, tmp_path: Path) -> None:
    url = url.replace("{port}", str(_free_port()))
    env = {"DIGSITE_DATABASE_URL": url, "DIGSITE_HOME": str(tmp_path), "DIGSITE_API_KEY": "k"}
    args = [command, "--port", str(_free_port())] + (["--api-port", str(_free_port())] if command == "up" else [])
    result = CliRunner().invoke(main, args, env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    line = _error_line(result.output)
    assert result.exit_code != 0 and "pw-secret" not in result.output
    assert ("malformed DIGSITE_DATABASE_URL" in line) != ("cannot reach the database at 127.0.0.1" in line)
    assert not list(tmp_path.iterdir())  # no key file, no store


def test_the_dashboard_on_a_fresh_home_says_to_run_db_upgrade(tmp_path: Path) -> None:
    env = {"DIGSITE_DATABASE_URL": None, "DIGSITE_HOME": str(tmp_path)}
    result = CliRunner().invoke(main, ["dashboard", "--port", str(_free_port())], env=env)
    line = _error_line(result.output)
    assert "no store at the SQLite file" in line and "digsite db upgrade" in line


def test_up_keeps_the_key_it_makes_in_digsite_home_not_where_it_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, here = tmp_path / "home", tmp_path / "here"
    here.mkdir()
    monkeypatch.setenv("DIGSITE_HOME", str(home))
    monkeypatch.chdir(here)
    settings = Settings(database=Database.from_url("postgresql://postgres@127.0.0.1:5432/venue"))
    key, source = _api_key(settings)
    assert (home / "api-key").read_text().strip() == key and str(home / "api-key") in source
    assert (home / "api-key").stat().st_mode & 0o077 == 0  # its owner's only
    assert _api_key(settings)[0] == key  # the same key next time
    assert not list(here.iterdir())
    assert _api_key(Settings(database=settings.database, api_key="chosen")) == ("chosen", "DIGSITE_API_KEY")


def _commands(command: click.Command, path: list[str]) -> list[list[str]]:
    found = [path]
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            found += _commands(sub, [*path, name])
    return found


@pytest.mark.parametrize("path", _commands(main, []), ids=lambda p: " ".join(p) or "digsite")
def test_every_help_text_reads_as_plain_text(path: list[str]) -> None:
    result = CliRunner().invoke(main, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert "``" not in result.output  # reST markup belongs in docstrings of functions, not of commands


@pytest.mark.postgres
@pytest.mark.parametrize("command", ["up", "dashboard"])
def test_up_and_dashboard_on_a_missing_database_say_how_to_create_it(
    command: str, tmp_path: Path, postgres_url: str
) -> None:
    server = Database.from_url(postgres_url)
    name = f"digsite_missing_{os.urandom(4).hex()}"
    env = {
        "DIGSITE_DATABASE_URL": f"postgresql://{server.user}@{server.host}:{server.port}/{name}",
        "DIGSITE_HOME": str(tmp_path),
        "DIGSITE_API_KEY": "k",
    }
    args = [command, "--port", str(_free_port())] + (["--api-port", str(_free_port())] if command == "up" else [])
    result = CliRunner().invoke(main, args, env=env)
    line = _error_line(result.output)
    assert result.exit_code == 1 and f"database {name} does not exist" in line and "createdb" in line


@pytest.mark.slow
def test_up_stops_with_a_non_zero_exit_when_a_part_keeps_failing(tmp_path: Path) -> None:
    """A part that cannot start (here the dashboard, refusing its session setting) is restarted a few times,
    then Digsite stops and says so: exit 1, not 0."""
    env = {**os.environ, "DIGSITE_HOME": str(tmp_path), "DIGSITE_API_KEY": "k"}
    env["DIGSITE_DASHBOARD_SESSION_HOURS"] = "999"
    env.pop("DIGSITE_DATABASE_URL", None)
    command = [sys.executable, "-m", "entrypoints", "up", "--demo-games", "0"]
    command += ["--port", str(_free_port()), "--api-port", str(_free_port())]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.splitlines()[-1] == "Error: the dashboard keeps failing (exit code 1; its own lines say why)"
    assert "a dashboard session lasts between 0 and 168 hours" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr
