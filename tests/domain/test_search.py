"""The search bot (``domain.search``) on every registered game: it answers a move the rules accept, from the
seat's view alone, the same move from the same random numbers, and its budget is its one strength knob.
Its strength is measured in bench/search.py, never here."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from domain.games import GAMES
from domain.play import SeatView, play_game
from domain.policies import UnknownPolicy
from domain.protocol import Result
from domain.search import EXTRA, PROPOSALS, SEARCH, SearchBot, parse_choice, ranked_rewards, rewards
from tests.domain.twins import HIDDEN_TWINS

KINDS = sorted(GAMES)


def _turns(kind: str, players: int, every: int) -> Iterator[tuple[Any, int]]:
    """Positions of a heuristic bot game where a seat is to act, every ``every``-th move, with that seat."""
    found = GAMES[kind]
    rules = found.rules
    names = [f"P{s}" for s in range(players)]
    game = play_game(rules, names, [found.bots.make("heuristic") for _ in names], f"search-{players}")
    state = rules.replay(rules.start(names, None, f"search-{players}"))
    for i, action in enumerate(game.actions):
        if i % every == 3:
            yield state, action.seat
        state = rules.step(state, action)[1]


@pytest.mark.parametrize("kind", KINDS)
def test_the_search_bot_answers_a_move_the_rules_accept_and_the_same_one_from_the_same_numbers(kind: str) -> None:
    found = GAMES[kind]
    rules = found.rules
    bot = found.bots.make(SEARCH, budget=6)
    for state, seat in list(_turns(kind, 3, 41))[:6]:
        legal = rules.legal_actions(state, seat)
        chosen = bot.choose(SeatView(rules, state, seat), legal, random.Random(1))
        rules.decide(state, chosen)  # raises on a move the rules refuse
        again = bot.choose(rules.view(state, seat), legal, random.Random(1))
        assert again == chosen, "reproducible from its random numbers, and the JSON view is enough"


@pytest.mark.parametrize("kind", KINDS)
def test_the_search_bot_cannot_tell_apart_what_its_seat_cannot(kind: str) -> None:
    """Its choice from a position and from a twin the seat cannot tell apart is the same: it reads the view only."""
    found = GAMES[kind]
    rules, twin_of = found.rules, HIDDEN_TWINS[kind]
    bot = found.bots.make(SEARCH, budget=6)
    for state, seat in list(_turns(kind, 2, 53))[:4]:
        twin = twin_of(state, seat, random.Random(2))
        legal = rules.legal_actions(state, seat)
        assert rules.legal_actions(twin, seat) == legal
        mine = bot.choose(rules.view(state, seat), legal, random.Random(3))
        assert bot.choose(rules.view(twin, seat), legal, random.Random(3)) == mine


@pytest.mark.parametrize("kind", KINDS)
def test_the_budget_is_the_search_bot_s_tendency_and_must_be_a_count(kind: str) -> None:
    bots = GAMES[kind].bots
    made = bots.make(SEARCH, budget=7)
    assert made.tendencies() == {"budget": 7, "rollout": "heuristic"}
    assert bots.make(SEARCH, budget=7.0).tendencies()["budget"] == 7  # a command line's tendency is a float
    for bad in (0, -3, 2.5, "many", True):
        with pytest.raises(UnknownPolicy):
            bots.make(SEARCH, budget=bad)
    with pytest.raises(UnknownPolicy):
        bots.make(SEARCH, rollout="no such bot")


def test_the_budget_counts_the_playouts_of_a_move() -> None:
    found = GAMES[KINDS[0]]
    rules = found.rules
    state, seat = next(s for s in _turns(KINDS[0], 4, 17) if len(rules.legal_actions(s[0], s[1])) > 2)
    for budget in (10, 40):
        bot = found.bots.make(SEARCH, budget=budget)
        assert isinstance(bot, SearchBot)
        bot.choose(rules.view(state, seat), rules.legal_actions(state, seat), random.Random(4))
        assert budget / 2 <= bot.playouts <= budget * 1.5, (budget, bot.playouts)


@pytest.mark.parametrize("kind", KINDS)
def test_a_larger_budget_compares_more_actions_up_to_every_legal_one(kind: str) -> None:
    """The search widens with its budget: up to 139 playouts it compares the rollout bot's choices and ``EXTRA``
    others (the search the judge's ladder measures at 32 and 128); at 400 more, and at 1,000 every legal action
    where there are fewer than 50 (so 4x the budget is a wider search, not only more playouts of the same one)."""
    found = GAMES[kind]
    rules = found.rules
    state, seat = next(s for s in _turns(kind, 4, 5) if 2 * EXTRA < len(rules.legal_actions(s[0], s[1])) < 40)
    legal = rules.legal_actions(state, seat)
    compared = {}
    for budget in (25, 128, 400, 1000):
        bot = found.bots.make(SEARCH, budget=budget)
        assert isinstance(bot, SearchBot)
        compared[budget] = bot.candidates(rules.view(state, seat), legal, random.Random(5))
    assert compared[25] == compared[128]  # the same comparison up to 139, only more playouts of it
    assert len([a for a in compared[128] if a in legal]) <= PROPOSALS + EXTRA
    assert len(compared[128]) < len(compared[400]) < len(compared[1000])
    assert set(legal) <= set(compared[1000])


def test_each_seat_is_rewarded_for_winning_and_for_the_seats_it_beat() -> None:
    ended = Result(ranking=(2, 0, 1), winners=(2,), scores=(5, 3, 9))
    assert rewards(ended, ended.scores) == [0.25, 0.0, 1.0]
    assert ranked_rewards(ended, ended.scores) == [0.25, 0.0, 1.0]
    assert ranked_rewards(None, (4, 4, 1)) == [0.875, 0.875, 0.0]  # the judge's, stopped early: by points, ties halved
    assert rewards(None, (3,)) == [1.0]


def test_a_playout_cut_short_is_rewarded_smoothly_by_its_margins() -> None:
    tied = rewards(None, (4, 4, 1))
    assert tied[0] == tied[1] > 0.5 > tied[2] > 0.0  # tied seats alike; no sure win or loss before the end
    assert sum(rewards(None, (3, 2))) == pytest.approx(1.0)  # two seats: one's gain is the other's loss
    # Ranks saturate where margins do not: a seat already ahead still gains by a point more, and a seat behind by
    # a point less (at a round's end in a two-player game, most moves change the margin and not the order).
    assert rewards(None, (6, 2))[0] < rewards(None, (7, 2))[0] < 1.0
    assert 0.0 < rewards(None, (1, 6))[0] < rewards(None, (2, 6))[0]
    # The same margin weighs less when more points are in play.
    assert rewards(None, (3, 2))[0] > rewards(None, (30, 29))[0] > 0.5


def test_a_bot_is_named_with_its_budget_on_the_command_line() -> None:
    assert parse_choice("heuristic") == ("heuristic", {})
    assert parse_choice("search:400") == ("search", {"budget": 400})
    for bad in ("search:", "search:0", "search:x", "search:-2"):
        with pytest.raises(ValueError):
            parse_choice(bad)
