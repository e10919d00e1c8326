"""Lists for the API (games, tournaments, players), read from the read models the projections keep
(``rm_games``, ``rm_tournaments``, ``rm_players``: docs/projections.md), a page at a time.

Paging is by cursor, not offset: a cursor names the last row of a page by its sort key, so a page never
repeats or skips a row when rows are added meanwhile, and a deep page costs what the first one does. A cursor
is opaque to clients (URL-safe base64 of the sort key). The read models follow the store a moment behind:
a new game is listed once the projections have seen it.

Reads go through the read port's connections to the read models (``service.reading.read_db``: they live beside
the events), so an outage is answered as every other request is: 503 ``store_unavailable``.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from typing import Any

from service.commands.results import Player, Tournament
from service.errors import BadRequest
from service.reading.read_db import ReadDatabase
from service.reading.results import GameSummary


@dataclass(frozen=True)
class Listing:
    """One list: its table, sort key (columns, newest or first first) and the filters it takes (name -> column)."""

    table: str
    key: tuple[str, str]  # (sort column, id column); both descending or both ascending
    descending: bool
    filters: dict[str, str]


GAMES = Listing(
    "rm_games",
    ("started_at", "game_id"),
    True,
    {"kind": "kind", "tournament": "tournament_id", "round": "round_label", "status": "status"},
)
TOURNAMENTS = Listing("rm_tournaments", ("created_at", "tournament_id"), True, {"game": "game"})
PLAYERS = Listing("rm_players", ("name", "player_id"), False, {"kind": "kind"})
GAME_COLUMNS = (
    "game_id, kind, tournament_id, round_label, table_label, n_players, players, status, moves, started_at, "
    "ended_at, last_version"
)


def encode_cursor(key: list[Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(key, separators=(",", ":")).encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> list[str]:
    try:
        key = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (ValueError, binascii.Error):
        key = None
    if not (isinstance(key, list) and len(key) == 2 and all(isinstance(k, str) for k in key)):
        raise BadRequest("this cursor was not given by this list: start again without one", "invalid_cursor")
    return key


def page(
    db: ReadDatabase,
    listing: Listing,
    filters: dict[str, Any],
    cursor: str | None,
    limit: int,
    player: str | None = None,
) -> tuple[list[dict[str, Any]], str | None]:
    """Up to ``limit`` rows matching every filter, after the row ``cursor`` names, and the cursor of the page
    after (None on the last page). ``player`` (games only) keeps the games that player holds a seat in."""
    table = "{p}" + listing.table
    sort, ident = listing.key
    where, params = [], []
    for name, column in listing.filters.items():
        if filters.get(name) is not None:
            where.append(f"{column} = ?")
            params.append(filters[name])
    if player is not None:
        where.append("players LIKE ?")
        params.append(f'%"{player}"%')  # narrowed exactly below (a name could hold the id too)
    if cursor is not None:
        after = decode_cursor(cursor)
        where.append(f"(COALESCE({sort}, ''), {ident}) {'<' if listing.descending else '>'} (?, ?)")
        params += after
    order = "DESC" if listing.descending else "ASC"
    columns = GAME_COLUMNS if listing is GAMES else "*"
    sql = (
        f"SELECT {columns} FROM {table}{' WHERE ' + ' AND '.join(where) if where else ''} "
        f"ORDER BY COALESCE({sort}, '') {order}, {ident} {order} LIMIT {int(limit) + 1}"
    )
    rows = db.rows(sql, tuple(params))
    more = len(rows) > limit
    rows = rows[:limit]
    following = encode_cursor([rows[-1][sort] or "", rows[-1][ident]]) if more else None
    if player is not None:
        rows = [r for r in rows if any(seat.get("id") == player for seat in json.loads(r["players"]))]
    return rows, following


def game_item(row: dict[str, Any]) -> GameSummary:
    return {
        "id": row["game_id"],
        "kind": row["kind"],
        "tournament": row["tournament_id"],
        "round": row["round_label"],
        "table": row["table_label"],
        "players": json.loads(row["players"]),
        "status": row["status"],
        "moves": row["moves"],
        "version": row["last_version"],
        "started_at": row["started_at"],
        "ended_at": row["ended_at"],
    }


def tournament_item(row: dict[str, Any]) -> Tournament:
    return {
        "id": row["tournament_id"],
        "name": row["name"],
        "rounds": row["rounds"],
        "game": row["game"],
        "options": None if row.get("options") is None else json.loads(row["options"]),
        "created_at": row["created_at"],
    }


def player_item(row: dict[str, Any]) -> Player:
    return {
        "id": row["player_id"],
        "name": row["name"],
        "kind": row["kind"],
        "bot": json.loads(row["bot"]) if row["bot"] else None,
        "created_at": row["created_at"],
    }
