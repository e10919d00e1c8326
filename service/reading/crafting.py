"""The ways a seat may build a move up before making it (card crafting: upgrades bought and claims
sleeved with a play), as the engine answers them.

A game's legal actions list its moves without crafting (there would be too many); a game whose moves can be
crafted offers ``craft_options(state, action)`` on its rules: the actions made of ``action`` plus one more
crafting step, each still legal. ``crafted`` closes over those steps (a few deep), for the seat's own move at the
version it was shown, so a client can offer every crafted form of one move without knowing the rules. A game
without crafting answers nothing. Only the seat's own move is built up, from what the engine decides; nothing
here knows a game.
"""

from __future__ import annotations

import json
from typing import Any

from domain.errors import DomainError
from domain.games import game as game_of
from service.caller_values import parse_uuid
from service.commands.application import Digsite, Viewer
from service.errors import Forbidden, from_domain

MAX_STEPS = 3  # crafting steps added to one move (more is rare at a table, and the forms multiply)
MAX_FORMS = 60  # crafted forms of one move returned at most


def crafted(service: Digsite, game_id: str, viewer: Viewer, version: int, action: Any) -> list[dict[str, Any]]:
    """Every crafted form of ``action`` (the viewer's own legal move at ``version``), nearest first, without
    ``action`` itself; empty when the game has moved on from ``version``, the action is not legal, or the game
    has no crafting."""
    seat = viewer.seat
    if seat is None:
        raise Forbidden("moves are a seat's, not the organiser's", "seat_token_required")
    game = service.live.current(parse_uuid(game_id, "game"))
    rules = game_of(game.kind).rules
    craft = getattr(rules, "craft_options", None)
    if craft is None or game.version != version:
        return []
    try:
        parsed = rules.action_from_dict(action)
    except DomainError as error:
        raise from_domain(error) from None
    if getattr(parsed, "seat", None) != seat or parsed not in rules.legal_actions(game.state, seat):
        return []
    seen = {_key(rules.action_to_dict(parsed))}
    out: list[dict[str, Any]] = []
    frontier = [parsed]
    for _ in range(MAX_STEPS):
        following = []
        for move in frontier:
            for more in _crafts(craft, game.state, move):
                found = rules.action_to_dict(more)
                key = _key(found)
                if key in seen:
                    continue
                seen.add(key)
                out.append(found)
                following.append(more)
                if len(out) >= MAX_FORMS:
                    return out
        frontier = following
    return out


def _crafts(craft: Any, state: Any, move: Any) -> list[Any]:
    """The game's crafting steps for ``move``; a move of a kind that is never crafted (a pass, say) has none: a
    game's ``craft_options`` may take only the kinds it crafts, and refuse the others as a wrong type."""
    try:
        return list(craft(state, move))
    except (AttributeError, TypeError):
        return []


def _key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)
