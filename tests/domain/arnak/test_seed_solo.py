"""The seed's solo mode (seeds/003_836fe449a5de806b.txt, "Solo Mode"), with the reference's rival tiles (A9).

The rival's tiles and their arrows are data (``data/rival.json``); tile ids: 1-5 dig (coin, compass, tablet,
arrowhead, jewel), then green/red pairs: 6/7 discover, 8/9 research, 10/11 overcome, 12/13 buy an item, 14/15 buy an
artifact. The arrows are Digsite's choice (unknown in the sources): odd ids left, even ids right among the dig tiles,
and alternating in the pairs (``rival.json``).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from domain import arnak
from domain.arnak import events as ev
from domain.arnak.actions import Choose, EndTurn, Pass
from domain.arnak.rival import rival_book, tiles_for
from domain.arnak.scoring import outcome_of, score
from domain.arnak.state import GameState
from domain.errors import NotYourTurn
from tests.domain.arnak.helpers import BOOK, act, rejected, res, with_player

RIVAL = 1


def solo(seed: str | int = "solo", **options: object) -> GameState:
    return arnak.new_game(["Ana"], options, seed=seed)


def rival_plays(state: GameState, tile: int) -> tuple[GameState, list[ev.Event]]:
    """The human ends a turn (as if after a main action) and the rival reveals ``tile``."""
    assert state.rival is not None
    state = replace(state, rival=replace(state.rival, stack=(tile, *(t for t in state.rival.stack if t != tile))))
    return act(replace(state, main_done=True), EndTurn(0))


def test_you_play_against_an_automated_rival_driven_by_a_stack_of_action_tiles() -> None:
    """'You play against an automated rival driven by a stack of action tiles'."""
    state = solo()
    assert state.players == ("Ana", "Rival") and state.rival is not None and state.rival.seat == RIVAL
    assert len(state.rival.tiles) == 10 and arnak.to_act(state) == [0]
    rejected(state, Pass(RIVAL), "rival", NotYourTurn)
    assert arnak.legal_actions(state, RIVAL) == []


def test_set_up_a_two_player_game_and_give_yourself_a_gold_and_a_compass() -> None:
    """'Set up a two-player game and give yourself a gold and a compass, since you go second.' (reference A1: the
    solo human, playing 2nd, gets 1 coin and 1 compass)"""
    state = solo()
    assert state.seats[0].resources == res(coin=1, compass=1)
    assert len(state.blocked) == 5 and state.temple_stacks == (2,) * 6, "the two-player setup"


def test_the_rival_a_grey_board_six_archaeologists_only_the_glass_always_the_start_player() -> None:
    """'The rival takes a player board grey side up and all six remaining archaeologists, uses only the magnifying glass
    (keep the notebook in the box), and is always the start player.'"""
    state = solo()
    rival = state.seats[RIVAL]
    assert rival.colour == "grey" and rival.cards() == () and rival.resources == res()
    assert state.first_player == RIVAL
    events = arnak.start(["Ana"], None, "solo")
    names = [type(e).__name__ for e in events]
    assert names.index("RivalTileRevealed") > names.index("RivalStackShuffled") > names.index("RoundStarted")
    assert "NextTurn" in names[names.index("RivalTileRevealed") :], "the rival takes the first turn of round 1"
    for tile in (1, 2, 3):  # three digs in a row: more than a human's two archaeologists
        state, _ = rival_plays(state, tile)
    assert state.archaeologists_out(RIVAL) >= 3
    assert state.seats[RIVAL].notebook == "start"


