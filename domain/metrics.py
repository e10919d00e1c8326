"""Analytics as one protocol for every game: facts per move from the engine, and a catalogue of the metrics and
dimensions the read models offer over them, with how each aggregates.

The engine says what a move shows about its player (``Analytics.move_facts``: pure, from the state before the
move, the action and its events); the read models add the facts up per player and game (``MoveFacts.counters``:
additive counts per seat), and a metric is always a ratio of two such sums over the rows it is asked about::

    value = SUM(product of numerator columns) / SUM(product of denominator columns)

(an empty product is 1: ``denominator=()`` counts the rows, i.e. the player's games). A ``Dimension`` is a column
the rows can be grouped or filtered by. The storage side (tables, SQL) belongs to the read models; a game's
catalogue names only columns of its own per-seat facts and the common ones (``COMMON_COLUMNS``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

State_contra = TypeVar("State_contra", contravariant=True)
Event_contra = TypeVar("Event_contra", contravariant=True)

# Per-seat columns every game's rows have, whatever its facts: moves, think time in ms, won (0/1).
COMMON_COLUMNS = ("moves", "think_ms", "won")


@dataclass(frozen=True, slots=True)
class Metric:
    """One tendency: ``SUM(numerator) / SUM(denominator)`` over a player's (or the field's) per-game rows."""

    name: str
    label: str
    numerator: tuple[str, ...]
    denominator: tuple[str, ...] = ()

    def columns(self) -> set[str]:
        return {*self.numerator, *self.denominator}


@dataclass(frozen=True, slots=True)
class Dimension:
    """A column rows may be grouped or filtered by, and at which grain it is recorded."""

    name: str
    label: str
    grain: Literal["game", "seat", "round", "move"]


class MoveFacts(Protocol):
    """What one move shows about the seat that made it."""

    @property
    def seat(self) -> int: ...

    @property
    def kind(self) -> str:
        """The kind of move (``"play"``, ``"pass"``...): one word per kind of action."""
        ...

    def counters(self) -> Mapping[str, int]:
        """Additive per-seat counts this move adds to (columns of the game's per-seat facts)."""
        ...


class Analytics(Protocol[State_contra, Event_contra]):
    """A game's analytics part: the facts of a move and the catalogue of what the read models offer.

    ``move_facts`` reads the action in its stored JSON form (the engine already accepted it when it was played, so
    the game may rebuild it without checking it again: the read models read every move ever played)."""

    @property
    def metrics(self) -> Sequence[Metric]: ...

    @property
    def dimensions(self) -> Sequence[Dimension]: ...

    def move_facts(
        self, before: State_contra, action: Mapping[str, Any], events: Sequence[Event_contra]
    ) -> MoveFacts: ...
