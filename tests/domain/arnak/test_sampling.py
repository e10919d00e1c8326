"""Arnak's sampler (``domain.arnak.sampling``): a decision pending for the seat itself is sampled whole (the view
shows it the rest of the effect), another seat's is refused (its options are that seat's secret)."""

from __future__ import annotations

import random

import pytest

from domain import arnak
from domain.errors import NotSampleable
from domain.games import GAMES
from domain.play import play_game


def test_a_seat_s_own_pending_decision_is_sampled_and_another_s_refused() -> None:
    bots = GAMES["arnak"].bots
    names = ["A", "B", "C"]
    game = play_game(arnak, names, [bots.make("heuristic") for _ in names], "pending")
    state = arnak.replay(arnak.start(names, None, "pending"))
    found = 0
    for action in game.actions:
        pending = state.pending
        if pending is not None:
            mine = arnak.sample(arnak.view(state, pending.seat), pending.seat, random.Random(found))
            assert mine.pending == pending
            assert arnak.legal_actions(mine, pending.seat) == arnak.legal_actions(state, pending.seat)
            arnak.step(mine, action)  # the engine goes on with the effect
            with pytest.raises(NotSampleable):
                other = (pending.seat + 1) % len(names)
                arnak.sample(arnak.view(state, other), other, random.Random(found))
            found += 1
        state = arnak.step(state, action)[1]
    assert found > 5


def test_every_card_a_seat_holds_in_hand_and_deck_is_in_its_view_in_sorted_order() -> None:
    state = arnak.replay(arnak.start(["A", "B"], None, "cards"))
    for seat in (0, 1):
        for s, p in enumerate(state.seats):
            assert arnak.view(state, seat)["seats"][s]["hand_and_deck"] == sorted((*p.hand, *p.deck))