def test_each_turn_reveal_and_resolve_a_rival_tile_then_take_your_own_turn() -> None:
    """'Each turn, reveal and resolve a rival action tile, then take your own turn. The rival does not pass until every
    action tile has been played.'"""
    state = solo()
    assert state.rival is not None and len(state.rival.played) == 1 and state.turn == 0
    state, events = rival_plays(state, 1)
    assert sum(isinstance(e, ev.RivalTileRevealed) for e in events) == 1 and state.turn == 0
    state, events = act(replace(state, main_done=False), Pass(0))
    revealed = [e for e in events if isinstance(e, ev.RivalTileRevealed)]
    assert len(revealed) == 8, "after the human passes, the rival plays all its remaining tiles, then passes"
    assert ev.Passed(RIVAL) in events and state.pending is not None and state.pending.kind == "keep"
    state, events = act(state, Choose(0, "done"))
    assert state.round == 2 and state.rival is not None and len(state.rival.played) == 1, "round 2: the rival first"


def test_the_rival_digs_the_topmost_site_with_a_matching_resource() -> None:
    """'it digs the topmost site with a matching resource' (reference A9: prefer the higher row, then the arrow)."""
    state = solo()
    state = replace(state, occupants=())
    site = state.site("L1-1")
    assert site is not None
    state = state.with_site(replace(site, tile=1, idols=()))  # 1 coin + 2 tablets
    state, _ = rival_plays(state, 1)  # coin
    assert state.occupant("L1-1") == RIVAL, "a discovered Level I site is above the camps"
    state, _ = rival_plays(state, 5)  # jewel: only the jewel camp
    assert state.occupant("camp5a") == RIVAL


def test_the_rival_digs_the_topmost_site_the_upper_row_of_level_1_before_the_lower() -> None:
    """'it digs the topmost site with a matching resource': a coin site open in both rows of Level I, and the tile's
    arrow pointing left (where the lower row's site lies in the board's order): the rival digs the upper row's."""
    state = replace(solo(), occupants=())
    for location in ("L1-1", "L1-5"):  # the lower row's first site, the upper row's first
        site = state.site(location)
        assert site is not None
        state = state.with_site(replace(site, tile=1, idols=()))  # 1 coin + 2 tablets
    assert rival_book().tiles[1].arrow == "left"
    after, _ = rival_plays(state, 1)  # coin
    assert after.occupant("L1-5") == RIVAL and after.occupant("L1-1") is None
    after, _ = rival_plays(replace(state, occupants=(("L1-5", 0),)), 1)
    assert after.occupant("L1-1") == RIVAL, "the upper row full: the next row down"


@pytest.mark.parametrize("tile", [6, 7])
def test_the_rival_discovers_nothing_on_round_5_whatever_the_tile(tile: int) -> None:
    """'discovers sites appropriate to the round (doing nothing on round 5)': the seed overrides the reference's red
    tile, which discovers a Level II site in round 5."""
    state = replace(solo(difficulty=1), round=5, occupants=())
    assert tile == 6 or rival_book().tiles[tile].rounds[4] is not None, "the reference's table has it discover"
    after, events = rival_plays(state, tile)
    assert {type(e).__name__ for e in events} <= {"RivalTileRevealed", "NextTurn"}
    assert after.sites == state.sites and after.occupants == state.occupants


@pytest.mark.parametrize(
    ("tile", "round_no", "level", "guardian"), [(6, 1, 1, True), (6, 2, 1, False), (7, 4, 2, True)]
)
def test_the_rival_discovers_sites_appropriate_to_the_round(
    tile: int, round_no: int, level: int, guardian: bool
) -> None:
    """'discovers sites appropriate to the round (doing nothing on round 5)' (reference A9 table)."""
    state = replace(solo(), round=round_no, occupants=())
    state, events = rival_plays(state, tile)
    (revealed,) = [e for e in events if isinstance(e, ev.SiteRevealed)]
    assert BOOK.site_tiles[revealed.tile].level == level
    assert any(isinstance(e, ev.GuardianAwakened) for e in events) == guardian
    taken = next(e for e in events if isinstance(e, ev.RivalIdolsTaken))
    assert len(taken.face_up) + len(taken.negative) == level


