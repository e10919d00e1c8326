"""What one seat may see, or the referee (seat ``None``): the only way hidden information leaves the engine.

Hidden from a seat: other hands (only their sizes show), the draw pile and discovery deck order (sizes
only), other seats' night-flip choices before the reveal, and the seed until the game is over. Public:
every ruin's side, sleeves and claim (all crafting and flips happen face up), the pile, the discards,
the market, torches, claims left and VP.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.ruins.caches import card_form, keep_card, profile
from domain.ruins.state import GameState


def ruin_card(state: GameState, card: int) -> dict[str, Any]:
    """``card`` as views draw it. Shared between views (``caches.card_form``): read it, never change it."""
    book = state.book
    ruin = state.ruins[card]
    set_aside = card in state.set_aside
    found = card_form(book, card, ruin, set_aside)
    if found is not None:
        return found
    printed = book.ruins[card]
    prof = profile(book, card, ruin)
    form = {
        "id": card,
        "side": "night" if ruin.night else "day",
        "day_rank": printed.day_rank,
        "night_rank": printed.night_rank,
        "ranks": sorted(prof.ranks),
        "counts_as": prof.weight,
        "sleeves": {pos: ruin.sleeves[i] for i, pos in enumerate(book.positions)},
        "claim": ruin.claim,
        "effects": [e.name for e in prof.effects],
        "set_aside": set_aside,
    }
    return keep_card(book, card, ruin, set_aside, form)


def view(state: GameState, seat: int | None = None) -> dict[str, Any]:
    """A JSON-ready picture of the game as ``seat`` sees it (``None``: the referee sees everything)."""
    book = state.book
    referee = seat is None
    over = state.outcome is not None
    chosen = dict(state.flip_choices)
    top = state.top
    hands: list[dict[str, Any]] = []
    for s, hand in enumerate(state.hands):
        entry: dict[str, Any] = {"seat": s, "count": len(hand)}
        if referee or s == seat:
            entry["ruins"] = list(hand)
        hands.append(entry)
    flips: list[dict[str, Any]] = []
    for s in state.participants if state.phase == "flip" else ():
        flip: dict[str, Any] = {"seat": s, "chosen": s in chosen}
        if s in chosen and (referee or s == seat):
            flip["ruin"] = chosen[s]
        flips.append(flip)
    out: dict[str, Any] = {
        "game": "ruins",
        "rules_version": book.version,
        "viewer": "referee" if referee else seat,
        "players": list(state.players),
        "round": state.round,
        "showdown": state.showdown,
        "participants": list(state.participants),
        "phase": state.phase,
        "turn": state.turn,
        "leader": state.leader,
        "vp": list(state.vp),
        "round_start_vp": list(state.round_start_vp),
        "torches": list(state.torches),
        "claims_left": list(state.claims_left),
        "market": [
            {
                "slot": i,
                "price": book.market_prices[i],
                "discovery": d,
                "position": None if d is None else book.discoveries[d].position,
                "effect": None if d is None else book.discoveries[d].effect,
            }
            for i, d in enumerate(state.market)
        ],
        "discovery_deck": {"count": len(state.discovery_deck)},
        "draw_pile": {"count": len(state.draw_pile)},
        "hands": hands,
        "pile": list(state.pile),
        "top": None if top is None else {"seat": top.seat, "rank": top.rank, "count": top.count},
        "passed_or_skipped": sorted(state.responded),
        "discard": list(state.discard),
        "flips": flips,
        "pending_discard": None if state.discarder is None else {"seat": state.discarder, "count": state.discard_count},
        "finish_order": list(state.finish_order),
        # Who went out when, last round: it breaks ties on VP for the next lead.
        "last_round_order": list(state.last_round_order),
        "ruins": [ruin_card(state, c) for c in range(len(state.ruins))],
        "outcome": None
        if state.outcome is None
        else {"winner": state.outcome.winner, "how": state.outcome.how, "round": state.outcome.round},
    }
    if referee:
        out["discovery_deck"]["order"] = list(state.discovery_deck)
        out["draw_pile"]["order"] = list(state.draw_pile)
    if referee or over:
        out["seed"] = state.seed
    return out


def redact_event(data: dict[str, Any], seat: int | None, game_over: bool) -> dict[str, Any]:
    """An event's JSON form as ``seat`` may read it (``None``: the referee reads everything).

    Hidden from a seat: the seed (until the game is over), the discovery deck order, other seats' dealt
    hands and the draw pile order (sizes only), another seat's secret night flip, and the ruins another
    seat draws. Everything else in the log is public.
    """
    if seat is None:
        return data
    kind = data["type"]
    if kind == "GameStarted":
        data = {**data, "discovery_deck": {"count": len(data["discovery_deck"])}}
        if not game_over:
            data["seed"] = None
    elif kind == "RoundDealt":
        data = {
            **data,
            "hands": [hand if s == seat else {"count": len(hand)} for s, hand in enumerate(data["hands"])],
            "draw_pile": {"count": len(data["draw_pile"])},
        }
    elif kind == "NightFlipChosen" and data["seat"] != seat:
        data = {**data, "ruin": "hidden"}
    elif kind == "RuinsDrawn" and data["seat"] != seat:
        data = {**data, "ruins": {"count": len(data["ruins"])}}
    return data


def redact_action(action: dict[str, Any], events: Sequence[dict[str, Any]], seat: int | None) -> dict[str, Any]:
    """A recorded action as ``seat`` may read it: another seat's secret night flip names no ruin."""
    if seat is None or action.get("seat") == seat or action.get("type") != "flip":
        return action
    return {**action, "ruin": "hidden"}
