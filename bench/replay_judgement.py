"""What the replay's judgement costs the server (``Data.replay_judgement`` and ``dashboard.replay_judgement``), for a
four-seat game of each registered game judged as ``digsite analyse`` judges it (at a small budget: the rows are
the same shape at any budget, and the cost here does not depend on it).

Measured, in CPU seconds of this process (load on a shared machine changes the wall clock, not these much): the
judgement read and its moves named (the first visit: every position before a judged move evolved once, the game's
picker asked), a second visit (kept), the card built (the win-chance figure, the seats' table, the notes) and its
size as JSON. The first table's path (``Data.replay_document``) does not read the judgement: the card is a callback
of its own, asked for with the VP chart once the first table shows.

Run: ``.venv/bin/python -m bench.replay_judgement [--seats 4] [--budget 4]`` (a fresh SQLite store in a temporary
folder).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from plotly.utils import PlotlyJSONEncoder

from dashboard.access import SPECTATOR
from dashboard.data import Data
from dashboard.replay_judgement import section
from domain.games import GAMES
from service.analysis import stored
from service.analysis.judging import judge_records
from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from service.reading.projections.follower import Follower
from service.reading.read_port import ReadPort
from service.settings import Database, Settings
from service.store import backends


def _cpu(work: Any) -> tuple[Any, float]:
    started = time.process_time()
    found = work()
    return found, time.process_time() - started


def measure(seats: int, budget: int) -> list[dict[str, Any]]:
    out = []
    with tempfile.TemporaryDirectory() as folder:
        db = Database.from_url(f"sqlite:///{Path(folder) / 'bench.sqlite'}")
        backends.upgrade(db)
        settings = Settings(database=db, api_key="bench-key", secret_key="a bench secret that signs sessions")
        service = Digsite(settings)
        games = {}
        for kind in GAMES:
            cup = run_tournament(service, kind=kind, players=seats, games=1, seed="bench", name=kind)
            games[kind] = cup.games[0].id
            stored.write(db, judge_records(service.stored_records(games[kind]), budget))
        follower = Follower(settings)
        follower.catch_up()
        follower.close()
        read = ReadPort.over(service.reader)
        data = Data(read, service)
        for kind, game_id in games.items():
            found, first = _cpu(lambda: data.replay_judgement(SPECTATOR, game_id))  # noqa: B023
            _, again = _cpu(lambda: data.replay_judgement(SPECTATOR, game_id))  # noqa: B023
            card, built = _cpu(lambda: section(found, 1))  # noqa: B023
            body = json.dumps(card, cls=PlotlyJSONEncoder)
            moves = found["analysis"]["moves"]
            out.append(
                {
                    "game": kind,
                    "seats": seats,
                    "moves": len(moves),
                    "judged": sum(1 for m in moves if m["judged"]),
                    "first_visit_cpu_s": round(first, 3),
                    "second_visit_cpu_s": round(again, 4),
                    "card_cpu_s": round(built, 3),
                    "card_json_kb": round(len(body) / 1024, 1),
                }
            )
        read.close()
        service.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--budget", type=int, default=4)
    args = parser.parse_args()
    for row in measure(args.seats, args.budget):
        print(json.dumps(row))


if __name__ == "__main__":
    main()
