"""How the service's figures grow with the store: each measured at several sizes of one growing store
(docs/performance.md, section 7).

The store grows in blocks of 1,000 four-player Ruins games (``generate``), and the same PostgreSQL schema is
grown block by block to each size (``measure --sizes``), so a block is generated and loaded once. At each size:

- a move through the service's submit path and through the HTTP API with a seat's token, p50/p99 over fresh
  games played move by move, beside the baseline of ``bench.service`` (one plain single-row commit of the same
  bytes) in the same run;
- the state of a stored game at a random move (random games of the whole store, a fresh service);
- a replay step (``Replays.replay``, one move forward or back, any perspective) on random games;
- the tendencies page cold (the field's figures asked anew, as after the read models move: read from the
  projection's sums, and computed from every row as before them, in the same run) and a
  player's page (the dashboard's players page for one player: the players shown, the player's figures and
  the field's, kept since the read models last moved), its reads alone and with its charts;
- incremental catch-up per record: the projection catching up on fresh games appended after the rebuild;
- a full rebuild (``Follower.rebuild``), total and per game;
- ``verify --all`` (``service.integrity.audit.verify_store``, what the CLI runs), total and per game, or a fixed
  random sample of games with ``--verify-sample``.

A block: a tournament of 1,000 games among 100 players of its own (each in about 40 games, so a player's page
is a typical player's at every size). Its games replay bot games played once (``SCRIPTS`` distinct deals and
scripts, by seed) with other players seated: each is a new game, stored as the service stores any game
(``Digsite.store_scripted_game``), and verifies. A block is an SQLite file; ``measure`` copies the blocks'
records into its PostgreSQL schema in order (``bench.analytics.load_store``).

Run (``--workers`` processes generate the blocks side by side, each into its own files):
``.venv/bin/python -m bench.growth generate --blocks DIR --count 100 --workers 2``, then
``.venv/bin/python -m bench.growth measure --blocks DIR --sizes 1000,10000,100000 --out FILE.json``.
PostgreSQL: ``DIGSITE_BENCH_DATABASE_URL`` (default the local server); a fresh schema, dropped at the end.
"""

from __future__ import annotations

import argparse
import html
import json
import math
import multiprocessing
import os
import random
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any, cast
from uuid import UUID

import psycopg

from bench.analytics import KIND, RUINS, STYLES, percentile, replay_steps, tendencies_page
from bench.engine import calibration_ops_per_second
from bench.service import NAMES, RawTable, drop, fresh_database, scripted_games
from dashboard.access import Visitor
from dashboard.context import Context
from dashboard.data import Data
from dashboard.pages.players import player_page
from domain.play import play_game
from service import bootstrap
from service.api import create_app
from service.commands.application import Digsite, Viewer
from service.integrity.audit import stored_game_ids, verify_store
from service.reading.catalogue import metrics, per_player_breakdowns
from service.reading.figures_from_sums import SumFigures
from service.reading.read_port import ReadPort
from service.settings import Database, Settings
from service.store import backends

BLOCK = 1000  # games per block
# Snapshots are sealed with the server secret: the blocks and the measuring service must share one.
SECRET = "bench"
PLAYERS = 100  # players per block
SCRIPTS = 2000  # distinct bot games; game g replays script g % SCRIPTS with other players
TABLES = 4  # a block's tournament: 250 rounds of 4 tables


def block_path(folder: Path, block: int) -> Path:
    return folder / f"block-{block:04d}.sqlite"


def script(index: int) -> tuple[str, list[dict[str, Any]]]:
    """Bot game ``index``: its seed and its actions' JSON forms (the same on every call)."""
    rng = random.Random(index)
    styles = [STYLES[i] for i in rng.sample(range(len(STYLES)), 4)]
    seed = f"growth-{index}"
    played = play_game(RUINS.rules, ["A", "B", "C", "D"], styles, seed=seed)
    return seed, [RUINS.rules.action_to_dict(a) for a in played.actions]


