"""The server's size from its one setting, DIGSITE_PUSH_MAX_WAITING (service/serving/capacity.py): gunicorn's
settings as gunicorn reads them from service/serving/gunicorn_conf.py, and the waits a worker sized by hand holds."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from service.serving import capacity

ROOT = Path(__file__).resolve().parents[3]
# gunicorn loads the app to print its settings: a stand-in, so that no store is needed (the settings are the same).
STAND_IN_APP = "wsgiref.simple_server:demo_app"


def printed_config(env: dict[str, str | None], *args: str) -> dict[str, str]:
    """gunicorn's settings as gunicorn itself reads them (``--print-config``), by name; ``env``: variables to set
    (None: to unset)."""
    environ = {**os.environ, "PYTHONPATH": str(ROOT)}
    for name, value in env.items():
        environ.pop(name, None)
        if value is not None:
            environ[name] = value
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "python:service.serving.gunicorn_conf",
            *args,
            "--print-config",
            STAND_IN_APP,
        ],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    settings = {}
    for line in done.stdout.splitlines():
        name, equals, value = line.partition("=")
        if equals:
            settings[name.strip()] = value.strip()
    return settings


def test_gunicorn_sizes_each_worker_from_the_waits_it_holds() -> None:
    """Threads and connections to spare beyond the waits: a worker holding all its waits still takes moves."""
    read = printed_config({capacity.SETTING: "1000", "WEB_CONCURRENCY": None})
    assert read["worker_class"] == "gthread" and read["reuse_port"] == "True" and read["workers"] == "2"
    assert int(read["threads"]) == 1000 + capacity.SPARE_THREADS
    # gunicorn's default (1,000 connections a worker) is what stalled every move behind 2,000 waits on two workers.
    assert int(read["worker_connections"]) == 1000 + capacity.SPARE_CONNECTIONS
    default = printed_config({capacity.SETTING: None, "WEB_CONCURRENCY": "3"})
    assert int(default["threads"]) == capacity.DEFAULT_WAITS + capacity.SPARE_THREADS and default["workers"] == "3"


def test_the_command_line_still_wins_over_the_configuration() -> None:
    read = printed_config({capacity.SETTING: "100"}, "-w", "5", "-k", "gevent")
    assert read["workers"] == "5" and read["worker_class"] == "gevent"
    assert int(read["worker_connections"]) == 100 + capacity.SPARE_CONNECTIONS


@pytest.mark.parametrize("text", ["-1", "many", "2.5"])
def test_a_setting_that_is_no_number_of_waits_is_refused_with_a_sentence(text: str) -> None:
    with pytest.raises(ValueError, match=f"{capacity.SETTING} is the number of waits"):
        capacity.waits({capacity.SETTING: text})


def test_unset_or_empty_the_setting_is_the_default() -> None:
    assert capacity.waits({}) == capacity.waits({capacity.SETTING: " "}) == capacity.DEFAULT_WAITS
    assert capacity.waits({capacity.SETTING: "0"}) == 0


def test_a_worker_sized_by_hand_holds_only_the_waits_that_leave_it_room_for_the_rest() -> None:
    sized = capacity.gunicorn_settings(700)
    assert capacity.fitting(700, sized["threads"], sized["worker_connections"]) == 700
    # docs/api.md's command before: 64 threads, gunicorn's 1,000 connections.
    assert capacity.fitting(500, 64, 1000) == 64 - capacity.SPARE_THREADS
    # Threads enough, connections not: the worker keeps half of them for everything else.
    assert capacity.fitting(1100, 1200, 1000) == 500
    assert capacity.fitting(500, 4, 1000) == 0  # (compose's -w 4 --threads 4 before: no room for a wait)
    assert capacity.fitting(500, None, 1000) == 500  # gevent: no thread a request


def test_the_limit_of_open_files_is_raised_for_a_worker_s_connections_before_the_workers_are_forked() -> None:
    """gunicorn's master (``on_starting``) makes room for the connections each worker is sized for: a container's
    soft limit of 1,024 open files would refuse a worker's 1,001st connection (EMFILE)."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    needed = 3000 + capacity.OTHER_FILES
    if hard != resource.RLIM_INFINITY and hard < needed:
        pytest.skip(f"the hard limit here ({hard} open files) is under {needed}")
    script = (
        "import resource; from service.serving import capacity; "
        "print(capacity.open_files_for(3000), resource.getrlimit(resource.RLIMIT_NOFILE)[0])"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard)),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["None", str(needed)]


@pytest.mark.parametrize(
    ("page", "app"), [("api.md", "service.serving.wsgi:app"), ("dashboard.md", "dashboard.wsgi:create_app()")]
)
def test_the_docs_run_gunicorn_with_the_one_source_of_its_settings(page: str, app: str) -> None:
    commands = [line for line in (ROOT / "docs" / page).read_text().splitlines() if line.startswith("gunicorn ")]
    assert commands and all(app in line for line in commands), commands
    for line in commands:
        words = line.split()
        assert words[words.index("-c") + 1] == "python:service.serving.gunicorn_conf", line
        assert not {"-w", "-k", "--threads", "--worker-connections"} & set(words), line
