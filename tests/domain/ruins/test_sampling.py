"""Ruins' sampler (``domain.ruins.sampling``): what it knows beyond a uniform deal, from the view alone."""

from __future__ import annotations

import random

from domain import ruins
from domain.games import GAMES
from domain.play import play_game
from domain.ruins.state import GameState


def _claimed_in_another_hand() -> tuple[GameState, int, int, int]:
    """A position, a viewer, and a claimed ruin in another seat's hand (its owner's, sent home by the deal)."""
    bots = GAMES["ruins"].bots
    for n in range(40):
        names = ["A", "B", "C", "D"]
        game = play_game(ruins, names, [bots.make("heuristic", claim_rate=1.0) for _ in names], f"claims-{n}")
        state = ruins.replay(ruins.start(names, None, f"claims-{n}"))
        for action in game.actions:
            for owner, hand in enumerate(state.hands):
                for card in hand:
                    if state.ruins[card].claim == owner:
                        return state, (owner + 1) % 4, owner, card
            state = ruins.step(state, action)[1]
    raise AssertionError("no claimed ruin went home in 40 games")


def test_a_claimed_ruin_out_of_sight_is_always_in_its_owner_s_hand() -> None:
    state, viewer, owner, card = _claimed_in_another_hand()
    seen = ruins.view(state, viewer)
    rng = random.Random(0)
    for _ in range(50):
        drawn = ruins.sample(seen, viewer, rng)
        assert card in drawn.hands[owner]
        assert ruins.view(drawn, viewer) == seen


def test_the_next_round_s_leader_is_the_real_one_on_a_tie() -> None:
    """The view shows who went out when last round (it breaks ties on VP for the lead), so a sample leads the
    next round as the real game would."""
    state, viewer, _, _ = _claimed_in_another_hand()
    drawn = ruins.sample(ruins.view(state, viewer), viewer, random.Random(1))
    assert state.last_round_order and drawn.last_round_order == state.last_round_order
