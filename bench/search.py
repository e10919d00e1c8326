"""The search bot's strength and speed (``domain.search``), for one registered game.

Three measurements, each over ``--games`` games with seeds ``search-bench-<i>`` (``i`` from ``--first``, 0):

- ``table``: four players, the search bot at its ``--budget`` in seat ``i % 4`` of game ``i`` against three of
  the game's heuristic bots. Its win share (a shared win counts as a win), with a 95 % Wilson interval, against the
  fair share of 1/4; the ratio of the two.
- ``duel``: two players, the same bot at 4x the budget against it at the budget, seats alternating: the stronger's
  win share and interval against 1/2.
- ``solo`` (a game whose smallest table is one player, played against a seat the engine plays): the search bot
  alone at each rival difficulty 0-5 (``--difficulties``), its win share and its mean score against the rival's.

Reported per measurement: games, wins, the share and its interval, seconds, the search bot's moves and playouts,
and playouts a second (a playout: one sampled state played on to the end of the round). One JSON line each, and
a summary for people. Run: ``.venv/bin/python -m bench.search --game ruins --games 48 --duel-games 24``;
``--speed``: the hot loop alone (states drawn from a view, and playouts, a second).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dashboard.uncertainty import wilson
from domain.games import GAMES, game
from domain.play import play_game
from domain.policies import Policy
from domain.search import DEFAULT_BUDGET, SEARCH, SearchBot


class Counted:
    """A search bot that counts its moves and the time they took (the bot counts its playouts)."""

    def __init__(self, inner: SearchBot[Any]) -> None:
        self.inner, self.name = inner, inner.name
        self.moves = 0
        self.seconds = 0.0

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: Any) -> Any:
        started = time.perf_counter()
        action = self.inner.choose(view, legal, rng)
        self.seconds += time.perf_counter() - started
        self.moves += 1
        return action

    def tendencies(self) -> dict[str, Any]:
        return self.inner.tendencies()


@dataclass
class Tally:
    name: str
    games: int = 0
    wins: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # this process's CPU time: a figure the machine's load moves far less than seconds
    moves: int = 0
    playouts: int = 0
    search_seconds: float = 0.0
    budget: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def add(self, bot: Counted) -> None:
        self.moves += bot.moves
        self.playouts += bot.inner.playouts
        self.search_seconds += bot.seconds

    def line(self, fair: float) -> dict[str, Any]:
        low, high = wilson(self.wins / self.games if self.games else None, self.games) or (0.0, 1.0)
        share = self.wins / self.games if self.games else 0.0
        return {
            "measure": self.name,
            "games": self.games,
            "wins": self.wins,
            "share": round(share, 3),
            "interval": [round(low, 3), round(high, 3)],
            "fair_share": round(fair, 3),
            "ratio": round(share / fair, 2),
            "ratio_interval": [round(low / fair, 2), round(high / fair, 2)],
            "seconds": round(self.seconds, 1),
            "cpu_seconds": round(self.cpu_seconds, 1),
            "load_average": [round(x, 1) for x in os.getloadavg()],
            "search_moves": self.moves,
            "playouts": self.playouts,
            "playouts_per_second": round(self.playouts / self.search_seconds, 1) if self.search_seconds else None,
            "seconds_per_move": round(self.search_seconds / self.moves, 3) if self.moves else None,
            **self.extra,
        }


def _search(kind: str, budget: int) -> Counted:
    found = game(kind)
    bot = found.bots.make(SEARCH, budget=budget)
    assert isinstance(bot, SearchBot)
    return Counted(bot)


def table(kind: str, games: int, budget: int, players: int = 4, first: int = 0) -> Tally:
    found = game(kind)
    tally = Tally("table", budget=budget)
    started, cpu = time.perf_counter(), time.process_time()
    for i in range(first, first + games):
        seat = i % players
        searcher = _search(kind, budget)
        bots: list[Policy[Any]] = [found.bots.make("heuristic") for _ in range(players)]
        bots[seat] = searcher
        played = play_game(found.rules, [f"P{s}" for s in range(players)], bots, f"search-bench-{i}")
        tally.games += 1
        tally.wins += seat in played.result.winners
        tally.add(searcher)
        print(json.dumps({"measure": "table", "game": i, "search_seat": seat, "winners": list(played.result.winners),
                          "scores": list(played.result.scores)}), flush=True)  # fmt: skip
    tally.seconds, tally.cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    return tally


def duel(kind: str, games: int, budget: int, first: int = 0, strong_budget: int | None = None) -> Tally:
    """Two players: the search bot at ``strong_budget`` (4x ``budget`` unless given) against it at ``budget``."""
    found = game(kind)
    high = 4 * budget if strong_budget is None else strong_budget
    tally = Tally("duel", budget=high, extra={"strong_budget": high, "weak_budget": budget})
    started, cpu = time.perf_counter(), time.process_time()
    for i in range(first, first + games):
        strong, weak = _search(kind, high), _search(kind, budget)
        seat = i % 2
        bots: list[Policy[Any]] = [weak, weak]
        bots[seat] = strong
        played = play_game(found.rules, ["P0", "P1"], bots, f"search-bench-{i}")
        tally.games += 1
        tally.wins += seat in played.result.winners
        tally.add(strong)
        print(json.dumps({"measure": "duel", "game": i, "strong_seat": seat, "winners": list(played.result.winners),
                          "scores": list(played.result.scores)}), flush=True)  # fmt: skip
    tally.seconds, tally.cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    return tally


def solo(kind: str, games: int, budget: int, difficulty: int, first: int = 0) -> Tally:
    found = game(kind)
    tally = Tally("solo", budget=budget, extra={"difficulty": difficulty})
    margins = []
    started, cpu = time.perf_counter(), time.process_time()
    for i in range(first, first + games):
        searcher = _search(kind, budget)
        played = play_game(found.rules, ["P0"], [searcher], f"search-bench-{i}", {"difficulty": difficulty})
        tally.games += 1
        tally.wins += 0 in played.result.winners
        tally.add(searcher)
        margins.append(played.result.scores[0] - max(played.result.scores[1:]))
        line = {"measure": "solo", "game": i, "difficulty": difficulty, "scores": list(played.result.scores)}
        print(json.dumps({**line, "winners": list(played.result.winners)}), flush=True)
    tally.seconds, tally.cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    tally.extra["mean_margin_over_rival"] = round(sum(margins) / len(margins), 1) if margins else None
    return tally


def speed(kind: str, positions: int = 30, draws: int = 20) -> dict[str, Any]:
    """The hot loop alone, at ``positions`` positions of a four-player heuristic game (the seat to act): states
    drawn from a view a second, and playouts (a move and the game played on to the round's end) a second."""
    found = game(kind)
    rules = found.rules
    names = [f"P{s}" for s in range(4)]
    played = play_game(rules, names, [found.bots.make("heuristic") for _ in names], "search-speed")
    state = rules.replay(rules.start(names, None, "search-speed"))
    spots = []
    every = max(1, len(played.actions) // positions)
    for i, action in enumerate(played.actions):
        if i % every == 0:
            spots.append((state, action))
        state = rules.step(state, action)[1]
    bot = found.bots.make(SEARCH)
    assert isinstance(bot, SearchBot)
    rng = random.Random(0)
    sampled = sample_seconds = playout_seconds = 0.0
    for state, action in spots:
        seen = rules.view(state, action.seat)
        started = time.perf_counter()
        drawn = [rules.sample(seen, action.seat, rng) for _ in range(draws)]
        sample_seconds += time.perf_counter() - started
        sampled += draws
        started = time.perf_counter()
        for one in drawn:
            bot.evaluate(one, action, action.seat, rules.progress(one).round, rng)
        playout_seconds += time.perf_counter() - started
    return {
        "measure": "speed",
        "positions": len(spots),
        "samples_per_second": round(sampled / sample_seconds, 1),
        "playouts_per_second": round(sampled / playout_seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), required=True)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--games", type=int, default=48, help="four-player games against heuristic bots")
    parser.add_argument("--duel-games", type=int, default=24, help="two-player games, 4x the budget against 1x")
    parser.add_argument("--duel-strong", type=int, help="the stronger duellist's budget (default: 4x --budget)")
    parser.add_argument("--solo-games", type=int, default=8, help="solo games per difficulty (games with solo)")
    parser.add_argument("--difficulties", default="0,1,2,3,4,5")
    parser.add_argument("--first", type=int, default=0, help="the first game's number (more games on other seeds)")
    parser.add_argument("--speed", action="store_true", help="only the hot loop's speed: samples and playouts a second")
    args = parser.parse_args()
    if args.speed:
        print(json.dumps(speed(args.game)), flush=True)
        return
    results = []
    if args.games:
        results.append(table(args.game, args.games, args.budget, first=args.first).line(1 / 4))
        print(json.dumps(results[-1]), flush=True)
    if args.duel_games:
        results.append(duel(args.game, args.duel_games, args.budget, args.first, args.duel_strong).line(1 / 2))
        print(json.dumps(results[-1]), flush=True)
    if args.solo_games and game(args.game).schemas.seats.low == 1:
        for difficulty in (int(d) for d in args.difficulties.split(",") if d):
            results.append(solo(args.game, args.solo_games, args.budget, difficulty, args.first).line(1 / 2))
            print(json.dumps(results[-1]), flush=True)
    for r in results:
        print(
            f"{args.game} {r['measure']}{' difficulty ' + str(r['difficulty']) if 'difficulty' in r else ''}: "
            f"{r['wins']}/{r['games']} won = {r['share']:.0%} (95% {r['interval'][0]:.0%}-{r['interval'][1]:.0%}), "
            f"fair {r['fair_share']:.0%}, x{r['ratio']} ({r['ratio_interval'][0]}-{r['ratio_interval'][1]}); "
            f"{r['playouts_per_second']} playouts/s, {r['seconds_per_move']} s a move; "
            f"{r['seconds']} s ({r['cpu_seconds']} s CPU), load {r['load_average']}"
            + (f"; mean margin over the rival {r['mean_margin_over_rival']}" if "mean_margin_over_rival" in r else "")
        )


if __name__ == "__main__":
    main()
