"""Dask is Digsite's optional ``cluster`` extra: without it the commands that split games across a cluster stop
with one line naming the extra to install, and nothing else needs it. Absence is simulated: ``distributed`` set
to ``None`` in ``sys.modules`` makes its import fail as an uninstalled package's does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from service.cli import main
from service.cluster import dask_jobs
from service.settings import Database
from service.store import backends as store

INSTALL = "pip install 'digsite[cluster]'"


@pytest.fixture
def without_dask(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)


def test_the_engine_names_the_extra_to_install(without_dask: None) -> None:
    with pytest.raises(dask_jobs.ClusterProblem) as raised, dask_jobs.engine(None, 1):
        pass
    assert "--workers runs on Dask, which is not installed" in str(raised.value) and INSTALL in str(raised.value)


@pytest.mark.parametrize(
    ("args", "code", "command"),
    [
        (["projections", "rebuild", "--workers", "2"], 1, "digsite projections rebuild --workers"),
        (["projections", "rebuild", "--cluster", "tcp://127.0.0.1:1"], 1, "digsite projections rebuild --cluster"),
        (["verify", "--all", "--workers", "2"], 2, "digsite verify --workers"),
        (["analyse", "--all", "--cluster", "tcp://127.0.0.1:1"], 2, "digsite analyse --cluster"),
    ],
)
def test_a_command_that_needs_dask_says_what_to_install_in_one_line(
    without_dask: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], code: int, command: str
) -> None:
    db = Database.from_url(f"sqlite:///{tmp_path / 'digsite.sqlite'}")
    store.upgrade(db)
    monkeypatch.setenv("DIGSITE_DATABASE_URL", db.url)
    monkeypatch.setenv("DIGSITE_HOME", str(tmp_path))
    result: Any = CliRunner().invoke(main, args)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == code and len(lines) == 1, result.output
    assert lines[0] == (
        f"Error: {command} runs on Dask, which is not installed here: it comes with Digsite's optional `cluster` "
        f"extra ({INSTALL}, on this host and every worker host)"
    )


def test_the_service_and_the_command_line_load_without_dask() -> None:
    """A fresh interpreter where ``distributed`` cannot be imported: the CLI, the API and the dashboard load."""
    code = (
        "import sys; sys.modules['distributed'] = None\n"
        "import entrypoints.cli, service.api, service.cluster.dask_jobs, dashboard.app\n"
    )
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
