"""Service-layer speed, each figure beside a baseline measured in the same run.

1. Moves per second through the service (load the live game, decide, append one record) against raw
   single-row commits of a similar record into a plain table on the same database.
2. State at any move of a stored game (snapshot + evolve): latency percentiles over the longest games.

Run: ``.venv/bin/python -m bench.service --backend sqlite|postgresql [--moves N] [--games G]``.
PostgreSQL: ``DIGSITE_BENCH_DATABASE_URL`` (default the local server); a fresh schema is used and dropped.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import secrets
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any
from uuid import UUID

from domain.games import game
from domain.play import play_game
from service.commands.application import Digsite, Viewer
from service.settings import Database, Settings
from service.store import backends

NAMES = ["Ana", "Beto", "Carla", "Diego"]
KIND = "ruins"  # the game measured: Ruins, whose figures docs/performance.md tracks


def fresh_database(backend: str, folder: Path) -> Database:
    if backend == "sqlite":
        return Database.from_url(f"sqlite:///{folder / 'bench.sqlite'}")
    base = os.environ.get("DIGSITE_BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    return Database.from_url(f"{base}{'&' if '?' in base else '?'}schema=bench_{secrets.token_hex(4)}")


def drop(db: Database) -> None:
    if db.backend == "postgresql":
        import psycopg

        with psycopg.connect(db.psycopg_conninfo(), autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{db.schema}" CASCADE')


class RawTable:
    """The baseline: one INSERT of a similar JSON record per commit into a plain table."""

    def __init__(self, db: Database) -> None:
        self.db = db
        if db.backend == "sqlite":
            self.conn: Any = sqlite3.connect(db.path, isolation_level=None)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("CREATE TABLE IF NOT EXISTS bench_raw (game TEXT, version INTEGER, body BLOB)")
            self.sql = "INSERT INTO bench_raw VALUES (?, ?, ?)"
        else:
            import psycopg

            self.conn = psycopg.connect(db.psycopg_conninfo(), autocommit=True)
            self.conn.execute(
                f'CREATE TABLE IF NOT EXISTS "{db.schema}".bench_raw '
                "(id bigserial PRIMARY KEY, game uuid, version int, body bytea)"
            )
            self.sql = f'INSERT INTO "{db.schema}".bench_raw (game, version, body) VALUES (%s, %s, %s)'

    def insert(self, bodies: list[bytes]) -> float:
        """Commit each body as its own row; rows per second."""
        game = secrets.token_hex(16) if self.db.backend == "sqlite" else str(__import__("uuid").uuid4())
        started = time.perf_counter()
        for version, body in enumerate(bodies):
            self.conn.execute(self.sql, (game, version, body))
        return len(bodies) / (time.perf_counter() - started)


def scripted_games(count: int, seed: str) -> list[tuple[str, list[dict[str, Any]]]]:
    """Bot games played in memory first, so the timed part is only the service's own work."""
    found = game(KIND)
    bots = [found.bots.make("random")] * len(NAMES)
    out = []
    for i in range(count):
        # 32 hex digits, deterministic in (seed, i): the form the API accepts (bench.http creates games over it)
        played = play_game(found.rules, NAMES, bots, hashlib.sha256(f"{seed}-{i}".encode()).hexdigest()[:32])
        out.append((played.seed, [found.rules.action_to_dict(a) for a in played.actions]))
    return out


def service_moves(service: Digsite, players: list[str], script: tuple[str, list[dict[str, Any]]]) -> tuple[str, float]:
    seed, actions = script
    game = service.create_game(KIND, players, seed=seed)
    version = game["version"]
    started = time.perf_counter()
    for action in actions:
        version = service.submit(game["id"], Viewer(action["seat"]), version, action)["version"]
    return game["id"], len(actions) / (time.perf_counter() - started)


def measure_moves(db: Database, games: int) -> dict[str, Any]:
    service = Digsite(Settings(database=db))
    players = [service.create_player(n) for n in NAMES]
    raw = RawTable(db)
    scripts = scripted_games(games, "bench")
    ours, theirs, ids = [], [], []
    for script in scripts:  # interleave so both sides see the same machine conditions
        game_id, rate = service_moves(service, players, script)
        ids.append(game_id)
        ours.append(rate)
        # The baseline commits the very bytes the service stored for that game's moves, one row each.
        stored = service.app.recorder.select_events(UUID(game_id))
        theirs.append(raw.insert([e.state for e in stored[1:]]))
    service.close()
    median_ours, median_raw = statistics.median(ours), statistics.median(theirs)
    return {
        "service_moves_per_second": round(median_ours),
        "raw_commits_per_second": round(median_raw),
        "ratio": round(median_ours / median_raw, 3),
        "games": games,
        "moves": sum(len(s[1]) for s in scripts),
        "game_ids": ids,
    }


def measure_state_at(db: Database, game_ids: list[str], samples: int) -> dict[str, Any]:
    """State at a random move of the longest games, read by a fresh service (nothing cached)."""
    service = Digsite(Settings(database=db))
    lengths = {g: service.game(g)["version"] for g in game_ids}
    longest = sorted(game_ids, key=lambda g: -lengths[g])[: max(1, len(game_ids) // 4)]
    rng = random.Random(7)
    timings = []
    for _ in range(samples):
        game_id = rng.choice(longest)
        version = rng.randint(1, lengths[game_id])
        started = time.perf_counter()
        service.game(game_id, version=version)
        timings.append((time.perf_counter() - started) * 1000)
    service.close()
    timings.sort()
    return {
        "games_sampled": len(longest),
        "longest_game_versions": lengths[longest[0]],
        "samples": samples,
        "p50_ms": round(timings[len(timings) // 2], 2),
        "p99_ms": round(timings[int(len(timings) * 0.99) - 1], 2),
        "max_ms": round(timings[-1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="postgresql")
    parser.add_argument("--games", type=int, default=20, help="bot games played through the service")
    parser.add_argument("--samples", type=int, default=500, help="state-at-move reads")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = fresh_database(args.backend, Path(folder))
        backends.upgrade(db)
        try:
            moves = measure_moves(db, args.games)
            state_at = measure_state_at(db, moves.pop("game_ids"), args.samples)
        finally:
            drop(db)
    print(json.dumps({"backend": args.backend, "moves": moves, "state_at_move": state_at}, indent=2))


if __name__ == "__main__":
    main()
