"""Ruins' move picker: pick ruins from your hand (as at the table, click the cards), then choose among the ways
the engine allows to play exactly those (the rank, the discoveries bought and claims sleeved with them), or
discard them, or flip one at the round start; passing and keeping every ruin on its day side need no card.

Every option is one of the engine's legal actions, only named here (``dashboard.picker``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dashboard.games.ruins.words import effect_label
from dashboard.picker import Choice, Picker


def ruin_label(ruin: Mapping[str, Any]) -> str:
    """A ruin as its card reads: the rank it counts as now, its side, and the other side's rank."""
    night = ruin.get("side") == "night"
    ranks = ruin.get("ranks") or [ruin.get("night_rank" if night else "day_rank")]
    shown = "any" if len(ranks) > 3 else "/".join(str(r) for r in ranks)
    other = f"day {ruin['day_rank']}" if night else f"night {ruin['night_rank']}"
    return f"{shown}{'☾' if night else '☀'} ({other}) · #{ruin['id']}"


def _market(view: Mapping[str, Any]) -> dict[int, Mapping[str, Any]]:
    return {int(slot["discovery"]): slot for slot in view.get("market", []) if slot.get("discovery") is not None}


def _play_label(action: Mapping[str, Any], market: Mapping[int, Mapping[str, Any]]) -> str:
    count = len(action["ruins"])
    words = [f"Play {'it' if count == 1 else f'these {count}'} as rank {action['rank']}"]
    for bought in action.get("purchases") or []:
        slot = market.get(int(bought["discovery"]), {})
        price = f", {slot['price']} torch{'es' if slot.get('price') != 1 else ''}" if "price" in slot else ""
        words.append(
            f"buy {effect_label(slot.get('effect'))} ({slot.get('position', '?')}{price}) onto #{bought['ruin']}"
        )
    for ruin in action.get("claims") or []:
        words.append(f"claim onto #{ruin}")
    return ", ".join(words)


def _crafting_marks(action: Mapping[str, Any]) -> tuple[str, ...]:
    """What a crafted play adds, as the table's ``data-pick`` values (``dashboard/games/ruins/table.py``): each
    discovery bought from the market, and the seat's claims for a claim sleeved; none for a play as it is."""
    bought = [f"discovery:{p['discovery']}" for p in action.get("purchases") or []]
    claims = [f"claim:{action['seat']}"] if action.get("claims") else []
    return (*bought, *claims)


def picker(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], seat: int) -> Picker:
    market = _market(view)
    choices: list[Choice] = []
    for action in legal:
        kind = action.get("type")
        if kind == "play":
            cards = tuple(str(r) for r in action["ruins"])
            choices.append(Choice(_play_label(action, market), action, cards=cards, marks=_crafting_marks(action)))
        elif kind == "discard":
            used = tuple(str(r) for r in action["ruins"])
            choices.append(Choice(f"Discard {'it' if len(used) == 1 else 'them'}", action, cards=used))
        elif kind == "flip" and action.get("ruin") is not None:
            choices.append(Choice("Flip it to its night side for good", action, cards=(str(action["ruin"]),)))
        elif kind == "flip":
            choices.append(Choice("Keep every ruin on its day side", action))
        elif kind == "pass":
            choices.append(Choice("Pass", action))
        else:  # a move this picker does not know yet: offered in the engine's words rather than hidden
            choices.append(Choice(str(kind), action))
    usable = {card for c in choices if c.cards for card in c.cards}
    ruins = {int(r["id"]): r for r in view.get("ruins", [])}
    hand: Mapping[str, Any] = next((h for h in view.get("hands", []) if h.get("seat") == seat), {})
    pickable = [
        {"value": str(r), "label": ruin_label(ruins[r]) if r in ruins else f"#{r}"}
        for r in hand.get("ruins", [])
        if str(r) in usable
    ]
    return Picker(choices, pickable)
