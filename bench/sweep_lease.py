"""What the clock sweep's lease saves with several serving processes: the games each pass reads, with every worker
sweeping (as before the lease) and with only the lease's holder sweeping (``service.serving.sweep_lease``).

A PostgreSQL store in a fresh schema (dropped afterwards) holds ``--games`` timed games in play (a long per-move
clock, so nobody times out: every pass reads and records nothing, the steady state of a tournament's round);
``--workers`` services on it stand for the gunicorn workers, each with its own ``ClockSweep`` and its own
connections. Each of ``--passes`` rounds, every worker makes one pass, one after another as their timers would
interleave: ``sweep()`` for every worker (before), then ``tick()`` (with the lease). Counted: the games read
(``ClockSweep.reads``: a timed game's records since the last pass, and its clock) and the lease's tries; timed:
the wall seconds of all the workers' passes of a round, before and with the lease, in the same run (a ratio, on a
shared machine). Per second at the sweep's interval (``DIGSITE_CLOCK_SWEEP_SECONDS``, default 2) by division.

Run: ``nice -n 10 .venv/bin/python -m bench.sweep_lease --games 100 --workers 4 --passes 10``
(``--database-url``, default the tests' server ``postgresql://postgres@127.0.0.1:5432/postgres``).
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import time
from typing import Any

import psycopg

from bench.service import KIND
from service import bootstrap
from service.commands.application import Digsite
from service.reading.projections.follower import Follower
from service.serving.clock_sweep import ClockSweep
from service.settings import Database, Settings
from service.store import backends

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
INTERVAL = 2.0  # the sweep's default interval (Settings.clock_sweep_seconds)


def measure(url: str, games: int, workers: int, passes: int) -> dict[str, Any]:
    schema = f"digsite_bench_{secrets.token_hex(6)}"
    db = Database.from_url(f"{url}{'&' if '?' in url else '?'}schema={schema}")
    backends.upgrade(db)
    services: list[Digsite] = []
    reads: list[Any] = []
    try:
        services = [Digsite(Settings(database=db)) for _ in range(workers)]
        first = services[0]
        players = [first.create_player(f"P{i}") for i in range(3)]
        for n in range(games):
            first.create_game(KIND, players, seed=f"lease-{n}", clock={"per_move": 36_000})
        follower: Follower = bootstrap.follower(first.settings)
        try:
            follower.catch_up()
        finally:
            follower.close()
        reads = [bootstrap.read_port(s) for s in services]
        before = [ClockSweep(s, r, seconds=0) for s, r in zip(services, reads, strict=True)]
        leased = [ClockSweep(s, r, seconds=0) for s, r in zip(services, reads, strict=True)]
        for sweep in before + leased:  # (a first pass each: the read models and caches warm, not counted)
            sweep.sweep()
            sweep.reads = 0
        seconds_before, seconds_leased = [], []
        for _ in range(passes):
            start = time.perf_counter()
            for sweep in before:
                sweep.sweep()
            seconds_before.append(time.perf_counter() - start)
            start = time.perf_counter()
            for sweep in leased:
                sweep.tick()
            seconds_leased.append(time.perf_counter() - start)
        for sweep in leased:
            sweep.lease.release()
        read_before = sum(s.reads for s in before) / passes
        read_leased = sum(s.reads for s in leased) / passes
        return {
            "games": games,
            "workers": workers,
            "passes": passes,
            "reads_per_round_before": read_before,
            "reads_per_round_leased": read_leased,
            "lease_tries_per_round": sum(s.passes + s.waits for s in leased) / passes,
            "sweepers": sum(1 for s in leased if s.passes),
            "reads_per_second_before": read_before / INTERVAL,
            "reads_per_second_leased": read_leased / INTERVAL,
            "saved_per_second": (read_before - read_leased) / INTERVAL,
            "wall_ms_before": _summary(seconds_before),
            "wall_ms_leased": _summary(seconds_leased),
            "wall_ratio": statistics.median(seconds_leased) / statistics.median(seconds_before),
        }
    finally:
        for read in reads:
            read.close()
        for service in services:
            service.close()
        with psycopg.connect(Database.from_url(url).psycopg_conninfo(), autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def _summary(seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    return f"median {statistics.median(ms):.1f} [{ms[0]:.1f}-{ms[-1]:.1f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--passes", type=int, default=10)
    args = parser.parse_args()
    found = measure(args.database_url, args.games, args.workers, args.passes)
    for name, value in found.items():
        print(f"{name:26} {value:.3f}" if isinstance(value, float) else f"{name:26} {value}")


if __name__ == "__main__":
    main()
