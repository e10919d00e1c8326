"""The seed's setup (seeds/003_836fe449a5de806b.txt, "Setup"), sentence by sentence.

Every test quotes the seed sentence it checks; "reference:" marks a fact from shared/reference/arnak.md
and "design:" a choice of Digsite's (docs/rules/arnak.md).
"""

from __future__ import annotations

from collections import Counter

import pytest

from domain import arnak
from domain.arnak import events as ev
from domain.errors import SetupError
from tests.domain.arnak.helpers import BOOK, NAMES, game, res


def test_the_game_lasts_five_rounds() -> None:
    """'The game lasts five rounds.'"""
    assert BOOK.rounds == 5
    assert game().round == 1


def test_use_the_bird_temple_side_for_your_first_game() -> None:
    """'Use the bird temple side of the board for your first game; the snake temple is the advanced version.'
    design: the bird side is the default; the option ``side`` chooses."""
    assert game().side == "bird"
    assert arnak.new_game(NAMES[:2], {"side": "snake"}).side == "snake"
    with pytest.raises(SetupError, match="side"):
        arnak.new_game(NAMES[:2], {"side": "monkey"})


@pytest.mark.parametrize("n", [2, 3, 4])
def test_deal_1_artifact_left_of_the_moon_staff_and_5_items_right(n: int) -> None:
    """'Place the moon staff at the first position. Shuffle the artifact and item decks, then deal 1 artifact
    to the left of the moon staff and 5 items to the right.'"""
    state = game(n)
    assert len(state.artifact_row) == 1 and all(BOOK.card(c).kind == "artifact" for c in state.artifact_row)
    assert len(state.item_row) == 5 and all(BOOK.card(c).kind == "item" for c in state.item_row)
    assert len(state.artifact_deck) == 34 and len(state.item_deck) == 35
    other = game(n, seed="another")
    assert (state.item_row, state.item_deck) != (other.item_row, other.item_deck), "the decks are shuffled"


def test_put_the_fear_cards_out() -> None:
    """'Put the fear cards out.' Two go into each starting deck; the rest form the fear deck."""
    for n in (2, 3, 4):
        assert len(game(n).fear_deck) == 19 - 2 * n


def test_one_idol_face_up_on_each_level_1_site_two_on_each_level_2_site() -> None:
    """'Place 1 idol tile face up on each level 1 dig site, and 2 idol tiles — one face up, one face down — on
    each level 2 dig site.'"""
    state = game()
    levels = {loc.id: loc.level for loc in BOOK.boards["bird"].sites}
    assert Counter(len(site.idols) for site in state.sites if levels[site.id] == 1) == {1: 8}
    assert Counter(len(site.idols) for site in state.sites if levels[site.id] == 2) == {2: 4}
    placed = [i for site in state.sites for i in site.idols]
    assert len(set(placed)) == 16 == len(BOOK.idols)


@pytest.mark.parametrize(("n", "blocked"), [(2, 5), (3, 3), (4, 0)])
def test_block_spaces_by_player_count(n: int, blocked: int) -> None:
    """'2: Block all double-boot spaces; 3: Block 3 random double-boot spaces; 4: Use every space.'"""
    doubles = {s.id for loc in BOOK.boards["bird"].camps for s in loc.spaces if s.double_boot}
    for seed in range(4):
        state = game(n, seed)
        assert len(state.blocked) == blocked and set(state.blocked) <= doubles
    if n == 3:
        assert len({game(3, seed).blocked for seed in range(8)}) > 1, "3 random double-boot spaces"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_bonus_tiles_as_many_as_players_face_down_at_the_top_the_rest_face_up_in_their_spots(n: int) -> None:
    """'Randomly stack as many research bonus tiles as there are players, face down at the top of the track,
    then place the remaining bonus tiles face up in their spots. Some spaces are for 3-4 player games only.'
    reference A7: r1 and r3 and r5 spaces at any count, r6 at 3+, r2 and r4 at 4 players."""
    state = game(n)
    assert len(state.temple_bonus) == n
    spots = {2: 7, 3: 9, 4: 11}[n]
    assert len(state.research_bonus) == spots
    spaces = {space for space, _ in state.research_bonus}
    assert ("r6p0" in spaces) == (n >= 3) and ("r2p0" in spaces) == (n == 4)
    tiles = [t for _, t in state.research_bonus] + list(state.temple_bonus)
    assert len(set(tiles)) == len(tiles)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_stack_the_temple_tiles(n: int) -> None:
    """'Stack the temple tiles.' reference A7: six stacks, each with as many tiles as there are players."""
    assert game(n).temple_stacks == (n,) * 6


