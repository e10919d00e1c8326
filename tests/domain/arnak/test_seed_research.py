"""The seed's research, idols, assistants and exile (seeds/003_836fe449a5de806b.txt: "Research",
"Idols, Assistants and Exile").

Every test quotes the seed sentence it checks; "reference:" marks a fact from shared/reference/arnak.md
and "design:" a choice of Digsite's (docs/rules/arnak.md).
"""

from __future__ import annotations

from dataclasses import replace

from domain.arnak import events as ev
from domain.arnak.actions import Choose, PlaceIdol, Play, Research, TempleTile, UseAssistant
from domain.arnak.legal import legal_actions
from domain.arnak.scoring import score
from domain.arnak.state import GameState, HeldAssistant
from tests.domain.arnak.helpers import BOOK, act, card_named, game, kinds, rejected, res, run, with_player

FEAR_A = BOOK.fear_ids[-1]


def researcher(**resources: int) -> GameState:
    return with_player(game(2), 0, resources=res(**resources))


# --- research ---------------------------------------------------------------------------------------------------------


def test_research_pay_the_cost_between_the_token_and_the_space_and_move_it_there() -> None:
    """'Choose either your magnifying glass or your notebook, pay the cost printed between it and the space you
    want, and move it there.' reference A7: start to r0p1 costs 1 jewel; row 0 gives the glass 1 coin."""
    state = researcher(jewel=1)
    state, _events = act(state, Research(0, "glass", "r0p1"))
    assert state.seats[0].glass == "r0p1"
    assert state.seats[0].resources == res(coin=1), "1 jewel paid, the row's coin gained"
    rejected(researcher(arrowhead=1), Research(0, "glass", "r0p0"), "cannot pay")
    rejected(researcher(jewel=1), Research(0, "glass", "r2p0"), "no bridge")


def test_the_notebook_can_never_move_ahead_of_the_magnifying_glass() -> None:
    """'The notebook can never move ahead of the magnifying glass.' design: it may share the glass's row."""
    state = researcher(jewel=2)
    rejected(state, Research(0, "notebook", "r0p1"), "never move ahead")
    state = run(state, Research(0, "glass", "r0p1"))
    state = replace(state, main_done=False)
    state = run(state, Research(0, "notebook", "r0p1"))
    assert state.seats[0].notebook == "r0p1"


def test_a_bonus_tile_is_resolved_and_removed_strictly_first_come_first_served() -> None:
    """'If there is a bonus tile on that space, resolve it and remove it from the game — these are strictly first
    come, first served.'"""
    coin_tile = next(t.id for t in BOOK.bonus_tiles.values() if t.kind == "coin")
    state = replace(researcher(jewel=1), research_bonus=(("r1p0", coin_tile),))
    state = with_player(state, 0, glass="r0p0")
    state = with_player(state, 1, glass="r0p0", resources=res(jewel=1))
    state, events = act(state, Research(0, "glass", "r1p0"))
    assert ev.BonusTileTaken(0, "r1p0", coin_tile) in events
    assert state.research_bonus == () and state.seats[0].resources == res(coin=1, compass=1)
    state = replace(state, turn=1, main_done=False)
    state, events = act(state, Research(1, "glass", "r1p0"))
    assert not any(isinstance(e, ev.BonusTileTaken) for e in events)


def test_then_gain_the_row_effect_or_resolve_it_before_the_bonus_tile_if_you_prefer() -> None:
    """'Then gain the row effect for the token you moved' / 'You may resolve the row effect before the bonus tile if
    you prefer.'"""
    coin_tile = next(t.id for t in BOOK.bonus_tiles.values() if t.kind == "coin")
    state = with_player(replace(researcher(jewel=1), research_bonus=(("r1p0", coin_tile),)), 0, glass="r0p0")
    reasons = []
    for row_first in (False, True):
        _, events = act(state, Research(0, "glass", "r1p0", row_first))
        gains = [e.delta for e in events if isinstance(e, ev.ResourcesChanged) and e.reason == "gain"]
        reasons.append(gains)
    assert reasons == [[res(coin=1), res(compass=1)], [res(compass=1), res(coin=1)]]


