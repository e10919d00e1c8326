"""What a seat out of time plays in Ruins (``timeout_action``), from the seed's rules where they say it
(seeds/000_7f6bf69c85b094d3.txt, "Follow or pass": "Passing is safe — you stay in the round and act again next
turn") and from the design in docs/rules/ruins.md (*Time controls*) where they do not."""

from __future__ import annotations

import random

from domain import ruins
from domain.ruins.actions import Discard, Flip, Pass, Play


def _positions(seed: int) -> list[ruins.GameState]:
    """Every state of a random three-player game."""
    rng = random.Random(seed)
    state = ruins.new_game(["Ana", "Beto", "Carla"], seed=seed)
    out = [state]
    while ruins.outcome(state) is None:
        seat = ruins.to_act(state)[0]
        state = ruins.apply(state, rng.choice(list(ruins.legal_actions(state, seat))))
        out.append(state)
    return out


def test_a_seat_out_of_time_on_a_follow_passes_as_the_rules_allow_at_any_follow() -> None:
    follows = [s for s in _positions(3) if s.phase == "play" and s.top is not None]
    assert follows
    for state in follows:
        assert ruins.timeout_action(state, state.turn) == Pass(state.turn)


def test_where_no_pass_is_allowed_a_seat_out_of_time_makes_the_least_committal_move() -> None:
    """design: a lead plays the first lead the engine lists, the night flip flips nothing, a discard the first."""
    seen = set()
    for state in _positions(5):
        for seat in ruins.to_act(state):
            chosen = ruins.timeout_action(state, seat)
            if state.phase == "play" and state.top is None:
                assert isinstance(chosen, Play) and chosen == ruins.legal_actions(state, seat)[0]
                seen.add("lead")
            elif state.phase == "flip":
                assert chosen == Flip(seat, None)
                seen.add("flip")
            elif state.phase == "discard":
                assert isinstance(chosen, Discard) and chosen == ruins.legal_actions(state, seat)[0]
                seen.add("discard")
    assert {"lead", "flip"} <= seen