def generate_block(folder: Path, block: int, scripts: dict[int, tuple[str, list[dict[str, Any]]]]) -> float:
    """Write block ``block`` (its players, tournament and games) to its own SQLite file; seconds taken."""
    began = time.perf_counter()
    target = block_path(folder, block)
    partial = target.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    db = Database.from_url(f"sqlite:///{partial}")
    backends.upgrade(db)
    service = bootstrap.build(Settings(database=db, secret_key=SECRET))
    try:
        rng = random.Random(f"block-{block}")
        pool = [service.create_player(f"Player {block}-{i}") for i in range(PLAYERS)]
        tournament = service.create_tournament(f"Growth {block}", rounds=BLOCK // TABLES, kind=KIND)
        for i in range(BLOCK):
            g = block * BLOCK + i
            if g % SCRIPTS not in scripts:
                scripts[g % SCRIPTS] = script(g % SCRIPTS)
            seed, actions = scripts[g % SCRIPTS]
            seats = [pool[p] for p in rng.sample(range(PLAYERS), 4)]
            labels = {"tournament": tournament, "round": i // TABLES + 1, "table": i % TABLES + 1}
            service.store_scripted_game(KIND, seats, actions, labels, seed)
    finally:
        service.close()
    for suffix in ("-wal", "-shm"):  # (closed: the WAL is checkpointed into the file)
        Path(f"{partial}{suffix}").unlink(missing_ok=True)
    partial.rename(target)
    return time.perf_counter() - began


def generate_worker(folder: Path, blocks: list[int]) -> None:
    scripts: dict[int, tuple[str, list[dict[str, Any]]]] = {}
    for block in blocks:
        if block_path(folder, block).exists():
            continue
        seconds = generate_block(folder, block, scripts)
        print(f"  block {block} in {seconds:.0f} s", file=sys.stderr, flush=True)


def generate(folder: Path, count: int, workers: int) -> float:
    """Blocks 0 to ``count - 1`` (those not yet in ``folder``), ``workers`` processes side by side."""
    folder.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    shares = [list(range(w, count, workers)) for w in range(workers)]
    processes = [multiprocessing.Process(target=generate_worker, args=(folder, share)) for share in shares]
    for process in processes:
        process.start()
    for process in processes:
        process.join()
    return time.perf_counter() - began


# -- growing the PostgreSQL store ------------------------------------------------------------------------------


def copy_block(db: Database, path: Path) -> None:
    """Append block ``path``'s records (in its log order) and snapshots to the PostgreSQL store ``db``, in one
    transaction (the ledger's trigger enters its games as the records arrive)."""
    with sqlite3.connect(path) as source, psycopg.connect(db.psycopg_conninfo()) as pg:
        for table, into, order in (
            ("stored_events", "digsite_events", "rowid"),
            ("stored_snapshots", "digsite_snapshots", "originator_id, originator_version"),
        ):
            columns = "originator_id, originator_version, topic, state"
            with pg.cursor().copy(f'COPY "{db.schema}".{into} ({columns}) FROM STDIN') as copy:
                for row in source.execute(f"SELECT {columns} FROM {table} ORDER BY {order}"):
                    copy.write_row(row)


def grow(db: Database, folder: Path, have: int, want: int) -> float:
    """Copy blocks ``have`` to ``want - 1`` into the store, then refresh its planner statistics; seconds."""
    began = time.perf_counter()
    for block in range(have, want):
        path = block_path(folder, block)
        while not path.exists():  # (still being generated)
            time.sleep(5)
        copy_block(db, path)
        if (block + 1) % 5 == 0 or block + 1 == want:
            print(f"  loaded {block + 1}/{want} blocks ({time.perf_counter() - began:.0f} s)", file=sys.stderr)
    with psycopg.connect(db.psycopg_conninfo(), autocommit=True) as pg:
        for table in ("digsite_events", "digsite_snapshots", "digsite_ledger"):
            pg.execute(f'VACUUM ANALYZE "{db.schema}".{table}')
    return time.perf_counter() - began


def tournaments(db: Database) -> int:
    """The blocks a kept store holds (one tournament each; a block is copied in one transaction)."""
    with psycopg.connect(db.psycopg_conninfo()) as pg:
        row = pg.execute(
            f'SELECT COUNT(*) FROM "{db.schema}".digsite_events WHERE topic LIKE %s', ("%Tournament.Created",)
        ).fetchone()
    return int(row[0]) if row else 0


def disk_bytes(db: Database) -> dict[str, int]:
    """The schema's tables with their indexes and TOAST, on disk: the event store's and the read models'."""
    with psycopg.connect(db.psycopg_conninfo()) as pg:
        rows = pg.execute(
            "SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relkind = 'r'",
            (db.schema,),
        ).fetchall()
    events = sum(size for name, size in rows if name.startswith("digsite_") and "projection" not in name)
    total = sum(size for _, size in rows)
    return {"event_store": events, "read_models": total - events, "total": total}


# -- the figures ---------------------------------------------------------------------------------------------


def summary(timings_ms: list[float]) -> dict[str, Any]:
    return {
        "samples": len(timings_ms),
        "p50_ms": round(percentile(timings_ms, 0.5), 3),
        "p99_ms": round(percentile(timings_ms, 0.99), 3),
    }


def measure_moves(settings: Settings, games: int, seed: str) -> dict[str, Any]:
    """Fresh games played move by move, each move timed, twice: through the service's submit path, and through
    the HTTP API as a seat plays (``POST /games/<id>/actions`` with the seat's token, the API app in this process:
    routing, the token, the body's check, the move, the JSON answer; no network). The baseline commits the very
    bytes each move stored as one plain row (``bench.service.RawTable``), timed alike, right after each game
    (both sides see the same machine)."""
    service = bootstrap.build(settings)
    client = create_app(service=service).test_client()
    raw = RawTable(settings.database)
    players = [service.create_player(n) for n in NAMES]
    ours: list[float] = []
    http: list[float] = []
    theirs: list[float] = []
    for game_seed, actions in scripted_games(games, seed):
        created = service.create_game(KIND, players, seed=game_seed)
        version = created["version"]
        for action in actions:
            began = time.perf_counter()
            version = service.submit(created["id"], Viewer(action["seat"]), version, action)["version"]
            ours.append((time.perf_counter() - began) * 1000)
        played = service.create_game(KIND, players, seed=game_seed)  # the same game again, over HTTP
        version, path = played["version"], f"/api/v1/games/{played['id']}/actions"
        tokens = [{"Authorization": f"Bearer {t['token']}"} for t in played["tokens"]]
        for action in actions:
            began = time.perf_counter()
            answer = client.post(path, json={"version": version, "action": action}, headers=tokens[action["seat"]])
            http.append((time.perf_counter() - began) * 1000)
            assert answer.status_code == 200, answer.get_json()
            version = answer.get_json()["version"]
        stored = service.app.recorder.select_events(UUID(created["id"]))
        for version, event in enumerate(stored[1:]):
            began = time.perf_counter()
            raw.conn.execute(raw.sql, (created["id"], version, event.state))
            theirs.append((time.perf_counter() - began) * 1000)
    raw.conn.close()
    service.close()
    move, through_http, baseline = summary(ours), summary(http), summary(theirs)
    through_http["ratio_p50"] = round(through_http["p50_ms"] / baseline["p50_ms"], 2)
    return {
        **move,
        "http": through_http,
        "baseline": baseline,
        "ratio_p50": round(move["p50_ms"] / baseline["p50_ms"], 2),
    }


def random_games(read: ReadPort, count: int, rng: random.Random) -> list[dict[str, Any]]:
    """``count`` finished games drawn at random from the whole store (not the longest: those grow with it)."""
    rows = read.db.rows("SELECT game_id, last_version, n_players FROM {p}rm_games WHERE status = 'over'")
    return rng.sample(rows, min(count, len(rows)))


def measure_state_at(settings: Settings, games: list[dict[str, Any]], samples: int) -> dict[str, Any]:
    """A stored game's state at a random move, read by a fresh service (nothing cached)."""
    service = bootstrap.build(settings)
    rng = random.Random(7)
    timings = []
    for _ in range(samples):
        row = rng.choice(games)
        version = rng.randint(1, row["last_version"])
        began = time.perf_counter()
        service.game(row["game_id"], version=version)
        timings.append((time.perf_counter() - began) * 1000)
    service.close()
    return summary(timings)


def measure_replay(read: ReadPort, games: list[dict[str, Any]], steps: int) -> dict[str, Any]:
    """One move forward or back, any perspective, on the games given (as the replay page steps)."""
    return summary(replay_steps(read, games, steps))


class EveryRow(SumFigures):
    """No sums, as before the projection kept the field's: every figure of the field computed from every row of
    the finished games (what the pages fall back to while the sums are not complete)."""

    def _summed(self, *args: Any, **kwargs: Any) -> None:
        return None


def measure_tendencies(read: ReadPort, every_row: ReadPort, players: list[str], samples: int) -> dict[str, Any]:
    """A player's tendencies against the field (``bench.analytics.tendencies_page``) with the field's figures
    asked anew each time, as on the first page after the read models move (a live store moves on with every game
    played): read from the projection's sums (``page``), and, in the same run, computed from every row
    (``every_row``: as before the sums)."""
    timings: dict[str, list[float]] = {"page": [], "every_row": []}
    for i in range(samples):
        for name, found in (("page", read), ("every_row", every_row)):
            found.analytics._field.clear()
            began = time.perf_counter()
            tendencies_page(found, players[i % len(players)])
            timings[name].append((time.perf_counter() - began) * 1000)
    return {**summary(timings["page"]), "every_row": summary(timings["every_row"])}


def player_page_reads(data: Data, visitor: Visitor, player: str, every: bool = False) -> None:
    """The reads ``player_page`` makes for one player against the field, without building its charts; with
    ``every``, as the page did before it read only the players shown (the list of every player)."""
    data.players(visitor, None if every else [player])
    sizes = data.table_sizes(visitor, KIND, player)
    data.tendencies(visitor, KIND, player)
    data.tendencies(visitor, KIND, None, sizes)
    for who, n_players in ((player, None), (None, sizes)):
        for metric in metrics(KIND, ("round",)):
            data.per_round(visitor, KIND, metric, who, n_players)
        for name in per_player_breakdowns(KIND):
            data.breakdown(visitor, KIND, name, who, n_players=n_players)


def measure_player_page(read: ReadPort, players: list[str], samples: int) -> dict[str, Any]:
    """The dashboard's players page for one player against the field, as a spectator asks for it (the player
    list, the player's figures, the field's as kept since the read models last moved): its reads alone, the
    whole page (reads and charts), the list of players alone (one of its reads before its pickers searched),
    and a picker's search for the first three letters of the player's name."""
    ctx = Context(data=Data(read, cast(Any, None)), gate=cast(Any, None))  # (the page reads only: no service)
    visitor = Visitor()
    player_page(ctx, visitor, players[0], None, KIND)  # the field's figures, kept from here on
    timings: dict[str, list[float]] = {
        "reads": [],
        "reads_every_player": [],
        "page": [],
        "player_list": [],
        "player_search": [],
    }
    names = {str(p["player_id"]): p["name"] for p in read.lists.players(ids=players)}
    for i in range(samples):
        player = players[i % len(players)]
        for name, ask in (
            ("reads", lambda player=player: player_page_reads(ctx.data, visitor, player)),
            ("reads_every_player", lambda player=player: player_page_reads(ctx.data, visitor, player, every=True)),
            ("page", lambda player=player: player_page(ctx, visitor, player, None, KIND)),
            ("player_list", lambda player=player: ctx.data.players(visitor)),
            ("player_search", lambda player=player: ctx.data.find_players(visitor, names[player][:3])),
        ):
            began = time.perf_counter()
            ask()
            timings[name].append((time.perf_counter() - began) * 1000)
    return {name: summary(found) for name, found in timings.items()}


def measure_verify(service: Digsite, sample: int | None, rng: random.Random) -> dict[str, Any]:
    """``digsite verify --all`` (``verify_store``), or the same on a fixed random sample of the games. The
    listing of every stored game (one filtered scan of the log, the whole-store part) is timed apart."""
    began = time.perf_counter()
    every = list(stored_game_ids(service))
    listing = time.perf_counter() - began
    ids = None if sample is None else rng.sample(every, sample)
    began = time.perf_counter()
    audit = verify_store(service, game_ids=ids)
    seconds = time.perf_counter() - began
    assert audit.ok, [r.to_dict() for r in audit.reports if not r.ok][:1]
    games = len(audit.reports)
    return {
        "games": games,
        "sampled": ids is not None,
        "seconds": round(seconds, 1),
        "ms_per_game": round(seconds / games * 1000, 2),
        "listing_seconds": round(listing, 2),
    }


def timed(owner: Any, name: str) -> list[float]:
    """Wrap the method ``name`` of ``owner`` to add up the seconds its calls take (in the list returned)."""
    spent = [0.0]
    method = getattr(owner, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return method(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - began

    setattr(owner, name, wrapper)
    return spent


def measure_size(db: Database, settings: Settings, args: argparse.Namespace, size: int) -> dict[str, Any]:
    rng = random.Random(size)
    result: dict[str, Any] = {
        "calibration_ops_per_second": round(calibration_ops_per_second(1.0)),
        "load_average": [round(x, 1) for x in os.getloadavg()],
    }
    follower = bootstrap.follower(settings)
    began = time.perf_counter()
    step = max(1, size * 200 // 10)  # about a tenth of the records between two progress lines
    done = [0, 0]  # records rebuilt, records at the last progress line

    def progress(batch: int) -> None:
        done[0] += batch
        if done[0] - done[1] >= step:
            done[1] = done[0]
            print(f"  rebuilt {done[0]} records ({time.perf_counter() - began:.0f} s)", file=sys.stderr)

    if "rebuild" in args.skip:  # the blocks just copied are projected as a follower would (not timed)
        records = follower.catch_up(progress)
        follower.read_models.analyze()
    else:
        records = follower.rebuild(progress)
    seconds = time.perf_counter() - began
    follower.close()
    service = bootstrap.build(settings)
    read = bootstrap.read_port(service)
    stored = read.db.rows("SELECT COUNT(*) AS n FROM {p}rm_games")[0]["n"]
    result["games"] = stored
    result["records"] = records
    if "rebuild" not in args.skip:
        result["rebuild"] = {"seconds": round(seconds, 1), "ms_per_game": round(seconds / stored * 1000, 2)}
    print(f"  projected {stored} games in {seconds:.0f} s", file=sys.stderr)
    # Fresh records after the rebuild: games played move by move (the move's latency), and games stored whole.
    if "move" not in args.skip:
        result["move"] = measure_moves(settings, args.move_games, f"growth-moves-{size}")
    fresh = [service.create_player(f"Fresh {size}-{i}") for i in range(4)]
    for g in range(args.fresh_games):
        seed, actions = script(SCRIPTS + g)
        service.store_scripted_game(KIND, fresh, actions, None, seed)
    follower = bootstrap.follower(settings)
    follower.read_models.complete_field()  # (checked once a follower starts: not part of the catch-up)
    keeping = timed(follower.read_models.field, "keep")  # the share of the catch-up spent on the field's sums
    began = time.perf_counter()
    caught = follower.catch_up()
    seconds = time.perf_counter() - began
    follower.read_models.analyze()
    follower.close()
    result["catch_up"] = {
        "records": caught,
        "us_per_record": round(seconds / caught * 1e6, 1),
        "field_sums_us_per_record": round(keeping[0] / caught * 1e6, 1),
    }
    print(f"  caught up {caught} records in {seconds:.1f} s", file=sys.stderr)
    games = random_games(read, 40, rng)
    if "replay" not in args.skip:
        result["state_at_move"] = measure_state_at(settings, games, args.samples)
        result["replay_step"] = measure_replay(read, games[:20], args.samples)
    players = [p["player_id"] for p in read.lists.players(finished_only=True)]
    chosen = rng.sample(players, min(len(players), 20))
    every_row = bootstrap.read_port(service)
    every_row.analytics.sums = EveryRow(every_row.db)
    result["tendencies_page"] = measure_tendencies(read, every_row, chosen, args.page_samples)
    every_row.close()
    result["player_page"] = measure_player_page(read, chosen, args.page_samples)
    print("  pages measured", file=sys.stderr)
    if "verify" not in args.skip:
        sample = args.verify_sample if args.verify_sample and stored > args.verify_sample else None
        result["verify"] = measure_verify(service, sample, rng)
        print(f"  verified {result['verify']['games']} games", file=sys.stderr)
    result["disk_bytes"] = disk_bytes(db)
    read.close()
    service.close()
    return result


def measure(args: argparse.Namespace) -> dict[str, Any]:
    db = fresh_database("postgresql", Path("."))
    have = 0
    if args.schema:  # a store kept by an earlier run (--keep), grown on from its blocks
        db = Database.from_url(f"{db.url.rpartition('schema=')[0]}schema={args.schema}")
        have = tournaments(db)
    backends.upgrade(db)
    settings = Settings(database=db, secret_key=SECRET)
    results: dict[str, Any] = {"schema": db.schema, "sizes": []}
    try:
        for size in args.sizes:
            print(f"size {size}:", file=sys.stderr)
            loaded = grow(db, args.blocks, have, size // BLOCK)
            have = size // BLOCK
            if args.moves_only:  # (a move reads and writes the events alone: no read models needed)
                moves = measure_moves(settings, args.move_games, f"growth-moves-{size}")
                figures = {"games": have * BLOCK, "move": moves}
            else:
                figures = measure_size(db, settings, args, size)
            found = {"size": size, "load_seconds": round(loaded, 1), **figures}
            results["sizes"].append(found)
            print(json.dumps(found), file=sys.stderr)
            if args.out:
                args.out.write_text(json.dumps(results, indent=2) + "\n")
    finally:
        if not args.keep:
            drop(db)
    return results


# -- the table and the plot for docs/performance.md ------------------------------------------------------------

# (label, path into a size's figures, kind): "flat" figures should stay flat, "linear" ones (whole-store jobs,
# totals) grow at most linearly; "info" ones are context (baselines, machine).
ROWS: list[tuple[str, tuple[str, ...], str]] = [
    ("move through submit, p50 (ms)", ("move", "p50_ms"), "info"),
    ("move through submit, p99 (ms)", ("move", "p99_ms"), "info"),
    ("baseline: plain one-row commit, p50 (ms)", ("move", "baseline", "p50_ms"), "info"),
    ("move ÷ baseline, p50", ("move", "ratio_p50"), "flat"),
    ("move through the HTTP API (seat token), p50 (ms)", ("move", "http", "p50_ms"), "info"),
    ("move through the HTTP API (seat token), p99 (ms)", ("move", "http", "p99_ms"), "info"),
    ("HTTP move ÷ baseline, p50", ("move", "http", "ratio_p50"), "flat"),
    ("state at move N, p50 (ms)", ("state_at_move", "p50_ms"), "flat"),
    ("state at move N, p99 (ms)", ("state_at_move", "p99_ms"), "flat"),
    ("replay step, p50 (ms)", ("replay_step", "p50_ms"), "flat"),
    ("replay step, p99 (ms)", ("replay_step", "p99_ms"), "flat"),
    ("tendencies page, field from the sums, p50 (ms)", ("tendencies_page", "p50_ms"), "flat"),
    ("tendencies page, field from every row, p50 (ms)", ("tendencies_page", "every_row", "p50_ms"), "linear"),
    ("player page, its reads, p50 (ms)", ("player_page", "reads", "p50_ms"), "flat"),
    ("player page, its reads, p99 (ms)", ("player_page", "reads", "p99_ms"), "flat"),
    ("player page as it was (every player read), p50 (ms)", ("player_page", "reads_every_player", "p50_ms"), "flat"),
    ("player page with its charts, p50 (ms)", ("player_page", "page", "p50_ms"), "flat"),
    ("list of every player (the page read it), p50 (ms)", ("player_page", "player_list", "p50_ms"), "linear"),
    ("player search, three letters typed, p50 (ms)", ("player_page", "player_search", "p50_ms"), "flat"),
    ("catch-up per record (µs)", ("catch_up", "us_per_record"), "flat"),
    ("of which keeping the field's sums (µs)", ("catch_up", "field_sums_us_per_record"), "flat"),
    ("full rebuild (s)", ("rebuild", "seconds"), "linear"),
    ("full rebuild per game (ms)", ("rebuild", "ms_per_game"), "info"),
    ("verify per game (ms)", ("verify", "ms_per_game"), "flat"),
    ("verify: listing the stored games (s)", ("verify", "listing_seconds"), "linear"),
    ("calibration loop (million ops/s)", ("calibration_ops_per_second",), "info"),
]


def figure(found: dict[str, Any], path: tuple[str, ...]) -> float | None:
    """The figure at ``path``, or None if that run did not measure it."""
    value: Any = found
    for key in path:
        if key not in value:
            return None
        value = value[key]
    return float(value) / (1e6 if path == ("calibration_ops_per_second",) else 1)


def table(results: dict[str, Any]) -> str:
    sizes = results["sizes"]
    first = sizes[0]
    head = [
        "figure",
        *(f"{s['games']:,} games" for s in sizes),
        *(f"{s['size'] // first['size']}x / 1x" for s in sizes[1:]),
    ]
    lines = ["| " + " | ".join(head) + " |", "| --- |" + " ---: |" * (len(head) - 1)]
    for label, path, _ in ROWS:
        values = [figure(s, path) for s in sizes]
        first_value = values[0]
        ratios = ["" if v is None or not first_value else f"{v / first_value:.2f}" for v in values[1:]]
        shown = ["" if v is None else f"{v:,.4g}" for v in values]
        lines.append("| " + " | ".join([label, *shown, *ratios]) + " |")
    return "\n".join(lines) + "\n"


def svg(results: dict[str, Any], width: int = 880, height: int = 440) -> str:
    """Each figure divided by its value at the first size, against the store's size, both on log scales,
    beside the lines "flat" and "linear" (hand-written SVG: the project has no static image export)."""
    sizes = results["sizes"]
    xs = [float(s["games"]) for s in sizes]
    left, right, top, bottom = 60, 370, 20, 50
    lo_x, hi_x = math.log10(xs[0]), math.log10(xs[-1])
    lo_y, hi_y = -1.0, max(0.5, math.log10(xs[-1] / xs[0]) + 0.25)

    def at(x: float, y: float) -> tuple[float, float]:
        px = left + (math.log10(x) - lo_x) / (hi_x - lo_x) * (width - left - right)
        py = top + (hi_y - max(lo_y, min(hi_y, math.log10(y)))) / (hi_y - lo_y) * (height - top - bottom)
        return round(px, 1), round(py, 1)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
        'font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    for exponent in range(math.ceil(lo_y), math.floor(hi_y) + 1):
        _, py = at(xs[0], 10.0**exponent)
        parts.append(f'<line x1="{left}" y1="{py}" x2="{width - right}" y2="{py}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{py + 4}" text-anchor="end">{10.0**exponent:g}x</text>')
    for x in xs:
        px, _ = at(x, 1.0)
        parts.append(f'<line x1="{px}" y1="{top}" x2="{px}" y2="{height - bottom}" stroke="#ddd"/>')
        parts.append(f'<text x="{px}" y="{height - bottom + 16}" text-anchor="middle">{int(x):,}</text>')
    parts.append(
        f'<text x="{(width - right + left) / 2}" y="{height - 12}" text-anchor="middle">stored games</text>'
        f'<text x="14" y="{(height - bottom) / 2}" transform="rotate(-90 14 {(height - bottom) / 2})" '
        'text-anchor="middle">figure ÷ figure at the smallest store</text>'
    )
    guides = [("linear", [x / xs[0] for x in xs], "#999", "6 4"), ("flat", [1.0] * len(xs), "#999", "2 3")]
    colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22"]
    colours += ["#000000", "#7f7f7f", "#aec7e8"]
    shown = [(label, path) for label, path, kind in ROWS if kind != "info" and "p99" not in label]
    lines = []
    for i, (label, path) in enumerate(shown):
        values = [figure(s, path) for s in sizes]
        first_value = values[0]
        if first_value and all(v for v in values):  # (a figure some run did not measure is left out)
            lines.append((label, [v / first_value for v in values if v], colours[i % len(colours)], ""))
    for n, (label, ratios, colour, dash) in enumerate(guides + lines):
        points = " ".join(f"{px},{py}" for px, py in (at(x, r) for x, r in zip(xs, ratios, strict=True)))
        stroke = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"{stroke}/>')
        ly = top + 10 + n * 18
        parts.append(
            f'<line x1="{width - right + 12}" y1="{ly}" x2="{width - right + 36}" y2="{ly}" stroke="{colour}" '
            f'stroke-width="2"{stroke}/><text x="{width - right + 42}" y="{ly + 4}">{html.escape(label)}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("generate", help="write blocks of 1,000 games, each an SQLite file")
    make.add_argument("--blocks", type=Path, required=True, help="the folder of the blocks")
    make.add_argument("--count", type=int, default=10, help="blocks 0 to COUNT-1 (those missing)")
    make.add_argument("--workers", type=int, default=2)
    take = commands.add_parser("measure", help="grow a PostgreSQL store block by block and measure at each size")
    take.add_argument("--blocks", type=Path, required=True, help="the folder of the blocks (waited for if missing)")
    take.add_argument("--sizes", type=lambda text: [int(n) for n in text.split(",")], default=[1000, 10000])
    take.add_argument("--samples", type=int, default=300, help="state-at-move reads and replay steps")
    take.add_argument("--page-samples", type=int, default=20, help="tendencies and player pages")
    take.add_argument("--move-games", type=int, default=2, help="fresh games played move by move")
    take.add_argument("--fresh-games", type=int, default=100, help="games stored whole before the catch-up")
    take.add_argument("--verify-sample", type=int, help="verify this many random games instead of all")
    take.add_argument("--out", type=Path, help="write the figures here as they come (JSON)")
    take.add_argument(
        "--moves-only", action="store_true", help="measure only the moves (the read models are left unprojected)"
    )
    take.add_argument("--keep", action="store_true", help="keep the schema (its name is in the output)")
    take.add_argument("--schema", help="grow on the schema an earlier run kept (--keep) instead of a fresh one")
    take.add_argument(
        "--skip",
        type=lambda text: set(text.split(",")),
        default=set(),
        help="figures not measured, of rebuild (the blocks are then caught up on, untimed), move, replay, verify",
    )
    show = commands.add_parser("report", help="the Markdown table of a measure's JSON, and its plot as SVG")
    show.add_argument("results", type=Path, nargs="+", help="the JSON that measure wrote (--out), in order of size")
    show.add_argument("--svg", type=Path, help="write the plot here")
    args = parser.parse_args()
    if args.command == "report":
        runs = [json.loads(path.read_text()) for path in args.results]  # (a store grown on with --schema)
        results = {"sizes": [size for run in runs for size in run["sizes"]]}
        print(table(results), end="")
        if args.svg:
            args.svg.write_text(svg(results))
    elif args.command == "measure":
        print(json.dumps(measure(args), indent=2))
    elif args.command == "generate":
        seconds = generate(args.blocks, args.count, args.workers)
        print(json.dumps({"blocks": args.count, "seconds": round(seconds, 1)}))


if __name__ == "__main__":
    main()
