"""The seed's end of round, scoring and common mistakes (seeds/003_836fe449a5de806b.txt: "End of Round",
"How to Win", "Common Mistakes").

Every test quotes the seed sentence it checks; "reference:" marks a fact from shared/reference/arnak.md
and "design:" a choice of Digsite's (docs/rules/arnak.md).
"""

from __future__ import annotations

from dataclasses import replace

from domain.arnak import events as ev
from domain.arnak.actions import Buy, Choose, Dig, EndTurn, Pass, Payment, PlaceIdol, Play, Research
from domain.arnak.legal import legal_actions
from domain.arnak.scoring import outcome_of, score
from domain.arnak.state import GameState, HeldAssistant
from tests.domain.arnak.helpers import BOOK, act, card_named, game, rejected, res, run, with_player

FEAR_A = BOOK.fear_ids[-1]


def last_to_pass(state: GameState, seat: int = 0) -> GameState:
    """Everyone but ``seat`` has passed and it is ``seat``'s turn."""
    for other in range(state.n_players):
        if other != seat:
            state = with_player(state, other, passed=True)
    return replace(state, turn=seat, main_done=False)


def keep_all(state: GameState) -> GameState:
    while state.pending is not None and state.pending.kind == "keep":
        state, _ = act(state, Choose(state.pending.seat, "done"))
    return state


def test_archaeologists_return_and_one_beside_a_guardian_brings_a_fear_card() -> None:
    """'1. Return all archaeologists to your board. If one was at a site with a guardian, add a fear card to your play
    area.' (and 'If that guardian and your archaeologist are both still there at the end of the round, you gain a fear
    card.')"""
    state = game(2)
    site = state.site("L1-1")
    assert site is not None
    state = state.with_site(replace(site, tile=1, idols=(), guardian=4))
    state = replace(state, occupants=(("L1-1", 1), ("camp1a", 0)))
    top = state.fear_deck[0]
    state, events = act(last_to_pass(state), Pass(0))
    assert ev.FearGained(1, top) in events and not any(e == ev.FearGained(0, top) for e in events)
    assert state.occupants == ()
    state = keep_all(state)
    assert top in state.seats[1].deck, "the fear card went to the play area, and so under the deck"


def test_cards_still_in_hand_may_be_added_to_the_play_area_or_kept() -> None:
    """'2. Any cards still in hand may either be added to your play area or kept for next round.'"""
    state = game(2)
    hand0 = state.seats[0].hand
    state, _ = act(last_to_pass(state), Pass(0))
    assert state.pending is not None and state.pending.kind == "keep" and state.pending.seat == 0
    assert set(state.pending.options) == {"done", *(f"card:{c}" for c in hand0)}
    state = run(state, Choose(0, f"card:{hand0[0]}"), Choose(0, "done"))
    assert state.pending is not None and state.pending.seat == 1
    state = keep_all(state)
    assert state.round == 2
    assert set(hand0[1:]) <= set(state.seats[0].hand), "the kept cards are still in hand"
    assert len(state.seats[0].hand) == 5, "and the hand is drawn up to 5"


def test_the_play_area_is_shuffled_and_placed_at_the_bottom_of_the_deck() -> None:
    """'3. Shuffle everything in your play area and place it at the bottom of your deck.'"""
    state = with_player(game(2), 1, passed=True)
    old_deck = state.seats[0].deck
    state = run(state, Dig(0, "camp1a", Payment(state.seats[0].hand[:1])), Play(0, state.seats[0].hand[1]))
    played = state.seats[0].play_area
    state, events = act(run(state, EndTurn(0)), Pass(0))
    while state.pending is not None:
        state, more = act(state, Choose(state.pending.seat, "done"))
        events += more
    rebuilt = next(e for e in events if isinstance(e, ev.DeckRebuilt) and e.seat == 0)
    assert sorted(rebuilt.order) == sorted(played) and state.seats[0].play_area == ()
    drawn = next(e for e in events if isinstance(e, ev.CardsDrawn) and e.seat == 0)
    kept = 3  # of the 5 cards dealt, 2 went into the play area; 'done' kept the other 3 in hand
    assert drawn.cards == (*old_deck, *rebuilt.order)[: 5 - kept], "the old deck is drawn first: the rest is under it"


def test_assistants_are_refreshed_at_round_end() -> None:
    """'4. Refresh your assistants.'"""
    state = with_player(game(2), 1, assistants=(HeldAssistant(12, exhausted=True),))
    state = keep_all(run(last_to_pass(state), Pass(0)))
    assert state.seats[1].assistants == (HeldAssistant(12, exhausted=False),)


