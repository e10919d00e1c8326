"""Read-side speed on a large stored tournament, each figure beside a baseline from the same run.

1. Projection catch-up: records projected per second, against reading and decoding the same
   notification log raw in the same run, two ways: through the library (select_notifications + its
   mapper), and the projection's own plain read and decode (``service.reading.projections.log``), the stricter.
   Measured in segments (``--segment`` records), each timed beside both baselines reading the same
   records right after it (``paired_catch_up``), so that the machine's drift stays out of the ratios.
2. Replay step: one move forward or back, any perspective (Replays.replay), on the longest games:
   p50/p99 server-side latency (target: at most 100 ms).
3. A player's tendencies page (player vs field: the catalogue's metrics, per-round metrics and breakdowns):
   server-side latency over the whole store (target: at most 300 ms at 10,000 games).

Run: ``.venv/bin/python -m bench.analytics --backend sqlite --games 10000`` (the store is generated
first: bot games decided in memory and stored one transaction per game; a few minutes at 10,000 games).

To measure the same store again (and compare read models across code changes):
``--store FILE`` keeps the generated SQLite store in FILE, or, if FILE exists, starts from a copy of it
instead of generating (with ``--backend postgresql`` its records are copied into the fresh schema, in
log order); ``--dump FILE`` writes every read-model table, rows sorted, after the catch-up;
``--projection-only`` skips the replay and tendencies measures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg

from bench.service import drop, fresh_database
from domain.games import game
from domain.play import play_game
from service import bootstrap
from service.commands.application import Digsite
from service.reading.catalogue import metrics, per_player_breakdowns
from service.reading.projections.follower import Follower
from service.reading.projections.log import LibraryLog, log_for
from service.reading.projections.tables import TABLES
from service.reading.read_port import ReadPort
from service.settings import Database, Settings
from service.store import backends

KIND = "ruins"  # the game with the read models' analytics this measures
RUINS = game(KIND)
STYLES = [
    RUINS.bots.make("heuristic", pass_rate=0.6),
    RUINS.bots.make("heuristic", torch_rate=0.0),
    RUINS.bots.make("heuristic", torch_rate=1.0),
    RUINS.bots.make("heuristic", lead="big"),
    RUINS.bots.make("heuristic", lead="high"),
    RUINS.bots.make("random"),
    RUINS.bots.make("heuristic"),
    RUINS.bots.make("heuristic", claim_rate=1.0),
]


def generate(service: Digsite, games: int, players: int = 4) -> list[str]:
    rng = random.Random(0)
    pool = [service.create_player(f"Bot {i}", kind="bot", bot={"style": i}) for i in range(len(STYLES))]
    tables = max(1, -(-games // 1000))  # a tournament has at most 1000 rounds
    tournament = service.create_tournament("Benchmark open", rounds=-(-games // tables), kind=KIND)
    ids = []
    started = time.perf_counter()
    for g in range(games):
        seats = rng.sample(range(len(pool)), players)
        names = [f"Bot {i}" for i in seats]
        played = play_game(RUINS.rules, names, [STYLES[i] for i in seats], seed=f"bench-{g}")
        labels = {"tournament": tournament, "round": g // tables + 1, "table": g % tables + 1}
        actions = [RUINS.rules.action_to_dict(a) for a in played.actions]
        ids.append(service.store_scripted_game(KIND, [pool[i] for i in seats], actions, labels, f"bench-{g}"))
        if (g + 1) % 500 == 0:
            print(f"  generated {g + 1}/{games} games ({time.perf_counter() - started:.0f}s)", file=sys.stderr)
    return ids


def save_store(db: Database, path: Path) -> None:
    """Copy an SQLite store (with what its WAL holds) to ``path``."""
    with sqlite3.connect(db.path) as source, sqlite3.connect(path) as target:
        source.backup(target)


def load_store(path: Path, db: Database) -> None:
    """Fill the empty (migrated) store ``db`` with the records and snapshots of the SQLite store at ``path``."""
    if db.backend == "sqlite":
        with sqlite3.connect(path) as source, sqlite3.connect(db.path) as target:
            source.backup(target)
        return

    with sqlite3.connect(path) as source, psycopg.connect(db.psycopg_conninfo()) as pg:
        for table, into, order in (
            ("stored_events", "digsite_events", "rowid"),  # the log's order: notification ids follow it
            ("stored_snapshots", "digsite_snapshots", "originator_id, originator_version"),
        ):
            columns = "originator_id, originator_version, topic, state"
            with pg.cursor().copy(f'COPY "{db.schema}".{into} ({columns}) FROM STDIN') as copy:
                for row in source.execute(f"SELECT {columns} FROM {table} ORDER BY {order}"):
                    copy.write_row(row)
        pg.commit()
        pg.autocommit = True
        pg.execute(f'VACUUM ANALYZE "{db.schema}".digsite_events')
        pg.execute(f'VACUUM ANALYZE "{db.schema}".digsite_snapshots')


def dump_read_models(follower: Follower, path: Path) -> dict[str, str]:
    """Write every read-model table, rows sorted, to ``path``; a digest per table."""
    tables = follower.read_models
    digests = {}
    with path.open("w") as out, tables.tracker.datastore.transaction(commit=False) as curs:
        for table in TABLES:
            curs.execute(tables._q(f"SELECT * FROM {{p}}{table}"))
            rows = sorted(
                json.dumps(list(r.values()) if isinstance(r, dict) else list(r), default=str) for r in curs.fetchall()
            )
            digest = hashlib.sha256("\n".join(rows).encode()).hexdigest()[:16]
            digests[table] = f"{len(rows)} rows {digest}"
            out.write(f"## {table} {len(rows)}\n")
            for row in rows:
                out.write(row + "\n")
    return digests


def read_seconds(log: LibraryLog, after: int = 0, until: int | None = None) -> tuple[int, float]:
    """Read and decode the log's records after ``after`` (up to ``until``) through ``log``, nothing else:
    how many, in how many seconds."""
    count = 0
    began = time.perf_counter()
    while until is None or after < until:
        rows = log.select(after, 1000 if until is None else min(1000, until - after))
        if not rows:
            break
        for row in rows:
            log.decode(row)
        count += len(rows)
        after = log.last_id(rows)
    return count, time.perf_counter() - began


def paired_catch_up(follower: Follower, segment: int) -> dict[str, Any]:
    """Catch up segment by segment, each segment's projection timed beside both baselines reading and
    decoding the very same records right after it: this machine's speed drifts by a third within minutes,
    and pairing keeps a drift out of the ratios (both sides of a pair see the same machine)."""
    library, plain = LibraryLog(follower.app), log_for(follower.app)
    projected = 0
    seconds = {"projection": 0.0, "library": 0.0, "plain": 0.0}
    segments = 0
    while True:
        start = follower.position()
        began = time.perf_counter()
        done = 0
        while done < segment and (n := follower.step()):
            done += n
        seconds["projection"] += time.perf_counter() - began
        if not done:
            break
        end = follower.position()
        for name, log in (("library", library), ("plain", plain)):
            count, took = read_seconds(log, start, end)
            assert count == done, (count, done)
            seconds[name] += took
        projected += done
        segments += 1
    rate = projected / seconds["projection"]
    raw, plain_rate = projected / seconds["library"], projected / seconds["plain"]
    return {
        "records_per_second": round(rate),
        "raw_read_decode_per_second": round(raw),
        "ratio": round(rate / raw, 3),
        "plain_read_decode_per_second": round(plain_rate),
        "ratio_to_plain": round(rate / plain_rate, 3),
        "seconds": round(seconds["projection"], 1),
        "segments": segments,
        "batch_size": follower.batch_size,
    }


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))]


def replay_steps(read: ReadPort, games: list[dict[str, Any]], steps: int) -> list[float]:
    """Milliseconds of ``steps`` replay steps (one move forward or back, any perspective, as the replay page
    steps) on games drawn from ``games`` (rows of ``rm_games``: game_id, last_version, n_players)."""
    rng = random.Random(3)
    timings = []
    for _ in range(steps):
        row = rng.choice(games)
        version = rng.randint(2, row["last_version"] - 1)
        seat = rng.choice([None, *range(row["n_players"])])
        began = time.perf_counter()
        read.replays.replay(row["game_id"], version + rng.choice([-1, 1]), seat)
        timings.append((time.perf_counter() - began) * 1000)
    return timings


def measure_replay(read: ReadPort, service: Digsite, steps: int) -> dict[str, Any]:
    rows = read.db.rows("SELECT game_id, last_version, n_players FROM {p}rm_games ORDER BY last_version DESC LIMIT 20")
    timings = replay_steps(read, rows, steps)
    return {
        "games": len(rows),
        "longest_game_versions": rows[0]["last_version"],
        "steps": steps,
        "p50_ms": round(percentile(timings, 0.5), 2),
        "p99_ms": round(percentile(timings, 0.99), 2),
    }


def tendencies_page(read: ReadPort, player: str) -> None:
    """What the players page reads for one player against the field (dashboard/pages/players.py)."""
    for who in (player, None):
        read.analytics.tendencies(KIND, who)
        for metric in metrics(KIND, ("round",)):
            read.analytics.per_round(KIND, metric, who)
        for name in per_player_breakdowns(KIND):
            read.analytics.breakdown(KIND, name, who)


def measure_tendencies(read: ReadPort, samples: int) -> dict[str, Any]:
    players = [p["player_id"] for p in read.lists.players()]
    timings = []
    for i in range(samples):
        began = time.perf_counter()
        tendencies_page(read, players[i % len(players)])
        timings.append((time.perf_counter() - began) * 1000)
    return {
        "samples": samples,
        "p50_ms": round(percentile(timings, 0.5), 1),
        "p99_ms": round(percentile(timings, 0.99), 1),
        "mean_ms": round(statistics.mean(timings), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--store", type=Path, help="an SQLite store to start from (kept here if it does not exist)")
    parser.add_argument("--dump", type=Path, help="write the read models, sorted, to this file")
    parser.add_argument("--projection-only", action="store_true", help="skip the replay and tendencies measures")
    parser.add_argument(
        "--segment", type=int, default=50_000, help="records projected between two baseline reads (see paired_catch_up)"
    )
    args = parser.parse_args()
    reuse = args.store is not None and args.store.exists()
    if args.store is not None and not reuse and args.backend != "sqlite":
        parser.error("--store FILE with --backend postgresql needs an existing SQLite store (make one with sqlite)")
    with tempfile.TemporaryDirectory() as folder:
        db: Database = fresh_database(args.backend, Path(folder))
        backends.upgrade(db)
        settings = Settings(database=db)
        service = bootstrap.build(settings)
        try:
            began = time.perf_counter()
            if reuse:
                load_store(args.store, db)
                backends.upgrade(db)  # (an SQLite store is copied whole: it may predate a migration)
            else:
                generate(service, args.games)
                if args.store is not None:
                    save_store(db, args.store)
            generated = time.perf_counter() - began
            follower = bootstrap.follower(settings)
            # Each segment is several batches (the projection's own batch size), paired with its baselines.
            projection = paired_catch_up(follower, segment=max(args.segment, follower.batch_size))
            dumped = dump_read_models(follower, args.dump) if args.dump else None
            follower.read_models.analyze()  # as a rebuild ends (the queries below are measured in the steady state)
            follower.close()
            read = bootstrap.read_port(service)
            games = read.db.rows("SELECT COUNT(*) AS n FROM {p}rm_games")[0]["n"]
            result: dict[str, Any] = {
                "backend": args.backend,
                "games": games,
                "records": follower.written,
                ("load_seconds" if reuse else "generate_seconds"): round(generated, 1),
                "projection": projection,
            }
            if dumped:
                result["read_models"] = dumped
            if not args.projection_only:
                result["replay_step"] = measure_replay(read, service, args.steps)
                result["tendencies_page"] = measure_tendencies(read, args.samples)
            read.close()
        finally:
            service.close()
            drop(db)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
