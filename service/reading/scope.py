"""Whose games a figure of the analytics is over (``Scope``), and the SQL conditions that pick their rows.

A figure's rows come with the aliases of ``service.reading.catalogue``'s plans: ``pg`` a seat's row
(``rm_player_games``), ``g`` a game's (``rm_games``), ``tg`` the game of a seat's row when a tournament is asked
about.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# A table size, or several: the field compared with a player is the games at the player's own sizes.
Sizes = int | tuple[int, ...]


@dataclass(frozen=True)
class Conditions:
    """How a grain's rows are picked: by kind, finished, player, tournament (``?`` for a parameter), and the column
    holding the table size."""

    kind: str
    finished: str
    player: str
    tournament: str
    n_players: str


CONDITIONS = {
    "game": Conditions(
        kind="g.kind = ?",
        finished="g.status = 'over'",
        player="EXISTS (SELECT 1 FROM {p}rm_player_games pp WHERE pp.game_id = g.game_id AND pp.player_id = ?)",
        tournament="g.tournament_id = ?",
        n_players="g.n_players",
    ),
    "seat": Conditions(
        kind="pg.kind = ?",
        finished="pg.finished = 1",
        player="pg.player_id = ?",
        tournament="tg.tournament_id = ?",
        n_players="pg.n_players",
    ),
}


@dataclass(frozen=True)
class Scope:
    """The games of ``kind`` a figure is over: one player's (or the field's, ``player`` None), of one tournament
    (or every one), at some table sizes (or all), finished ones only (or, for an organiser, those in play too)."""

    kind: str
    player: str | None = None
    tournament: str | None = None
    n_players: Sizes | None = None
    finished_only: bool = True

    def filters(self, grain: str) -> tuple[list[str], list[Any]]:
        """The WHERE conditions keeping this scope's rows at ``grain`` (its rows come with ``pg``, or ``g`` for a
        game), and their parameters."""
        sql = CONDITIONS["game" if grain == "game" else "seat"]
        where: list[str] = [sql.kind]
        params: list[Any] = [self.kind]
        if self.finished_only:
            where.append(sql.finished)
        if self.player:
            where.append(sql.player)
            params.append(self.player)
        if self.tournament:
            where.append(sql.tournament)
            params.append(self.tournament)
        if self.n_players is not None:
            found = sizes(self.n_players)
            where.append(f"{sql.n_players} IN ({', '.join('?' * len(found))})")
            params.extend(found)
        return where, params

    def where(self, grain: str) -> tuple[str, list[Any]]:
        """``filters`` joined: the WHERE clause's text (without WHERE) and its parameters."""
        where, params = self.filters(grain)
        return " AND ".join(where), params

    def field_games(self, alias: str) -> tuple[list[str], list[Any]]:
        """The WHERE condition keeping a fact table's rows (``alias``) of the field's games (the player is not
        asked about): a semi-join with the games asked about (a few thousand rows) rather than a join of every
        fact row with its seat's row."""
        inner, params = Scope(self.kind, None, self.tournament, self.n_players, self.finished_only).where("game")
        return [f"{alias}.game_id IN (SELECT g.game_id FROM {{p}}rm_games g WHERE {inner})"], params

    def tournament_join(self, grain: str) -> str:
        """The join that gives a seat's (or a round's) rows their game's tournament labels (``tg``), when asked
        about a tournament."""
        return "" if grain == "game" or not self.tournament else " JOIN {p}rm_games tg ON tg.game_id = pg.game_id"


def sizes(n_players: Sizes) -> list[int]:
    """One table size, or several (a player's own: the field at the sizes they played), as a non-empty list."""
    found = [int(n_players)] if isinstance(n_players, int) else sorted({int(n) for n in n_players})
    return found or [0]  # no size at all keeps no game
