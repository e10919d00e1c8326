"""What checking a seat's token against the game as stored now costs (a voided link is refused in every process the
moment its ruling is stored): ``GameHandle.seat_for_token`` now brings the cached game up to date first (one query
for the records after it, ``LiveGames.current``); before, it read the cache alone (``LiveGames.load``).

Both are measured in the same run, alternating in blocks, on one cached game in play: CPU seconds of this process
per check (``time.process_time``, which a shared machine's load beside it does not count), for a store in a
temporary SQLite file, or a PostgreSQL schema (``--database-url``; dropped afterwards).

Run: ``nice -n 10 .venv/bin/python -m bench.seat_check --checks 2000 [--database-url postgresql://...]``.
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from uuid import UUID

import psycopg

from bench.service import KIND, NAMES
from service.commands.application import Digsite
from service.commands.live_games import GameHandle
from service.integrity.records import token_hash
from service.settings import Database, Settings
from service.store import backends

BLOCKS = 10


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

        def cached_only() -> None:  # the check before: the cached game's hashes
            assert digest in live.load(uid).token_hashes

        def as_stored_now() -> None:
            assert GameHandle(live, uid).seat_for_token(token) == 0

        per_block = max(checks // BLOCKS, 1)
        before: list[float] = []
        after: list[float] = []
        for _ in range(BLOCKS):
            for check, into in ((cached_only, before), (as_stored_now, after)):
                start = time.process_time()
                for _ in range(per_block):
                    check()
                into.append((time.process_time() - start) / per_block * 1e6)
        return {
            "cached_us": statistics.median(before),
            "as_stored_now_us": statistics.median(after),
            "ratio": statistics.median(after) / max(statistics.median(before), 1e-9),
            "checks": per_block * BLOCKS,
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
    for name, value in found.items():
        print(f"{name:18} {value:.2f}")


if __name__ == "__main__":
    main()
