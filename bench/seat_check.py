"""What checking a seat's token against the game as stored now costs (a voided link is refused in every process
from the moment its ruling answers), three ways in one run on one cached game in play:

- ``cached``: the cached game's hashes alone (``LiveGames.load``), what the check was before voiding existed;
- ``store_read``: the game brought up to date first, one query for the records after it (``LiveGames.current``),
  what ``GameHandle.seat_for_token`` did on every check since voiding existed, and still does while the process's
  push feed is not running (no request waits);
- ``vouched``: ``GameHandle.seat_for_token`` while the push feed runs (a request waits on the game) and vouches for
  the cached game (``LiveGames.as_stored``, ``Hub.vouches``); a check it does not vouch for reads the store, and how
  many did is counted (``fell_back``, with its 95 % Wilson interval).

Alternating in blocks: CPU seconds of this process per check (``time.process_time``, which a shared machine's load
beside it does not count; the feed's own thread is counted in every block alike), for a store in a temporary SQLite
file, or a PostgreSQL schema (``--database-url``; dropped afterwards). Then the feed's own CPU while it runs with
nothing else to do (``feed_ms_per_s``: its polls, or on PostgreSQL its reads of the log's end besides listening).

Run: ``nice -n 10 .venv/bin/python -m bench.seat_check --checks 2000 [--database-url postgresql://...]``.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from uuid import UUID

import psycopg

from bench.service import KIND, NAMES
from dashboard.uncertainty import wilson
from service.commands.application import Digsite
from service.commands.live_games import GameHandle
from service.integrity.records import token_hash
from service.serving import push
from service.settings import Database, Settings
from service.store import backends
from service.store.aggregates import Game

BLOCKS = 10
IDLE_SECONDS = 2.0  # how long the feed's own CPU is measured with nothing else running


def measure(db: Database, checks: int) -> dict[str, float]:
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
        fell_back = [0]
        read_store = live.current

        def counted(uid: UUID) -> Game:
            fell_back[0] += 1
            return read_store(uid)

        def cached() -> None:  # the check before voiding: the cached game's hashes
            assert digest in live.load(uid).token_hashes

        def store_read() -> None:  # every check since voiding, and now while no feed runs
            assert GameHandle(live, uid).seat_for_token(token) == 0

        def vouched() -> None:  # now, while the feed runs
            assert GameHandle(live, uid).seat_for_token(token) == 0

        per_block = max(checks // BLOCKS, 1)
        found: dict[str, list[float]] = {"cached": [], "store_read": [], "vouched": []}
        with hub.watch(uid, lambda game, to_act: False):  # a request waiting on the game: the feed runs
            for _ in range(BLOCKS):
                for name, check in (("cached", cached), ("store_read", store_read), ("vouched", vouched)):
                    live.witness = hub if name == "vouched" else None  # (None: as before, the store read each time)
                    if name == "vouched":
                        setattr(live, "current", counted)  # noqa: B010 (only a fall-back pays the count)
                    start = time.process_time()
                    for _ in range(per_block):
                        check()
                    found[name].append((time.process_time() - start) / per_block * 1e6)
                    if name == "vouched":
                        delattr(live, "current")
            live.witness = hub
            start_cpu, start_wall = time.process_time(), time.monotonic()
            time.sleep(IDLE_SECONDS)  # (nothing runs but the feed: what it costs a second)
            feed_ms_per_s = (time.process_time() - start_cpu) / (time.monotonic() - start_wall) * 1e3
        n = per_block * BLOCKS
        low, high = wilson(fell_back[0] / n, n) or (0.0, 1.0)
        medians = {name: statistics.median(values) for name, values in found.items()}
        return {
            "cached_us": medians["cached"],
            "store_read_us": medians["store_read"],
            "vouched_us": medians["vouched"],
            "store_read_ratio": medians["store_read"] / max(medians["cached"], 1e-9),
            "vouched_ratio": medians["vouched"] / max(medians["cached"], 1e-9),
            "checks_each": n,
            "fell_back": fell_back[0],
            "fell_back_pct": 100 * fell_back[0] / n,
            "fell_back_low_pct": 100 * low,
            "fell_back_high_pct": 100 * high,
            "feed_ms_per_s": feed_ms_per_s,
        }
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
        print(f"{name:20} {value:.2f}")


if __name__ == "__main__":
    main()
