"""What the throttle of wrong secrets (service/serving/throttle.py) costs a correct request: the API answering correct
requests with no throttle at all, with the throttle quiet, and with the throttle busy (the other kind of secret
shut for the caller's address, and the counts of 10,000 other addresses held: the seat token read here is the
right secret of the other kind), in alternated rounds so that a busy machine weighs on all three alike, timed
in CPU seconds of this process (a shared machine's waits for a core are not counted). Also the throttle's own
check, timed alone.

Run: ``.venv/bin/python -m bench.throttle`` (SQLite in a temporary folder; ``--requests``, ``--rounds``).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from service.api import create_app
from service.commands.application import Digsite
from service.serving.throttle import ORGANISER_KEY, SEAT_TOKEN, Throttle
from service.settings import Database, Settings
from service.store import backends

API_KEY = "bench-organiser-key"


class NoThrottle(Throttle):
    """The baseline: every door open, nothing counted."""

    def check(self, kind: str, address: str, game: str | None = None) -> None:
        return None

    def failed(self, kind: str, address: str, game: str | None = None) -> None:
        return None


def _busy() -> Throttle:
    throttle = Throttle()
    for n in range(10_000):
        throttle.failed(SEAT_TOKEN, f"10.{n // 65536}.{n // 256 % 256}.{n % 256}", "some-game")
    for _ in range(throttle.failures):  # the organiser key shut for the bench's own address
        throttle.failed(ORGANISER_KEY, "127.0.0.1")
    return throttle


def _per_request(client: Any, path: str, token: str, count: int) -> float:
    """CPU microseconds a request, over ``count`` requests."""
    headers = {"Authorization": f"Bearer {token}"}
    start = time.process_time()
    for _ in range(count):
        answer = client.get(path, headers=headers)
        assert answer.status_code == 200, answer.get_json()
    return (time.process_time() - start) / count * 1e6


def _check_alone(throttle: Throttle, count: int) -> float:
    start = time.process_time()
    for _ in range(count):
        throttle.check(SEAT_TOKEN, "127.0.0.1", "a-game")
    return (time.process_time() - start) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=100, help="requests per condition and round")
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = Database.from_url(f"sqlite:///{Path(folder) / 'bench.sqlite'}")
        backends.upgrade(database)
        service = Digsite(Settings(database=database, api_key=API_KEY))
        try:
            conditions: dict[str, Callable[[], Throttle]] = {
                "no throttle": NoThrottle,
                "throttle, quiet": Throttle,
                "throttle, busy": _busy,
            }
            clients = {
                name: create_app(service=service, throttle=make()).test_client() for name, make in conditions.items()
            }
            organiser = {"Authorization": f"Bearer {API_KEY}"}
            seats = [
                clients["no throttle"].post("/api/v1/players", json={"name": n}, headers=organiser).get_json()["id"]
                for n in ("A", "B")
            ]
            game = (
                clients["no throttle"]
                .post("/api/v1/games", json={"game": "ruins", "seats": seats}, headers=organiser)
                .get_json()
            )
            token = game["tokens"][0]["token"]
            reads = {name: [] for name in conditions}  # type: dict[str, list[float]]
            order = list(clients)
            for _ in range(args.rounds):
                for name in order:
                    reads[name].append(_per_request(clients[name], f"/api/v1/games/{game['id']}", token, args.requests))
                order = order[1:] + order[:1]  # each condition in each place in turn
            print(f"GET /api/v1/games/<id> with a seat token, {args.rounds} rounds of {args.requests} requests:")
            for name, times in reads.items():
                spread = f"rounds: {min(times):.1f} to {max(times):.1f}"
                print(f"  {name:16} median {statistics.median(times):7.1f} us of CPU a request ({spread})")
            for name, make in (("quiet", Throttle), ("busy", _busy)):
                alone = [_check_alone(make(), 100_000) for _ in range(3)]
                print(f"Throttle.check alone, {name}: {statistics.median(alone):.2f} us")
        finally:
            service.close()


if __name__ == "__main__":
    main()
