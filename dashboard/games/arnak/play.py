"""Arnak's move picker: choose the kind of action (dig, discover, overcome a guardian, buy, play a card,
research, ...), then its option, named with the cards, sites and spaces it uses and how it is paid for.

Every option is one of the engine's legal actions, only named here (``dashboard.picker``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from dashboard.games.arnak.names import (
    TRAVEL_NAMES,
    assistant_label,
    card_name,
    guardian_label,
    option_label,
    research_label,
    site_label,
    space_label,
)
from dashboard.picker import Choice, Picker, merge_alike
from domain.arnak.components import book

GROUPS = {
    "dig": "Dig at a site",
    "discover": "Discover a new site",
    "overcome": "Overcome a guardian",
    "buy": "Buy a card",
    "play": "Play a card",
    "research": "Research",
    "temple_tile": "Take a temple tile",
    "use_assistant": "Use an assistant",
    "use_boon": "Use a guardian's boon",
    "place_idol": "Place an idol",
    "choose": "Decide",
    "pass": "Pass",
    "end_turn": "End the turn",
}


def _paid(payment: Mapping[str, Any] | None) -> str:
    if not payment:
        return ""
    parts = [card_name(int(c)) for c in payment.get("cards") or []]
    parts += [f"{t} (held)" for t in payment.get("travel") or []]
    if payment.get("charter"):
        planes = int(payment["charter"])
        parts.append(f"{planes} chartered plane{'s' if planes != 1 else ''}")
    return f", paying with {', '.join(parts)}" if parts else ", free"


def _label(action: Mapping[str, Any], side: str, decision: str = "") -> str:
    kind = action.get("type")
    if kind in ("dig", "discover"):
        return space_label(str(action["space"]), side) + _paid(action.get("payment"))
    if kind == "overcome":
        return site_label(str(action["site"])) + _paid(action.get("payment"))
    if kind in ("buy", "play"):
        return card_name(int(action["card"]))
    if kind == "research":
        first = " (row first)" if action.get("row_first") else ""
        # (the space too: a row may have two, with different bonuses)
        return f"Move the {action['token']} to {research_label(str(action['to']))}{first}"
    if kind == "temple_tile":
        return f"Temple stack {action['stack']}"
    if kind == "use_assistant":
        return assistant_label(int(action["assistant"]))
    if kind == "use_boon":
        return guardian_label(int(action["guardian"]))
    if kind == "choose":
        return _decision_label(str(action["option"]), side, decision)
    if kind == "place_idol":
        return option_label(str(action["option"]), side)
    return GROUPS.get(str(kind), str(kind))


# A decision's way out, in words for the decision it ends (the engine's option is a bare code: "done", "skip").
WAYS_OUT = {
    ("keep", "done"): "Done: keep the rest in hand for the next round",
    ("done", ""): "Done",
    ("skip", ""): "Skip it",
    ("none", ""): "None",
}
# A card option, per decision: what picking it does ("Funding" alone does not say it goes into play).
CARD_VERBS = {
    "keep": "Put {} into play",
    "discard": "Discard {}",
    "exile": "Exile {}",
    "put_back": "Put back {}",
    "keep_one": "Keep {}",
}


def _decision_label(option: str, side: str, decision: str) -> str:
    said = WAYS_OUT.get((decision, option)) or WAYS_OUT.get((option, ""))
    if said:
        return said
    words = option_label(option, side, decision)
    verb = CARD_VERBS.get(decision)
    if verb and option.partition(":")[0] in ("card", "hand", "play"):
        return verb.format(words)
    return words


def picker(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], seat: int) -> Picker:
    side = str(view.get("side", "bird"))
    pending = view.get("pending") or {}
    decision = str(pending.get("kind", "")) if pending.get("seat") == seat else ""
    choices = [
        Choice(
            _label(action, side, decision),
            action,
            group=GROUPS.get(str(action.get("type")), str(action.get("type"))),
            marks=_marks(action),
        )
        for action in legal
    ]
    # Identical copies of a card (three Fear cards) make the same move: one option, saying so; cards of one name
    # that differ (a Funding with a car, another with a ship) are told apart by their travel icons.
    return Picker(merge_alike(_told_apart(choices), same=lambda c: _faces(c.action)))


# What a decision's option names on the table, by its code's head (``card:12``, ``site:L1-3``...): the table's
# ``data-pick`` value of the thing picked to make it. An option naming nothing on the table (a number, an idol's
# reward, "done") has no mark: the play page offers it without a pick.
OPTION_MARKS = {"card": "card", "hand": "card", "play": "card", "site": "location", "space": "space"}
OPTION_MARKS |= {"assistant": "assistant", "stack": "stack", "travel": "travel"}


def _marks(action: Mapping[str, Any]) -> tuple[str, ...]:
    """What the move is made with on the table (the table's ``data-pick`` values, ``dashboard/games/arnak/table.py``),
    the thing it is made at first: the space dug or discovered (then the cards paid with), the guardian
    overcome, the card bought or played, the research space reached, the temple tile, the assistant or guardian
    used, the seat's idols placed, the thing a decision names. None for ending the turn or passing."""
    kind = action.get("type")
    paid = tuple(f"card:{c}" for c in (action.get("payment") or {}).get("cards") or [])
    if kind in ("dig", "discover"):
        return (f"space:{action['space']}", *paid)
    if kind == "overcome":
        return (f"guardian-at:{action['site']}", *paid)
    if kind in ("buy", "play"):
        return (f"card:{action['card']}",)
    if kind == "research":
        return (f"research:{action['to']}",)
    if kind == "temple_tile":
        return (f"temple:{action['stack']}",)
    if kind == "use_assistant":
        return (f"assistant:{action['assistant']}",)
    if kind == "use_boon":
        return (f"guardian:{action['guardian']}",)
    if kind == "place_idol":
        return (f"idols:{action['seat']}",)
    if kind == "choose":
        return _option_marks(str(action.get("option", "")))
    return ()


def _option_marks(option: str) -> tuple[str, ...]:
    """A decision's option as the thing it names on the table (see ``OPTION_MARKS``)."""
    before, arrow, after = option.partition(">")
    if arrow:  # a token to a research space, a temple tile, an assistant swapped, an archaeologist moved
        if before in ("glass", "notebook"):
            return (f"research:{after}",)
        if before == "tile":
            return (f"temple:{after}",)
        return (f"assistant:{before}",) if before.isdigit() else (f"space:{before}",)
    head, colon, rest = option.partition(":")
    if colon and head in OPTION_MARKS:
        return (f"{OPTION_MARKS[head]}:{rest}",)
    return ()


def _card_ids(action: Mapping[str, Any]) -> list[int]:
    """The cards an action names: the card played or bought, a decision's card, the cards paid with."""
    ids = [int(action["card"])] if isinstance(action.get("card"), int) else []
    head, _, rest = str(action.get("option", "")).partition(":")
    if head in ("card", "hand", "play") and rest.isdigit():
        ids.append(int(rest))
    payment = action.get("payment")
    if isinstance(payment, Mapping):
        ids += [int(c) for c in payment.get("cards") or []]
    return ids


def _face(card_id: int) -> tuple[Any, ...]:
    """What a card shows (two copies with the same face are interchangeable): all but its id and colour."""
    card = book().card(card_id)
    return (card.name, card.kind, card.cost, card.travel, card.vp, card.free, card.text)


def _faces(action: Mapping[str, Any]) -> str:
    """The action with each card it names replaced by the card's face (where a card option comes from kept)."""
    head, _, rest = str(action.get("option", "")).partition(":")
    option = head if head in ("card", "hand", "play") and rest.isdigit() else action.get("option")
    shown = {**action, "card": None, "option": option, "payment": None}
    payment = action.get("payment")
    if isinstance(payment, Mapping):  # what is paid besides cards (held travel icons, chartered planes) counts
        shown["payment"] = {k: v for k, v in payment.items() if k != "cards"}
    return repr((shown, [_face(c) for c in _card_ids(action)]))


def _told_apart(choices: list[Choice]) -> list[Choice]:
    """Choices worded alike whose cards differ get the travel icons of their cards in their words."""
    worded: dict[tuple[str, str], list[Choice]] = {}
    for choice in choices:
        worded.setdefault((choice.label, choice.group), []).append(choice)
    out = []
    for choice in choices:
        alike = worded[(choice.label, choice.group)]
        if len({_faces(c.action) for c in alike}) > 1:
            icons = ", ".join(
                "/".join(TRAVEL_NAMES.get(t, t) for t in book().card(c).travel) or "no icon"
                for c in _card_ids(choice.action)
            )
            if icons:
                choice = replace(choice, label=f"{choice.label} ({icons})")
        out.append(choice)
    return out
