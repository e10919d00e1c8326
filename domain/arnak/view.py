"""What one seat may see, or the referee (seat ``None``): the only way hidden information leaves the engine.

Hidden from a seat, as at the table: the other hands (their sizes show), every deck's order and contents
(sizes only: the seat's own deck too, face down), the face-down idols on Level II sites, which idols another
seat holds (its supply and its idol slots lie face down on its board: their sizes show), the site-tile,
guardian, item, artifact and fear stacks, the assistants under each stack's top, the face-down temple bonus
tiles, another seat's pending options, and the seed until the game is over. Public: play areas, resources,
archaeologists, the card row and exile piles, discovered sites and their guardians, research tokens and
face-up bonus tiles, assistants, guardians overcome, idol slots used, scores.
"""

from __future__ import annotations

from typing import Any

from domain.arnak.components import RESOURCES, book
from domain.arnak.plain import to_plain
from domain.arnak.state import GameState, Player

HIDDEN = "hidden"  # what a seat reads in place of a fact hidden from it


def _card(card_id: int) -> dict[str, Any]:
    c = book().card(card_id)
    return {"id": c.id, "name": c.name, "kind": c.kind, "cost": c.cost, "travel": list(c.travel), "vp": c.vp}


def _player(state: GameState, seat: int, p: Player, sees_all: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": seat,
        "name": state.players[seat],
        "colour": p.colour,
        "hand": {"count": len(p.hand)},
        "deck": {"count": len(p.deck)},
        "play_area": [_card(c) for c in p.play_area],
        "resources": dict(zip(RESOURCES, p.resources, strict=True)),
        # Idols sit face down on a player board (seed): only their holder knows which, a face-down idol of a
        # Level II site included (its identity never mattered to play); the others see how many and where.
        "idols": {"count": len(p.idols)},
        "idol_slots": list(p.slots) if sees_all else [HIDDEN] * len(p.slots),
        "guardians": [{"id": g, "boon_used": g in p.boons_used} for g in p.guardians],
        "assistants": [to_plain(a) for a in p.assistants],
        "glass": p.glass,
        "notebook": p.notebook,
        "temple_place": p.temple_place,
        "temple_tiles": list(p.temple_tiles),
        "fear_tiles": p.fear_tiles,
        "travel": list(p.travel),
        "passed": p.passed,
        "archaeologists_out": state.archaeologists_out(seat),
    }
    if sees_all:
        out["hand"]["cards"] = [_card(c) for c in p.hand]
        out["idols"]["ids"] = list(p.idols)
    return out


def sites(state: GameState) -> list[dict[str, Any]]:
    """The sites as every seat sees them (the view's ``sites``)."""
    return [
        {
            "id": site.id,
            "tile": site.tile,
            "face_up_idol": site.idols[0] if site.idols else None,
            "face_down_idols": len(site.idols[1:]),
            "guardian": site.guardian,
        }
        for site in state.sites
    ]


def view(state: GameState, seat: int | None = None) -> dict[str, Any]:
    """A JSON-ready picture of the game as ``seat`` sees it (``None``: the referee sees everything)."""
    referee = seat is None
    over = state.outcome is not None
    pending = state.pending
    out: dict[str, Any] = {
        "game": "arnak",
        "rules_version": state.rules_version,
        "viewer": "referee" if referee else seat,
        "side": state.side,
        "players": list(state.players),
        "round": state.round,
        "phase": state.phase,
        "first_player": state.first_player,
        "turn": state.turn,
        "main_done": state.main_done,
        "seats": [_player(state, s, p, referee or s == seat) for s, p in enumerate(state.seats)],
        "archaeologists": [{"space": space, "seat": s} for space, s in state.occupants],
        "blocked": list(state.blocked),
        "sites": sites(state),
        "camp_guardians": [{"camp": camp, "guardian": g} for camp, g in state.camp_guardians],
        "site_stacks": [len(s) for s in state.site_stacks],
        "guardian_stack": len(state.guardian_stack),
        "card_row": {
            "artifacts": [_card(c) for c in state.artifact_row],
            "items": [_card(c) for c in state.item_row],
        },
        "artifact_deck": len(state.artifact_deck),
        "item_deck": len(state.item_deck),
        "artifact_exile": list(state.artifact_exile),
        "item_exile": list(state.item_exile),
        "removed": list(state.removed),
        "fear_deck": len(state.fear_deck),
        "research_bonus": [{"space": space, "tile": tile} for space, tile in state.research_bonus],
        "temple_bonus": len(state.temple_bonus),
        "temple_stacks": list(state.temple_stacks),
        "assistant_stacks": [
            {"top": stack[0] if stack else None, "count": len(stack)} for stack in state.assistant_stacks
        ],
        "rescue": {"count": len(state.rescue)},
        "rival": None
        if state.rival is None
        else {
            "seat": state.rival.seat,
            "tiles": list(state.rival.tiles),
            "stack": {"count": len(state.rival.stack)},
            "played": list(state.rival.played),
            "face_up_idols": list(state.rival.face_up_idols),
            "negative_idols": {"count": len(state.rival.negative_idols)},
            "cards": [_card(c) for c in state.rival.cards],
        },
        "pending": None,
        "outcome": None if state.outcome is None else to_plain(state.outcome),
    }
    _public_but_out_of_sight(state, out)
    if pending is not None:
        out["pending"] = {"seat": pending.seat, "kind": pending.kind}
        if referee or pending.seat == seat:
            out["pending"]["options"] = list(pending.options)
            # The rest of the effect the decision is part of: what a state drawn from the view needs to go on.
            out["pending"].update(
                then=pending.then,
                branches=list(pending.branches),
                card=pending.card,
                picks=pending.picks,
                optional=pending.optional,
            )
    if referee:
        out["stacks"] = {
            "decks": [list(p.deck) for p in state.seats],
            "idols": [list(p.idols) for p in state.seats],
            "site_idols": {site.id: list(site.idols) for site in state.sites},
            "site_tiles": [list(s) for s in state.site_stacks],
            "guardians": list(state.guardian_stack),
            "artifacts": list(state.artifact_deck),
            "items": list(state.item_deck),
            "fear": list(state.fear_deck),
            "temple_bonus": list(state.temple_bonus),
            "assistants": [list(s) for s in state.assistant_stacks],
            "rescue": list(state.rescue),
            "rival_stack": [] if state.rival is None else list(state.rival.stack),
            "rival_negative_idols": [] if state.rival is None else list(state.rival.negative_idols),
        }
    if referee or over:
        out["seed"] = state.seed
    return out


