"""Engine speed of the registered games: complete bot games and moves per second, per seat count and bot, on one core.

Run: ``.venv/bin/python -m bench.engine [--game ruins|arnak|all] [--games N] [--json]``. Every game is measured
for each seat count it takes (Ruins 2-5 players; Lost Ruins of Arnak 1, solo against the rival, to 4 players on
both boards, bird and snake) and each bot policy. Every figure is reported beside a calibration loop measured
in the same run (plain-Python dict and tuple work of a similar shape), so numbers from noisy or different
machines can be compared as ratios. Both are timed in CPU time of this process (``time.process_time``): on a
quiet machine the same as wall time, on a busy one it leaves out the time other processes had the core.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Mapping
from typing import Any

from domain.games import GAMES, game
from domain.play import play_game

NAMES = ["Ana", "Beto", "Carla", "Diego", "Elif"]
DEFAULT_GAMES = {"ruins": 300, "arnak": 100}
CLOCK = time.process_time  # CPU seconds of this process


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
    started = CLOCK()
    while CLOCK() - started < seconds:
        for _ in range(1000):
            seat = ops % 4
            hand = hands[seat]
            card = hand[rng.randrange(len(hand))]
            hands = (*hands[:seat], (*hand[1:], card), *hands[seat + 1 :])
            ops += 1
    return ops / (CLOCK() - started)


def measure(
    kind: str, players: int, bot: str, games: int, seed: int = 0, options: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """``games`` games of ``kind`` with every seat played by the same bot policy (Arnak solo: one bot against
    the rival, which plays itself, at difficulty 0)."""
    found = game(kind)
    bots = [found.bots.make(bot) for _ in range(players)]
    names = NAMES[:players]
    moves = events = 0
    started = CLOCK()
    for g in range(games):
        played = play_game(found.rules, names, bots, f"bench-{seed}-{g}", options=options)
        moves += len(played.actions)
        events += len(played.events)
    elapsed = CLOCK() - started
    return {
        "game": kind,
        "players": players,
        "side": str((options or {}).get("side", "")),
        "bot": bot,
        "games": games,
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 1),
        "moves_per_second": round(moves / elapsed),
        "events_per_second": round(events / elapsed),
        "moves_per_game": round(moves / games, 1),
    }


# The boards (options) each game is measured on; a game not named here is measured with its default options.
BOARDS: dict[str, tuple[dict[str, Any], ...]] = {"arnak": ({"side": "bird"}, {"side": "snake"})}


def measure_game(kind: str, games: int) -> list[dict[str, Any]]:
    found = game(kind)
    counts = range(found.schemas.seats.low, found.schemas.seats.high + 1)
    return [
        measure(kind, n, bot, games, options=options)
        for bot in sorted(found.bots.policies, reverse=True)
        for options in BOARDS.get(kind, ({},))
        for n in counts
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=(*sorted(GAMES), "all"), default="all", help="which registered game")
    parser.add_argument(
        "--games",
        type=int,
        help=f"games per row (default: {', '.join(f'{k} {v}' for k, v in DEFAULT_GAMES.items())}, else 100)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pinned = pin_to_one_core()
    calibration = calibration_ops_per_second()
    kinds = sorted(GAMES, reverse=True) if args.game == "all" else [args.game]
    rows: list[dict[str, Any]] = []
    for kind in kinds:
        rows += measure_game(kind, args.games or DEFAULT_GAMES.get(kind, 100))
    calibration_after = calibration_ops_per_second()
    baseline = (calibration + calibration_after) / 2
    for row in rows:
        row["moves_per_1000_calibration_ops"] = round(1000 * row["moves_per_second"] / baseline, 2)
    if args.json:
        print(json.dumps({"game": args.game, "pinned": pinned, "calibration_ops_per_second": round(baseline),
                          "rows": rows}))  # fmt: skip
        return
    print(
        f"Engines, {pinned}, per CPU second; calibration loop {baseline:,.0f} ops/s (before {calibration:,.0f}, "
        f"after {calibration_after:,.0f})"
    )
    print(
        f"{'game':<7}{'side':<7}{'bot':<10}{'players':>8}{'games/s':>10}{'moves/s':>10}{'moves/game':>12}"
        f"{'moves per 1k cal ops':>22}"
    )
    for row in rows:
        print(
            f"{row['game']:<7}{row['side']:<7}{row['bot']:<10}{row['players']:>8}{row['games_per_second']:>10}"
            f"{row['moves_per_second']:>10}{row['moves_per_game']:>12}{row['moves_per_1000_calibration_ops']:>22}"
        )


if __name__ == "__main__":
    main()
