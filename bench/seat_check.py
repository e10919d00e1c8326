"""What checking a seat's token against the game as stored now costs (a voided link is refused in every process
from the moment its ruling answers), three ways in one run on one cached game in play:

- ``cached``: the cached game's hashes alone (``LiveGames.load``), what the check was before voiding existed;
- ``store_read``: the game brought up to date first, one query for the records after it (``LiveGames.current``),
  what ``GameHandle.seat_for_token`` did on every check since voiding existed, and still does while the process's
  push feed is not running (no request waits);
- ``vouched``: ``GameHandle.seat_for_token`` while the push feed runs (a request waits on the game) and vouches for
  the cached game (``LiveGames.as_stored``, ``Hub.vouches``); each block starts once the feed vouches, and a check it
  then does not vouch for reads the store, counted (``vouched_fell_back``, with its 95 % Wilson interval).

Alternating in blocks: CPU seconds of this process per check (``time.process_time``, which a shared machine's load
beside it does not count; the feed's own thread is counted in every block alike), for a store in a temporary SQLite
file, or a PostgreSQL schema (``--database-url``; dropped afterwards). Before them, the feed's own CPU while it runs
with nothing else to do (``feed_idle_ms_per_s``: its polls on SQLite, its wake-ups on PostgreSQL); after them, the
CPU a second of the process checking 20 and 200 tokens a second for 4 s, both ways (``*_at_R_per_s_ms_per_s``: the
feed's reads of where the log ends, which on PostgreSQL the checks cause, are counted there), with the vouched checks
that fell back to the store in the first 0.5 s (after a quiet spell: no check asked the feed) and after.

Run: ``nice -n 10 .venv/bin/python -m bench.seat_check --checks 2000 [--database-url postgresql://...]``.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from uuid import UUID

import psycopg

from bench.service import KIND, NAMES
from dashboard.uncertainty import wilson
from service.commands.application import Digsite
from service.commands.live_games import GameHandle, LiveGames
from service.integrity.records import token_hash
from service.serving import push
from service.settings import Database, Settings
from service.store import backends
from service.store.aggregates import Game

BLOCKS = 10
IDLE_SECONDS = 2.0  # how long the feed's own CPU is measured with nothing else running
PACED_RATES = (20, 200)  # checks a second, for the CPU a second of a process checking at that rate, feed included
PACED_SECONDS = 4.0  # how long each rate is kept up
START_SECONDS = 0.5  # the first checks after a quiet spell (the feed's listener may sleep this long: no read yet)


@contextmanager
def store_reads(live: LiveGames) -> Iterator[list[int]]:
    """Counts the checks that read the store (``LiveGames.current``) in the block: ``[count]``."""
    count = [0]
    read = live.current

    def counted(uid: UUID) -> Game:
        count[0] += 1
        return read(uid)

    setattr(live, "current", counted)  # noqa: B010 (on the instance, for the block)
    try:
        yield count
    finally:
        delattr(live, "current")


def paced_cost(check: Callable[[], None], rate: int, reads: list[int]) -> tuple[float, int, int]:
    """CPU milliseconds a second of this process (the feed's thread included) while it checks ``rate`` tokens a
    second for ``PACED_SECONDS``: the feed's reads of the log's end, which the checks cause, counted with them. With
    the checks that read the store (``reads``, counted by ``store_reads``) in the first ``START_SECONDS`` and after."""
    start_cpu, start_wall = time.process_time(), time.monotonic()
    at_start = 0
    for i in range(int(rate * PACED_SECONDS)):
        check()
        if i + 1 == int(rate * START_SECONDS):
            at_start = reads[0]
        time.sleep(max(0.0, start_wall + (i + 1) / rate - time.monotonic()))
    cost = (time.process_time() - start_cpu) / (time.monotonic() - start_wall) * 1e3
    return cost, at_start, reads[0] - at_start


def vouching(hub: push.Hub, live: LiveGames, uid: UUID) -> None:
    """Ask the feed until it vouches for the cached game (after a spell without checks, its listener on PostgreSQL
    reads where the log ends again within ``push.LISTEN_TIMEOUT_SECONDS``; the paced runs count what this costs)."""
    deadline = time.monotonic() + 10
    while not hub.vouches(uid, live.as_stored(uid).version):
        assert time.monotonic() < deadline, "the push feed never vouched for the game"
        time.sleep(0.005)


def interval(count: int, n: int) -> str:
    low, high = wilson(count / n, n) or (0.0, 1.0)
    return f"{count} of {n} ({100 * count / n:.2f} %, 95 % {100 * low:.2f}-{100 * high:.2f} %)"


def measure(db: Database, checks: int) -> dict[str, str | float]:
    backends.upgrade(db)
    service = Digsite(Settings(database=db))
    try:
        players = [service.create_player(n) for n in NAMES[:3]]
        created = service.create_game(KIND, players)
        uid, token = UUID(created["id"]), created["tokens"][0]["token"]
        live = service.live
        live.current(uid)  # (cached, as a game in play is)
        digest = token_hash(token)
        hub = push.hub_for(service)

        def cached() -> None:  # the check before voiding: the cached game's hashes
            assert digest in live.load(uid).token_hashes

        def checked() -> None:  # the check now: a store read unless the feed (``live.witness``) vouches
            assert GameHandle(live, uid).seat_for_token(token) == 0

        witness = {"cached": None, "store_read": None, "vouched": hub}  # (None: the store read each time, as before)
        per_block = max(checks // BLOCKS, 1)
        found: dict[str, list[float]] = {name: [] for name in witness}
        out: dict[str, str | float] = {}
        with hub.watch(uid, lambda game, to_act: False):  # a request waiting on the game: the feed runs
            time.sleep(1.0)  # (nobody asks the feed to vouch yet: what it costs a second running idle)
            start_cpu, start_wall = time.process_time(), time.monotonic()
            time.sleep(IDLE_SECONDS)
            out["feed_idle_ms_per_s"] = (time.process_time() - start_cpu) / (time.monotonic() - start_wall) * 1e3
            fell_back = 0
            for _ in range(BLOCKS):
                for name, check in (("cached", cached), ("store_read", checked), ("vouched", checked)):
                    live.witness = witness[name]
                    if name == "vouched":  # (the feed asked again after the blocks that did not ask it: see the docs)
                        vouching(hub, live, uid)
                    with store_reads(live) if name == "vouched" else nullcontext([0]) as reads:
                        start = time.process_time()
                        for _ in range(per_block):
                            check()
                        found[name].append((time.process_time() - start) / per_block * 1e6)
                    fell_back += reads[0] if name == "vouched" else 0
            medians = {name: statistics.median(values) for name, values in found.items()}
            out |= {f"{name}_us": value for name, value in medians.items()}
            out["store_read_ratio"] = medians["store_read"] / max(medians["cached"], 1e-9)
            out["vouched_ratio"] = medians["vouched"] / max(medians["cached"], 1e-9)
            out["vouched_fell_back"] = interval(fell_back, per_block * BLOCKS)
            for rate in PACED_RATES:
                for name in ("store_read", "vouched"):
                    live.witness = witness[name]
                    with store_reads(live) as reads:
                        cost, at_start, after = paced_cost(checked, rate, reads)
                    out[f"{name}_at_{rate}_per_s_ms_per_s"] = cost
                    if name == "vouched":  # (the first checks after a quiet spell, then the rest)
                        first, rest = int(rate * START_SECONDS), int(rate * (PACED_SECONDS - START_SECONDS))
                        out[f"vouched_at_{rate}_per_s_fell_back_first"] = interval(at_start, first)
                        out[f"vouched_at_{rate}_per_s_fell_back_then"] = interval(after, rest)
        return out
    finally:
        service.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--checks", type=int, default=2000)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    if args.database_url is None:
        with tempfile.TemporaryDirectory() as folder:
            found = measure(Database.from_url(f"sqlite:///{Path(folder) / 'bench.sqlite'}"), args.checks)
    else:
        schema = f"digsite_bench_{secrets.token_hex(6)}"
        url = args.database_url
        try:
            found = measure(Database.from_url(f"{url}{'&' if '?' in url else '?'}schema={schema}"), args.checks)
        finally:
            with psycopg.connect(Database.from_url(url).psycopg_conninfo(), autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for name, value in found.items():
        print(f"{name:34} {value:.2f}" if isinstance(value, float) else f"{name:34} {value}")


if __name__ == "__main__":
    main()
