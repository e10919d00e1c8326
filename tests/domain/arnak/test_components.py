"""The printed components, as data, match the public reference's counts (shared/reference/arnak.md).

"Rules are data where the game prints them": every card, site, idol, guardian, assistant, research row,
bonus and temple tile is in ``domain/arnak/data/*.json``; these tests check the counts and values the
reference lists, and that every effect is written in the effect language the engine knows.
"""

from __future__ import annotations

from collections import Counter

from domain.arnak.components import RESOURCES, steps_of, steps_text
from domain.arnak.effects import OPS, supported
from tests.domain.arnak.helpers import BOOK, res

# Ops the data uses that the interpreter does not run yet: a card using one cannot be played (or, an
# artifact, bought) until it is built. Listed here so a new op in the data must be either built or named.
# Ops the data uses that the interpreter does not run yet: a card using one could not be played (or, an
# artifact, bought). Every op is built now; a new op in the data must be built or named here.
NOT_BUILT: set[str] = set()


NOT_PLAYABLE_YET: list[str] = []


def _ops(text: str) -> set[str]:
    out = set()
    for step in steps_of(text):
        out.add(step["op"])
        for option in step.get("options", ()):
            out |= _ops(steps_text(option))
    return out


def test_19_fear_cards_40_items_35_artifacts_and_four_colours_of_starting_cards() -> None:
    """Base components: '19 Fear cards, 40 items, 35 artifacts'; starting cards 0001-0016."""
    kinds = Counter(c.kind for c in BOOK.cards.values())
    assert kinds == {"fear": 19, "item": 40, "artifact": 35, "starter": 16}
    assert len(BOOK.fear_ids) == 19 and all(BOOK.card(f).vp == -1 for f in BOOK.fear_ids)


def test_item_and_artifact_costs_match_the_reference_counts() -> None:
    """'Item counts by cost: 7 at 1 coin, 13 at 2, 12 at 3, 8 at 4'; artifacts: '17 at 4 compasses, 13 at 3, 5 at 2'."""
    items = Counter(c.cost for c in BOOK.cards.values() if c.kind == "item")
    artifacts = Counter(c.cost for c in BOOK.cards.values() if c.kind == "artifact")
    assert items == {1: 7, 2: 13, 3: 12, 4: 8}
    assert artifacts == {4: 17, 3: 13, 2: 5}


def test_every_artifact_travels_by_plane_and_the_ocarina_has_two() -> None:
    """'Travel value is a plane for every artifact; Guardian's Ocarina has 2 planes.'"""
    for card in BOOK.cards.values():
        if card.kind == "artifact":
            assert set(card.travel) == {"plane"}
            assert len(card.travel) == (2 if card.name == "Guardian's Ocarina" else 1)


def test_starting_cards_two_funding_and_two_exploration_per_colour_by_car_and_ship() -> None:
    """'two Funding, two Exploration and two Fear'; each colour has Funding and Exploration by car and by ship."""
    assert len(BOOK.starter_ids) == 4
    for ids in BOOK.starter_ids.values():
        cards = [BOOK.card(c) for c in ids]
        assert sorted((c.name, c.travel) for c in cards) == [
            ("Exploration", ("car",)),
            ("Exploration", ("ship",)),
            ("Funding", ("car",)),
            ("Funding", ("ship",)),
        ]
        assert all(c.free for c in cards), "the starting cards' effects are free actions"


def test_guardians_15_with_the_reference_boons() -> None:
    """'The boons add up to 15: 3 ships, 3 cars, 2 planes, 5 exiles, 1 draw and 1 upgrade.'"""
    assert len(BOOK.guardians) == 15
    boons: Counter[str] = Counter()
    for g in BOOK.guardians.values():
        (step,) = steps_of(g.boon)
        boons[step["icons"][0] if step["op"] == "travel" else step["op"]] += 1
    assert boons == {"ship": 3, "car": 3, "plane": 2, "exile": 5, "draw": 1, "upgrade": 1}


def test_idols_16_site_tiles_10_and_6_bonus_tiles_18_assistants_12() -> None:
    """Base components: '16 idols', '10 Level I site tiles, 6 Level II site tiles', '18 research bonus tiles',
    '12 assistants'; idol rewards 3 coin, 3 compass, 3 tablet, 3 exile, 2 refresh, 2 upgrade."""
    assert Counter(i.kind for i in BOOK.idols.values()) == {
        "coin": 3,
        "compass": 3,
        "tablet": 3,
        "exile": 3,
        "refresh": 2,
        "upgrade": 2,
    }
    assert Counter(t.level for t in BOOK.site_tiles.values()) == {1: 10, 2: 6}
    assert Counter(t.kind for t in BOOK.bonus_tiles.values()) == {
        k: 3 for k in ("compass", "coin", "tablet", "draw", "exile", "upgrade")
    }
    assert len(BOOK.assistants) == 12


