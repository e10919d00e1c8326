"""The read models' lists: tournaments, players and games, as the dashboard shows them (the API's pages by
cursor: ``service.reading.listing``). Read from the ``rm_*`` tables the projections keep (docs/projections.md)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, cast

from domain.games import GAMES
from service.reading import results
from service.reading.projections.facts import game_tables
from service.reading.read_db import ReadDatabase
from service.reading.standings import seats_sql

PLAYERS_FOUND = 30  # players a name search offers at most (type more of the name to narrow it)


class Lists:
    """Tournaments, players and games from the read models (``db``)."""

    def __init__(self, db: ReadDatabase) -> None:
        self.db = db

    def tournaments(self, finished_only: bool = False) -> list[results.TournamentListed]:
        """Every tournament with its number of games (finished ones only, with ``finished_only``) and of finished
        games (``finished``: what its tendencies are over), newest first. Only games of the tournament's own game
        count (as in its standings: ``service.reading.standings.SEATS_SQL``)."""
        over = " AND g.status = 'over'" if finished_only else ""
        rows = self.db.rows(
            "SELECT t.tournament_id, t.name, t.rounds, t.game, t.created_at, COUNT(g.game_id) AS games, "
            "COALESCE(SUM(CASE WHEN g.status = 'over' THEN 1 ELSE 0 END), 0) AS finished "
            "FROM {p}rm_tournaments t LEFT JOIN {p}rm_games g ON g.tournament_id = t.tournament_id "
            f"AND g.kind = t.game{over} "
            "GROUP BY t.tournament_id, t.name, t.rounds, t.game, t.created_at ORDER BY t.created_at DESC"
        )
        return cast(list[results.TournamentListed], rows)  # (the columns selected: a row's types are the SQL's)

    def tournament(self, tournament_id: str) -> results.TournamentRow | None:
        rows = self.db.rows(
            "SELECT tournament_id, name, rounds, game, created_at FROM {p}rm_tournaments WHERE tournament_id = ?",
            (tournament_id,),
        )
        return cast(results.TournamentRow, rows[0]) if rows else None  # (the columns selected)

    def tournament_seats(self, tournament_id: str, finished_only: bool = False) -> list[dict[str, Any]]:
        """Every seat of every game of a tournament (finished games only, with ``finished_only``): the game's
        round and table labels and status, the seat's player, name, place and score (the standings' input)."""
        return self.db.rows(seats_sql(finished_only), (tournament_id,))

    def tournament_rulings(self, tournament_id: str) -> list[dict[str, Any]]:
        """The organiser's rulings the tournament's standings apply: its penalties and its games' rulings, in the
        order they were made (``service.reading.standings.Rulings``)."""
        return self.db.rows(
            "SELECT subject_id, version, ruling, reason, details, at FROM {p}rm_rulings WHERE subject_id = ? OR "
            "subject_id IN (SELECT game_id FROM {p}rm_games WHERE tournament_id = ?) ORDER BY at, subject_id, version",
            (tournament_id, tournament_id),
        )

    def players(self, finished_only: bool = False, ids: Sequence[str] | None = None) -> list[results.PlayerRow]:
        """Every player with their finished games and wins (only those with a finished game, ``finished_only``);
        with ``ids``, only those players. The totals are kept on each player's row by the projection
        (``rm_players.games``, ``wins``): a page about one or two players reads their rows by key, however many
        games they and the store hold."""
        where, params = [], list(ids or ())
        if ids is not None:
            where.append(f"player_id IN ({', '.join('?' * len(params))})" if params else "1 = 0")
        if finished_only:
            where.append("games > 0")
        rows = self.db.rows(
            "SELECT player_id, name, kind, bot, games, wins FROM {p}rm_players"
            f"{' WHERE ' + ' AND '.join(where) if where else ''} ORDER BY name",
            params,
        )
        return _with_bots(rows)

    def find_players(
        self, text: str, finished_only: bool = False, limit: int = PLAYERS_FOUND
    ) -> list[results.PlayerRow]:
        """The players whose name contains ``text`` (in any case; ASCII's only on SQLite), the first ``limit``
        by name, with their finished games and wins (only those with a finished game, ``finished_only``): what a
        player picker offers as a name is typed. It reads the players' names in order (an index) and stops at the
        ``limit``-th match, and each match's totals from its own row: the list of every player grew with the store
        (95 ms at 30,000 games), and so did counting each match's games; a page's pickers must not."""
        pattern = "%" + "".join(f"\\{c}" if c in "\\%_" else c for c in text.strip()) + "%"
        like = "ILIKE" if self.db.backend == "postgresql" else "LIKE"  # (SQLite's LIKE ignores ASCII case)
        rows = self.db.rows(
            f"SELECT player_id, name, kind, bot, games, wins FROM {{p}}rm_players WHERE name {like} ? ESCAPE '\\'"
            f"{' AND games > 0' if finished_only else ''} ORDER BY name, player_id LIMIT ?",
            (pattern, int(limit)),
        )
        return _with_bots(rows)

    def games(
        self,
        kind: str | None = None,
        tournament: str | None = None,
        round_label: int | None = None,
        player: str | None = None,
        status: str | None = None,
        winner: str | None = None,
        since: str | None = None,
        until: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> results.GamesPage:
        """Games matching every filter given, newest first, with the total count for paging."""
        where, params = [], []
        for column, value in (
            ("kind", kind),
            ("tournament_id", tournament),
            ("round_label", round_label),
            ("status", status),
            ("winner_player", winner),
        ):
            if value is not None and value != "":
                where.append(f"g.{column} = ?")
                params.append(value)
        if player:
            where.append(
                "EXISTS (SELECT 1 FROM {p}rm_player_games pg WHERE pg.game_id = g.game_id AND pg.player_id = ?)"
            )
            params.append(player)
        if since:
            where.append("g.started_at >= ?")
            params.append(since)
        if until:
            where.append("g.started_at < ?")
            params.append(until)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        total = self.db.rows(f"SELECT COUNT(*) AS n FROM {{p}}rm_games g {clause}", params)[0]["n"]
        rows = self.db.rows(
            f"SELECT g.* FROM {{p}}rm_games g {clause} ORDER BY g.started_at DESC, g.game_id LIMIT ? OFFSET ?",
            [*params, int(limit), int(offset)],
        )
        return {"total": total, "rows": self._with_results(self._game_rows(rows))}

    def _with_results(self, rows: list[results.GameRow]) -> list[results.GameRow]:
        """Each seat's place and score (the game's points) beside its player, for the games list."""
        if not rows:
            return rows
        marks = ", ".join("?" * len(rows))
        seats = {
            (r["game_id"], r["seat"]): r
            for r in self.db.rows(
                f"SELECT game_id, seat, place, score FROM {{p}}rm_player_games WHERE game_id IN ({marks})",
                [row["game_id"] for row in rows],
            )
        }
        for row in rows:
            for player in row["players"]:
                found = seats.get((row["game_id"], player["seat"]), {})
                player["place"], player["score"] = found.get("place"), found.get("score")
        return rows

    def game_row(self, game_id: str) -> results.GameRow | None:
        rows = self.db.rows("SELECT * FROM {p}rm_games WHERE game_id = ?", (game_id,))
        return self._game_rows(rows)[0] if rows else None

    def _game_rows(self, rows: list[dict[str, Any]]) -> list[results.GameRow]:
        """Core rows with their JSON read, and each game's own per-game facts (its fact tables keyed by the game
        alone: Ruins' Showdown, how it was won) merged in; a column another game's rows have is None here.

        ``rounds`` (the rounds reached: the core's ``round`` unless the game's facts say otherwise) and
        ``win_how`` (how the game was won: its result's detail, where it says) are what the games list and the
        replay's title read."""
        own: dict[str, dict[str, Any]] = {}
        for kind in {row["kind"] for row in rows}:
            ids = [row["game_id"] for row in rows if row["kind"] == kind]
            for stored in per_game_tables(kind):
                marks = ", ".join("?" * len(ids))
                for fact in self.db.rows(f"SELECT * FROM {{p}}{stored} WHERE game_id IN ({marks})", ids):
                    own.setdefault(fact.pop("game_id"), {}).update(fact)
        others = {c for kind in GAMES for c in per_game_columns(kind)}
        for row in rows:
            row["players"] = json.loads(row["players"])
            row["winners"] = json.loads(row["winners"])
            detail = row["detail"] = json.loads(row["detail"]) if row["detail"] else {}
            how = detail.get("how")
            row.update(rounds=row["round"], win_how=how if isinstance(how, str) else None)
            row.update(own.get(row["game_id"], {}))
            for column in others:
                row.setdefault(column, None)
        return cast(list[results.GameRow], rows)  # (rm_games' columns, their JSON read, and the two above)

    def moves(self, game_id: str) -> list[results.MoveRow]:
        rows = self.db.rows("SELECT * FROM {p}rm_moves WHERE game_id = ? ORDER BY version", (game_id,))
        return cast(list[results.MoveRow], rows)  # (rm_moves' columns)


def per_game_tables(kind: str) -> list[str]:
    """The stored names of a game's fact tables with one row per game."""
    return [t.name for t in game_tables(kind).values() if not t.append and not t.table.key]


def per_game_columns(kind: str) -> list[str]:
    return [c.name for t in game_tables(kind).values() if not t.append and not t.table.key for c in t.table.columns]


def _with_bots(players: list[dict[str, Any]]) -> list[results.PlayerRow]:
    """Player rows with their bot's settings decoded (None for a person)."""
    for row in players:
        row["bot"] = json.loads(row["bot"]) if row["bot"] else None
    return cast(list[results.PlayerRow], players)  # (the columns selected)