def test_the_rival_does_nothing_on_round_5_with_a_crossed_tile() -> None:
    """'(doing nothing on round 5)' (reference A9: the green discover, research, overcome and buy-item tiles)."""
    state = replace(solo(), round=5)
    for tile in (6, 8, 10, 12):
        _, events = rival_plays(state, tile)
        kinds = {type(e).__name__ for e in events}
        assert kinds <= {"RivalTileRevealed", "NextTurn"}, (tile, kinds)


def test_the_rival_advances_its_magnifying_glass_and_takes_an_assistant_out() -> None:
    """'advances its magnifying glass' (reference A9: free; remove a bonus tile unused; the top assistant of the highest
    stack leaves the game)."""
    state = with_player(solo(), RIVAL, glass="start")
    tallest = max(len(s) for s in state.assistant_stacks)
    state, events = rival_plays(state, 8)
    assert state.seats[RIVAL].glass in ("r0p0", "r0p1") and state.seats[RIVAL].resources == res()
    removed = [e for e in events if isinstance(e, ev.AssistantRemoved)]
    assert len(removed) == 1 and len(state.assistant_stacks[removed[0].stack]) == tallest - 1


def test_the_rival_overcomes_guardians_at_sites_it_occupies() -> None:
    """'overcomes guardians at sites it occupies' (reference A9: if none, it researches instead, taking no
    assistant)."""
    state = solo()
    site = state.site("L1-2")
    assert site is not None
    state = replace(state.with_site(replace(site, tile=2, idols=(), guardian=7)), occupants=(("L1-2", RIVAL),))
    after, events = rival_plays(state, 11)
    assert after.seats[RIVAL].guardians == (7,) and not any(isinstance(e, ev.ResearchMoved) for e in events)
    after, events = rival_plays(replace(state, occupants=()), 11)
    assert any(isinstance(e, ev.ResearchMoved) for e in events) and not any(
        isinstance(e, ev.AssistantRemoved) for e in events
    )


@pytest.mark.parametrize(("tile", "pick"), [(12, min), (13, max)])
def test_the_rival_buys_the_lowest_or_highest_value_card(tile: int, pick: object) -> None:
    """'buys the highest or lowest value card as its arrow dictates' (reference A9: green the lowest VP, red the
    highest, ties by the arrow)."""
    state = solo()
    vps = [BOOK.card(c).vp for c in state.item_row]
    after, events = rival_plays(state, tile)
    bought = next(e for e in events if isinstance(e, ev.CardBought))
    assert BOOK.card(bought.card).vp == pick(vps)  # type: ignore[operator]
    assert after.rival is not None and after.rival.cards == (bought.card,) and len(after.item_row) == 5


def test_a_decision_arrow_breaks_all_ties() -> None:
    """'A decision arrow breaks all ties.' Tiles 1 (left) and 2 (right) on the camps: the leftmost or rightmost camp."""
    rb = rival_book()
    assert (rb.tiles[1].arrow, rb.tiles[2].arrow) == ("left", "right")
    state = replace(solo(), occupants=())
    assert rival_plays(state, 2)[0].occupant("camp2a") == RIVAL, "the only compass camp"
    bought_left = next(e for e in rival_plays(state, 13)[1] if isinstance(e, ev.CardBought))
    best = max(BOOK.card(c).vp for c in state.item_row)
    assert bought_left.card == next(c for c in state.item_row if BOOK.card(c).vp == best), "left: the first of the ties"


def test_at_end_of_round_the_rival_returns_its_archaeologists_but_never_gains_fear() -> None:
    """'At end of round the rival returns its archaeologists but never gains fear cards.'"""
    state = solo()
    site = state.site("L1-1")
    assert site is not None
    state = replace(state.with_site(replace(site, tile=1, idols=(), guardian=3)), occupants=(("L1-1", RIVAL),))
    before = state
    state, events = act(state, Pass(0))
    assert not any(isinstance(e, ev.FearGained) and e.seat == RIVAL for e in events)
    returned = next(i for i, e in enumerate(events) if isinstance(e, ev.ArchaeologistsReturned))
    assert arnak.replay(events[: returned + 1], before).occupants == ()


