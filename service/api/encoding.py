"""The API's JSON: Flask's own encoder, with two speed tricks for the answers every seat gets at each turn.

- Keys keep the order the service built them in, not sorted: sorting halved the speed of encoding a seat's game
  (12 KB: 0.53 ms sorted, 0.26 ms not), which a seat's every turn pays (docs/performance.md, seat clients).
- A game may say that some lists of its seat views hold dicts its engine shares between views and never changes
  (``Game.shared_view_lists``: Ruins draws all 50 ruin cards in every view, and most are the very dicts the last
  view drew). The text of each such dict is kept here, by the dict's identity, and the list is written from those
  texts: encoding Ruins' cards was 150-250 us of a seat's 11 KB game (200-280 us in all), 8 to 10 % of the
  server's CPU per move under ``bench.seats`` (2026-12-02).

The bytes are exactly what ``json.dumps`` writes for the same answer: compact JSON is written piece by piece (a
list is ``[`` + its items' texts joined by ``,`` + ``]``), so a dict's text is the same wherever it stands. The
list is swapped for a marker (a string no answer holds: random for each process, and looked for exactly once)
in copies of the dicts above it, the answer is encoded, and the marker's text is replaced by the list's. Only
compact answers take this path (``indent`` would indent a dict by its depth): Flask's debug mode writes plainly.
The kept texts hold their dicts, so an identity is never reused while its text is kept; the shared dicts are
never changed (the game's promise; a test checks the bytes against ``json.dumps`` all the same).
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from flask.json.provider import DefaultJSONProvider

from domain.games import GAMES

COMPACT = (",", ":")
TEXTS_LIMIT = 20_000  # dict texts kept (Ruins keeps as many shared cards: domain/ruins/caches.py CARDS_LIMIT)
# Where a seat's game sits in an answer: the game itself (GET /games/<id>), ``game`` (the push channel's answer)
# or ``next`` then ``game`` (a move's answer with ``?wait``); the view names its game (``game``).
PATHS = (("view",), ("game", "view"), ("next", "game", "view"))


class AnswerJSON(DefaultJSONProvider):
    sort_keys = False

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self._texts: dict[int, tuple[dict[str, Any], str]] = {}
        self._marker = f"digsite-shared-{secrets.token_hex(16)}"

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        kwargs.setdefault("default", self.default)
        kwargs.setdefault("ensure_ascii", self.ensure_ascii)
        kwargs.setdefault("sort_keys", self.sort_keys)
        if kwargs.get("separators") != COMPACT or kwargs.get("indent") is not None or not isinstance(obj, dict):
            return json.dumps(obj, **kwargs)
        for path in PATHS:
            swapped = _swap(obj, path, self._marker)
            if swapped is not None:
                answer, shared = swapped
                break
        else:
            return json.dumps(obj, **kwargs)
        text = json.dumps(answer, **kwargs)
        parts = text.split(json.dumps(self._marker))
        if len(parts) != 2:  # (the marker elsewhere too: no answer holds it, but never guess)
            return json.dumps(obj, **kwargs)
        return parts[0] + "[" + ",".join([self._text(item, kwargs) for item in shared]) + "]" + parts[1]

    def _text(self, item: dict[str, Any], kwargs: dict[str, Any]) -> str:
        kept = self._texts.get(id(item))
        if kept is not None and kept[0] is item:
            return kept[1]
        text = json.dumps(item, **kwargs)
        if len(self._texts) >= TEXTS_LIMIT:
            self._texts.clear()
        self._texts[id(item)] = (item, text)
        return text


def _swap(obj: dict[str, Any], path: tuple[str, ...], marker: str) -> tuple[dict[str, Any], list[Any]] | None:
    """A copy of ``obj`` whose view at ``path`` has the marker for the list of shared dicts its game declares, and
    that list; None if there is no such view there (only the dicts on the path are copied)."""
    chain = [obj]
    for key in path:
        inner = chain[-1].get(key)
        if not isinstance(inner, dict):
            return None
        chain.append(inner)
    view = chain[-1]
    kind = view.get("game")
    found = GAMES.get(kind) if isinstance(kind, str) else None
    if found is None or len(found.shared_view_lists) != 1:  # (one list a view: what the marker stands for)
        return None
    key = found.shared_view_lists[0]
    shared = view.get(key)
    if not isinstance(shared, list) or not all(type(c) is dict for c in shared):
        return None
    out: dict[str, Any] = {**view, key: marker}
    for step, holder in zip(reversed(path), reversed(chain[:-1]), strict=True):
        out = {**holder, step: out}
    return out, shared
