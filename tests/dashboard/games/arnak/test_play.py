"""Arnak's move picker in words a person reads at the table: a decision's way out says what it does, identical
copies of a card are one option, and a payment counts its planes in plain English."""

from __future__ import annotations

from typing import Any

from dashboard.games.arnak.play import picker
from domain.arnak.names import book


def _keep(hand: list[int]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    view = {"side": "bird", "pending": {"seat": 0, "kind": "keep", "options": ["done", *(f"card:{c}" for c in hand)]}}
    legal = [{"type": "choose", "seat": 0, "option": o} for o in view["pending"]["options"]]
    return view, legal


def test_three_fear_cards_are_one_option_and_done_says_what_it_does() -> None:
    fear = list(book().fear_ids[:3])
    other = next(c for c, card in book().cards.items() if card.kind == "starter")
    view, legal = _keep([*fear, other])
    laid = picker(view, legal, 0)
    labels = [c.label for c in laid.choices]
    assert len(labels) == len(set(labels)) == 3, labels  # done, the Fear cards (one option), the other card
    (feared,) = [c for c in laid.choices if "Fear" in c.label]
    assert "3 alike" in feared.label and len(feared.alike) == 2  # it stands for the other two copies
    assert {feared.action["option"], *(a["option"] for a in feared.alike)} == {f"card:{c}" for c in fear}
    assert "done" not in labels and any(label.startswith("Done: keep the rest") for label in labels)
    assert any(label.startswith("Put ") and "into play" in label for label in labels)


def test_a_chartered_plane_is_counted_in_words() -> None:
    from dashboard.games.arnak.play import _paid

    assert _paid({"charter": 1}).endswith("1 chartered plane")
    assert _paid({"charter": 2}).endswith("2 chartered planes")
    assert "(s)" not in _paid({"charter": 1})


def test_cards_of_one_name_that_differ_are_told_apart_not_merged() -> None:
    """Two Funding cards, one with a car and one with a ship, are two different moves."""
    cards = book().cards
    fundings = [c for c, card in cards.items() if card.name == "Funding"]
    by_icons: dict[tuple[str, ...], int] = {}
    for c in fundings:
        by_icons.setdefault(cards[c].travel, c)
    assert len(by_icons) >= 2, "the test needs two Funding cards with different icons"
    pair = list(by_icons.values())[:2]
    view, legal = _keep(pair)
    laid = picker(view, legal, 0)
    funding = [c for c in laid.choices if "Funding" in c.label]
    assert len(funding) == 2 and len({c.label for c in funding}) == 2
    assert not any(c.alike for c in funding)
    for choice, card in zip(funding, pair, strict=True):
        assert all(icon in choice.label for icon in cards[card].travel)


def test_each_kind_of_move_is_marked_with_what_it_is_made_at() -> None:
    """Every move but ending the turn and passing is picked on the table at the thing it is made at (first), then
    the cards it is paid with; a decision's option at the thing it names, none for a number or an idol's reward."""
    from dashboard.games.arnak.play import _marks

    paid = {"cards": [7, 9], "travel": [], "charter": 0}
    assert _marks({"type": "dig", "seat": 0, "space": "L1-3", "payment": paid}) == ("space:L1-3", "card:7", "card:9")
    assert _marks({"type": "overcome", "seat": 0, "site": "L2-1", "payment": paid})[0] == "guardian-at:L2-1"
    assert _marks({"type": "buy", "seat": 0, "card": 12}) == ("card:12",)
    assert _marks({"type": "research", "seat": 0, "token": "glass", "to": "r3p1"}) == ("research:r3p1",)
    assert _marks({"type": "temple_tile", "seat": 0, "stack": 2}) == ("temple:2",)
    assert _marks({"type": "use_assistant", "seat": 0, "assistant": 4}) == ("assistant:4",)
    assert _marks({"type": "use_boon", "seat": 0, "guardian": 5}) == ("guardian:5",)
    assert _marks({"type": "place_idol", "seat": 1, "option": "coin_compass"}) == ("idols:1",)
    chosen = {"hand:3": "card:3", "site:L1-2": "location:L1-2", "stack:1": "stack:1", "glass>temple": "research:temple"}
    chosen |= {"tile>4": "temple:4", "9>2": "assistant:9", "camp1a>L1-4": "space:camp1a", "travel:car": "travel:car"}
    for option, mark in chosen.items():
        assert _marks({"type": "choose", "seat": 0, "option": option}) == (mark,), option
    for nameless in ("0", "done", "skip", "deck", "jewel"):
        assert _marks({"type": "choose", "seat": 0, "option": nameless}) == ()
    assert _marks({"type": "end_turn", "seat": 0}) == _marks({"type": "pass", "seat": 0}) == ()


def test_every_marked_move_of_a_solo_game_is_pickable_on_the_seats_table() -> None:
    """Over a solo game, each move the picker marks has its first mark drawn pickable (``data-pick``) on the
    seat's own table, so no marked move is out of reach; the unmarked ones are few kinds (offered under the
    table with nothing picked)."""
    import random
    import re

    from dashboard.games.arnak import draw_table, picker
    from dashboard.html_text import to_html
    from domain.arnak import apply
    from domain.games import game

    rules = game("arnak").rules
    state, rng = rules.new_game(["Solo"], None, 5), random.Random(5)
    unmarked, marked = set(), 0
    while rules.outcome(state) is None:
        seat = rules.to_act(state)[0]
        legal = rules.legal_actions(state, seat)
        view = rules.view(state, seat)
        frame = {"view": view, "players": ["Solo"], "to_act": [seat], "version": 1}
        drawn = set(re.findall(r'data-pick="([^"]+)"', to_html(draw_table(frame))))
        for choice in picker(view, [rules.action_to_dict(a) for a in legal], seat).choices:
            if choice.marks:
                assert choice.marks[0] in drawn, choice
                marked += 1
            else:
                unmarked.add(str(choice.action["type"]))
        state = apply(state, rng.choice(list(legal)))
    assert marked > 200 and unmarked <= {"end_turn", "pass", "choose"}, (marked, unmarked)