def test_silver_assistant_icon_take_a_face_up_assistant_silver_side_up() -> None:
    """'Silver assistant icon: take a face-up assistant and place it on your board, silver side up.' /
    'Recruit assistants by moving your notebook up the research track. Choose a face-up tile from one of the three
    stacks and place it on a free spot on your board.'"""
    state = with_player(researcher(arrowhead=1, compass=1), 0, glass="r0p0")
    state, _ = act(state, Research(0, "notebook", "r0p0"))
    assert state.pending is not None and state.pending.options == ("stack:0", "stack:1", "stack:2")
    top, under = state.assistant_stacks[1][:2]
    state, _ = act(state, Choose(0, "stack:1"))
    assert state.seats[0].assistants == (HeldAssistant(top, gold=False, exhausted=False),)
    assert state.assistant_stacks[1][0] == under, "the next assistant of the stack is now face up"


def test_gold_assistant_icon_flips_one_to_gold_and_refreshes_it() -> None:
    """'Gold assistant icon: flip one of your assistants to its gold side.' / 'Upgrading an assistant flips it to its
    gold side and refreshes it automatically, even if the silver side was already exhausted.'"""
    state = with_player(
        researcher(arrowhead=1, tablet=2),
        0,
        glass="r2p0",
        notebook="r1p0",
        assistants=(HeldAssistant(12, False, True),),
    )
    state, events = act(state, Research(0, "notebook", "r2p0"))
    assert ev.AssistantUpgraded(0, 12) in events
    assert state.seats[0].assistants == (HeldAssistant(12, gold=True, exhausted=False),)


def test_the_purple_points_are_not_cumulative() -> None:
    """'The purple points on the track are not cumulative — they show the value your magnifying glass and notebook
    are worth where they currently sit.'"""
    state = with_player(game(2), 0, glass="r3p1", notebook="r1p0")
    assert score(state, 0).research == 6 + 1


def test_reaching_the_lost_temple_takes_the_leftmost_space_and_a_bonus_tile() -> None:
    """'Reaching the Lost Temple. When your magnifying glass arrives, place it in the leftmost empty space and take a
    bonus tile, resolve it and remove it.'"""
    state = with_player(researcher(compass=1, coin=1, jewel=1), 0, glass="r6p0")
    state = with_player(state, 1, glass="temple", temple_place=0)
    tile = state.temple_bonus[0]
    state, events = act(state, Research(0, "glass", "temple"))
    assert state.seats[0].glass == "temple" and state.seats[0].temple_place == 1
    assert ev.BonusTileTaken(0, "temple", tile) in events and tile not in state.temple_bonus
    assert score(state, 0).research == BOOK.boards["bird"].track.temple_points[1]
    rejected(
        with_player(researcher(compass=1, coin=1, jewel=1), 0, glass="r6p0", notebook="r6p0"),
        Research(0, "notebook", "temple"),
        "never enters",
    )


def test_from_then_on_research_pays_for_any_temple_tile() -> None:
    """'From then on, choosing research lets you activate your magnifying glass to pay for any temple tile and add it
    to your board for end-game points.'"""
    state = with_player(researcher(jewel=1), 0, glass="temple", temple_place=0)
    state = run(state, TempleTile(0, 1))
    assert state.seats[0].temple_tiles == (1,) and state.temple_stacks[1] == 1 and state.main_done
    assert score(state, 0).temple_tiles == 2
    rejected(researcher(jewel=1), TempleTile(0, 1), "Lost Temple")
    climbing = with_player(researcher(jewel=1), 0, glass="temple", temple_place=0, notebook="start")
    assert Research(0, "notebook", "r0p1") in legal_actions(climbing, 0), "the notebook still climbs"
    rejected(with_player(researcher(), 0, glass="temple", temple_place=0), TempleTile(0, 5), "cannot pay")


# --- idols ------------------------------------------------------------------------------------------------------------


