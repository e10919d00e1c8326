"""The judge's contract (issue 26, section 4) in whole games: bots of known strength (random < heuristic < search at
B < search at 4B) at one four-player table, seats rotating, every game judged and rated; after K games both the
mean accuracy and the rating order them as set, in every registered game. The figures at a larger K:
bench/judge.py ``order`` (docs/performance.md, section 11)."""

from __future__ import annotations

import functools
import json
from collections import Counter

import pytest

from domain.games import GAMES
from service.analysis.known_strength import (
    LADDER,
    BotRecord,
    Settings,
    accuracy_order,
    ordered,
    play_ladder,
    rate_ladder,
    rating_order,
    report,
    seating,
)
from service.analysis.ratings import Rating

KINDS = sorted(GAMES)

# K games (a multiple of 4: each bot in each seat equally), the judge's budget, B. Chosen to run in minutes on one
# core; docs/performance.md, section 11 gives the figures they were chosen from.
SETTINGS = {"ruins": Settings(16, 32, 16), "arnak": Settings(8, 32, 8)}


def test_each_bot_sits_in_each_seat_once_in_four_games() -> None:
    seats = Counter((game, seat) for game in range(4) for seat in seating(game))
    assert all(count == 1 for count in seats.values()) and len(seats) == 16
    assert Counter((seating(game)[seat], seat) for game in range(4) for seat in range(4)) == Counter(
        {(bot, seat): 1 for bot in range(4) for seat in range(4)}
    )


def test_an_order_is_strict_and_a_missing_figure_orders_nothing() -> None:
    assert ordered([1.0, 2.0, 3.0, 4.0])
    assert not ordered([1.0, 2.0, 2.0, 4.0]) and not ordered([1.0, 3.0, 2.0, 4.0])
    assert not ordered([1.0, None, 3.0, 4.0])


def test_the_orders_read_the_mean_accuracy_and_the_rating_s_mu() -> None:
    records = {bot: BotRecord(accuracies=[80.0 + i], rating=Rating(mu=20.0 + i)) for i, bot in enumerate(LADDER)}
    assert accuracy_order(records) and rating_order(records)
    records["search 4B"].rating = Rating(mu=10.0)
    records["random"].accuracies = [99.0]
    assert not accuracy_order(records) and not rating_order(records)


@pytest.mark.slow  # Arnak's two games judged, even at 4 playouts, take most of a minute
@pytest.mark.parametrize("kind", KINDS)
def test_the_ladder_rated_without_judging_has_the_judged_run_s_results_and_ratings(kind: str) -> None:
    """``rate_ladder`` (bench/ladder_ratings.py: games rated, not judged) and ``play_ladder`` play the same games and
    rate them alike."""
    rated = rate_ladder(kind, 2, 1, prefix="known-strength-same")
    judged = play_ladder(kind, Settings(2, 4, 1, "known-strength-same"))
    for bot in LADDER:
        assert (rated[bot].games, rated[bot].wins, rated[bot].places) == (2, judged[bot].wins, judged[bot].places)
        assert rated[bot].rating == judged[bot].rating and not rated[bot].accuracies


@functools.cache  # one run of a game's K games serves both measures' tests (in one process)
def _records(kind: str) -> dict[str, BotRecord]:
    return play_ladder(kind, SETTINGS[kind])


NOT_YET_ORDERED = {
    # Ruins at K 16: heuristic mu 27.94 above search B 27.51 (wins 1 and 6 of 16, mean places 2.62 and 2.06); the
    # games alone, rated without judging, order the ratings at K 20, 24 and 28 and not at 32 (heuristic 30.0, search
    # B 29.0): search at 16 playouts is hardly stronger than the heuristic in whole Ruins games (7 and 9 wins of 32),
    # so the rating cannot tell them apart at an affordable K (docs/performance.md, section 11). B 32 (4B 128) does
    # not help: rated without judging, 8 of 15 (seed set, K 16..48) points ordered, none on this test's seeds
    # (bench/ladder_ratings.py). B 100 (4B 400) neither: on this test's seeds 4B sat under B at K 16 and 24 (in
    # order from 32), on another prefix's at 32, on a fourth's at 24 to 40 (docs/judge.md). Strict: the day it
    # passes, this goes red and the entry goes.
    ("ruins", "rating"): "Ruins: the rating does not order heuristic < search at B at K 16 (nor stably at K 32)",
}
MEASURES = {"accuracy": accuracy_order, "rating": rating_order}


@pytest.mark.slow  # Ruins about 2 CPU minutes, Arnak about 4 (one core): the full run keeps it
@pytest.mark.parametrize(
    ("kind", "measure"),
    [
        pytest.param(k, m, marks=pytest.mark.xfail(strict=True, reason=NOT_YET_ORDERED[k, m]))
        if (k, m) in NOT_YET_ORDERED
        else (k, m)
        for k in KINDS
        for m in MEASURES
    ],
)
def test_accuracy_and_rating_each_order_bots_of_known_strength_in_whole_games(kind: str, measure: str) -> None:
    """Seeded whole games, so the figures are the same on every run. Swap two bots' budgets (B and 4B) and the
    order fails (seen once in Arnak, both measures: docs/performance.md, section 11)."""
    records = _records(kind)
    assert all(records[bot].games == SETTINGS[kind].games for bot in LADDER)
    assert MEASURES[measure](records), json.dumps(report(records))
