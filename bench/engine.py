"""Engine speed: complete bot games per second and moves per second, on one core.

Run: ``.venv/bin/python -m bench.engine [--game ruins|arnak|all] [--games N] [--json]``. Ruins is measured
for 2-5 players; Lost Ruins of Arnak for 1 (solo, against the rival) to 4 players on both boards (bird and
snake). Every figure is reported beside a calibration loop measured in the same run (plain-Python dict
and tuple work of a similar shape), so numbers from noisy or different machines can be compared as ratios.
Both are timed in CPU time of this process (``time.process_time``): on a quiet machine the same as wall time,
on a busy one it leaves out the time other processes had the core.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Callable
from typing import Any

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


def _timed(play: Callable[[int], tuple[int, int]], games: int, row: dict[str, Any]) -> dict[str, Any]:
    """Time ``games`` calls of ``play(g) -> (moves, events)`` and fill in ``row``'s rates."""
    moves = events = 0
    started = CLOCK()
    for g in range(games):
        m, e = play(g)
        moves += m
        events += e
    elapsed = CLOCK() - started
    row.update(
        games=games,
        seconds=round(elapsed, 3),
        games_per_second=round(games / elapsed, 1),
        moves_per_second=round(moves / elapsed),
        events_per_second=round(events / elapsed),
        moves_per_game=round(moves / games, 1),
    )
    return row


def measure_ruins(players: int, bot: str, games: int, seed: int = 0) -> dict[str, Any]:
    from domain.ruins.bots import HeuristicBot, RandomBot
    from domain.ruins.simulate import play_game

    bots = [RandomBot() if bot == "random" else HeuristicBot() for _ in range(players)]
    names = NAMES[:players]

    def play(g: int) -> tuple[int, int]:
        played = play_game(names, bots, f"bench-{seed}-{g}")
        return len(played.actions), len(played.events)

    return _timed(play, games, {"game": "ruins", "players": players, "side": "", "bot": bot})


def measure_arnak(players: int, side: str, bot: str, games: int, seed: int = 0) -> dict[str, Any]:
    """Arnak games with every seat played by the same kind of bot (solo: one bot against the rival, which plays
    itself, at difficulty 0)."""
    from domain.arnak.bots import HeuristicBot, RandomBot
    from domain.arnak.simulate import play_game

    bots = [RandomBot() if bot == "random" else HeuristicBot() for _ in range(players)]
    names = NAMES[:players]
    options = {"side": side}

    def play(g: int) -> tuple[int, int]:
        played = play_game(names, bots, f"bench-{seed}-{g}", options=options)
        return len(played.actions), len(played.events)

    return _timed(play, games, {"game": "arnak", "players": players, "side": side, "bot": bot})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=("ruins", "arnak", "all"), default="all")
    parser.add_argument(
        "--games", type=int, help=f"games per row (default: {', '.join(f'{k} {v}' for k, v in DEFAULT_GAMES.items())})"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pinned = pin_to_one_core()
    calibration = calibration_ops_per_second()
    rows: list[dict[str, Any]] = []
    if args.game in ("ruins", "all"):
        games = args.games or DEFAULT_GAMES["ruins"]
        rows += [measure_ruins(n, bot, games) for bot in ("random", "heuristic") for n in (2, 3, 4, 5)]
    if args.game in ("arnak", "all"):
        games = args.games or DEFAULT_GAMES["arnak"]
        rows += [
            measure_arnak(n, side, bot, games)
            for bot in ("random", "heuristic")
            for side in ("bird", "snake")
            for n in (1, 2, 3, 4)
        ]
    calibration_after = calibration_ops_per_second()
    baseline = (calibration + calibration_after) / 2
    for row in rows:
        row["moves_per_1000_calibration_ops"] = round(1000 * row["moves_per_second"] / baseline, 2)
    if args.json:
        print(json.dumps({"pinned": pinned, "calibration_ops_per_second": round(baseline), "rows": rows}))
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
