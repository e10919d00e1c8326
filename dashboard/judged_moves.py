"""The judge's moves in the game's words, for the replay (``Data.replay_judgement``).

A judged move stores the move played and the best move found as the engine's action JSON (``rm_judged_moves``).
The replay names both as the play page offers a move to the seat that made it: the game's picker
(``Renderer.picker``, else ``dashboard.picker.plain_picker``: the engine's own words), given the mover's view and
legal actions at the position before the move, which the engine computes by replaying the records (with the move
itself where it is a crafted form the legal actions do not list). Nothing here
reads an action's fields: a move the picker does not offer is named by the engine (``str`` of its action).

Only a finished game is judged, so every position is public by then; the mover's view is used all the same, as the
move was chosen from it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from dashboard.games import renderer
from dashboard.picker import Picker, plain_picker
from domain.games import game
from service.reading.replays import states


def _same(action: Any) -> str:
    """An action as comparable text: the engine's JSON (tuples and lists alike), keys sorted."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def words(picked: Picker, action: Mapping[str, Any], rules: Any) -> str:
    """``action`` as ``picked`` (a picker over the position's legal actions) offers it: its kind of move when the
    picker has several, its words, and the cards it uses by their names."""
    wanted = _same(action)
    cards = {c["value"]: c["label"] for c in picked.cards}
    for choice in picked.choices:
        if wanted in {_same(choice.action), *(_same(a) for a in choice.alike)}:
            shown = choice.group and len(picked.groups) > 1 and not choice.label.startswith(choice.group)
            group = f"{choice.group}: " if shown else ""
            used = f" ({', '.join(cards.get(c, c) for c in choice.cards)})" if choice.cards else ""
            return f"{group}{choice.label}{used}"
    return str(rules.action_from_dict(action))  # (a move the picker does not lay out: the engine's words)


def judged_words(records: Sequence[dict[str, Any]], moves: Sequence[Mapping[str, Any]]) -> dict[int, dict[str, str]]:
    """For each judged move of ``moves`` (the stored judgement's, by the version it recorded): the move played and
    the best move found, in words, as ``{"played": ..., "best": ...}``."""
    wanted = {int(m["version"]): m for m in moves if m["judged"] and m["best"] is not None}
    if not wanted:
        return {}
    kind = str(records[0]["body"]["kind"])
    rules = game(kind).rules
    pick = renderer(kind).picker or plain_picker(kind)
    out: dict[int, dict[str, str]] = {}
    for at in states(records, 1, max(wanted) - 1, whole=True):  # the position before each judged move
        move = wanted.get(at.version + 1)
        if move is None:
            continue
        seat = int(move["seat"])
        legal = json.loads(_same([rules.action_to_dict(a) for a in rules.legal_actions(at.state, seat)]))
        # A game whose moves are crafted (``Game.craft_steps``: a play with a purchase) lists them uncrafted; the move
        # played or found may be a crafted form, offered to the picker beside them so that it names it too.
        offered = {_same(a) for a in legal}
        for which in ("played", "best"):
            if _same(move[which]) not in offered:
                offered.add(_same(move[which]))
                legal.append(move[which])
        picked = pick(rules.view(at.state, seat), legal, seat)
        out[at.version + 1] = {which: words(picked, move[which], rules) for which in ("played", "best")}
    return out
