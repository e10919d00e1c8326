"""Two API servers (two `digsite serve` processes, as two hosts behind a load balancer would run) on one
PostgreSQL store: a game played with every request alternating between them ends whole and verifies; a move on a
version one server still has cached (another server moved the game on) is refused 409 by the store's optimistic
concurrency, never recorded and never lost; two moves on one version, one per server at once, land exactly once.
What this backs: docs/deploy.md ("Stateless API workers on several hosts")."""

from __future__ import annotations

import os
import random
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain import ruins
from domain.ruins.bots import RandomBot, Seen
from service.commands.application import Digsite
from service.integrity.audit import verify
from service.settings import Database, Settings
from tests.service.api.test_serve import KEY, Server, call

pytestmark = pytest.mark.postgres
TIMEOUT = 30


@pytest.fixture
def servers(pg: Database, tmp_path: Path) -> Iterator[list[str]]:
    """The base URLs of two API server processes on the store ``pg``, sharing its secret as hosts must."""
    env = {
        **os.environ,
        "DIGSITE_DATABASE_URL": pg.url,
        "DIGSITE_API_KEY": KEY,
        "DIGSITE_SECRET_KEY": "two-hosts-one-secret",
        "HOME": str(tmp_path),
        "PYTHONUNBUFFERED": "1",
    }
    started = []
    try:
        for _ in range(2):
            args = [sys.executable, "-c", "from service.cli import main; main()", "serve", "--port", "0"]
            started.append(Server(args, env))
        yield [s.wait_for(r"listening on (http://127\.0\.0\.1:\d+/api/v1)").group(1) for s in started]
    finally:
        for server in started:
            server.stop(signal.SIGTERM)


def ok(answer: tuple[int, Any], status: int = 200) -> Any:
    assert answer[0] == status, answer
    return answer[1]


def new_game(base: str, players: int) -> dict[str, Any]:
    seats = [ok(call(base, "POST", "/players", KEY, {"name": f"P{i}"}), 201)["id"] for i in range(players)]
    created: dict[str, Any] = ok(call(base, "POST", "/games", KEY, {"game": "ruins", "seats": seats}), 201)
    return created


def token(created: dict[str, Any], seat: int) -> str:
    found: str = created["tokens"][seat]["token"]
    return found


def flip(base: str, created: dict[str, Any], seat: int, version: int) -> tuple[int, Any]:
    action = {"type": "flip", "seat": seat, "ruin": None}
    return call(
        base, "POST", f"/games/{created['id']}/actions", token(created, seat), {"version": version, "action": action}
    )


def test_a_stale_cache_on_one_server_cannot_record_a_stale_move_nor_lose_one(servers: list[str], pg: Database) -> None:
    a, b = servers
    created = new_game(a, 3)
    game_id = created["id"]
    assert ok(call(b, "GET", f"/games/{game_id}", token(created, 0)))["version"] == 1  # b caches version 1
    assert ok(flip(a, created, 0, 1))["version"] == 2  # a moves the game on; b's cache is now stale
    # Seat 0 again on version 1, through b: its cache agrees, the store refuses the append, and on the game as it
    # now is the move is stale (seat 0's own flip came since): refused, never played twice.
    status, refused = flip(b, created, 0, 1)
    assert (status, refused["error"]["code"]) == (409, "stale_version")
    assert ok(flip(b, created, 1, 2))["version"] == 3  # b catches up and records the next move
    assert ok(flip(a, created, 2, 3))["version"] == 4  # a, a move behind in its cache, too
    service = Digsite(Settings(database=pg, secret_key="two-hosts-one-secret"))
    try:
        records = service.stored_records(game_id)
        assert [r["version"] for r in records] == [1, 2, 3, 4]
        assert [r["body"]["seat"] for r in records[1:]] == [0, 1, 2]
    finally:
        service.close()


def at_once(servers: list[str], created: dict[str, Any], seats: tuple[int, int]) -> list[tuple[int, Any]]:
    """``seats[i]`` flips on version 1 through ``servers[i]``, both at the same moment."""
    barrier = threading.Barrier(2, timeout=TIMEOUT)
    answers: list[tuple[int, Any]] = [(0, None), (0, None)]

    def move(i: int) -> None:
        barrier.wait()
        answers[i] = flip(servers[i], created, seats[i], 1)

    threads = [threading.Thread(target=move, args=(i,)) for i in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
        assert not thread.is_alive()
    return answers


def test_two_moves_of_one_seat_on_one_version_through_two_servers_land_exactly_once(servers: list[str]) -> None:
    for _ in range(3):
        created = new_game(servers[0], 3)
        answers = at_once(servers, created, (0, 0))
        assert sorted(status for status, _ in answers) == [200, 409], answers
        (loser,) = [body for status, body in answers if status == 409]
        assert loser["error"]["code"] in {"stale_version", "conflict"}
        for base in servers:
            assert ok(call(base, "GET", f"/games/{created['id']}", KEY))["version"] == 2


def test_two_seats_secret_choices_through_two_servers_at_once_both_land(servers: list[str]) -> None:
    """Seats 0 and 1 choose their night flip on version 1 at once, through two servers: both land (a secret choice
    made at the same time as another does not go stale), each once."""
    for _ in range(3):
        created = new_game(servers[0], 3)
        answers = at_once(servers, created, (0, 1))
        assert sorted(ok(answer)["version"] for answer in answers) == [2, 3], answers
        records = ok(call(servers[1], "GET", f"/games/{created['id']}/log", KEY))
        moves = [r for r in records["records"] if r["type"] == "move"]
        assert sorted(r["body"]["seat"] for r in moves) == [0, 1]


def test_a_game_played_alternating_between_two_servers_ends_whole_and_verifies(
    servers: list[str], pg: Database
) -> None:
    created = new_game(servers[0], 3)
    game_id, rng, bot = created["id"], random.Random(5), RandomBot()
    moves = 0
    while True:
        reader, writer = servers[moves % 2], servers[(moves + 1) % 2]  # read on one server, move on the other
        game = ok(call(reader, "GET", f"/games/{game_id}", KEY))
        if game["status"] == "over":
            break
        seat = game["to_act"][0]
        mine = ok(call(reader, "GET", f"/games/{game_id}", token(created, seat)))
        legal = [ruins.action_from_dict(x) for x in mine["legal_actions"]]
        action = ruins.action_to_dict(bot.choose(Seen.from_view(mine["view"]), legal, rng))
        body = {"version": mine["version"], "action": action}
        ok(call(writer, "POST", f"/games/{game_id}/actions", token(created, seat), body))
        moves += 1
        assert moves < 2000
    views = [ok(call(base, "GET", f"/games/{game_id}", KEY)) for base in servers]
    assert views[0] == views[1] and views[0]["version"] == moves + 2  # created, the moves, the seed revealed
    service = Digsite(Settings(database=pg, secret_key="two-hosts-one-secret"))
    try:
        report = verify(service, game_id)
        assert report.ok, [c for c in report.checks if not c.ok]
    finally:
        service.close()
