"""``digsite serve`` without DIGSITE_API_KEY: it refuses to start, saying how to set one, unless --no-organisers
says that a server where every organiser call is refused is meant."""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
import urllib.error
import urllib.request
from pathlib import Path

from click.testing import CliRunner

from service.cli import main
from service.settings import Database
from tests.service.api.test_serve import Server


def test_serve_without_a_key_refuses_to_start_and_says_how_to_set_one(database: Database, tmp_path: Path) -> None:
    env = {"DIGSITE_DATABASE_URL": database.url, "DIGSITE_API_KEY": None, "DIGSITE_HOME": str(tmp_path)}
    result = CliRunner().invoke(main, ["serve", "--port", "0"], env=env)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.startswith("Error: DIGSITE_API_KEY is not set")
    assert "export DIGSITE_API_KEY=" in result.output and "--no-organisers" in result.output
    assert "listening" not in result.output


def test_serve_no_organisers_serves_seats_and_refuses_organiser_calls(database: Database, tmp_path: Path) -> None:
    env = {**os.environ, "DIGSITE_DATABASE_URL": database.url, "DIGSITE_HOME": str(tmp_path), "PYTHONUNBUFFERED": "1"}
    env.pop("DIGSITE_API_KEY", None)
    argv = [sys.executable, "-c", "from service.cli import main; main()", "serve", "--port", "0", "--no-organisers"]
    server = Server(argv, env)
    try:
        base = server.wait_for(r"listening on (http://127\.0\.0\.1:\d+/api/v1)").group(1)
        server.wait_for("organiser calls are refused: no DIGSITE_API_KEY")
        with urllib.request.urlopen(f"{base}/health", timeout=10) as health:
            assert health.status == 200
        request = urllib.request.Request(
            f"{base}/players", data=b'{"name": "Ines"}', headers={"Content-Type": "application/json"}, method="POST"
        )
        try:
            urllib.request.urlopen(request, timeout=10)
            raise AssertionError("an organiser call was accepted without a key")
        except urllib.error.HTTPError as refused:
            assert refused.code in (401, 403) and json.load(refused)["error"]["code"]
    finally:
        assert server.stop(signal.SIGTERM) == 0


def test_serve_on_a_busy_port_says_so_in_one_line(database: Database, tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        env = {"DIGSITE_DATABASE_URL": database.url, "DIGSITE_API_KEY": "k", "DIGSITE_HOME": str(tmp_path)}
        result = CliRunner().invoke(main, ["serve", "--port", str(port)], env=env)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert (
        result.output == f"Error: port {port} on 127.0.0.1 is already in use by another program: stop it, or "
        "choose another port with --port\n"
    )
