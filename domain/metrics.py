"""Analytics as one protocol for every game: facts per move from the engine, the tables those facts fill, and a
catalogue of the metrics, breakdowns and dimensions the read models offer over them.

The engine says what a move shows about its player (``Analytics.move_facts``: pure, from the state before the
move, the action and its events). Facts land in two places:

* the **common rows** every game has (``rm_games``, ``rm_player_games`` with ``COMMON_COLUMNS``, ``rm_moves``),
  filled by the read models from the protocol alone (``GameRules.result``, the move's ``kind``, think time);
* the game's own **fact tables** (``Analytics.tables``), stored as ``rm_<kind>_<table.name>``, created by the
  game's own migrations (``migrations/<dialect>/<kind>/``) and filled from ``MoveFacts.rows()`` (and
  ``Analytics.opening_rows`` when a game is created). Each table says how a row written twice combines, column by
  column (``Column.combine``), so the writer needs no game knowledge.

A ``Metric`` is always a ratio of two sums over rows::

    value = SUM(product of numerator columns) / SUM(product of denominator columns)

(an empty product is 1: ``denominator=()`` counts the rows). The rows depend on the metric's grain:

* ``"seat"``: a player's games, one row per seat: the common per-seat columns (``COMMON_COLUMNS``) joined with
  the game's tables keyed by the seat alone (``key=(Column("seat"),)``, such as ``seats``) and by nothing (one
  row per game, such as a ``games`` table);
* ``"game"``: the games themselves, one row per game (a player's: the games they sat in), with the columns of
  the game's tables keyed by nothing: what happened in a game is counted once, not once per seat;
* ``"round"``: the rows of the game's ``rounds`` table (keyed by round and seat), shown per round.

How a metric is shown is the catalogue's word too: a ``share`` is a part of its denominator (a numerator row is
always a denominator row), shown as a percentage that can never exceed 100%; metrics of one ``group`` are shown
together, under the group's name, in catalogue order (the action mix, the score sheet, the results). Round-grain
metrics of one group that are all shares of the same denominator are parts of one whole, round by round (the
action mix per round): the pages stack them.

A ``Breakdown`` counts the rows of one fact table grouped by some of its columns (what was bought, by kind and
cost), with the average of some others. A ``Dimension`` is a column rows may be grouped or filtered by. A fact
table with a ``seat`` column (in its key or not) can be asked about one player. Storage (SQL) belongs to the
read models; nothing here touches it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

State_contra = TypeVar("State_contra", contravariant=True)
Event_contra = TypeVar("Event_contra", contravariant=True)

# Per-seat columns every game's rows have, whatever its facts: moves, think time in ms (a fraction: sub-millisecond
# moves count), finished and won (0/1), place (1 = first; ties share), score (the game's points at the end).
COMMON_COLUMNS = ("moves", "think_ms", "finished", "won", "place", "score")

# The table of a game's per-seat-per-game facts, and of its per-round-per-seat facts, when it has them.
SEAT_TABLE = "seats"
ROUND_TABLE = "rounds"

Combine = Literal["add", "set", "keep"]  # add: sum; set: the newest non-null value wins; keep: the first stays


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    type: Literal["int", "text", "real"] = "int"
    combine: Combine = "add"


@dataclass(frozen=True, slots=True)
class FactTable:
    """One of a game's fact tables, stored as ``rm_<kind>_<name>``: its key (after ``game_id``, which every fact
    table starts with) and its value columns. A row is ``(key values..., value columns...)`` in this order;
    rows with the same key combine per column. An ``append`` table's rows are never combined: each is a new
    one (a purchase, a claim), and the read models key it by the move that made it, storing ``version`` (the
    move's) and ``idx`` (the row's order among that move's rows of the table) after ``game_id``: its own
    ``key`` is then usually empty, a game's facts not knowing where the move is stored."""

    name: str
    key: tuple[Column, ...]
    columns: tuple[Column, ...]
    append: bool = False

    def column_names(self) -> tuple[str, ...]:
        return (*(c.name for c in self.key), *(c.name for c in self.columns))

    def key_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.key)

    def stored_columns(self) -> tuple[str, ...]:
        """Every column of the stored table, in order (what the game's migration creates)."""
        return ("game_id", *(("version", "idx") if self.append else ()), *self.column_names())


@dataclass(frozen=True, slots=True)
class Metric:
    """One tendency: ``SUM(numerator) / SUM(denominator)`` over a player's (or the field's) rows at its grain."""

    name: str
    label: str
    numerator: tuple[str, ...]
    denominator: tuple[str, ...] = ()
    grain: Literal["seat", "game", "round"] = "seat"
    share: bool = False  # a part of the denominator (0 to 1): shown as a percentage
    group: str = ""  # the section it is shown in, with the other metrics of the same group ("" : on its own)

    def columns(self) -> set[str]:
        return {*self.numerator, *self.denominator}


@dataclass(frozen=True, slots=True)
class Breakdown:
    """How often each combination of ``by`` columns occurs in the fact table ``table`` (one row = one occurrence)."""

    name: str
    label: str
    table: str
    by: tuple[str, ...]
    average: tuple[str, ...] = ()  # columns averaged per group (a purchase's price)


@dataclass(frozen=True, slots=True)
class Dimension:
    """A column rows may be grouped or filtered by, and at which grain it is recorded."""

    name: str
    label: str
    grain: Literal["game", "seat", "round", "move"]
    flag: bool = False  # a 0/1 fact (led round 1, a solo game), read "yes"/"no"; else its values are shown as they are


# One row for one fact table: (table name, the row in ``FactTable.column_names()`` order, without game_id).
FactRow = tuple[str, tuple[Any, ...]]


class MoveFacts(Protocol):
    """What one move shows about the seat that made it."""

    @property
    def seat(self) -> int: ...

    @property
    def kind(self) -> str:
        """The kind of move (``"play"``, ``"pass"``...): one word per kind of action (``rm_moves.kind``)."""
        ...

    @property
    def round(self) -> int:
        """The round the move was made in (``rm_moves.round``; 0 for a game without rounds)."""
        ...

    @property
    def summary(self) -> str:
        """A few words for the move list (``rm_moves.summary``): "play 3 ruins as 7", "dig at a level-2 site"."""
        ...

    def rows(self) -> Iterable[FactRow]:
        """The rows this move adds to the game's fact tables (combined per ``Column.combine``)."""
        ...


class Analytics(Protocol[State_contra, Event_contra]):
    """A game's analytics part: the facts of a move, the tables they fill and the catalogue over them.

    ``move_facts`` reads the action in its stored JSON form (the engine already accepted it when it was played, so
    the game may rebuild it without checking it again: the read models read every move ever played)."""

    @property
    def tables(self) -> Sequence[FactTable]: ...

    @property
    def metrics(self) -> Sequence[Metric]: ...

    @property
    def breakdowns(self) -> Sequence[Breakdown]: ...

    @property
    def dimensions(self) -> Sequence[Dimension]: ...

    def opening_rows(self, state: State_contra) -> Iterable[FactRow]:
        """The rows a game's opening state gives (Ruins: who leads round 1); often none."""
        ...

    def move_facts(
        self, before: State_contra, action: Mapping[str, Any], events: Sequence[Event_contra]
    ) -> MoveFacts: ...
