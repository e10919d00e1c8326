"""The seat client docs/api.md gives (its Python, taken from the page and run as it stands) plays a whole game
against a busy server: every busy answer (503 with Retry-After before the request is done, a wait the server
would not hold, a move's wait that failed once the move landed) is asked again no sooner than the server said."""

from __future__ import annotations

import random
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import WSGIRequestHandler, make_server

from service.api import create_app
from service.commands.application import Digsite
from service.errors import Unavailable
from service.serving import push
from tests.service.api.support import strong_seed

ROOT = Path(__file__).resolve().parents[3]
JOIN_SECONDS = 120  # only a hang would reach it


def example_client() -> dict[str, Any]:
    """The names the Python block of docs/api.md defines (the one with ``play_seat``), run as the page has it."""
    page = (ROOT / "docs" / "api.md").read_text("utf-8")
    (block,) = [b for b in re.findall(r"```python\n(.*?)```", page, re.S) if "def play_seat(" in b]
    names: dict[str, Any] = {}
    exec(compile(block, "docs/api.md", "exec"), names)
    return names


class Busy:
    """WSGI middleware: the requests each seat makes are numbered, and those numbered in ``refused`` are answered
    503 with ``Retry-After: 1`` before the app sees them (nothing is done). Every request's arrival is noted."""

    def __init__(self, app: Any, seats: dict[str, int], refused: set[int]) -> None:
        self.app, self.seats, self.refused = app, seats, refused
        self.lock = threading.Lock()
        self.counts: dict[int, int] = {}
        self.arrivals: list[tuple[int, float, str]] = []  # (seat, when, method)
        self.busy: list[tuple[int, float, float, str]] = []  # (seat, when answered, retry after, what)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        seat = self.seats[environ.get("HTTP_AUTHORIZATION", "").removeprefix("Bearer ")]
        method = environ["REQUEST_METHOD"]
        with self.lock:
            self.arrivals.append((seat, time.monotonic(), method))
            number = self.counts[seat] = self.counts.get(seat, 0) + 1
        if number not in self.refused:
            return self.app(environ, start_response)
        with self.lock:
            self.busy.append((seat, time.monotonic(), 1.0, f"{method} refused"))
        start_response("503 SERVICE UNAVAILABLE", [("Content-Type", "application/json"), ("Retry-After", "1")])
        return [b'{"error": {"code": "server_busy", "message": "too busy: ask again after Retry-After"}}']


@contextmanager
def served(app: Any) -> Iterator[str]:
    httpd = make_server("127.0.0.1", 0, app, threaded=True, request_handler=Quiet)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}/api/v1"
    finally:
        httpd.shutdown()
        thread.join(timeout=10)
        httpd.server_close()


class Quiet(WSGIRequestHandler):
    def log_request(self, *args: Any) -> None:
        pass


# A whole game over HTTP whose retries wait as the server says: 18 s on a quiet machine, nearly all of it waiting
# (0.6 s of CPU), a worker idle in the fast run. The bots' own client meets every busy answer there
# (tests/service/bots/test_seat_client.py).
@pytest.mark.slow
def test_the_documented_seat_client_plays_a_game_against_a_busy_server_and_honours_every_retry_after(
    service: Digsite, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = service.create_game("ruins", [service.create_player(n) for n in ("Ana", "Beto")], seed=strong_seed("ex"))
    seats = {t["token"]: t["seat"] for t in created["tokens"]}
    # Each seat's 1st request (its first wait), and its 3rd and 4th (its first move, then that move sent again):
    # refused before the app sees them.
    busy = Busy(create_app(service=service), seats, refused={1, 3, 4})
    # Inside the app, waits meet a busy server too: some fail (503 ``server_busy``: a wait asked alone is refused
    # with Retry-After, a move's wait has its second line say so), some are answered at once with ``retry_after``.
    real, calls, most = push.updates, [0], push.MAX_WAITING

    def updates(service: Digsite, game_id: str, viewer: Any, *args: Any, **kwargs: Any) -> Any:
        with busy.lock:
            calls[0] += 1
            number = calls[0]
        if number in (5, 11):
            with busy.lock:
                busy.busy.append((viewer.seat, time.monotonic(), 2.0, "wait failed"))  # (503s ask for 2 s)
            raise Unavailable("the server is holding as many waits as it may; ask again shortly", "server_busy")
        if number in (8, 14):
            monkeypatch.setattr(push, "MAX_WAITING", 0)  # (held by nobody: answered at once)
        try:
            answer = real(service, game_id, viewer, *args, **kwargs)
        finally:
            monkeypatch.setattr(push, "MAX_WAITING", most)
        if answer.get("retry_after"):
            with busy.lock:
                busy.busy.append((viewer.seat, time.monotonic(), float(answer["retry_after"]), "wait not held"))
        return answer

    monkeypatch.setattr(push, "updates", updates)
    client = example_client()
    finals: dict[int, Any] = {}
    failures: list[BaseException] = []

    def play(token: str) -> None:
        rng = random.Random(seats[token])
        try:
            finals[seats[token]] = client["play_seat"](created["id"], token, lambda view, legal: rng.choice(legal))
        except BaseException as error:  # (reported to the test, not lost in the thread)
            failures.append(error)

    with served(busy) as api:
        client["API"] = api  # (the page's client reads its server's address from API)
        players = [threading.Thread(target=play, args=(token,), daemon=True) for token in seats]
        for player in players:
            player.start()
        for player in players:
            player.join(JOIN_SECONDS)
    assert not any(p.is_alive() for p in players), "a seat did not finish its game"
    assert failures == []
    game = service.game(created["id"])
    assert game["status"] == "over" and all(final["status"] == "over" for final in finals.values())
    # Every kind of busy answer was met, and each was asked again no sooner than the server said.
    assert {what for _, _, _, what in busy.busy} == {"GET refused", "POST refused", "wait failed", "wait not held"}
    for seat, answered, retry_after, what in busy.busy:
        following = [at for s, at, _ in busy.arrivals if s == seat and at > answered]
        assert following, (seat, what)
        assert following[0] - answered >= retry_after, (seat, what, following[0] - answered)
