"""What keeping skill ratings costs the projection (docs/performance.md, section 14), in CPU seconds (load-independent
enough on a shared machine, unlike wall time): SQLite, in process, so the database's work is this process's too.

1. The model alone: ``Ratings.add`` for one game of three players (OpenSkill's Plackett-Luce), per game.
2. ``KeptRatings.rate_all``: every finished game of the store rated anew, as a distributed rebuild ends.
3. A rebuild of the read models in batches, with the ratings kept and with their rating step left out (the same
   store, alternately, ``--repeat`` times each): the difference is what ratings add to a rebuild.

Run: ``nice -n 10 .venv/bin/python -m bench.ratings --games 60`` (the store is played by bots first, through the
service: about a second of CPU a game).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from service.analysis.ratings import Ratings
from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from service.reading.projections.follower import Follower
from service.reading.projections.ratings import KeptRatings
from service.settings import Database, Settings
from service.store import backends


def cpu(work: Callable[[], Any]) -> float:
    started = time.process_time()
    work()
    return time.process_time() - started


def model_per_game(games: int, seed: int = 7) -> float:
    """CPU microseconds per 3-player game rated by the model alone, among 30 players."""
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(30)]
    tables = [rng.sample(players, 3) for _ in range(games)]
    places = [rng.sample([1, 2, 3], 3) for _ in range(games)]
    ratings = Ratings()
    seconds = cpu(lambda: [ratings.add("k", t, p) for t, p in zip(tables, places, strict=True)])
    return 1e6 * seconds / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=500)
    args = parser.parse_args()

    model = [model_per_game(2000, seed) for seed in range(5)]
    print(f"model: {statistics.median(model):.0f} us CPU a 3-player game (median of 5 x 2000 games; {model})")

    with tempfile.TemporaryDirectory() as folder:
        db = Database.from_url(f"sqlite:///{Path(folder) / 'ratings.sqlite'}")
        backends.upgrade(db)
        settings = Settings(database=db, api_key="bench")
        service = Digsite(settings)
        try:
            built = cpu(lambda: run_tournament(service, kind="ruins", players=3, games=args.games, seed="bench"))
        finally:
            service.close()
        print(f"store: {args.games} games of 3 played by bots in {built:.1f} s CPU")
        follower = Follower(settings, batch_size=args.batch_size)
        try:
            records = follower.catch_up()
            models = follower.read_models

            def rate_all() -> None:
                with models._transaction() as curs:
                    models.ratings.rate_all(curs)

            again = [cpu(rate_all) for _ in range(5)]
            print(f"rate_all: {statistics.median(again) * 1000:.1f} ms CPU for {args.games} games (median of 5)")

            kept, left_out = [], []
            real_rate = KeptRatings.rate
            for _ in range(args.repeat):
                kept.append(cpu(follower.rebuild))
                KeptRatings.rate = lambda self, curs, games, ruled=(): None  # type: ignore[method-assign]
                try:
                    left_out.append(cpu(follower.rebuild))
                finally:
                    KeptRatings.rate = real_rate  # type: ignore[method-assign]
            difference = statistics.median(kept) - statistics.median(left_out)
            print(
                f"rebuild of {records} records in batches of {args.batch_size}: {statistics.median(kept):.2f} s CPU "
                f"with ratings {kept}, {statistics.median(left_out):.2f} s without {left_out}; "
                f"difference {difference * 1000:.0f} ms ({1000 * difference / args.games:.2f} ms a game)"
            )
        finally:
            follower.close()


if __name__ == "__main__":
    main()
