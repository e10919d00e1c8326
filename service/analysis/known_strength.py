"""Whole games of bots of known strength, every game judged and rated: the judge's contract (issue 26, section 4).

Four bots sit at one four-player table, weakest first in ``LADDER``: the game's random bot, its heuristic bot, and
the search bot at a budget B and at 4B. Over ``games`` games their seats rotate with the game's number (game i
seats the ladder's bot ``(s + i) % 4`` at seat s), so over a multiple of four games each bot sits in each seat
equally. Each game is judged whole (``domain.judge.Judge``) and rated in the order played
(``service.analysis.ratings.Ratings``, the bots' names as the players). ``play_ladder`` returns, per bot, its
accuracy in each game, its judged decisions, its wins and its rating after the last game; the test
(tests/service/analysis/test_known_strength.py) asks both measures to order the bots as set, and bench/judge.py
prints the figures at a larger K. ``rate_ladder`` plays and rates the same games without judging them (a rating needs
only the results: bench/ladder_ratings.py).

Pure and deterministic (the games' seeds are ``<prefix>-<i>``, each judged with its own seed): the same settings
give the same figures. Nothing here names a game.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.games import game
from domain.judge import GameJudgement, Judge, moves_of
from domain.play import PlayedGame, play_game
from domain.policies import Policy
from service.analysis.ratings import Rating, Ratings

LADDER = ("random", "heuristic", "search B", "search 4B")  # weakest first: the order both measures must find


@dataclass(frozen=True, slots=True)
class Settings:
    """One run's settings: ``games`` four-player games, the judge's ``budget``, and B (``search``)."""

    games: int
    budget: int
    search: int
    prefix: str = "known-strength"


@dataclass
class BotRecord:
    """One bot's games: its accuracy in each (a seat's accuracy, docs/judge.md), judged decisions, wins (a shared
    first place counts), places, and its rating after the last game."""

    accuracies: list[float] = field(default_factory=list)
    decisions: int = 0
    losses: list[float] = field(default_factory=list)  # mean loss a judged move, per game
    wins: int = 0
    games: int = 0
    places: list[int] = field(default_factory=list)
    rating: Rating = field(default_factory=Rating)

    @property
    def accuracy(self) -> float | None:
        return statistics.mean(self.accuracies) if self.accuracies else None

    def accuracy_interval(self) -> tuple[float, float] | None:
        """About a 95 % interval of the mean accuracy over games: the mean +- 2 standard errors (games, not moves,
        are the independent draws: a bot's moves in one game share its positions)."""
        if len(self.accuracies) < 2:
            return None
        mean = statistics.mean(self.accuracies)
        half = 2.0 * statistics.stdev(self.accuracies) / len(self.accuracies) ** 0.5
        return mean - half, mean + half


def ladder_policies(kind: str, search: int) -> list[Policy[Any]]:
    """The ladder's bots, fresh (a search bot keeps no state between games, but a fresh one costs nothing)."""
    bots = game(kind).bots
    return [bots.make("random"), bots.make("heuristic"), bots.make("search", budget=search),
            bots.make("search", budget=4 * search)]  # fmt: skip


def seating(index: int) -> list[int]:
    """The ladder's bot at each seat in game ``index``: rotated by one seat a game."""
    return [(seat + index) % len(LADDER) for seat in range(len(LADDER))]


def ladder_games(
    kind: str,
    games: int,
    search: int,
    prefix: str,
    first: int = 0,
    policies: Callable[[str, int], Sequence[Policy[Any]]] = ladder_policies,
) -> Iterator[tuple[int, list[str], PlayedGame[Any, Any, Any]]]:
    """Games ``first`` .. ``first + games - 1`` of the ladder, played (seeds ``<prefix>-<i>``): each game's number,
    the bot at each seat, and the game. The one place the ladder's games are played, judged or not."""
    rules = game(kind).rules
    for index in range(first, first + games):
        seated = seating(index)
        ladder = policies(kind, search)
        players = [LADDER[b] for b in seated]
        yield index, players, play_game(rules, players, [ladder[b] for b in seated], f"{prefix}-{index}")


def play_ladder(
    kind: str,
    settings: Settings,
    first: int = 0,
    policies: Callable[[str, int], Sequence[Policy[Any]]] = ladder_policies,
    progress: Callable[[int, GameJudgement, list[int]], None] | None = None,
) -> dict[str, BotRecord]:
    """Games ``first`` .. ``first + settings.games - 1`` of the ladder, each judged at ``settings.budget`` and rated
    in turn; ``progress`` hears each game's number, judgement and seating. ``policies`` makes the ladder's bots
    (weakest first); a test swaps two to see the order fail."""
    found = game(kind)
    rules = found.rules
    records = {bot: BotRecord() for bot in LADDER}
    ratings = Ratings()
    judge = Judge(rules, found.bots, budget=settings.budget)
    for index, players, played in ladder_games(kind, settings.games, settings.search, settings.prefix, first, policies):
        opening = rules.start(players, None, played.seed)
        moves, _ = moves_of(rules, opening, played.actions)
        judged = judge.game(opening, moves, seed=played.seed, seats=len(players))
        _tally(kind, records, ratings, players, played)
        for summary in judged.seats:
            record = records[players[summary.seat]]
            record.decisions += summary.judged
            if summary.accuracy is not None and summary.mean_loss is not None:
                record.accuracies.append(summary.accuracy)
                record.losses.append(summary.mean_loss)
        if progress is not None:
            progress(index, judged, seating(index))
    return records


def rate_ladder(
    kind: str,
    games: int,
    search: int,
    prefix: str = "known-strength",
    progress: Callable[[int, dict[str, BotRecord]], None] | None = None,
) -> dict[str, BotRecord]:
    """The ladder's games ``0`` .. ``games - 1`` played and rated in turn, not judged (a rating needs only the
    results, so this costs only the games): per bot its wins, places and rating; ``progress`` hears each game's
    number and the records so far."""
    records = {bot: BotRecord() for bot in LADDER}
    ratings = Ratings()
    for index, players, played in ladder_games(kind, games, search, prefix):
        _tally(kind, records, ratings, players, played)
        if progress is not None:
            progress(index, records)
    return records


def _tally(
    kind: str, records: dict[str, BotRecord], ratings: Ratings, players: list[str], played: PlayedGame[Any, Any, Any]
) -> None:
    """One game's results into the records: each bot's game, place, win (a shared first place counts) and rating."""
    places = [played.result.place(seat) for seat in range(len(players))]
    ratings.add(kind, players, places)
    for seat, player in enumerate(players):
        record = records[player]
        record.games += 1
        record.places.append(places[seat])
        record.wins += places[seat] == 1
        record.rating = ratings.get(kind, player)


def ordered(values: Sequence[float | None]) -> bool:
    """Whether ``values`` rise strictly, weakest bot first (a missing value orders nothing)."""
    return all(a is not None and b is not None and a < b for a, b in itertools.pairwise(values))


def accuracy_order(records: dict[str, BotRecord]) -> bool:
    return ordered([records[bot].accuracy for bot in LADDER])


def rating_order(records: dict[str, BotRecord]) -> bool:
    return ordered([records[bot].rating.mu for bot in LADDER])


def report(records: dict[str, BotRecord]) -> dict[str, Any]:
    """The figures per bot, rounded, for a test's message or a bench's line."""
    out: dict[str, Any] = {}
    for bot in LADDER:
        r = records[bot]
        interval = r.accuracy_interval()
        out[bot] = {
            "games": r.games,
            "decisions": r.decisions,
            "accuracy": None if r.accuracy is None else round(r.accuracy, 2),
            "interval": None if interval is None else [round(interval[0], 2), round(interval[1], 2)],
            "mean_loss": round(statistics.mean(r.losses), 3) if r.losses else None,
            "wins": r.wins,
            "mean_place": round(statistics.mean(r.places), 2) if r.places else None,
            "mu": round(r.rating.mu, 2),
            "band": [round(r.rating.low, 2), round(r.rating.high, 2)],
        }
    return out
