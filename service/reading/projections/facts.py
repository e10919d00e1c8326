"""Where each registered game's facts are stored, from its analytics part alone (``domain.metrics``).

A game's ``FactTable`` named ``name`` is the table ``rm_<kind>_<name>``: ``game_id``, then (an append table)
``version`` and ``idx``, then the table's key and value columns (``FactTable.stored_columns``). ``digsite db
upgrade`` creates it from the same declaration (``service.store.read_models``); the projection fills it and the
queries read it knowing no more than what is here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from operator import add
from typing import Any

from domain.games import GAMES
from domain.metrics import FactTable
from service.store.read_models import CORE, stored_name

# The generic core every game has (declared in service/store/read_models.py), in the order a clear empties them:
# the field's sums (service/reading/projections/field.py) first, the players last.
CORE_TABLES = tuple(t.name for t in reversed(CORE))


@dataclass(frozen=True, slots=True)
class StoredTable:
    """One fact table of one game: its stored name and how a row written twice combines."""

    kind: str
    table: FactTable
    name: str
    key_size: int  # columns of the row that are its key (after game_id)
    combine: Callable[[list[Any], tuple[Any, ...]], None]  # folds a row's values into the batch's

    append: bool  # each row a new one (``FactTable.append``)


def _add_all(acc: list[Any], values: tuple[Any, ...]) -> None:
    acc[:] = map(add, acc, values)  # (the loop in C: this runs for most moves)


def _combiner(table: FactTable) -> Callable[[list[Any], tuple[Any, ...]], None]:
    """The batch's fold of a table's values, as the upsert's SQL does it (see ``tables.upsert_sql``)."""
    modes = tuple(c.combine for c in table.columns)
    if all(m == "add" for m in modes):
        return _add_all

    def combine(acc: list[Any], values: tuple[Any, ...]) -> None:
        for i, (mode, v) in enumerate(zip(modes, values, strict=True)):
            if v is None:
                continue
            if mode == "add":
                acc[i] += v
            elif mode == "set" or acc[i] is None:  # set: the newest non-null; keep: the first non-null
                acc[i] = v

    return combine


@cache
def game_tables(kind: str) -> dict[str, StoredTable]:
    """The fact tables of a registered game, by their name in its analytics part (none without one)."""
    analytics = GAMES[kind].analytics
    if analytics is None:
        return {}
    return {
        t.name: StoredTable(kind, t, stored_name(kind, t.name), len(t.key), _combiner(t), t.append)
        for t in analytics.tables
    }


def every_game_table() -> list[StoredTable]:
    """Every registered game's fact tables, in registry order."""
    return [t for kind in GAMES for t in game_tables(kind).values()]


def all_tables() -> tuple[str, ...]:
    """Every read-model table: each game's fact tables, then the core's."""
    return (*(t.name for t in every_game_table()), *CORE_TABLES)
