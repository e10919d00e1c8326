"""The move path's cost with clocks: CPU seconds per move through ``Digsite.submit`` (the service's own work,
SQLite in a temporary folder), for untimed games and for timed ones, the same scripted bot games each time.

CPU time of this process (``time.process_time``), not wall time: on a shared machine a count that does not depend
on the load beside it. Paired against another checkout (the branch before clocks) by running the same command with
that checkout first on ``PYTHONPATH``; ``--clock none`` is the only mode such a checkout has.

Run: ``nice -n 10 .venv/bin/python -m bench.clock_moves --games 20 --clock none|bank|per_move``.
"""

from __future__ import annotations

import argparse
import inspect
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.service import KIND, NAMES, scripted_games
from service.commands.application import Digsite, Viewer
from service.settings import Database, Settings
from service.store import backends

CLOCKS: dict[str, dict[str, Any] | None] = {
    "none": None,
    "bank": {"bank": 36_000, "increment": 30},  # (long enough that no bot game runs out: every move is a move)
    "per_move": {"per_move": 36_000},
}


def measure(games: int, clock: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        db = Database.from_url(f"sqlite:///{Path(folder) / 'bench.sqlite'}")
        backends.upgrade(db)
        service = Digsite(Settings(database=db))
        players = [service.create_player(n) for n in NAMES]
        timed = "clock" in inspect.signature(service.create_game).parameters
        per_move = []
        moves = 0
        for seed, actions in scripted_games(games, "clock-bench"):
            extra = {"clock": CLOCKS[clock]} if timed else {}
            created = service.create_game(KIND, players, seed=seed, **extra)
            version = created["version"]
            started = time.process_time()
            for action in actions:
                version = service.submit(created["id"], Viewer(action["seat"]), version, action)["version"]
            per_move.append((time.process_time() - started) / len(actions))
            moves += len(actions)
        service.close()
    return {
        "clock": clock,
        "games": games,
        "moves": moves,
        "cpu_us_per_move_median": round(statistics.median(per_move) * 1e6, 1),
        "cpu_us_per_move_mean": round(statistics.fmean(per_move) * 1e6, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="none")
    args = parser.parse_args()
    print(json.dumps(measure(args.games, args.clock)))


if __name__ == "__main__":
    main()