def test_the_cards_beside_the_moon_staff_are_exiled_the_staff_moves_and_the_row_refills() -> None:
    """'5. Exile the artifact and item beside the moon staff, move the moon staff one space right, and refill the card
    row.'"""
    state = game(2)
    artifact, items = state.artifact_row[0], state.item_row
    state = keep_all(run(last_to_pass(state), Pass(0)))
    assert state.round == 2
    assert state.artifact_exile == (artifact,) and state.item_exile == (items[0],)
    assert len(state.artifact_row) == 2 and state.item_row == items[1:], "round 2: 2 artifacts, 4 items"


def test_the_start_player_marker_passes_to_the_left() -> None:
    """'6. Pass the start player marker to the left.'"""
    state = keep_all(run(last_to_pass(game(3)), Pass(0)))
    assert state.round == 2 and state.first_player == state.turn == 1


def test_after_round_5_gain_guardian_fear_then_go_straight_to_scoring() -> None:
    """'After round 5, take back your archaeologists and gain any guardian fear cards, then skip the rest and go
    straight to scoring.'"""
    state = replace(game(2), round=5)
    site = state.site("L1-1")
    assert site is not None
    state = state.with_site(replace(site, tile=1, idols=(), guardian=4))
    state = replace(state, occupants=(("L1-1", 0),))
    state, events = act(last_to_pass(state), Pass(0))
    names = [type(e).__name__ for e in events]
    assert names[-3:] == ["FearGained", "ArchaeologistsReturned", "GameEnded"]
    assert state.outcome is not None and state.pending is None
    assert "DeckRebuilt" not in names and "RowRotated" not in names
    assert legal_actions(state, 0) == legal_actions(state, 1) == []


def test_score_the_full_breakdown() -> None:
    """'Score up: the value of each research token where it sits; temple tiles; idols (3 each) and uncovered idol slots;
    guardians overcome (5 each); items and artifacts; minus points for fear cards.'"""
    brush, chest = card_named("Brush"), card_named("Treasure Chest")  # 3 VP each
    state = with_player(
        game(2),
        0,
        hand=(brush,),
        deck=(1, 2, FEAR_A),
        play_area=(chest,),
        glass="r3p0",
        notebook="r1p1",
        temple_tiles=(0, 5),
        idols=(1, 2),
        slots=(3,),
        guardians=(4, 7),
        boons_used=(4,),
        fear_tiles=1,
    )
    s = score(state, 0)
    assert (s.research, s.temple_tiles, s.idols, s.idol_slots, s.guardians, s.cards, s.fear) == (
        6 + 1,
        2 + 11,
        9,
        2 + 3 + 4,
        10,
        6,
        -1 - 2,
    )
    assert s.total == 7 + 13 + 9 + 9 + 10 + 6 - 3


def test_most_points_wins() -> None:
    """'Most points wins.'"""
    state = with_player(game(3), 2, guardians=(1,))
    result = outcome_of(state)
    assert result.winners == (2,) and result.ranking[0] == 2


def test_ties_go_to_whoever_reached_the_temple_first() -> None:
    """'Ties go to whoever reached the temple first'."""
    state = with_player(game(2), 0, glass="temple", temple_place=1, temple_tiles=(0,))  # 21 + 2
    state = with_player(state, 1, glass="temple", temple_place=0)  # 23
    assert score(state, 0).total == score(state, 1).total
    assert outcome_of(state).winners == (1,) and outcome_of(state).ranking == (1, 0)


def test_ties_without_the_temple_go_to_the_player_furthest_along_the_research_track() -> None:
    """'if nobody did, to the player furthest along the research track.'"""
    base = game(2)
    brush = card_named("Brush")
    state = with_player(base, 0, glass="r2p0")
    state = with_player(state, 1, glass="r0p0", deck=(*state.seats[1].deck, brush))
    a, b = score(state, 0), score(state, 1)
    assert (a.research, b.research) == (4, 1) and a.total == b.total
    assert outcome_of(state).winners == (0,)
    even = with_player(base, 1, deck=base.seats[1].deck)
    assert outcome_of(even).winners == (0, 1), "every tie break even: a shared win"


