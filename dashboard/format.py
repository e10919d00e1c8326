"""Small formatting helpers shared by the pages: names, dates, numbers (a game's own words live in its part)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

STATUS = {"over": "finished", "playing": "in play"}

DASH = "\u2013"  # an en dash: what a table shows for "no value"
TIMES = "\u00d7"  # a multiplication sign: "2 x rank 7" as people write it

_LIST = re.compile(r"\[([-\d, ]*)\]")


def when(iso: str | None) -> str:
    """An ISO timestamp as 'YYYY-MM-DD HH:MM' (UTC), or a dash."""
    if not iso:
        return DASH
    try:
        moment = datetime.fromisoformat(str(iso))
    except ValueError:
        return str(iso)
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%d %H:%M")


def number(value: float | int | None, digits: int = 2) -> str:
    if value is None:
        return DASH
    if isinstance(value, int) or float(value).is_integer():
        return str(int(value))
    return f"{value:.{digits}f}"


def percent(value: float | None) -> str:
    return DASH if value is None else f"{100 * value:.0f}%"


def ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def log_line(line: str) -> str:
    """The engine's narration with bracketed number lists written as plain lists ('VP 3, 5, 2')."""
    return _LIST.sub(lambda m: m.group(1) or "none", line)


def player_labels(players: Iterable[Mapping[str, Any]]) -> list[dict[str, str]]:
    """Dropdown options for players; a name shared by several players gets a short id to tell them apart."""
    players = list(players)
    counts: dict[str, int] = {}
    for p in players:
        counts[p["name"]] = counts.get(p["name"], 0) + 1
    options = []
    for p in players:
        games = p.get("games") or 0
        label = f"{p['name']} ({games} game{'s' if games != 1 else ''})"
        if counts[p["name"]] > 1:
            label = f"{p['name']} #{str(p['player_id'])[:6]} ({games} game{'s' if games != 1 else ''})"
        options.append({"label": label, "value": str(p["player_id"])})
    return options


def tournament_label(t: Mapping[str, Any]) -> str:
    return f"{t['name']} ({t['games']} game{'s' if t['games'] != 1 else ''})"
