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

import pytest

from domain.games import GAMES
from service.settings import Database, Settings


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.read()


@pytest.mark.slow
def test_up_serves_the_dashboard_and_the_api_on_a_fresh_embedded_store_with_demo_data(tmp_path: Path) -> None:
    api, web = _free_port(), _free_port()
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "DIGSITE_DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.sqlite'}", "DIGSITE_HOME": str(home)}
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
        str(len(GAMES)),
    ]
    process = subprocess.Popen(
        command, env=env, cwd=elsewhere, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
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
        key = (home / "api-key").read_text().strip()  # created in DIGSITE_HOME, and it works
        assert not list(elsewhere.iterdir())  # nothing in the directory it ran from
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
    assert f"organiser key: {key} (kept in {home / 'api-key'}; set DIGSITE_API_KEY to use your own)" in output
    # The demo data holds every registered game: with two demo games, one of each, finished, each in a tournament
    # seated here round by round (so its rounds page has its round and seat links, as an organiser's would).
    from service import bootstrap

    service = bootstrap.build(Settings(database=Database.from_url(env["DIGSITE_DATABASE_URL"]), api_key=key))
    try:
        played = {service.kind_of(game_id): service.game(game_id)["status"] for game_id in service.game_ids()}
        cups = {service.game(g)["labels"]["tournament"] for g in service.game_ids()}
        seated = [service.rounds.status(cup) for cup in cups]
    finally:
        service.close()
    assert played == {kind: "over" for kind in GAMES}
    assert len(seated) == len(GAMES) and all(s["complete"] and len(s["seated_rounds"]) == 1 for s in seated)


def test_the_demo_plan_shares_the_total_between_every_game_within_each_seat_range() -> None:
    from entrypoints.up import demo_plan

    kinds = list(GAMES)
    for total in (1, len(GAMES), 12, 13):
        plan = demo_plan(total, kinds)
        assert sum(count for _, _, count in plan) == total
        shares = {kind: sum(c for k, _, c in plan if k == kind) for kind in kinds}
        assert max(shares.values()) - min(shares.values()) <= 1
        for kind, players, count in plan:
            assert players in GAMES[kind].schemas.seats and count >= 1
    for kind in kinds:  # the default demo reaches each game's smallest table
        assert GAMES[kind].schemas.seats.low in {p for k, p, _ in demo_plan(12, kinds) if k == kind}
