"""What a seat out of time plays in Lost Ruins of Arnak (``timeout_action``), from the seed's rules
(seeds/003_836fe449a5de806b.txt, "Pass": "If you cannot or do not want to take another main action, pass") and
the design in docs/rules/arnak.md (*Time controls*) where they are silent."""

from __future__ import annotations

import random

from domain import arnak
from domain.arnak.actions import EndTurn, Pass


def _positions(seed: int, players: int = 2) -> list[arnak.GameState]:
    rng = random.Random(seed)
    state = arnak.replay(arnak.start([f"P{i}" for i in range(players)], None, seed))
    out = [state]
    while arnak.result(state) is None:
        seat = arnak.to_act(state)[0]
        state = arnak.apply(state, rng.choice(arnak.legal_actions(state, seat)))
        out.append(state)
    return out


def test_a_seat_out_of_time_before_its_main_action_passes_and_after_it_ends_its_turn() -> None:
    seen = set()
    for state in _positions(7):
        for seat in arnak.to_act(state):
            chosen = arnak.timeout_action(state, seat)
            if state.pending is not None:  # design: a pending choice takes its first option
                assert chosen == arnak.legal_actions(state, seat)[0]
                seen.add("choice")
            elif state.main_done:
                assert chosen == EndTurn(seat)
                seen.add("end")
            else:
                assert chosen == Pass(seat)
                seen.add("pass")
    assert {"pass", "end"} <= seen
