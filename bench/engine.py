"""Engine speed of a registered game: complete bot games and moves per second, per seat count and bot, on one core.

Run: ``.venv/bin/python -m bench.engine [--game ruins|arnak] [--games N] [--json]`` (default: Ruins). Every
figure is reported beside a
calibration loop measured in the same run (plain-Python dict and tuple work of a similar shape), so
numbers from noisy or different machines can be compared as ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from typing import Any

from domain.games import GAMES, game
from domain.play import play_game

NAMES = ["Ana", "Beto", "Carla", "Diego", "Elif"]


def pin_to_one_core() -> str:
    if hasattr(os, "sched_setaffinity"):
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return f"pinned to core {core}"
    return "not pinned"


def calibration_ops_per_second(seconds: float = 0.5) -> float:
    """A baseline of this machine's pure-Python speed: a toy turn loop (tuple copies, dict lookups, rng)."""
    rng = random.Random(0)
    hands = tuple(tuple(range(i, i + 9)) for i in range(4))
    ops = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        for _ in range(1000):
            seat = ops % 4
            hand = hands[seat]
            card = hand[rng.randrange(len(hand))]
            hands = (*hands[:seat], (*hand[1:], card), *hands[seat + 1 :])
            ops += 1
    return ops / seconds


def measure(kind: str, players: int, bot: str, games: int, seed: int = 0) -> dict[str, Any]:
    found = game(kind)
    bots = [found.bots.make(bot) for _ in range(players)]
    names = NAMES[:players]
    moves = events = 0
    started = time.perf_counter()
    for g in range(games):
        played = play_game(found.rules, names, bots, f"bench-{seed}-{g}")
        moves += len(played.actions)
        events += len(played.events)
    elapsed = time.perf_counter() - started
    return {
        "players": players,
        "bot": bot,
        "games": games,
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 1),
        "moves_per_second": round(moves / elapsed),
        "events_per_second": round(events / elapsed),
        "moves_per_game": round(moves / games, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=sorted(GAMES), default="ruins", help="which registered game (default ruins)")
    parser.add_argument("--games", type=int, default=300, help="games per player count and bot")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    found = game(args.game)
    pinned = pin_to_one_core()
    calibration = calibration_ops_per_second()
    counts = range(found.schemas.seats.low, found.schemas.seats.high + 1)
    rows = [measure(args.game, n, bot, args.games) for bot in sorted(found.bots.policies, reverse=True) for n in counts]
    calibration_after = calibration_ops_per_second()
    baseline = (calibration + calibration_after) / 2
    for row in rows:
        row["moves_per_1000_calibration_ops"] = round(1000 * row["moves_per_second"] / baseline, 2)
    if args.json:
        print(json.dumps({"game": args.game, "pinned": pinned, "calibration_ops_per_second": round(baseline),
                          "rows": rows}))  # fmt: skip
        return
    print(
        f"{found.title} engine, {pinned}; calibration loop {baseline:,.0f} ops/s (before {calibration:,.0f}, after "
        f"{calibration_after:,.0f})"
    )
    print(f"{'bot':<10}{'players':>8}{'games/s':>10}{'moves/s':>10}{'moves/game':>12}{'moves per 1k cal ops':>22}")
    for row in rows:
        print(
            f"{row['bot']:<10}{row['players']:>8}{row['games_per_second']:>10}{row['moves_per_second']:>10}"
            f"{row['moves_per_game']:>12}{row['moves_per_1000_calibration_ops']:>22}"
        )


if __name__ == "__main__":
    main()
