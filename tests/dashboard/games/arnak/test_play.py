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
