"""The replay's log for Arnak: the engine's own narration (``domain.arnak.describe``), which already says names
(cards, sites, camps, research spaces, guardians, assistants) and hides what its reader may not know. Nothing is
named or hidden here: these are the few shapes the dashboard reads the narration in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain.arnak import describe, event_from_dict
from domain.arnak import events as ev


def log_line(event: ev.Event, players: Sequence[str], seat: int | None = None, side: str = "bird") -> str:
    """One event as ``seat`` (``None``: the referee) reads it. ``side`` is kept for callers that pass the board
    side: the engine's lines read the same on both (the camps give the same on either board)."""
    return describe(event, players, seat)


def log_lines(
    events: Iterable[Mapping[str, Any]], players: Sequence[str], seat: int | None = None, side: str = "bird"
) -> list[str]:
    """The lines of a record's events (their JSON forms, as the store keeps them), without the 'X to act' lines
    the replay leaves out."""
    return [
        describe(event, players, seat)
        for event in (event_from_dict(dict(data)) for data in events)
        if not isinstance(event, ev.NextTurn)
    ]


def name_codes(line: str, side: str = "bird") -> str:
    """A line ``describe`` wrote, as the log shows it: as it is (the engine names its codes itself)."""
    return line
