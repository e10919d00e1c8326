"""The read side: what the dashboard (and any report) asks, answered from read models and snapshots.

Every function returns plain dicts and lists. Nothing here replays a game from its first event: lists
and tendencies come from the rm_* tables, a replay step from the nearest snapshot plus ``evolve``.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from collections import OrderedDict
from typing import Any
from uuid import UUID

import psycopg
from psycopg_pool import PoolTimeout

from domain.games import GAMES
from domain.games import game as game_of
from service.application import Digsite, Viewer
from service.store import StoreUnavailable

CONNECT_TIMEOUT_SECONDS = 2  # the read models' database is given up after this during an outage
READ_MODELS_UNREACHABLE = "the read models' database is unreachable; this page works again once it is back"
IDENTIFIER = re.compile(r"^[a-z][a-z0-9_]*$")


def _sum(columns: tuple[str, ...]) -> str:
    """SQL for the sum of a product of per-game columns (no columns: one per row, i.e. the row count)."""
    for column in columns:
        if not IDENTIFIER.match(column):  # catalogue names reach SQL: only plain column names
            raise ValueError(f"not a column name: {column!r}")
    return f"SUM({' * '.join(columns)})" if columns else "COUNT(*)"


def metrics(kind: str) -> dict[str, tuple[str, str, str]]:
    """A game's tendency metrics (its analytics catalogue) as name -> (numerator SQL, denominator SQL, label):
    rates are sums over a player's games. A game without analytics has none."""
    analytics = game_of(kind).analytics
    if analytics is None:
        return {}
    return {m.name: (_sum(m.numerator), _sum(m.denominator), m.label) for m in analytics.metrics}


