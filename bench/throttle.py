"""What the throttle of wrong secrets (service/serving/throttle.py) costs a correct request: the API answering correct
requests with no throttle at all, with the throttle quiet, and with the throttle busy (the other kind of secret
shut for the caller's address, and the counts of 10,000 other addresses held: the seat token read here is the
right secret of the other kind), in alternated rounds so that a busy machine weighs on all three alike, timed
in CPU seconds of this process (a shared machine's waits for a core are not counted). Also the throttle's own
check, timed alone.

``--base DIR``: the throttle of another checkout (the code before a change) measured beside this one, quiet and
busy, in the same alternated rounds. Last, what `limits`' own ``MemoryStorage`` would cost the same busy counts:
one sweep of its timer thread (which runs after every hit), and the keys it holds with no bound.

Run: ``.venv/bin/python -m bench.throttle [--base DIR]`` (SQLite in a temporary folder; ``--requests``,
``--rounds``).
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from limits.storage import MemoryStorage

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


def _base_throttle(folder: Path) -> Any:
    """The Throttle class of the checkout in ``folder`` (its module loaded under another name)."""
    spec = importlib.util.spec_from_file_location("base_throttle", folder / "service" / "serving" / "throttle.py")
    assert spec is not None and spec.loader is not None, folder
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Throttle


def _busy(make: Callable[[], Any] = Throttle) -> Any:
    throttle = make()
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


def _check_alone(throttle: Any, count: int) -> float:
    start = time.process_time()
    for _ in range(count):
        throttle.check(SEAT_TOKEN, "127.0.0.1", "a-game")
    return (time.process_time() - start) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=100, help="requests per condition and round")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--base", type=Path, help="another source tree whose throttle to measure beside this one")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = Database.from_url(f"sqlite:///{Path(folder) / 'bench.sqlite'}")
        backends.upgrade(database)
        service = Digsite(Settings(database=database, api_key=API_KEY))
        try:
            conditions: dict[str, Callable[[], Any]] = {
                "no throttle": NoThrottle,
                "throttle, quiet": Throttle,
                "throttle, busy": _busy,
            }
            if args.base:
                base = _base_throttle(args.base)
                conditions["base, quiet"] = base
                conditions["base, busy"] = lambda: _busy(base)
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
            for name in [c for c in conditions if c != "no throttle"]:
                alone = [_check_alone(conditions[name](), 100_000) for _ in range(3)]
                print(f"Throttle.check alone, {name}: {statistics.median(alone):.2f} us")
            _library_memory()
        finally:
            service.close()


def _library_memory() -> None:
    """The busy counts in `limits`' MemoryStorage: the keys it holds, and one sweep of its timer thread (which
    after each hit walks every key it holds; called directly here, by its private name, to time it)."""
    storage = MemoryStorage()
    _busy(lambda: Throttle(storage=storage))
    sweep = storage._MemoryStorage__expire_events  # type: ignore[attr-defined]
    times = []
    for _ in range(5):
        start = time.perf_counter()
        sweep()
        times.append((time.perf_counter() - start) * 1e3)
    print(f"limits' MemoryStorage, busy: {len(storage.events)} keys held (no bound); one sweep of them:")
    print(f"  median {statistics.median(times):.1f} ms (5 sweeps: {min(times):.1f} to {max(times):.1f})")
    storage.timer.cancel()


if __name__ == "__main__":
    main()
