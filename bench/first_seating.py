"""What a tournament's first seating pays to learn whether its games were created directly
(``TournamentRounds._made_directly`` asks ``Digsite.game_ids`` for one of its games, which walks the store's game
creations, decoding each: that call is what is timed), against the store's own walk over the same creations
without decoding them (the baseline, measured in the same run).

A store of ``--games`` games created directly (no moves: only their creations are read), none of them of the
tournament asked about, so the walk reads every one; each walk timed ``--repeats`` times, the fastest kept.

Run: ``.venv/bin/python -m bench.first_seating`` (``--games N``, ``--database-url URL``: default a SQLite file in a
temporary directory; a PostgreSQL URL names a database to fill, so give an empty one).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from typing import Any

from domain.games import GAMES
from service.commands.application import GAME_CREATED_TOPIC, Digsite
from service.settings import Database, Settings
from service.store.backends import upgrade


def fastest(call: Callable[[], Any], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


def raw_walk(service: Digsite) -> int:
    """The game creations' notifications, as the store hands them over (nothing decoded)."""
    count, start = 0, None
    while batch := service.app.recorder.select_notifications(
        start=start, limit=500, topics=[GAME_CREATED_TOPIC], inclusive_of_start=False
    ):
        count += len(batch)
        start = batch[-1].id
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    url = args.database_url or f"sqlite:///{tempfile.mkdtemp()}/first-seating.sqlite"
    database = Database.from_url(url)
    upgrade(database)
    service = Digsite(Settings(database=database, api_key="bench"))
    try:
        kind = sorted(GAMES)[0]
        seats = [service.create_player(f"P{i}") for i in range(GAMES[kind].schemas.seats.high)]
        for _ in range(args.games):
            service.store_scripted_game(kind, seats, [])
        cup = service.create_tournament("Nobody's games", 1, kind)
        assert raw_walk(service) >= args.games
        check = fastest(lambda: next(service.game_ids(cup), None), args.repeats)
        baseline = fastest(lambda: raw_walk(service), args.repeats)
        print(
            f"{database.backend}, {args.games} games ({kind}): the first seating's check {check:.3f} s, the store's "
            f"walk alone {baseline:.3f} s: {check / baseline:.1f}x; {check / args.games * 1e6:.0f} us a game"
        )
    finally:
        service.close()


if __name__ == "__main__":
    main()
