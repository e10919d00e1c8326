"""The replay that steps in the browser: what drawing every frame once costs the server, beside a baseline
measured in the same run.

Baseline: the server's work for one step before (``Replays.replay``: nearest snapshot, evolve, narrate), for
every move of the game. Measured: the parts the page fetches for one perspective (``Data.replay_document``:
one pass over the events, every table drawn as HTML pieces), by move and then by event, the whole game;
their size as JSON and gzipped. The step in the browser itself is measured by the browser test
(``tests/dashboard/test_browser_replay.py`` writes ``artifacts/replay-latency.json``).

Run: ``.venv/bin/python -m bench.replay [--seats 5] [--games 3]`` (a fresh SQLite store in a temporary folder;
the longest game of each registered game is measured).
"""

from __future__ import annotations

import argparse
import gzip
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from dashboard.access import ORGANISER
from dashboard.data import Data
from dashboard.replay_frames import chunks
from domain.games import GAMES
from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from service.reading.projections.follower import Follower
from service.reading.read_port import ReadPort
from service.settings import Database, Settings
from service.store import backends


def measure(data: Data, read: ReadPort, game_id: str, perspective: str) -> dict[str, Any]:
    seat = None if perspective == "referee" else int(perspective)
    latest = len(read.replays.records(game_id))
    started = time.perf_counter()
    for version in range(1, latest + 1):
        read.replays.replay(game_id, version, seat)
    baseline = time.perf_counter() - started

    raw = zipped = 0
    first = 0.0
    started = time.perf_counter()
    for part in range(chunks(latest)):
        begun = time.perf_counter()
        found = data.replay_document(ORGANISER, game_id, perspective, part, with_moves=part == 0)
        if part == 0:
            first = time.perf_counter() - begun
        body = json.dumps(found, separators=(",", ":")).encode()
        raw, zipped = raw + len(body), zipped + len(gzip.compress(body, 6))
    by_move = time.perf_counter() - started
    started = time.perf_counter()
    for part in range(chunks(latest)):
        body = json.dumps(data.replay_document(ORGANISER, game_id, perspective, part, False, True)).encode()
        raw, zipped = raw + len(body), zipped + len(gzip.compress(body, 6))
    by_event = time.perf_counter() - started
    return {
        "moves": latest,
        "perspective": perspective,
        "baseline_every_step_s": round(baseline, 2),
        "baseline_per_step_ms": round(1000 * baseline / latest, 1),
        "first_part_s": round(first, 2),
        "all_frames_by_move_s": round(by_move, 2),
        "all_frames_by_event_s": round(by_event, 2),
        "ratio_by_move_to_baseline": round(by_move / baseline, 2),
        "payload_json_kb": raw // 1024,
        "payload_gzip_kb": zipped // 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Database.from_url(f"sqlite:///{Path(folder) / 'bench.sqlite'}")
        backends.upgrade(db)
        settings = Settings(database=db, api_key="bench", secret_key="a bench secret long enough to sign")
        service = Digsite(settings)
        longest = {}
        for kind, found in GAMES.items():
            seats = min(max(args.seats, found.schemas.seats.low), found.schemas.seats.high)
            cup = run_tournament(service, kind=kind, players=seats, games=args.games, seed="bench", name=kind)
            longest[kind] = max((g.id for g in cup.games), key=lambda g: len(service.stored_records(g)))
        follower = Follower(settings)
        try:
            follower.catch_up()
        finally:
            follower.close()
        read = ReadPort.over(service.reader)
        try:
            for kind, game_id in longest.items():
                for perspective in ("referee", "1"):
                    data = Data(read, service)  # nothing kept from the last measurement
                    print(json.dumps({"game": kind, **measure(data, read, game_id, perspective)}))
        finally:
            read.close()
            service.close()


if __name__ == "__main__":
    main()
