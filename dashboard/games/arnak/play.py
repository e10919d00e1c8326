"""Arnak's move picker: choose the kind of action (dig, discover, overcome a guardian, buy, play a card,
research, ...), then its option, named with the cards, sites and spaces it uses and how it is paid for.

Every option is one of the engine's legal actions, only named here (``dashboard.picker``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dashboard.games.arnak.names import (
    assistant_label,
    card_name,
    guardian_label,
    option_label,
    short_research,
    site_label,
    space_label,
)
from dashboard.picker import Choice, Picker, merge_alike

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
        return f"Move the {action['token']} to {short_research(str(action['to']))}{first}"
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
        )
        for action in legal
    ]
    # Identical copies of a card (three Fear cards) make the same move: one option, saying so.
    return Picker(merge_alike(choices))