def test_the_rival_scores_and_you_compare() -> None:
    """'The rival scores for its magnifying glass position, temple tiles, guardians overcome and cards purchased, plus
    3 points per unique face-up idol and 2 points for each idol in its negative stack. Score yourself normally and
    compare.'"""
    state = solo()
    assert state.rival is not None
    brush = next(c.id for c in BOOK.cards.values() if c.name == "Brush")  # 3 VP
    rival = replace(state.rival, face_up_idols=(1, 4), negative_idols=(2,), cards=(brush,))
    state = with_player(replace(state, rival=rival), RIVAL, glass="r2p0", guardians=(5,), temple_tiles=(1,))
    s = score(state, RIVAL)
    assert (s.research, s.temple_tiles, s.guardians, s.cards, s.idols) == (4, 2, 5, 3, 3 * 2 + 2 * 1)
    human = score(state, 0).total
    level = with_player(state, 0, temple_tiles=tuple([0] * ((s.total - human) // 2)))
    assert score(level, 0).total == s.total and outcome_of(level).winners == (RIVAL,), "its glass is further along"
    ahead = with_player(level, 0, guardians=(9,))
    assert outcome_of(ahead).winners == (0,)


def test_a_solo_tie_goes_by_the_tie_breaks_as_any_other() -> None:
    """'Score yourself normally and compare' with 'Ties go to whoever reached the temple first; if nobody did, to the
    player furthest along the research track': the seed's tie breaks, not the reference's 'the human wins only with
    a strictly higher score' (A9)."""
    state = with_player(solo(), 0, glass="r3p0")  # 6 research points, 10 for the open idol slots, -2 fear
    tied = with_player(state, RIVAL, glass="r2p0", guardians=(1, 2))  # 4 + 10
    assert score(tied, 0).total == score(tied, RIVAL).total == 14
    assert outcome_of(tied).winners == (0,), "the human's glass is a row further along"
    assert tied.rival is not None
    brush = next(c.id for c in BOOK.cards.values() if c.name == "Brush")  # 3 VP
    even = replace(with_player(tied, 0, glass="r2p0"), rival=replace(tied.rival, cards=(brush,)))
    even = with_player(even, RIVAL, guardians=(1,))  # 4 + 5 + 3
    assert score(even, 0).total == score(even, RIVAL).total == 12
    assert outcome_of(even).winners == (0, RIVAL), "every tie break even: a shared win"


def test_the_rival_buys_the_highest_or_lowest_value_card_as_its_arrow_dictates() -> None:
    """'buys the highest or lowest value card as its arrow dictates': the arrow, not the colour (the reference's
    reading), says which. The printed arrows are unknown (docs/rules/arnak.md, choice 20); in ``rival.json`` every
    buy tile's value follows its arrow, one way for all four: left the highest, right the lowest."""
    buys = [t for t in rival_book().tiles.values() if t.kind in ("buy_item", "buy_artifact")]
    assert len(buys) == 4 and {t.arrow for t in buys} == {"left", "right"}
    assert all(t.value == {"left": "highest", "right": "lowest"}[t.arrow] for t in buys)


def test_difficulty_is_the_number_of_red_tiles() -> None:
    """reference A9: 'Use 1 tile from each pair; difficulty 0-5 = the number of red tiles.'"""
    rb = rival_book()
    for difficulty in range(6):
        tiles = tiles_for(difficulty)
        assert len(tiles) == 10 and sum(rb.tiles[t].colour == "red" for t in tiles) == difficulty
    assert solo(difficulty=3).rival.tiles == tiles_for(3)  # type: ignore[union-attr]
