"""What reading a tournament's fair-play evidence from the store costs (docs/performance.md, section 17), in CPU
seconds (load-independent enough on a shared machine, unlike wall time): SQLite, in process.

A bot tournament is played and judged at a tiny budget (the judge's own cost is bench/judge.py's), then, alternately,
``--repeat`` times each:

1. the baseline: every finished game's stored judgement read alone (``Judgements.of``, what the analysis API reads);
2. ``service.reading.fair_play.gather``: the same judgements, plus each game's records (seat holders, think times)
   and the ``Decision`` objects the signals read.

The ratio (2 / 1) is what the evidence adds over reading the judgements. Run:
``nice -n 10 .venv/bin/python -m bench.fair_play_evidence --games 6`` (playing and judging: seconds of CPU a game).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from service.analysis import stored
from service.analysis.judging import judge_records
from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from service.reading.fair_play import gather
from service.reading.projections.follower import Follower
from service.reading.read_port import ReadPort
from service.settings import Database, Settings
from service.store import backends


def cpu(work: Callable[[], Any]) -> float:
    started = time.process_time()
    work()
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--budget", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        db = Database.from_url(f"sqlite:///{Path(folder) / 'fair.sqlite'}")
        backends.upgrade(db)
        settings = Settings(database=db)
        service = Digsite(settings)
        port = ReadPort.over(service.reader)
        try:
            cup = run_tournament(service, kind="ruins", players=args.players, games=args.games, seed="bench-fair")
            for game in cup.games:
                stored.write(db, judge_records(service.stored_records(game.id), args.budget))
            follower = Follower(settings)
            try:
                follower.catch_up()
            finally:
                follower.close()
            game_ids = [g.id for g in cup.games]

            def judgements() -> None:
                for game_id in game_ids:
                    port.judgements.of(game_id)

            evidence = gather(port, cup.id).evidence
            base, read = [], []
            for _ in range(args.repeat):
                base.append(cpu(judgements))
                read.append(cpu(lambda: gather(port, cup.id)))
        finally:
            port.close()
            service.close()
    b, r = statistics.median(base), statistics.median(read)
    print(f"{len(game_ids)} games of {args.players}, {len(evidence.decisions)} judged decisions, budget {args.budget}")
    print(f"judgements alone: {1000 * b:.1f} ms CPU (median of {args.repeat}; {[round(1000 * x, 1) for x in base]})")
    print(f"evidence:         {1000 * r:.1f} ms CPU (median of {args.repeat}; {[round(1000 * x, 1) for x in read]})")
    print(f"ratio: {r / b:.2f}; per decision {1e6 * r / max(1, len(evidence.decisions)):.0f} us CPU")


if __name__ == "__main__":
    main()