def test_idols_sit_face_down_on_your_board_each_worth_3_points() -> None:
    """'Idols come from discovering sites and sit face down on your board, each worth 3 points.'"""
    state = with_player(game(2), 0, idols=(1, 5))
    assert score(state, 0).idols == 6


def test_place_an_idol_in_the_leftmost_open_slot_as_a_free_action() -> None:
    """'As a free action you may permanently place an idol in the leftmost open slot on your board to resolve one of
    the effects printed there.'"""
    state = with_player(game(2), 0, idols=(1, 5), resources=res(coin=1))
    state, events = act(state, PlaceIdol(0, "jewel"))
    assert ev.IdolPlaced(0, 1, 0, "jewel") in events
    assert state.seats[0].slots == (1,) and state.seats[0].idols == (5,)
    assert state.seats[0].resources == res(jewel=1) and not state.main_done
    state = run(state, PlaceIdol(0, "tablets"))
    assert state.seats[0].slots == (1, 5)
    rejected(state, PlaceIdol(0, "draw"), "no idol")
    full = with_player(game(2), 0, idols=(2,), slots=(1, 3, 4, 6))
    rejected(full, PlaceIdol(0, "draw"), "every idol slot")


def test_covering_a_slot_loses_its_points_the_idol_is_worth_3_either_way() -> None:
    """'uncovered idol slots are worth points on their own, and covering one loses those points. The idol itself is
    worth 3 points either way.' reference: slots worth 1, 2, 3, 4 from the left."""
    before = score(with_player(game(2), 0, idols=(1,)), 0)
    after = score(with_player(game(2), 0, slots=(1,)), 0)
    assert (before.idols, before.idol_slots) == (3, 10)
    assert (after.idols, after.idol_slots) == (3, 9)


# --- assistants -------------------------------------------------------------------------------------------------------


def test_exhaust_an_assistant_to_use_it_not_again_until_refreshed() -> None:
    """'Exhaust an assistant to use its effect; it cannot be used again until next round unless something refreshes
    it.' reference A8: using one is a free action; #12 silver: 2 coins."""
    state = with_player(game(2), 0, assistants=(HeldAssistant(12),), resources=res())
    state, _ = act(state, UseAssistant(0, 12))
    assert state.seats[0].resources == res(coin=2) and state.seats[0].assistants[0].exhausted
    assert not state.main_done
    rejected(state, UseAssistant(0, 12), "exhausted")


# --- exile ------------------------------------------------------------------------------------------------------------


def test_exiled_cards_go_to_the_matching_pile_and_fear_cards_on_top_of_the_fear_deck() -> None:
    """'Some effects exile cards, meaning they go to the matching discard pile beside the deck rather than back to
    yours. Fear cards go on top of the fear deck.' reference second pass: Torch exiles any one card, optionally."""
    torch, hat = card_named("Torch"), card_named("Hat")
    state = with_player(game(2), 0, hand=(torch, hat, FEAR_A), deck=())
    state, _ = act(state, Play(0, torch))
    assert state.pending is not None and state.pending.kind == "exile"
    assert set(state.pending.options) == {f"hand:{hat}", f"hand:{FEAR_A}", f"play:{torch}", "skip"}
    feared, _ = act(state, Choose(0, f"hand:{FEAR_A}"))
    assert feared.fear_deck[0] == FEAR_A and FEAR_A not in feared.seats[0].cards()
    assert feared.seats[0].resources[2] == 1, "then the tablet"
    itemed, _ = act(state, Choose(0, f"hand:{hat}"))
    assert itemed.item_exile[-1] == hat
    skipped, _ = act(state, Choose(0, "skip"))
    assert skipped.seats[0].hand == (hat, FEAR_A) and skipped.seats[0].resources[2] == 1
    starter = with_player(game(2), 0, hand=(torch, 1), deck=())
    starter = run(starter, Play(0, torch), Choose(0, "hand:1"))
    assert starter.removed == (1,), "an exiled starting card leaves the game"
    assert kinds(act(state, Choose(0, "skip"))[1])[0] == "DecisionMade"