def test_shuffle_site_tiles_guardians_and_three_stacks_of_assistants_silver_side_up() -> None:
    """'Shuffle the level 1 and level 2 dig site tiles and the guardian tiles. Shuffle and place three stacks
    of assistants, silver side up.'"""
    a, b = game(seed=1), game(seed=2)
    assert sorted(a.site_stacks[0]) == list(range(1, 11)) and sorted(a.site_stacks[1]) == list(range(11, 17))
    assert sorted(a.guardian_stack) == list(range(1, 16))
    assert (a.site_stacks, a.guardian_stack) != (b.site_stacks, b.guardian_stack)
    assert len(a.assistant_stacks) == 3 and sorted(x for s in a.assistant_stacks for x in s) == list(range(1, 13))


def test_each_player_starts_at_the_start_of_the_track_with_two_funding_two_exploration_two_fear() -> None:
    """'Each player puts their notebook and magnifying glass at the start of the research track, takes a player
    board and their starting cards — two Funding, two Exploration and two Fear — shuffled face down, and places
    their archaeologist meeples on their board.'"""
    state = game(4)
    for seat, p in enumerate(state.seats):
        assert p.glass == p.notebook == "start"
        names = Counter(BOOK.card(c).name for c in p.cards())
        assert names == {"Funding": 2, "Exploration": 2, "Fear": 2}
        assert state.archaeologists_out(seat) == 0
    decks = [p.cards() for p in game(2, "x").seats] + [p.cards() for p in game(2, "y").seats]
    assert len(set(decks)) > 2, "shuffled"


def test_the_starting_player_and_starting_resources_by_turn_order() -> None:
    """'The starting player is whoever most recently visited somewhere they had never been. Distribute starting
    resources by turn order.' design: seat 0 starts (the table lists that player first)."""
    state = game(4)
    assert state.first_player == state.turn == 0
    assert [p.resources for p in state.seats] == [
        res(coin=2),
        res(coin=1, compass=1),
        res(coin=2, compass=1),
        res(coin=1, compass=2),
    ]


def test_a_round_starts_with_everyone_drawing_to_five() -> None:
    """reference A1 round structure: '1. Draw to 5 cards.'"""
    events = arnak.start(NAMES[:3], seed=5)
    drawn = [e for e in events if isinstance(e, ev.CardsDrawn)]
    assert [len(e.cards) for e in drawn] == [5, 5, 5]
    state = arnak.replay(events)
    assert all(len(p.hand) == 5 and len(p.deck) == 1 for p in state.seats)


def test_players_and_options_are_checked() -> None:
    """design: 1 (solo, against the rival) to 4 players; unknown options, and a difficulty outside solo, are refused."""
    with pytest.raises(SetupError):
        arnak.new_game([])
    with pytest.raises(SetupError):
        arnak.new_game(NAMES[:2], {"difficulty": 2})
    with pytest.raises(SetupError):
        arnak.new_game(["Ana"], {"difficulty": 6})
    with pytest.raises(SetupError):
        arnak.new_game((*NAMES, "Eva"))
    with pytest.raises(SetupError):
        arnak.new_game(NAMES[:2], {"expansion": True})