def test_bird_board_five_camps_of_two_spaces_eight_level_1_and_four_level_2_sites() -> None:
    """A2: 5 campsites (a 1-boot and a 2-boot space each); Bird Level I car, car, ship, ship twice;
    Level II 2 cars, 2 cars, 2 ships, 2 ships."""
    board = BOOK.boards["bird"]
    assert [[s.cost for s in c.spaces] for c in board.camps] == [[("boot",), ("boot", "boot")]] * 5
    level1 = [loc.spaces[0].cost for loc in board.sites if loc.level == 1]
    level2 = [loc.spaces[0].cost for loc in board.sites if loc.level == 2]
    assert level1 == [("car",), ("car",), ("ship",), ("ship",)] * 2
    assert level2 == [("car", "car"), ("car", "car"), ("ship", "ship"), ("ship", "ship")]
    assert BOOK.discover_compasses == {1: 3, 2: 6}


def test_bird_research_track_points_and_bridges() -> None:
    """A7 Bird Temple: VP per row 1/0, 2/1, 4/2, 6/4, 9/6, 12/8, 16/10; the Lost Temple 23/21/20/19."""
    track = BOOK.boards["bird"].track
    assert [track.vp[r] for r in range(7)] == [(1, 0), (2, 1), (4, 2), (6, 4), (9, 6), (12, 8), (16, 10)]
    assert track.temple_points == (23, 21, 20, 19)
    assert len(track.bridges) == 20
    start = {b.target: b.cost for b in track.bridges if b.source == "start"}
    assert start == {"r0p0": res(arrowhead=1, compass=1), "r0p1": res(jewel=1)}


def test_temple_tiles_six_stacks_and_idol_slots() -> None:
    """A7 temple tiles (2, 2, 2, 6, 6, 11 VP) and A6/second pass: slots worth 1, 2, 3, 4, five slot effects."""
    assert [t.vp for t in BOOK.temple_stacks] == [2, 2, 2, 6, 6, 11]
    assert BOOK.temple_stacks[5].cost == res(coin=1, tablet=2, jewel=1, compass=1, arrowhead=1)
    assert BOOK.idol_slot_vp == (1, 2, 3, 4)
    assert set(BOOK.idol_slot_options) == {"jewel", "arrowhead", "tablets", "coin_compass", "draw"}


def test_starting_resources_by_turn_order() -> None:
    """A1: 1st 2 coins; 2nd 1 coin 1 compass; 3rd 2 coins 1 compass; 4th 1 coin 2 compasses."""
    assert BOOK.starting_resources == (
        res(coin=2),
        res(coin=1, compass=1),
        res(coin=2, compass=1),
        res(coin=1, compass=2),
    )
    assert RESOURCES == ("coin", "compass", "tablet", "arrowhead", "jewel")


def test_every_effect_uses_only_known_ops() -> None:
    """Every printed effect is written in the effect language: each op is built, or listed as not built yet."""
    texts = [c.effect for c in BOOK.cards.values()]
    texts += [g.boon for g in BOOK.guardians.values()]
    texts += [a.silver for a in BOOK.assistants.values()] + [a.gold for a in BOOK.assistants.values()]
    texts += [t.effect for t in (*BOOK.idols.values(), *BOOK.site_tiles.values(), *BOOK.bonus_tiles.values())]
    texts += [o.effect for o in BOOK.idol_slot_options.values()]
    used = set().union(*(_ops(t) for t in texts))
    assert used <= set(OPS) | NOT_BUILT, used - set(OPS) - NOT_BUILT
    assert not (NOT_BUILT & set(OPS)), "an op is built: take it off NOT_BUILT"


def test_every_printed_effect_can_be_run() -> None:
    """Every card, assistant, idol, site tile, bonus tile and guardian boon is interpreted by the engine."""
    unbuilt = sorted(c.name for c in BOOK.cards.values() if c.kind in ("item", "artifact") and not supported(c.effect))
    assert unbuilt == sorted(NOT_PLAYABLE_YET), unbuilt
    assert all(supported(a.silver) and supported(a.gold) for a in BOOK.assistants.values())
    assert all(
        supported(t.effect) for t in (*BOOK.idols.values(), *BOOK.site_tiles.values(), *BOOK.bonus_tiles.values())
    )
    assert all(supported(g.boon) for g in BOOK.guardians.values())


def test_every_travel_icon_in_the_data_is_one_the_payment_rules_know() -> None:
    """'Airplane ... Buggy or ship ... a boot': the four icons; a card's icons and every 'travel' step use only them."""
    icons = {"boot", "car", "ship", "plane"}

    def travel_steps(text: str) -> set[str]:
        found: set[str] = set()
        for step in steps_of(text):
            found |= set(step.get("icons", ()))
            for option in step.get("options", ()):
                found |= travel_steps(steps_text(option))
        return found

    texts = [c.effect for c in BOOK.cards.values()] + [g.boon for g in BOOK.guardians.values()]
    texts += [a.silver for a in BOOK.assistants.values()] + [a.gold for a in BOOK.assistants.values()]
    assert set().union(*(travel_steps(t) for t in texts)) <= icons
    assert {i for c in BOOK.cards.values() for i in c.travel} == icons
    board = BOOK.boards["bird"]
    assert {i for s in board.spaces.values() for i in s.cost} | {
        i for g in BOOK.guardians.values() for i in g.travel
    } <= icons
