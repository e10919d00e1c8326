"""The seed's snake temple side (seeds/003_836fe449a5de806b.txt, "Snake Temple (Advanced)"), with the reference's
snake research track (shared/reference/arnak.md A7) and travel costs (A2, second pass 5)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain import arnak
from domain.arnak import events as ev
from domain.arnak.actions import Choose, Dig, Payment, Research
from domain.arnak.scoring import score
from domain.arnak.state import GameState, HeldAssistant
from tests.domain.arnak.helpers import BOOK, NAMES, act, rejected, res, with_player

SNAKE = BOOK.boards["snake"]


def snake(n: int = 2, seed: str | int = "snake") -> GameState:
    return arnak.new_game(NAMES[:n], {"side": "snake"}, seed=seed)


def test_the_reverse_of_the_board_has_different_travel_costs_on_the_dig_sites() -> None:
    """'The reverse of the board has different travel costs on the dig sites' (reference second pass 5: Snake level I
    car, car, ship, ship, car, 2 boots, plane, ship; level II 2 cars, boot+plane, ship+car, 2 ships)."""
    costs = [loc.spaces[0].cost for loc in SNAKE.sites]
    assert costs[:8] == [("car",), ("car",), ("ship",), ("ship",), ("car",), ("boot", "boot"), ("plane",), ("ship",)]
    assert costs[8:] == [("car", "car"), ("plane", "boot"), ("ship", "car"), ("ship", "ship")]
    state = snake()
    site = state.site("L1-6")
    assert site is not None
    state = state.with_site(replace(site, tile=1, idols=()))
    state = with_player(state, 0, hand=(301, 302), deck=())
    after, _ = act(state, Dig(0, "L1-6", Payment((301, 302))))
    assert after.occupant("L1-6") == 0, "two fear cards (boots) pay the 2-boot space"


def test_and_a_different_research_track() -> None:
    """'... and a different research track.' Reference A7 Snake: VP 1/0, 2/3, 3/4, 4/5, 5/8, 10/12, 15/15."""
    track = SNAKE.track
    assert [track.vp[r] for r in range(7)] == [(1, 0), (2, 3), (3, 4), (4, 5), (5, 8), (10, 12), (15, 15)]
    assert score(with_player(snake(), 0, glass="r1p2", notebook="r1p0"), 0).research == 2 + 3
    state = with_player(snake(), 0, resources=res(tablet=2, compass=1))
    after, _ = act(state, Research(0, "glass", "r0p0"))
    assert after.seats[0].glass == "r0p0" and after.seats[0].resources == res(coin=1)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_assistant_rescue_spot_one_per_player(n: int) -> None:
    """'the assistant rescue spot — one per player' (reference A1: then two stacks of 3 and the rest in the third)."""
    state = snake(n)
    assert len(state.rescue) == n
    assert [len(s) for s in state.assistant_stacks] == [3, 3, 12 - n - 6]
    assert sorted([*state.rescue, *(a for s in state.assistant_stacks for a in s)]) == list(range(1, 13))


def test_discard_an_idol_to_move_the_glass_up_and_take_an_assistant_exhausted() -> None:
    """'where you discard an idol from your supply to move your magnifying glass up, search the assistant stack, and
    place your choice on your board exhausted.'"""
    state = with_player(snake(3), 0, glass="r2p0", idols=(4,))
    chosen = state.rescue[1]
    state, events = act(state, Research(0, "glass", "r3p0"))
    assert ev.IdolDiscarded(0, 4) in events and state.seats[0].idols == ()
    assert state.pending is not None and state.pending.kind == "rescue_assistant"
    assert set(state.pending.options) == {f"assistant:{a}" for a in snake(3).rescue}
    state, _ = act(state, Choose(0, f"assistant:{chosen}"))
    assert state.seats[0].assistants == (HeldAssistant(chosen, gold=False, exhausted=True),)
    assert chosen not in state.rescue and state.seats[0].glass == "r3p0"


def test_idols_already_placed_in_an_idol_slot_cannot_be_discarded_this_way() -> None:
    """'Idols already placed in an idol slot cannot be discarded this way.'"""
    state = with_player(snake(), 0, glass="r2p0", idols=(), slots=(4,))
    rejected(state, Research(0, "glass", "r3p0"), "idol(s) from your supply")
    assert all(not (isinstance(a, Research) and a.to == "r3p0") for a in arnak.legal_actions(state, 0))


def test_magnifying_glass_effects_that_hand_you_a_fear_card() -> None:
    """'It also adds magnifying glass effects that hand you a fear card' (reference A7: rows 5 and 6)."""
    state = with_player(snake(), 0, glass="r4p0", resources=res(jewel=1, tablet=1))
    state = replace(state, research_bonus=())
    top = state.fear_deck[0]
    after, events = act(state, Research(0, "glass", "r5p0"))
    assert ev.FearGained(0, top) in events and top in after.seats[0].play_area
    before = with_player(state, 0, notebook="r4p0", glass="r5p0")
    notebook, events = act(before, Research(0, "notebook", "r5p0"))
    assert not any(isinstance(e, ev.FearGained) for e in events), "the notebook's row 5 effect is a card drawn"
    assert len(notebook.seats[0].hand) == len(before.seats[0].hand) + 1


def test_a_row_of_first_come_first_served_bonus_tiles() -> None:
    """'... and a row of first-come-first-served bonus tiles.' (reference A7 'Dreadful Tales': 2 tiles, a 3rd at 3+
    players; the arriving token chooses 1)."""
    assert len([t for s, t in snake(2).research_bonus if s == "r6p0"]) == 2
    assert len([t for s, t in snake(3).research_bonus if s == "r6p0"]) == 3
    state = with_player(snake(3), 0, glass="r5p0", resources=res(arrowhead=1, tablet=1, coin=1))
    tiles = [t for s, t in state.research_bonus if s == "r6p0"]
    state, _ = act(state, Research(0, "glass", "r6p0"))
    assert state.pending is not None and state.pending.options == tuple(f"tile:{t}" for t in tiles)
    state, events = act(state, Choose(0, f"tile:{tiles[1]}"))
    assert ev.BonusTileTaken(0, "r6p0", tiles[1]) in events
    assert [t for s, t in state.research_bonus if s == "r6p0"] == [tiles[0], tiles[2]], "the others wait for the next"