class Queries:
    def __init__(self, service: Digsite, replay_cache: int = 64) -> None:
        self.service = service
        self.db = service.settings.database
        self._pool: Any = None
        self._sqlite_idle: list[sqlite3.Connection] = []  # a few connections shared by request threads
        self._sqlite_lock = threading.Lock()
        self._records: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()
        self._records_lock = threading.Lock()
        self._replay_cache = replay_cache
        self._progress: dict[str, tuple[list[dict[str, Any]], dict[str, Any]]] = {}
        self.prefix = f'"{self.db.schema}".' if self.db.backend == "postgresql" else ""

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
        with self._sqlite_lock:
            idle, self._sqlite_idle = self._sqlite_idle, []
        for conn in idle:
            conn.close()

    # -- plumbing -----------------------------------------------------------------------------------------

    def _rows(self, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> list[dict[str, Any]]:
        sql = sql.replace("{p}", self.prefix)
        if self.db.backend == "postgresql":
            if self._pool is None:
                from psycopg.rows import dict_row
                from psycopg_pool import ConnectionPool

                # During an outage a page must fail at once, not wait out the pool's 30 s: a short wait for a
                # connection, a short connect timeout, and each connection checked before use (after a restart
                # the idle ones are stale).
                self._pool = ConnectionPool(
                    self.db.psycopg_conninfo(),
                    min_size=1,
                    max_size=4,
                    kwargs={"row_factory": dict_row, "autocommit": True, "connect_timeout": CONNECT_TIMEOUT_SECONDS},
                    check=ConnectionPool.check_connection,
                    timeout=CONNECT_TIMEOUT_SECONDS,
                    open=False,
                )
                self._pool.open(wait=False)
            try:
                with self._pool.connection() as conn:
                    return list(conn.execute(sql.replace("?", "%s"), params).fetchall())
            except (psycopg.OperationalError, PoolTimeout) as error:
                raise StoreUnavailable(READ_MODELS_UNREACHABLE) from error
        # The dashboard's server runs each request in a new thread: borrow a connection, give it back.
        with self._sqlite_lock:
            conn = self._sqlite_idle.pop() if self._sqlite_idle else None
        if conn is None:
            conn = sqlite3.connect(self.db.path, check_same_thread=False)
            conn.row_factory = sqlite3.Row
        try:
            return [dict(row) for row in conn.execute(sql, params).fetchall()]
        finally:
            with self._sqlite_lock:
                if len(self._sqlite_idle) < 8:
                    self._sqlite_idle.append(conn)
                    conn = None
            if conn is not None:
                conn.close()

    # -- catalogues ---------------------------------------------------------------------------------------

    def tournaments(self, finished_only: bool = False) -> list[dict[str, Any]]:
        """Every tournament with its number of games (finished ones only, with ``finished_only``)."""
        over = " AND g.status = 'over'" if finished_only else ""
        return self._rows(
            "SELECT t.tournament_id, t.name, t.rounds, t.game, t.created_at, COUNT(g.game_id) AS games "
            f"FROM {{p}}rm_tournaments t LEFT JOIN {{p}}rm_games g ON g.tournament_id = t.tournament_id{over} "
            "GROUP BY t.tournament_id, t.name, t.rounds, t.game, t.created_at ORDER BY t.created_at DESC"
        )

    def players(self, finished_only: bool = False) -> list[dict[str, Any]]:
        """Every player with their finished games and wins (only those with a finished game, ``finished_only``)."""
        having = " HAVING COUNT(pg.game_id) > 0" if finished_only else ""
        rows = self._rows(
            "SELECT p.player_id, p.name, p.kind, p.bot, COUNT(pg.game_id) AS games, COALESCE(SUM(pg.won), 0) AS wins "
            "FROM {p}rm_players p LEFT JOIN {p}rm_player_games pg ON pg.player_id = p.player_id AND pg.finished = 1 "
            f"GROUP BY p.player_id, p.name, p.kind, p.bot{having} ORDER BY p.name"
        )
        for row in rows:
            row["bot"] = json.loads(row["bot"]) if row["bot"] else None
        return rows

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
    ) -> dict[str, Any]:
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
        total = self._rows(f"SELECT COUNT(*) AS n FROM {{p}}rm_games g {clause}", params)[0]["n"]
        rows = self._rows(
            f"SELECT g.* FROM {{p}}rm_games g {clause} ORDER BY g.started_at DESC, g.game_id LIMIT ? OFFSET ?",
            [*params, int(limit), int(offset)],
        )
        for row in rows:
            row["players"] = json.loads(row["players"])
            row["showdown"] = bool(row["showdown"])
        return {"total": total, "rows": rows}

    def game_row(self, game_id: str) -> dict[str, Any] | None:
        rows = self._rows("SELECT * FROM {p}rm_games WHERE game_id = ?", (game_id,))
        if not rows:
            return None
        row = rows[0]
        row["players"] = json.loads(row["players"])
        row["showdown"] = bool(row["showdown"])
        return row

    def moves(self, game_id: str) -> list[dict[str, Any]]:
        return self._rows("SELECT * FROM {p}rm_moves WHERE game_id = ? ORDER BY version", (game_id,))

    # -- replay -------------------------------------------------------------------------------------------

    def records(self, game_id: str) -> list[dict[str, Any]]:
        """A game's records (cached per game: a finished game never changes; a live one is re-read)."""
        with self._records_lock:
            cached = self._records.get(game_id)
        if cached and cached[-1]["type"] == "seed_revealed":
            return cached
        records = self.service.stored_records(game_id)
        if not records:
            return records
        with self._records_lock:
            self._records[game_id] = records
            self._records.move_to_end(game_id)
            while len(self._records) > self._replay_cache:
                self._records.popitem(last=False)
        return records

    def replay(self, game_id: str, version: int, seat: int | None = None, events: int | None = None) -> dict[str, Any]:
        """One frame: the table at ``version`` as the referee (seat None) or one seat saw it then, with the
        event log up to that point told from the same perspective. With ``events`` = k (fewer than the
        record holds) the frame stops after the record's first k events: stepping by event, not by move."""
        records = self.records(game_id)
        count = _event_count(records[version - 1]) if 1 <= version <= len(records) else 0
        partial = events is not None and 1 <= events < count
        game = self.service.game(game_id, Viewer(seat), version=version - 1 if partial and version > 1 else version)
        rules = game_of(game["kind"]).rules
        names = list(game["view"]["players"])  # every seat, with any the engine plays (a solo rival)
        if partial:
            assert events is not None
            state = self.service.app.repository.get(UUID(game_id), version=version - 1).state if version > 1 else None
            for data in _events_of(records[version - 1])[:events]:
                state = rules.evolve(state, rules.event_from_dict(data))
            game.update(version=version, view=rules.view(state, seat), to_act=rules.to_act(state))
            if seat is not None:
                game["legal_actions"] = []
        game["events_shown"] = events if partial else count
        game["event_count"] = count
        log = []
        for record in records[:version]:
            if record["type"] == "seed_revealed":
                log.append({"version": record["version"], "seat": None, "lines": ["The seed is revealed."]})
                continue
            shown = _events_of(record)
            if partial and record["version"] == version:
                shown = shown[:events]
            who = record["body"]["seat"] if record["type"] == "move" else None
            lines = [rules.describe(rules.event_from_dict(e), names, seat) for e in shown]
            log.append(
                {"version": record["version"], "seat": who, "lines": [x for x in lines if not x.endswith(" to act")]}
            )
        game["log"] = log
        return game

    def event_counts(self, game_id: str) -> list[int]:
        """How many events each version's record holds (index 0: version 1), for stepping by event."""
        return [_event_count(r) for r in self.records(game_id)]

    def progress(self, game_id: str) -> dict[str, Any]:
        """Every seat's name (with any seat the engine plays, like a solo rival) and, after every version (index 0:
        version 1), the round and every seat's points as the game counts them (``GameRules.progress``), by
        evolving the recorded events once; cached with the records (a finished game never changes)."""
        records = self.records(game_id)
        with self._records_lock:
            cached = self._progress.get(game_id)
        if cached is not None and cached[0] is records:
            return cached[1]
        rules = game_of(records[0]["body"]["kind"]).rules
        state = None
        points = []
        for record in records:
            for data in _events_of(record):
                state = rules.evolve(state, rules.event_from_dict(data))
            now = rules.progress(state)
            points.append({"round": now.round, "scores": list(now.scores)})
        found = {"names": list(rules.view(state)["players"]), "points": points}
        with self._records_lock:
            self._progress[game_id] = (records, found)
            while len(self._progress) > self._replay_cache:
                self._progress.pop(next(iter(self._progress)))
        return found

    def vp_timeline(self, game_id: str) -> dict[str, Any]:
        """Every seat's points after every version, and the round each version is in."""
        found = self.progress(game_id)
        points = found["points"]
        return {"names": found["names"], "vp": [p["scores"] for p in points], "round": [p["round"] for p in points]}

    def round_starts(self, game_id: str) -> dict[int, int]:
        """The first version of each round (for 'jump to round')."""
        starts: dict[int, int] = {}
        for version, point in enumerate(self.progress(game_id)["points"], start=1):
            starts.setdefault(point["round"], version)
        return starts

    # -- tendencies ---------------------------------------------------------------------------------------

    def _metric_sql(self, kind: str) -> str:
        return "".join(
            f", CAST({num} AS REAL) / NULLIF({den}, 0) AS {name}, {den} AS {name}_n"
            for name, (num, den, _) in metrics(kind).items()
        )

    def tendencies(self, player: str | None, kind: str, tournament: str | None = None) -> dict[str, Any]:
        """A player's tendencies (or the field's, player None) over finished games, with sample sizes."""
        where = ["pg.finished = 1", "pg.kind = ?"]
        params: list[Any] = [kind]
        if player:
            where.append("pg.player_id = ?")
            params.append(player)
        join = ""
        if tournament:
            join = " JOIN {p}rm_games g ON g.game_id = pg.game_id"
            where.append("g.tournament_id = ?")
            params.append(tournament)
        row = self._rows(
            f"SELECT COUNT(*) AS games{self._metric_sql(kind)} FROM {{p}}rm_player_games pg{join} "
            f"WHERE {' AND '.join(where)}",
            params,
        )[0]
        found = {
            name: {"value": row[name], "n": row[f"{name}_n"] or 0, "label": label}
            for name, (_, _, label) in metrics(kind).items()
        }
        return {"player": player, "games": row["games"], "metrics": found}

    def compare(self, player: str, kind: str, other: str | None = None) -> dict[str, Any]:
        """One player against another (or against the field)."""
        return {"player": self.tendencies(player, kind), "other": self.tendencies(other, kind)}

    def finishing_positions(self, player: str | None = None, finished_only: bool = False) -> list[dict[str, Any]]:
        where, params = _rounds_where(player, finished_only)
        return self._rows(
            f"SELECT round, place, COUNT(*) AS n FROM {{p}}rm_player_rounds {where} "
            "GROUP BY round, place ORDER BY round, place",
            params,
        )

    def vp_by_round(self, player: str | None = None, finished_only: bool = False) -> list[dict[str, Any]]:
        where, params = _rounds_where(player, finished_only, "vp_end IS NOT NULL")
        return self._rows(
            f"SELECT round, AVG(vp_end) AS vp, COUNT(*) AS n FROM {{p}}rm_player_rounds {where} "
            "GROUP BY round ORDER BY round",
            params,
        )

    def torches_by_round(self, player: str | None = None, finished_only: bool = False) -> list[dict[str, Any]]:
        where, params = _rounds_where(player, finished_only)
        return self._rows(
            f"SELECT round, AVG(torches_spent) AS torches, COUNT(*) AS n FROM {{p}}rm_player_rounds {where} "
            "GROUP BY round ORDER BY round",
            params,
        )

    def purchases(
        self, player: str | None = None, tournament: str | None = None, finished_only: bool = False
    ) -> list[dict[str, Any]]:
        """Discovery popularity: how often each effect was bought, at which position and price."""
        where: list[str] = [FINISHED_GAME.format(alias="p.")] if finished_only else []
        params: list[Any] = []
        if player:
            where.append("p.player_id = ?")
            params.append(player)
        join = ""
        if tournament:
            join = " JOIN {p}rm_games g ON g.game_id = p.game_id"
            where.append("g.tournament_id = ?")
            params.append(tournament)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        return self._rows(
            f"SELECT p.effect, p.effect_kind, p.position, COUNT(*) AS n, AVG(p.price) AS price "
            f"FROM {{p}}rm_purchases p{join} {clause} GROUP BY p.effect, p.effect_kind, p.position ORDER BY n DESC",
            params,
        )

    def claims(self, player: str | None = None) -> list[dict[str, Any]]:
        where, params = ("WHERE player_id = ?", (player,)) if player else ("", ())
        return self._rows(
            f"SELECT rank, sleeves, COUNT(*) AS n FROM {{p}}rm_claims {where} "
            "GROUP BY rank, sleeves ORDER BY rank, sleeves",
            params,
        )

    # -- aggregates ---------------------------------------------------------------------------------------

    def win_rate_by_seat(self, kind: str, tournament: str | None = None) -> list[dict[str, Any]]:
        where, params = ["pg.finished = 1", "pg.kind = ?"], [kind]
        join = ""
        if tournament:
            join = " JOIN {p}rm_games g ON g.game_id = pg.game_id"
            where.append("g.tournament_id = ?")
            params.append(tournament)
        return self._rows(
            f"SELECT pg.n_players, pg.seat, COUNT(*) AS games, CAST(SUM(pg.won) AS REAL) / COUNT(*) AS win_rate "
            f"FROM {{p}}rm_player_games pg{join} WHERE {' AND '.join(where)} GROUP BY pg.n_players, pg.seat "
            "ORDER BY pg.n_players, pg.seat",
            params,
        )

    def win_rate_by_first_leader(self, kind: str) -> list[dict[str, Any]]:
        return self._rows(
            "SELECT led_round1, COUNT(*) AS games, CAST(SUM(won) AS REAL) / COUNT(*) AS win_rate "
            "FROM {p}rm_player_games WHERE finished = 1 AND kind = ? GROUP BY led_round1 ORDER BY led_round1",
            (kind,),
        )

    def distributions(self, kind: str, tournament: str | None = None) -> dict[str, list[dict[str, Any]]]:
        """Final scores, game lengths in moves and rounds, and how games were won."""
        where, params = ["g.status = 'over'", "g.kind = ?"], [kind]
        if tournament:
            where.append("g.tournament_id = ?")
            params.append(tournament)
        clause = " AND ".join(where)
        return {
            "final_vp": self._rows(
                f"SELECT pg.final_vp AS value, COUNT(*) AS n FROM {{p}}rm_player_games pg JOIN {{p}}rm_games g "
                f"ON g.game_id = pg.game_id WHERE {clause} GROUP BY pg.final_vp ORDER BY pg.final_vp",
                params,
            ),
            "moves": self._rows(
                f"SELECT g.moves AS value, COUNT(*) AS n FROM {{p}}rm_games g WHERE {clause} "
                "GROUP BY g.moves ORDER BY g.moves",
                params,
            ),
            "rounds": self._rows(
                f"SELECT g.rounds AS value, SUM(g.showdown) AS showdowns, COUNT(*) AS n FROM {{p}}rm_games g "
                f"WHERE {clause} GROUP BY g.rounds ORDER BY g.rounds",
                params,
            ),
            "win_how": self._rows(
                f"SELECT g.win_how AS value, COUNT(*) AS n FROM {{p}}rm_games g WHERE {clause} GROUP BY g.win_how",
                params,
            ),
        }

    def trend(self, metric: str, tournament: str, player: str | None = None) -> list[dict[str, Any]]:
        """A tendency metric of the tournament's game per tournament round (the field's, or one player's)."""
        found = self._rows("SELECT game FROM {p}rm_tournaments WHERE tournament_id = ?", (tournament,))
        catalogue = metrics(found[0]["game"]) if found and found[0]["game"] in GAMES else {}
        if metric not in catalogue:
            raise ValueError(f"unknown metric {metric!r}; choose from {sorted(catalogue)}")
        num, den, _ = catalogue[metric]
        where, params = ["pg.finished = 1", "g.tournament_id = ?"], [tournament]
        if player:
            where.append("pg.player_id = ?")
            params.append(player)
        return self._rows(
            f"SELECT g.round_label AS round, CAST({num} AS REAL) / NULLIF({den}, 0) AS value, COUNT(*) AS n "
            f"FROM {{p}}rm_player_games pg JOIN {{p}}rm_games g ON g.game_id = pg.game_id "
            f"WHERE {' AND '.join(where)} GROUP BY g.round_label ORDER BY g.round_label",
            params,
        )


# Rows of finished games only (a game in play stays out of what spectators see); ``alias``: the table's, with its dot.
FINISHED_GAME = "{alias}game_id IN (SELECT fg.game_id FROM {{p}}rm_games fg WHERE fg.status = 'over')"


def _rounds_where(player: str | None, finished_only: bool, *extra: str) -> tuple[str, tuple[Any, ...]]:
    """The WHERE clause of an rm_player_rounds query: one player's rows or everyone's, finished games only or all."""
    where, params = list(extra), []
    if player:
        where.append("player_id = ?")
        params.append(player)
    if finished_only:
        where.append(FINISHED_GAME.format(alias=""))
    return (f"WHERE {' AND '.join(where)}" if where else ""), tuple(params)


def _events_of(record: dict[str, Any]) -> list[dict[str, Any]]:
    if record["type"] == "created":
        events: list[dict[str, Any]] = record["body"]["opening"]
        return events
    if record["type"] == "move":
        moved: list[dict[str, Any]] = record["body"]["events"]
        return moved
    return []


def _event_count(record: dict[str, Any]) -> int:
    return max(1, len(_events_of(record)))