def test_furthest_along_the_research_track_is_where_the_tokens_are_not_the_research_score() -> None:
    """'...to the player furthest along the research track': the seed's words, not the reference's "highest research
    score". Seat 0's glass is a row further up, seat 1 scores more research points with its notebook: seat 0 wins
    the tie; with the glasses level, the notebook further along decides."""
    base = game(2)
    state = with_player(base, 0, glass="r4p0", deck=(*base.seats[0].deck, card_named("Dog")))  # 9 + 1 VP
    state = with_player(state, 1, glass="r3p0", notebook="r3p1")  # 6 + 4
    a, b = score(state, 0), score(state, 1)
    assert (a.research, b.research) == (9, 10) and a.total == b.total
    assert outcome_of(state).winners == (0,)
    level = with_player(base, 0, glass="r3p1", notebook="r2p0")  # 6 + 2
    level = with_player(level, 1, glass="r3p2", notebook="r1p0", deck=(*base.seats[1].deck, card_named("Dog")))
    assert score(level, 0).total == score(level, 1).total and outcome_of(level).winners == (0,)


# --- common mistakes --------------------------------------------------------------------------------------------------


def test_common_mistake_passing_with_free_actions_unused() -> None:
    """'Passing with free actions unused. Once you pass you are done for the round — no free actions, no card effects,
    nothing.'"""
    state = run(game(2), Pass(0))
    state = replace(state, turn=0)
    rejected(state, Play(0, state.seats[0].hand[0]), "once you pass")
    rejected(with_player(state, 0, idols=(1,)), PlaceIdol(0, "draw"), "once you pass")


def test_common_mistake_leaving_an_archaeologist_with_a_guardian() -> None:
    """'Leaving an archaeologist with a guardian. If both are still there at end of round, that is a fear card.'"""
    state = game(2)
    site = state.site("L1-2")
    assert site is not None
    state = replace(state.with_site(replace(site, tile=2, idols=(), guardian=9)), occupants=(("L1-2", 0),))
    _, events = act(last_to_pass(state), Pass(0))
    assert sum(isinstance(e, ev.FearGained) and e.seat == 0 for e in events) == 1


def test_common_mistake_moving_the_notebook_past_the_magnifying_glass() -> None:
    """'Moving the notebook past the magnifying glass. It can never overtake.'"""
    state = with_player(game(2), 0, resources=res(jewel=1, arrowhead=1, tablet=1), glass="r0p0", notebook="r0p0")
    rejected(state, Research(0, "notebook", "r1p0"), "never move ahead")
    assert all(not (isinstance(a, Research) and a.token == "notebook") for a in legal_actions(state, 0))


def test_common_mistake_paying_an_artifacts_activation_cost_when_buying_it() -> None:
    """'Paying an artifact's activation cost when buying it. Buying an artifact resolves it for free; only playing one
    from hand costs tablets.'"""
    jar = card_named("Stone Jar")
    state = with_player(game(2), 0, resources=res(compass=2, tablet=1))
    state = replace(state, artifact_row=(jar,), artifact_deck=tuple(c for c in state.artifact_deck if c != jar))
    state, events = act(state, Buy(0, jar))
    assert state.seats[0].resources == res(tablet=1), "the tablet is untouched"
    assert not any(isinstance(e, ev.ResourcesChanged) and e.reason == "activation" for e in events)


def test_common_mistake_covering_idol_slots_carelessly() -> None:
    """'Covering idol slots carelessly. You lose the printed points of any slot you cover.'"""
    state = with_player(game(2), 0, idols=(1, 2))
    before = score(state, 0).total
    state = run(state, PlaceIdol(0, "arrowhead"))
    assert score(state, 0).total == before - 1, "the leftmost slot's 1 point is lost; the idol still scores 3"


def test_common_mistake_treating_research_points_as_cumulative() -> None:
    """'Treating research points as cumulative. Your score is where the tokens end up, not the sum of everything you
    passed.'"""
    assert score(with_player(game(2), 0, glass="r6p1"), 0).research == 16


def test_common_mistake_forgetting_guardians_do_not_block_digging() -> None:
    """'Forgetting guardians do not block digging. You can work a site you cannot yet defeat.'"""
    state = game(2)
    site = state.site("L1-1")
    assert site is not None
    state = state.with_site(replace(site, tile=3, idols=(), guardian=8))  # 4 coins to overcome
    car = next(c for c in state.seats[0].hand if BOOK.card(c).travel in (("car",), ("plane",)))
    assert Dig(0, "L1-1", Payment((car,))) in legal_actions(state, 0)
    state = run(state, Dig(0, "L1-1", Payment((car,))))
    assert state.occupant("L1-1") == 0


def test_an_archaeologist_at_a_camp_with_a_guardian_also_brings_fear() -> None:
    """'If one was at a site with a guardian, add a fear card' — a camp counts once Guardian's Crown put one there."""
    state = replace(game(2), camp_guardians=(("camp2", 6),), occupants=(("camp2a", 0),))
    _, events = act(last_to_pass(state), Pass(0))
    assert sum(isinstance(e, ev.FearGained) and e.seat == 0 for e in events) == 1
