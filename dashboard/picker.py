"""The move picker's data: a game's legal actions (the engine's, through the service) laid out as a person picks
a move at the table, never a raw list of every combination.

A :class:`Picker` has up to three steps: the **kind** of move (``groups``; a game with one kind skips it), the
**cards** the move uses (``cards``: the pieces a person picks up, such as cards from the hand) and the
**option** among the legal actions that use exactly those cards (``choices``). Every choice carries one of the
engine's legal actions as it gave it: the page submits that action unchanged and the engine decides again
(``Digsite.submit``), so nothing here re-implements a rule; it only sorts and names what the engine offers.

A game's dashboard part may offer ``picker(view, legal, seat) -> Picker`` (``dashboard/games/<kind>/play.py``);
a game without one gets :func:`plain_picker`: every legal action in the engine's own words.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.games import game

PickerFn = Callable[[Mapping[str, Any], Sequence[Mapping[str, Any]], int], "Picker"]


@dataclass(frozen=True)
class Choice:
    """One legal action: its words, its kind of move, and the cards it uses (None: it uses none to pick)."""

    label: str
    action: Mapping[str, Any]
    group: str = ""
    cards: tuple[str, ...] | None = None
    # Other legal actions this choice stands for: the same move with an identical copy of a card (one of three
    # Fear cards), which a person cannot tell apart (``merge_alike``); the page plays ``action``.
    alike: tuple[Mapping[str, Any], ...] = ()
    # The things on the table this move is made with (the table's ``data-pick`` values: "card:12"), for a game
    # whose moves are picked on the table without picking cards first: a pick there offers the moves it marks.
    marks: tuple[str, ...] = ()

    def value(self) -> str:
        """The action as the page sends it back (the engine's own JSON, keys sorted)."""
        return json.dumps(self.action, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Picker:
    choices: list[Choice]
    cards: list[dict[str, str]] = field(default_factory=list)  # {"value", "label"}, in the order of the hand

    @property
    def groups(self) -> list[str]:
        return list(dict.fromkeys(c.group for c in self.choices))

    def to_dict(self) -> dict[str, Any]:
        return {
            "groups": self.groups,
            "cards": self.cards,
            "choices": [
                {
                    "label": c.label,
                    "value": c.value(),
                    "group": c.group,
                    "cards": None if c.cards is None else sorted(c.cards),
                    "marks": list(c.marks),
                }
                for c in self.choices
            ],
        }


def merge_alike(choices: Sequence[Choice], same: Callable[[Choice], Any] = lambda c: None) -> list[Choice]:
    """One choice for each set of choices that make the same move (the same words, kind and cards, and the same
    ``same(choice)``: for a game's picker, the move with its card ids replaced by what the cards show, so only
    identical copies of a card meet), saying how many it stands for."""
    merged: dict[Any, list[Choice]] = {}
    for choice in choices:
        merged.setdefault((choice.label, choice.group, choice.cards, same(choice)), []).append(choice)
    out = []
    for copies in merged.values():
        first = copies[0]
        if len(copies) == 1:
            out.append(first)
            continue
        out.append(
            Choice(
                f"{first.label} (any of {len(copies)} alike)",
                first.action,
                first.group,
                first.cards,
                tuple(c.action for c in copies[1:]),
                tuple(dict.fromkeys(m for c in copies for m in c.marks)),  # (any copy picked on the table)
            )
        )
    return out


def matching(picker: Mapping[str, Any], group: str | None, cards: Sequence[str] | None) -> list[dict[str, str]]:
    """The options offered for a kind of move and the cards picked (from ``Picker.to_dict``): a choice that
    uses cards only when exactly those are picked, a choice that uses none always. The play page applies the same
    rule in the browser (``digsite.playOptions``, dashboard/assets/callbacks.js), so picking a card needs no
    request."""
    picked = sorted(str(c) for c in cards or [])
    out = []
    for choice in picker.get("choices", []):
        if group is not None and picker.get("groups") and len(picker["groups"]) > 1 and choice["group"] != group:
            continue
        if choice["cards"] is not None and choice["cards"] != picked:
            continue
        out.append({"label": choice["label"], "value": choice["value"]})
    return out


def plain_picker(kind: str) -> PickerFn:
    """For a game without a picker of its own: one option per legal action, named as the engine names it."""
    rules = game(kind).rules

    def pick(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], seat: int) -> Picker:
        choices = []
        for action in legal:
            text = str(rules.action_from_dict(action))
            choices.append(Choice(text, action, group=str(action.get("type", ""))))
        return Picker(choices)

    return pick
