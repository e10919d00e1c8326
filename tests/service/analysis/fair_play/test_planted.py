"""The planted cheats and the simulated tournament (service.analysis.fair_play.planted): the roster, the round robin,
each cheat's policy doing what it says; and, slow, a small tournament per game whose planted cheats rank above the
honest players in their signal (the figures at a larger size: bench/fair_play.py, docs/fair_play.md)."""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from domain.games import GAMES, game
from domain.search import SearchBot
from service.analysis.fair_play.findings import SIGNALS
from service.analysis.fair_play.planted import (
    Colluding,
    ForSeat,
    Kingmaking,
    Setup,
    Simulation,
    roster,
    seat_rounds,
    simulate,
)


@dataclass
class Fixed:
    """A policy that always answers ``answer``."""

    answer: str
    name: str = "fixed"

    def tendencies(self) -> dict[str, Any]:
        return {}

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        return self.answer


def test_the_roster_plants_a_pair_a_kingmaker_and_a_bot_among_honest_players() -> None:
    entrants = roster(Setup("ruins", players=10))
    roles = Counter(e.role for e in entrants)
    assert roles == {"colluder": 2, "kingmaker": 1, "bot": 1, "honest": 6}
    names = {e.name: e for e in entrants}
    assert len(names) == 10
    a, b = (e for e in entrants if e.role == "colluder")
    assert (a.partner, b.partner) == (b.name, a.name)
    king = next(e for e in entrants if e.role == "kingmaker")
    assert king.partner is not None and names[king.partner].role == "honest"
    assert {e.policy for e in entrants if e.role == "honest"} >= {"random", "heuristic", "search"}
    assert len({(e.think_median, e.think_spread) for e in entrants}) == 10  # think times drawn per player
    with pytest.raises(ValueError):
        roster(Setup("ruins", players=4))


def test_every_round_seats_every_player_once_at_tables_of_the_size_asked() -> None:
    setup = Setup("ruins", players=8, table=4, rounds=3)
    names = [e.name for e in roster(setup)]
    for r in seat_rounds(setup, names):
        seated = [p for t in r.tables for p in t]
        assert sorted(seated) == sorted(names) and {len(t) for t in r.tables} == {4}


def test_a_colluder_plays_for_its_partner_at_its_rate() -> None:
    rules, bots = game("ruins").rules, game("ruins").bots
    partner_search = ForSeat(rules, bots, budget=4, beneficiary=1)
    rng = random.Random(1)
    never = Colluding(Fixed("own"), partner_search, 0.0)
    assert all(never.choose({}, ["own", "x"], rng) == "own" for _ in range(20))
    always = Colluding(Fixed("own"), ForSeatStub(rules, bots, budget=4, beneficiary=1), 1.0)
    assert all(always.choose({}, ["own", "x"], rng) == "partner's" for _ in range(20))


@dataclass
class ForSeatStub(ForSeat):
    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        return "partner's"


def test_the_search_for_a_partner_values_moves_by_the_partner_s_reward() -> None:
    rules, bots = game("ruins").rules, game("ruins").bots
    state = rules.replay(rules.start(["a", "b", "c"], None, "partner"))
    seat = rules.to_act(state)[0]
    action = rules.legal_actions(state, seat)[0]
    start = rules.progress(state).round
    partner = (seat + 1) % 3
    partner_search = ForSeat(rules, bots, budget=4, beneficiary=partner)
    plain = SearchBot(rules, bots, budget=4)
    for draw in range(3):
        theirs = partner_search.evaluate(state, action, seat, start, random.Random(draw))
        assert theirs == plain.evaluate(state, action, partner, start, random.Random(draw))
    assert any(
        partner_search.evaluate(state, action, seat, start, random.Random(d))
        != plain.evaluate(state, action, seat, start, random.Random(d))
        for d in range(6)
    )


def test_a_kingmaker_without_its_chosen_player_at_the_table_plays_its_own_style() -> None:
    rules, bots = game("ruins").rules, game("ruins").bots
    king = Kingmaking(Fixed("own"), rules, SearchBot(rules, bots, budget=4), bots.make("heuristic"), None, 2)
    assert king.choose({}, ["own", "x"], random.Random(0)) == "own" and king.crowned == 0


# A small tournament per game, about two CPU minutes each: players, table size, rounds, the judge's budget.
SMALL = {"ruins": Setup("ruins", players=8, table=4, rounds=6, judge_budget=32),
         "arnak": Setup("arnak", players=6, table=3, rounds=3, judge_budget=16)}  # fmt: skip
# Where the planted cheat does not rank first at this size (measured: docs/fair_play.md, "What the simulation
# shows"): expected failures, strict, so the day one starts to pass the test says so.
NOT_YET = {
    ("ruins", "gifts"): "the colluders' gifts are below the judge's noise at budget 32 in two games together",
    ("ruins", "soft_play"): "the pair's sparing is below the judge's noise at budget 32 in two games together",
    ("ruins", "kingmaking"): "the kingmaker never had a move without a chance at a table with its chosen player",
    ("arnak", "gifts"): "the colluders sat together once in three rounds: no pattern can repeat",
    ("arnak", "soft_play"): "the colluders sat together once in three rounds: no pattern can repeat",
    ("arnak", "kingmaking"): "the kingmaker never had a move without a chance at a table with its chosen player",
}


@functools.cache  # one tournament per game serves its four signals' cases (in one process)
def _simulated(kind: str) -> Simulation:
    return simulate(SMALL[kind])


def _cases() -> list[Any]:
    return [
        pytest.param(kind, signal, marks=[pytest.mark.xfail(reason=NOT_YET[(kind, signal)], strict=True)])
        if (kind, signal) in NOT_YET
        else pytest.param(kind, signal)
        for kind in sorted(GAMES)
        for signal in SIGNALS
    ]


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "signal"), _cases())
def test_planted_cheats_rank_above_the_honest_players_in_their_signal(kind: str, signal: str) -> None:
    sim = _simulated(kind)
    ranked = sim.report.of(signal)
    planted = sim.planted(signal)
    ranks = [i for i, f in enumerate(ranked) if f.subject in planted]
    shown = [(f.subject, round(f.score, 2)) for f in ranked[:5]]
    assert len(ranks) == len(planted), (signal, "a planted subject has no score", shown)
    assert ranks == list(range(len(ranks))), (signal, ranks, shown)
