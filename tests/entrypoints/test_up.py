"""``digsite up`` (the README's run command) brings up API, projections and dashboard, then stops cleanly."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.read()


def test_up_serves_the_dashboard_and_the_api_on_a_fresh_embedded_store_with_demo_data(tmp_path: Path) -> None:
    api, web = _free_port(), _free_port()
    env = {**os.environ, "DIGSITE_DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.sqlite'}"}
    env.pop("DIGSITE_API_KEY", None)
    command = [
        sys.executable,
        "-m",
        "entrypoints",
        "up",
        "--port",
        str(web),
        "--api-port",
        str(api),
        "--demo-games",
        "2",
    ]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                health = _get(f"http://127.0.0.1:{api}/api/v1/health")
                page = _get(f"http://127.0.0.1:{web}/")
                break
            except OSError:
                assert process.poll() is None, process.stdout.read() if process.stdout else "exited"
                assert time.monotonic() < deadline, "digsite up did not come up in time"
                time.sleep(0.2)
        assert health[0] == 200
        assert page[0] == 200 and b"dash" in page[1].lower()
        key = (tmp_path / "api-key").read_text().strip()  # created beside the store, and it works
        request = urllib.request.Request(
            f"http://127.0.0.1:{api}/api/v1/players",
            data=b'{"name": "Ines"}',
            headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            assert response.status == 201
    finally:
        process.send_signal(signal.SIGINT)
        output, _ = process.communicate(timeout=30)
    assert process.returncode == 0, output
    assert "demo tournament" in output and "Digsite stopped" in output
