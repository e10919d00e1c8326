"""The store's connections: an outage and the way back, and a burst of readers on a cold pool, in process.

1. Outages. A private cluster (tests/service/pgcluster.py: initdb and pg_ctl, on a port of its own) is stopped and
   started ``--outages`` times. While it is down a move is asked every 5 ms for a second: the time from the stop
   (``pg_ctl stop -w`` returned) to the first 503, and the longest answer. Once it is started (``pg_ctl start -w``
   returned: the server takes connections) a move, a read of the game and a read-model query are asked every 5 ms
   until each succeeds: the time to each first success.
2. A burst. ``--readers`` threads read a game's records at once from a pool emptied first, each new connection made
   ``--connect-delay`` seconds slower (as a SCRAM handshake starved by a worker's other threads is): the time until
   all are served, and the readers' latencies.

Compare the code before and after a change by running each tree by turns (``PYTHONPATH`` at the tree), on the same
machine in the same hour. Run: ``.venv/bin/python -m bench.connections --outages 4 --readers 200``.
"""

from __future__ import annotations

import argparse
import json
import secrets
import statistics
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from service.commands.application import Digsite, Viewer
from service.errors import Conflict
from service.reading.read_port import ReadPort
from service.settings import Database, Settings
from service.store import backends
from service.store.backends import StoreUnavailable
from tests.service.pgcluster import private_cluster

ASK_EVERY_SECONDS = 0.005
DOWN_SECONDS = 1.0  # how long each outage is asked through
GIVE_UP_SECONDS = 10.0  # a way back slower than this is reported as missing


def play_one(service: Digsite, game: str) -> None:
    """A legal move of the seat to act, on the version just read."""
    seat = service.game(game)["to_act"][0]
    seen = service.game(game, Viewer(seat))
    service.submit(game, Viewer(seat), seen["version"], seen["legal_actions"][0])


def through_the_outage(service: Digsite, game: str, stopped: float) -> tuple[float | None, float]:
    """Ask moves for ``DOWN_SECONDS``: ms from ``stopped`` to the first 503, and the longest answer in ms."""
    first: float | None = None
    longest = 0.0
    until = time.monotonic() + DOWN_SECONDS
    while time.monotonic() < until:
        asked = time.monotonic()
        try:
            play_one(service, game)
        except StoreUnavailable:
            if first is None:
                first = 1000 * (time.monotonic() - stopped)
        longest = max(longest, 1000 * (time.monotonic() - asked))
        time.sleep(ASK_EVERY_SECONDS)
    return first, longest


def back(asks: dict[str, Callable[[], Any]], started: float) -> dict[str, float]:
    """ms from ``started`` to the first success of each of ``asks`` (those that succeed within the give-up time)."""
    found: dict[str, float] = {}
    while len(found) < len(asks) and time.monotonic() < started + GIVE_UP_SECONDS:
        for name, ask in asks.items():
            if name in found:
                continue
            try:
                ask()
            except (StoreUnavailable, Conflict):
                continue
            found[name] = 1000 * (time.monotonic() - started)
        time.sleep(ASK_EVERY_SECONDS)
    return found


def measure(outages: int) -> dict[str, Any]:
    cluster = private_cluster()
    db = Database.from_url(f"{cluster.url}?schema=bench_{secrets.token_hex(4)}")
    backends.upgrade(db)
    service = Digsite(Settings(database=db, api_key="bench"))
    reads = ReadPort.over(service.reader)
    figures: dict[str, list[float]] = {"first_503": [], "longest_down": [], "move": [], "read": [], "read_models": []}
    try:
        players = [service.create_player(name) for name in ("Ana", "Beto")]
        games = [str(service.create_game("ruins", players, seed=f"outage-{n}")["id"]) for n in range(outages)]
        for game in games:
            play_one(service, game)
        reads.lists.tournaments()
        for game in games:
            cluster.stop()
            first, longest = through_the_outage(service, game, time.monotonic())
            if first is not None:
                figures["first_503"].append(first)
            figures["longest_down"].append(longest)
            cluster.start()
            asks: dict[str, Callable[[], Any]] = {
                "move": partial(play_one, service, game),
                "read": partial(service.game, game),
                "read_models": reads.lists.tournaments,
            }
            for name, ms in back(asks, time.monotonic()).items():
                figures[name].append(ms)
    finally:
        reads.close()
        service.close()
        if cluster.running:
            cluster.stop()
        cluster.destroy()
    return {
        name: {"n": len(values), "median_ms": round(statistics.median(values), 1), "max_ms": round(max(values), 1)}
        if values
        else {"n": 0}
        for name, values in figures.items()
    }


def burst(readers: int, connect_delay: float) -> dict[str, Any]:
    cluster = private_cluster()
    db = Database.from_url(f"{cluster.url}?schema=bench_{secrets.token_hex(4)}")
    backends.upgrade(db)
    service = Digsite(Settings(database=db, api_key="bench"))
    try:
        players = [service.create_player(name) for name in ("Ana", "Beto")]
        game = str(service.create_game("ruins", players, seed="burst")["id"])
        connections = service.app.recorder.datastore.connections  # type: ignore[attr-defined]
        connect = connections._connect

        def slow_connect() -> Any:
            time.sleep(connect_delay)
            return connect()

        connections._connect = slow_connect
        connections.clear()
        start = threading.Barrier(readers)
        latencies: list[float] = []

        def read(_: int) -> None:
            start.wait()
            asked = time.monotonic()
            service.stored_records(game)
            latencies.append(time.monotonic() - asked)

        began = time.monotonic()
        with ThreadPoolExecutor(readers) as pool:
            list(pool.map(read, range(readers)))
        served = time.monotonic() - began
    finally:
        service.close()
        cluster.stop()
        cluster.destroy()
    return {
        "readers": readers,
        "connect_delay_s": connect_delay,
        "all_served_s": round(served, 2),
        "latency_median_s": round(statistics.median(latencies), 2),
        "latency_max_s": round(max(latencies), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--outages", type=int, default=4, help="times the server is stopped and started (0: none)")
    parser.add_argument("--readers", type=int, default=200, help="readers in the burst (0: no burst)")
    parser.add_argument("--connect-delay", type=float, default=0.3, help="seconds added to each new connection")
    args = parser.parse_args()
    found: dict[str, Any] = {}
    if args.outages:
        found["outages"] = {"n": args.outages, "ms": measure(args.outages)}
    if args.readers:
        found["burst"] = burst(args.readers, args.connect_delay)
    print(json.dumps(found, indent=2))


if __name__ == "__main__":
    main()