def _public_but_out_of_sight(state: GameState, out: dict[str, Any]) -> None:
    """What the table knows though it is not in sight, so that a state can be drawn from a view alone
    (``domain.arnak.sampling``): which cards each seat holds in hand and deck together (every card gained or lost
    is shown), the effects of this round's played cards, the seats still to choose what to keep at the round's
    end, and the assistants the rival took out of the game."""
    for s, p in enumerate(state.seats):
        out["seats"][s].update(
            hand_and_deck=sorted((*p.hand, *p.deck)),
            discover_discount=p.discover_discount,
            no_guardian_fear=p.no_guardian_fear,
            all_planes=p.all_planes,
        )
    out["keep_queue"] = list(state.keep_queue)
    out["assistants_out"] = list(state.assistants_out)


# An idol leaving or entering a player board, where it lies face down: which one is its holder's secret (a
# face-down idol of a Level II site is never shown; naming only the face-up ones would tell which is which).
IDOL_FROM_A_BOARD = frozenset({"IdolPlaced", "IdolUnslotted", "IdolDiscarded"})

# Decisions among cards only their seat has seen (drawn by Obsidian or Crystal Earring): the choice stays secret.
HIDDEN_CHOICES = frozenset({"keep_one", "put_back"})


def _count(value: list[Any]) -> dict[str, int]:
    return {"count": len(value)}


def redact_event(data: dict[str, Any], seat: int | None, game_over: bool) -> dict[str, Any]:
    """An event's JSON form as ``seat`` may read it (``None``: the referee reads everything)."""
    if seat is None:
        return data
    kind = data["type"]
    if kind == "GameStarted":
        data = {
            **data,
            "seats": [{**p, "deck": _count(p["deck"])} for p in data["seats"]],
            "sites": [{**s, "idols": [*s["idols"][:1], *(["hidden"] * len(s["idols"][1:]))]} for s in data["sites"]],
            "site_stacks": [_count(s) for s in data["site_stacks"]],
            "guardian_stack": _count(data["guardian_stack"]),
            "artifact_deck": _count(data["artifact_deck"]),
            "item_deck": _count(data["item_deck"]),
            "fear_deck": _count(data["fear_deck"]),
            "temple_bonus": _count(data["temple_bonus"]),
            "assistant_stacks": [{"top": s[0] if s else None, "count": len(s)} for s in data["assistant_stacks"]],
            "rescue": _count(data.get("rescue", [])),
        }
        if not game_over:
            data["seed"] = None
    elif kind == "CardsDrawn" and data["seat"] != seat:
        data = {**data, "cards": _count(data["cards"])}
    elif kind == "RivalStackShuffled":
        data = {**data, "order": _count(data["order"])}
    elif kind == "RivalIdolsTaken":
        data = {**data, "negative": ["hidden"] * len(data["negative"])}
    elif kind == "DeckRebuilt":
        data = {**data, "order": _count(data["order"])}
    elif kind == "IdolsTaken" and data["seat"] != seat:
        data = {**data, "idols": [*data["idols"][:1], *([HIDDEN] * len(data["idols"][1:]))]}
    elif kind in IDOL_FROM_A_BOARD and data["seat"] != seat:
        data = {**data, "idol": HIDDEN}
    elif kind == "DecisionPending" and data["pending"]["seat"] != seat:
        # Only who decides what: the options and the steps still to run may name cards in that seat's hand.
        pending = data["pending"]
        data = {
            **data,
            "pending": {"seat": pending["seat"], "kind": pending["kind"], "options": _count(pending["options"])},
        }
    elif kind == "DecisionMade" and data["seat"] != seat and data.get("kind") in HIDDEN_CHOICES:
        data = {**data, "option": "hidden"}
    elif kind == "CardReturnedToDeck" and data["seat"] != seat:
        data = {**data, "card": "hidden"}
    return data
