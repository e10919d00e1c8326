"""The read side: what the dashboard (and any report) asks, answered from read models and snapshots.

Every function returns plain dicts and lists. Nothing here replays a game from its first event: lists
and tendencies come from the rm_* tables, a replay step from the nearest snapshot plus ``evolve``.
"""

from __future__ import annotations

import copy
import json
import sqlite3
import threading
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

import psycopg
from cachetools import LRUCache
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from domain.games import GAMES
from domain.games import game as game_of
from domain.metrics import Breakdown, Dimension, Metric
from service.commands.application import Digsite, GameReader, Viewer
from service.reading import catalogue
from service.reading.projections import field
from service.reading.projections.facts import game_tables
from service.reading.projections.tables import PROJECTION_NAME, TRACKING_TABLE
from service.reading.replays import decoded
from service.reading.standings import seats_sql
from service.store.backends import StoreUnavailable

# A table size, or several: the field compared with a player is the games at the player's own sizes.
Sizes = int | tuple[int, ...]
FIELD_CACHE = 256  # the field's figures kept (each a few rows)
PLAYERS_FOUND = 30  # players a name search offers at most (type more of the name to narrow it)
CONNECT_TIMEOUT_SECONDS = 2  # the read models' database is given up after this during an outage
T = TypeVar("T")
READ_MODELS_UNREACHABLE = "the read models' database is unreachable; this page works again once it is back"


def metrics(kind: str, grains: tuple[str, ...] = ("seat", "game")) -> dict[str, str]:
    """A game's tendency metrics at these grains (its analytics catalogue), name -> label, in catalogue order.
    A game without analytics has none."""
    return {m.name: m.label for m in catalogue.analytics_of(kind)[0] if m.grain in grains}


def groups(kind: str, grains: tuple[str, ...] = ("seat", "game")) -> dict[str, list[Metric]]:
    """A game's metrics at these grains by the group they are shown in (``Metric.group``; a metric without one is
    a group of its own, named by its label), groups in the order their first metric comes in the catalogue."""
    found: dict[str, list[Metric]] = {}
    for m in catalogue.analytics_of(kind)[0]:
        if m.grain in grains:
            found.setdefault(m.group or f"{m.label[:1].upper()}{m.label[1:]}", []).append(m)
    return found


def stacked(group: list[Metric]) -> bool:
    """Whether a group of round-grain metrics is the parts of one whole, round by round: all shares of the same
    denominator (the action mix per round), drawn stacked."""
    return len(group) > 1 and all(m.share and m.denominator == group[0].denominator for m in group)


def trend_metrics(kind: str) -> dict[str, str]:
    """The metrics worth following over a tournament's rounds: all seat- and game-grain ones but those the table
    size fixes for the field as a whole (every seat's won, or place, averages 1/N, or (N+1)/2, in every round)."""
    fixed = {("won",), ("place",)}
    return {m.name: m.label for m in catalogue.analytics_of(kind)[0] if m.grain != "round" and m.numerator not in fixed}


def breakdowns(kind: str) -> dict[str, Breakdown]:
    """A game's breakdowns (counts of a fact table by some of its columns), by name, in catalogue order."""
    return {b.name: b for b in catalogue.analytics_of(kind)[1]}


def per_player_breakdowns(kind: str) -> set[str]:
    """The breakdowns that can be asked about one player: over a fact table with a ``seat`` column."""
    tables = game_tables(kind)
    return {b.name for b in catalogue.analytics_of(kind)[1] if "seat" in tables[b.table].table.column_names()}


def dimensions(kind: str) -> dict[str, Dimension]:
    """A game's dimensions, by name (the seat and the table size are every game's)."""
    return catalogue.dimensions_of(kind)


class Queries:
    def __init__(self, games: GameReader | Digsite, replay_cache: int = 64) -> None:
        # Only the store's reader is kept (given the service, its reader): what the dashboard and the API read
        # through cannot play a move (tests/service/reading/test_read_port.py).
        self.reader = games.reader if isinstance(games, Digsite) else games
        self.db = self.reader.database
        self._pool: Any = None
        self._sqlite_idle: list[sqlite3.Connection] = []  # a few connections shared by request threads
        self._sqlite_lock = threading.Lock()
        self._records: LRUCache[str, list[dict[str, Any]]] = LRUCache(maxsize=max(replay_cache, 1))
        self._records_lock = threading.Lock()
        self._replay_cache = replay_cache
        self._progress: LRUCache[str, tuple[list[dict[str, Any]], dict[str, Any]]] = LRUCache(
            maxsize=max(replay_cache, 1)
        )
        self.prefix = f'"{self.db.schema}".' if self.db.backend == "postgresql" else ""
        # The field's figures (no player asked about) read every row of a table, and are the same on every
        # player's page: kept until the read models move on (their tracked position changes).
        self._field: LRUCache[tuple[Any, ...], tuple[int, Any]] = LRUCache(maxsize=FIELD_CACHE)
        self._field_lock = threading.Lock()
        tracking = f"{self.prefix}{TRACKING_TABLE}" if self.db.backend == "postgresql" else "tracking"
        self._position_sql = f"SELECT notification_id FROM {tracking} WHERE application_name = '{PROJECTION_NAME}'"

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
        with self._sqlite_lock:
            idle, self._sqlite_idle = self._sqlite_idle, []
        for conn in idle:
            conn.close()

    # -- plumbing -----------------------------------------------------------------------------------------

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        sql = sql.replace("{p}", self.prefix)
        if self.db.backend == "postgresql":
            if self._pool is None:
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

    def _for_the_field(self, key: tuple[Any, ...], compute: Callable[[], T]) -> T:
        """``compute()``, or its answer from an earlier call with the same ``key`` if the read models have not
        moved since (one read of their position instead of a scan). A copy: callers may change what they get."""
        found = self._rows(self._position_sql)
        position = int(found[0]["notification_id"]) if found else 0
        with self._field_lock:
            cached = self._field.get(key)
            if cached is not None and cached[0] == position:
                return cast(T, copy.deepcopy(cached[1]))
        answer = compute()
        with self._field_lock:
            self._field[key] = (position, copy.deepcopy(answer))
        return answer

    # -- catalogues ---------------------------------------------------------------------------------------

    def tournaments(self, finished_only: bool = False) -> list[dict[str, Any]]:
        """Every tournament with its number of games (finished ones only, with ``finished_only``) and of finished
        games (``finished``: what its tendencies are over), newest first. Only games of the tournament's own game
        count (as in its standings: ``service.reading.standings.SEATS_SQL``)."""
        over = " AND g.status = 'over'" if finished_only else ""
        return self._rows(
            "SELECT t.tournament_id, t.name, t.rounds, t.game, t.created_at, COUNT(g.game_id) AS games, "
            "COALESCE(SUM(CASE WHEN g.status = 'over' THEN 1 ELSE 0 END), 0) AS finished "
            "FROM {p}rm_tournaments t LEFT JOIN {p}rm_games g ON g.tournament_id = t.tournament_id "
            f"AND g.kind = t.game{over} "
            "GROUP BY t.tournament_id, t.name, t.rounds, t.game, t.created_at ORDER BY t.created_at DESC"
        )

    def tournament(self, tournament_id: str) -> dict[str, Any] | None:
        rows = self._rows(
            "SELECT tournament_id, name, rounds, game, created_at FROM {p}rm_tournaments WHERE tournament_id = ?",
            (tournament_id,),
        )
        return rows[0] if rows else None

    def tournament_seats(self, tournament_id: str, finished_only: bool = False) -> list[dict[str, Any]]:
        """Every seat of every game of a tournament (finished games only, with ``finished_only``): the game's
        round and table labels and status, the seat's player, name, place and score (the standings' input)."""
        return self._rows(seats_sql(finished_only), (tournament_id,))

    def players(self, finished_only: bool = False, ids: Sequence[str] | None = None) -> list[dict[str, Any]]:
        """Every player with their finished games and wins (only those with a finished game, ``finished_only``);
        with ``ids``, only those players. The totals are kept on each player's row by the projection
        (``rm_players.games``, ``wins``): a page about one or two players reads their rows by key, however many
        games they and the store hold."""
        where, params = [], list(ids or ())
        if ids is not None:
            where.append(f"player_id IN ({', '.join('?' * len(params))})" if params else "1 = 0")
        if finished_only:
            where.append("games > 0")
        rows = self._rows(
            "SELECT player_id, name, kind, bot, games, wins FROM {p}rm_players"
            f"{' WHERE ' + ' AND '.join(where) if where else ''} ORDER BY name",
            params,
        )
        return _with_bots(rows)

    def find_players(self, text: str, finished_only: bool = False, limit: int = PLAYERS_FOUND) -> list[dict[str, Any]]:
        """The players whose name contains ``text`` (in any case; ASCII's only on SQLite), the first ``limit``
        by name, with their finished games and wins (only those with a finished game, ``finished_only``): what a
        player picker offers as a name is typed. It reads the players' names in order (an index) and stops at the
        ``limit``-th match, and each match's totals from its own row: the list of every player grew with the store
        (95 ms at 30,000 games), and so did counting each match's games; a page's pickers must not."""
        pattern = "%" + "".join(f"\\{c}" if c in "\\%_" else c for c in text.strip()) + "%"
        like = "ILIKE" if self.db.backend == "postgresql" else "LIKE"  # (SQLite's LIKE ignores ASCII case)
        rows = self._rows(
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
        return {"total": total, "rows": self._with_results(self._game_rows(rows))}

    def _with_results(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Each seat's place and score (the game's points) beside its player, for the games list."""
        if not rows:
            return rows
        marks = ", ".join("?" * len(rows))
        seats = {
            (r["game_id"], r["seat"]): r
            for r in self._rows(
                f"SELECT game_id, seat, place, score FROM {{p}}rm_player_games WHERE game_id IN ({marks})",
                [row["game_id"] for row in rows],
            )
        }
        for row in rows:
            for player in row["players"]:
                found = seats.get((row["game_id"], player["seat"]), {})
                player.update(place=found.get("place"), score=found.get("score"))
        return rows

    def game_row(self, game_id: str) -> dict[str, Any] | None:
        rows = self._rows("SELECT * FROM {p}rm_games WHERE game_id = ?", (game_id,))
        return self._game_rows(rows)[0] if rows else None

    def _game_rows(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
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
                for fact in self._rows(f"SELECT * FROM {{p}}{stored} WHERE game_id IN ({marks})", ids):
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
        return rows

    def moves(self, game_id: str) -> list[dict[str, Any]]:
        return self._rows("SELECT * FROM {p}rm_moves WHERE game_id = ? ORDER BY version", (game_id,))

    # -- replay -------------------------------------------------------------------------------------------

    def records(self, game_id: str) -> list[dict[str, Any]]:
        """A game's records (cached per game: a finished game never changes; a live one is re-read)."""
        with self._records_lock:
            cached = self._records.get(game_id)
        if cached and cached[-1]["type"] == "seed_revealed":
            return cached
        records = self.reader.stored_records(game_id)
        if not records:
            return records
        with self._records_lock:
            self._records[game_id] = records
        return records

    def replay(self, game_id: str, version: int, seat: int | None = None, events: int | None = None) -> dict[str, Any]:
        """One frame: the table at ``version`` as the referee (seat None) or one seat saw it then, with the
        event log up to that point told from the same perspective. With ``events`` = k (fewer than the
        record holds) the frame stops after the record's first k events: stepping by event, not by move."""
        records = self.records(game_id)
        count = _event_count(records[version - 1]) if 1 <= version <= len(records) else 0
        partial = events is not None and 1 <= events < count
        game = self.reader.game(game_id, Viewer(seat), version=version - 1 if partial and version > 1 else version)
        rules = game_of(game["kind"]).rules
        names = list(game["view"]["players"])  # every seat, with any the engine plays (a solo rival)
        if partial:
            assert events is not None
            state = self.reader.state_at(game_id, version - 1) if version > 1 else None
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
            for event in decoded(rules, record):  # (decoded once for the replay's frames and log too)
                state = rules.evolve(state, event)
            now = rules.progress(state)
            points.append({"round": now.round, "scores": list(now.scores)})
        found = {"names": list(rules.view(state)["players"]), "points": points}
        with self._records_lock:
            self._progress[game_id] = (records, found)
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

    # -- tendencies: the game's catalogue as SQL (service.reading.catalogue) ----------------------------------------

    # The field's figures come from the sums the projection keeps (``projections.field``: a few rows, whatever the
    # store's size), and are kept until the read models move (``_for_the_field``); a player's are read afresh.

    def table_sizes(self, kind: str, player: str, tournament: str | None = None) -> tuple[int, ...]:
        """The table sizes of a player's finished games of ``kind``: the field they are compared with plays at
        these sizes only (a rate compares only within one player count)."""
        where, params = _filters("seat", kind, player, tournament, None)
        rows = self._rows(
            f"SELECT DISTINCT pg.n_players AS n FROM {{p}}rm_player_games pg{_tournament_join('seat', tournament)} "
            f"WHERE {' AND '.join(where)} ORDER BY pg.n_players",
            params,
        )
        return tuple(int(r["n"]) for r in rows)

    def tendencies(
        self, kind: str, player: str | None = None, tournament: str | None = None, n_players: Sizes | None = None
    ) -> dict[str, Any]:
        """A player's tendencies (or the field's, player None) over finished games of ``kind``: every seat- and
        game-grain metric of the catalogue with its sample size (the denominator's sum); ``n_players`` keeps
        games at that table size only (to compare like with like)."""
        if player is None:
            key = ("tendencies", kind, tournament, n_players)
            return self._for_the_field(key, lambda: self._field_tendencies(kind, tournament, n_players))
        return self._tendencies(kind, player, tournament, n_players)

    def per_round(
        self,
        kind: str,
        metric: str,
        player: str | None = None,
        tournament: str | None = None,
        n_players: Sizes | None = None,
        finished_only: bool = True,
    ) -> list[dict[str, Any]]:
        """A round-grain metric of the catalogue, round by round: [{round, value, n}]. ``finished_only`` False
        (an organiser) counts the rounds of games in play too."""
        args = (kind, metric, player, tournament, n_players, finished_only)
        if player is None:
            return self._for_the_field(("per_round", *args), lambda: self._field_per_round(*args))
        return self._per_round(*args)

    def breakdown(
        self,
        kind: str,
        name: str,
        player: str | None = None,
        tournament: str | None = None,
        n_players: Sizes | None = None,
        finished_only: bool = True,
    ) -> list[dict[str, Any]]:
        """How often each combination of the breakdown's columns occurs: [{<by columns>, n, <averaged
        columns>}], most frequent first. A table with a ``seat`` column can be asked about one player."""
        args = (kind, name, player, tournament, n_players, finished_only)
        if player is None:
            return self._for_the_field(("breakdown", *args), lambda: self._field_breakdown(*args))
        return self._breakdown(*args)

    def by_dimension(
        self,
        kind: str,
        metric: str,
        dimension: str,
        player: str | None = None,
        tournament: str | None = None,
        n_players: Sizes | None = None,
    ) -> list[dict[str, Any]]:
        """A seat- or game-grain metric per value of a dimension, per table size (a rate compares only within
        one player count): [{n_players, grp, value, n, games}], e.g. win rate by seat per player count."""
        args = (kind, metric, dimension, player, tournament, n_players)
        if player is None:
            return self._for_the_field(("by_dimension", *args), lambda: self._field_by_dimension(*args))
        return self._by_dimension(*args)

    def distributions(
        self, kind: str, tournament: str | None = None, n_players: Sizes | None = None
    ) -> dict[str, list[dict[str, Any]]]:
        """Over finished games, from the core alone: places and final scores (one per seat), game lengths in
        moves and rounds (one per game)."""
        key = ("distributions", kind, tournament, n_players)
        return self._for_the_field(key, lambda: self._field_distributions(kind, tournament, n_players))

    # -- the field's figures from the projection's sums (each falls back to computing afresh until they are kept)

    def _summed(
        self, kind: str, name: str, tournament: str | None, n_players: Sizes | None, in_play: bool = False
    ) -> dict[tuple[int, str], dict[str, float]] | None:
        """The field's sums of the figure ``name``: {(table size, group as JSON): {measure: total}} over the
        finished games (of the tournament, at those table sizes), with ``in_play`` the games in play added
        (read afresh: they are few); None while the projection has not made them complete."""
        fig = next((f for f in field.figures(kind) if f.name == name), None)
        if fig is None or not field.complete(self._rows):
            return None
        where = ["kind = ?", "scope = ?", "figure = ?"]
        params: list[Any] = [kind, tournament or field.EVERY_GAME, name]
        if n_players is not None:
            sizes = _sizes(n_players)
            where.append(f"n_players IN ({', '.join('?' * len(sizes))})")
            params.extend(sizes)
        found: dict[tuple[int, str], dict[str, float]] = defaultdict(lambda: defaultdict(float))
        sql = f"SELECT n_players, grp, measure, total FROM {{p}}{field.TABLE} WHERE {' AND '.join(where)}"
        for row in self._rows(sql, params):
            found[(int(row["n_players"]), row["grp"])][row["measure"]] += float(row["total"])
        if in_play:  # the field's games (as its queries pick them) that are not over
            games, in_params = _field(kind, "cg", tournament, n_players, finished_only=False)
            in_play_games = " AND ".join([*games, "cg.status <> 'over'"])
            for _, size, grp, sums in field.sums_of(self._rows, kind, fig, in_play_games, in_params):
                for measure, total in sums.items():
                    found[(size, grp)][measure] += total
        return found

    @staticmethod
    def _merged(summed: dict[tuple[int, str], dict[str, float]], by_size: bool = False) -> dict[Any, dict[str, float]]:
        """The sums per group (and table size, ``by_size``), the other keys added up."""
        found: dict[Any, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        for (size, grp), sums in summed.items():
            key = (size, grp) if by_size else grp
            for measure, total in sums.items():
                found[key][measure] += total
        return found

    def _ordered(
        self, rows: list[dict[str, Any]], keys: Sequence[str], descending: str | None = None
    ) -> list[dict[str, Any]]:
        """Rows in the order the afresh query's ORDER BY gives: ``descending`` first, then ``keys`` ascending, a
        NULL where the database puts it (PostgreSQL last, SQLite first)."""
        nulls_first = self.db.backend == "sqlite"

        def key(row: dict[str, Any]) -> tuple[Any, ...]:
            parts: list[Any] = [-row[descending]] if descending else []
            for k in keys:
                v = row[k]
                parts.append(((0 if nulls_first else 2), 0) if v is None else (1, v))
            return tuple(parts)

        return sorted(rows, key=key)

    def _field_tendencies(self, kind: str, tournament: str | None, n_players: Sizes | None) -> dict[str, Any]:
        found: dict[str, dict[str, Any]] = {}
        games = 0
        for grain in ("seat", "game"):
            summed = self._summed(kind, field.tendencies_name(grain), tournament, n_players)
            if summed is None:
                return self._tendencies(kind, None, tournament, n_players)
            totals = self._merged(summed).get("[]", {})
            if grain == "seat":
                games = int(totals.get("rows", 0))
            for m in catalogue.analytics_of(kind)[0]:
                if m.grain == grain:
                    found[m.name] = _tendency(m, *_ratio(totals, m.name))
        return _tendencies_answer(kind, None, n_players, games, found)

    def _field_per_round(
        self,
        kind: str,
        metric: str,
        player: str | None,
        tournament: str | None,
        n_players: Sizes | None,
        finished_only: bool,
    ) -> list[dict[str, Any]]:
        m = catalogue.metric(kind, metric)
        summed = (
            None
            if m.grain != "round"
            else self._summed(kind, field.per_round_name(), tournament, n_players, not finished_only)
        )
        if summed is None:
            return self._per_round(kind, metric, None, tournament, n_players, finished_only)
        rows = []
        for grp, totals in self._merged(summed).items():
            value, n = _ratio(totals, m.name)
            if n:
                rows.append({"round": json.loads(grp)[0], "value": value, "n": n})
        return self._ordered(rows, ["round"])

    def _field_breakdown(
        self,
        kind: str,
        name: str,
        player: str | None,
        tournament: str | None,
        n_players: Sizes | None,
        finished_only: bool,
    ) -> list[dict[str, Any]]:
        summed = self._summed(kind, field.breakdown_name(name), tournament, n_players, not finished_only)
        if summed is None:
            return self._breakdown(kind, name, None, tournament, n_players, finished_only)
        found = catalogue.breakdown(kind, name)[0]
        rows = []
        for grp, totals in self._merged(summed).items():
            if not totals.get("rows"):
                continue
            row: dict[str, Any] = dict(zip(found.by, json.loads(grp), strict=True))
            row["n"] = int(totals["rows"])
            for c in found.average:
                count = totals.get(f"count:{c}")
                row[c] = totals.get(f"sum:{c}", 0.0) / count if count else None
            rows.append(row)
        return self._ordered(rows, list(found.by), descending="n")

    def _field_by_dimension(
        self,
        kind: str,
        metric: str,
        dimension: str,
        player: str | None,
        tournament: str | None,
        n_players: Sizes | None,
    ) -> list[dict[str, Any]]:
        m = catalogue.metric(kind, metric)
        summed = None
        if m.grain != "round":
            summed = self._summed(kind, field.by_dimension_name(m.grain, dimension), tournament, n_players)
        if summed is None:  # (also a dimension not recorded at the metric's grain: the afresh query says so)
            return self._by_dimension(kind, metric, dimension, None, tournament, n_players)
        rows = []
        for (size, grp), totals in self._merged(summed, by_size=True).items():
            if totals.get("rows"):
                value, n = _ratio(totals, m.name)
                rows.append(
                    {"n_players": size, "grp": json.loads(grp)[0], "value": value, "n": n, "games": int(totals["rows"])}
                )
        return self._ordered(rows, ["n_players", "grp"])

    def _field_distributions(
        self, kind: str, tournament: str | None, n_players: Sizes | None
    ) -> dict[str, list[dict[str, Any]]]:
        found: dict[str, list[dict[str, Any]]] = {}
        for what in ("place", "score", "moves", "rounds"):
            summed = self._summed(kind, field.distribution_name(what), tournament, n_players)
            if summed is None:
                return self._distributions(kind, tournament, n_players)
            rows = [
                {"value": json.loads(grp)[0], "n": int(totals["rows"])}
                for grp, totals in self._merged(summed).items()
                if totals.get("rows")
            ]
            found[what] = self._ordered(rows, ["value"])
        return found

    def _tendencies(
        self, kind: str, player: str | None = None, tournament: str | None = None, n_players: Sizes | None = None
    ) -> dict[str, Any]:
        """A player's tendencies (or the field's, player None) over finished games of ``kind``: every seat- and
        game-grain metric of the catalogue with its sample size (the denominator's sum); ``n_players`` keeps
        games at that table size only (to compare like with like)."""
        found: dict[str, dict[str, Any]] = {}
        games = 0
        for grain in ("seat", "game"):
            chosen = [m for m in catalogue.analytics_of(kind)[0] if m.grain == grain]
            plan = catalogue.plan(kind, grain, [c for m in chosen for c in sorted(m.columns())])
            where, params = _filters(grain, kind, player, tournament, n_players)
            exprs = []
            for i, m in enumerate(chosen):
                value, n = catalogue.ratio(m, plan.qualified)
                exprs.append(f", {value} AS v{i}, {n} AS n{i}")
            joins = _tournament_join(grain, tournament)
            row = self._rows(
                f"SELECT COUNT(*) AS games{''.join(exprs)} FROM {plan.from_clause('{p}')}{joins} "
                f"WHERE {' AND '.join(where)}",
                params,
            )[0]
            if grain == "seat":
                games = int(row["games"])
            for i, m in enumerate(chosen):
                value = row[f"v{i}"]
                found[m.name] = _tendency(m, None if value is None else float(value), row[f"n{i}"])
        return _tendencies_answer(kind, player, n_players, games, found)

    def _per_round(
        self,
        kind: str,
        metric: str,
        player: str | None = None,
        tournament: str | None = None,
        n_players: Sizes | None = None,
        finished_only: bool = True,
    ) -> list[dict[str, Any]]:
        """A round-grain metric of the catalogue, round by round: [{round, value, n}]. ``finished_only`` False
        (an organiser) counts the rounds of games in play too."""
        m = catalogue.metric(kind, metric)
        if m.grain != "round":
            raise catalogue.UnknownName(f"{metric!r} is not a per-round metric of {kind}")
        if player is None:  # the field: its games picked from rm_games, no join with every seat's row
            plan = catalogue.plan(kind, "round", sorted(m.columns()))
            where, params = _field(kind, "r", tournament, n_players, finished_only)
            joins = ""
        else:
            plan = catalogue.plan(kind, "round", sorted(m.columns()), always=("pg",))
            where, params = _filters("round", kind, player, tournament, n_players, finished_only)
            joins = _tournament_join("round", tournament)
        value, n = catalogue.ratio(m, plan.qualified)
        rows = self._rows(
            f"SELECT r.round AS round, {value} AS value, {n} AS n FROM {plan.from_clause('{p}')}"
            f"{joins} WHERE {' AND '.join(where)} GROUP BY r.round ORDER BY r.round",
            params,
        )
        return [r for r in rows if r["n"]]

    def _breakdown(
        self,
        kind: str,
        name: str,
        player: str | None = None,
        tournament: str | None = None,
        n_players: Sizes | None = None,
        finished_only: bool = True,
    ) -> list[dict[str, Any]]:
        """How often each combination of the breakdown's columns occurs: [{<by columns>, n, <averaged
        columns>}], most frequent first. A table with a ``seat`` column can be asked about one player."""
        found, table, stored = catalogue.breakdown(kind, name)
        columns = set(table.column_names())
        averaged = list(found.average)
        if not {*found.by, *averaged} <= columns:  # (the table's own columns: plain names the migration created)
            raise catalogue.UnknownName(f"breakdown {name!r} names columns {stored} does not have")
        if player is None:  # the field: its games picked from rm_games, no join with every seat's row
            joins = ""
            where, params = _field(kind, "b", tournament, n_players, finished_only)
        elif "seat" in columns:
            joins = " JOIN {p}rm_player_games pg ON pg.game_id = b.game_id AND pg.seat = b.seat"
            where, params = _filters("seat", kind, player, tournament, n_players, finished_only)
            joins += _tournament_join("seat", tournament)
        else:
            joins = " JOIN {p}rm_games g ON g.game_id = b.game_id"
            where, params = _filters("game", kind, player, tournament, n_players, finished_only)
        groups = ", ".join(f"b.{c}" for c in found.by)
        means = "".join(f", CAST(AVG(b.{c}) AS DOUBLE PRECISION) AS {c}" for c in averaged)
        return self._rows(
            f"SELECT {', '.join(f'b.{c} AS {c}' for c in found.by)}, COUNT(*) AS n{means} "
            f"FROM {{p}}{stored} b{joins} WHERE {' AND '.join(where)} GROUP BY {groups} ORDER BY n DESC, {groups}",
            params,
        )

    def _by_dimension(
        self,
        kind: str,
        metric: str,
        dimension: str,
        player: str | None = None,
        tournament: str | None = None,
        n_players: Sizes | None = None,
    ) -> list[dict[str, Any]]:
        """A seat- or game-grain metric per value of a dimension, per table size (a rate compares only within
        one player count): [{n_players, group, value, n, games}], e.g. win rate by seat per player count."""
        m = catalogue.metric(kind, metric)
        d = catalogue.dimension(kind, dimension)
        if m.grain == "round":
            raise catalogue.UnknownName(f"{metric!r} is per round: see per_round")
        of_game = (dimension,) if d.grain == "game" else ()
        plan = catalogue.plan(kind, m.grain, [*sorted(m.columns()), "n_players", dimension], of_game=of_game)
        value, n = catalogue.ratio(m, plan.qualified)
        group, size = plan.qualified[dimension], plan.qualified["n_players"]
        where, params = _filters(m.grain, kind, player, tournament, n_players)
        return self._rows(
            f"SELECT {size} AS n_players, {group} AS grp, {value} AS value, {n} AS n, COUNT(*) AS games "
            f"FROM {plan.from_clause('{p}')}{_tournament_join(m.grain, tournament)} WHERE {' AND '.join(where)} "
            f"GROUP BY {size}, {group} ORDER BY {size}, {group}",
            params,
        )

    def _distributions(
        self, kind: str, tournament: str | None = None, n_players: Sizes | None = None
    ) -> dict[str, list[dict[str, Any]]]:
        """Over finished games, from the core alone: places and final scores (one per seat), game lengths in
        moves and rounds (one per game)."""
        seat_where, seat_params = _filters("seat", kind, None, tournament, n_players)
        game_where, game_params = _filters("game", kind, None, tournament, n_players)
        seats = f"FROM {{p}}rm_player_games pg{_tournament_join('seat', tournament)} WHERE {' AND '.join(seat_where)}"
        games = f"FROM {{p}}rm_games g WHERE {' AND '.join(game_where)}"
        return {
            "place": self._rows(
                f"SELECT pg.place AS value, COUNT(*) AS n {seats} GROUP BY pg.place ORDER BY pg.place", seat_params
            ),
            "score": self._rows(
                f"SELECT pg.score AS value, COUNT(*) AS n {seats} GROUP BY pg.score ORDER BY pg.score", seat_params
            ),
            "moves": self._rows(
                f"SELECT g.moves AS value, COUNT(*) AS n {games} GROUP BY g.moves ORDER BY g.moves", game_params
            ),
            "rounds": self._rows(
                f"SELECT g.round AS value, COUNT(*) AS n {games} GROUP BY g.round ORDER BY g.round", game_params
            ),
        }

    def trend(self, metric: str, tournament: str, player: str | None = None) -> list[dict[str, Any]]:
        """A seat- or game-grain metric of the tournament's game per tournament round (the field's, or one
        player's): [{round, value, n}]."""
        found = self._rows("SELECT game FROM {p}rm_tournaments WHERE tournament_id = ?", (tournament,))
        kind = found[0]["game"] if found and found[0]["game"] in GAMES else None
        catalogued = metrics(kind) if kind else {}
        if kind is None or metric not in catalogued:
            raise ValueError(f"unknown metric {metric!r}; choose from {sorted(catalogued)}")
        m = catalogue.metric(kind, metric)
        plan = catalogue.plan(kind, m.grain, sorted(m.columns()))
        value, n = catalogue.ratio(m, plan.qualified)
        where, params = _filters(m.grain, kind, player, tournament, None)
        label = "g.round_label" if m.grain == "game" else "tg.round_label"
        return self._rows(
            f"SELECT {label} AS round, {value} AS value, {n} AS n FROM {plan.from_clause('{p}')}"
            f"{_tournament_join(m.grain, tournament)} WHERE {' AND '.join(where)} GROUP BY {label} ORDER BY {label}",
            params,
        )


def per_game_tables(kind: str) -> list[str]:
    """The stored names of a game's fact tables with one row per game."""
    return [t.name for t in game_tables(kind).values() if not t.append and not t.table.key]


def per_game_columns(kind: str) -> list[str]:
    return [c.name for t in game_tables(kind).values() if not t.append and not t.table.key for c in t.table.columns]


def _field(
    kind: str, alias: str, tournament: str | None, n_players: Sizes | None, finished_only: bool
) -> tuple[list[str], list[Any]]:
    """The WHERE condition keeping a fact table's rows (``alias``) of the field's games: a semi-join with the
    games asked about (a few thousand rows) rather than a join of every fact row with its seat's row."""
    where, params = _filters("game", kind, None, tournament, n_players, finished_only)
    inner = " AND ".join(where)
    return [f"{alias}.game_id IN (SELECT g.game_id FROM {{p}}rm_games g WHERE {inner})"], params


def _tournament_join(grain: str, tournament: str | None) -> str:
    """The join that gives a seat's (or a round's) rows their game's tournament labels (``tg``), when asked
    about a tournament."""
    return "" if grain == "game" or not tournament else " JOIN {p}rm_games tg ON tg.game_id = pg.game_id"


def _filters(
    grain: str,
    kind: str,
    player: str | None,
    tournament: str | None,
    n_players: Sizes | None,
    finished_only: bool = True,
) -> tuple[list[str], list[Any]]:
    """The WHERE conditions of a tendency query at ``grain`` (its rows come with ``pg``, or ``g`` for a game),
    and their parameters."""
    if grain == "game":
        where: list[str] = ["g.kind = ?"]
        params: list[Any] = [kind]
        if finished_only:
            where.append("g.status = 'over'")
        if player:
            where.append(
                "EXISTS (SELECT 1 FROM {p}rm_player_games pp WHERE pp.game_id = g.game_id AND pp.player_id = ?)"
            )
            params.append(player)
        if tournament:
            where.append("g.tournament_id = ?")
            params.append(tournament)
        if n_players is not None:
            sizes = _sizes(n_players)
            where.append(f"g.n_players IN ({', '.join('?' * len(sizes))})")
            params.extend(sizes)
        return where, params
    where, params = ["pg.kind = ?"], [kind]
    if finished_only:
        where.append("pg.finished = 1")
    if player:
        where.append("pg.player_id = ?")
        params.append(player)
    if tournament:
        where.append("tg.tournament_id = ?")
        params.append(tournament)
    if n_players is not None:
        sizes = _sizes(n_players)
        where.append(f"pg.n_players IN ({', '.join('?' * len(sizes))})")
        params.extend(sizes)
    return where, params


def _tendency(m: Metric, value: float | None, n: Any) -> dict[str, Any]:
    """One metric's tendency as the pages read it: its value, sample size (0 when none) and how it is shown."""
    return {"value": value, "n": n or 0, "label": m.label, "grain": m.grain, "share": m.share, "group": m.group}


def _tendencies_answer(
    kind: str, player: str | None, n_players: Sizes | None, games: int, found: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    ordered = {m.name: found[m.name] for m in catalogue.analytics_of(kind)[0] if m.name in found}
    return {"player": player, "kind": kind, "n_players": n_players, "games": games, "metrics": ordered}


def _ratio(totals: dict[str, float], metric: str) -> tuple[float | None, int | float | None]:
    """A metric's value and sample size from its sums, as the afresh query gives them: no value without a
    numerator or with a denominator of 0; whole numbers as integers."""
    num, den = totals.get(f"{metric}:num"), totals.get(f"{metric}:den")
    value = None if num is None or not den else num / den
    return value, None if den is None else _whole(den)


def _whole(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


def _sizes(n_players: Sizes) -> list[int]:
    """One table size, or several (a player's own: the field at the sizes they played), as a non-empty list."""
    sizes = [int(n_players)] if isinstance(n_players, int) else sorted({int(n) for n in n_players})
    return sizes or [0]  # no size at all keeps no game


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


def _with_bots(players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Player rows with their bot's settings decoded (None for a person)."""
    for row in players:
        row["bot"] = json.loads(row["bot"]) if row["bot"] else None
    return players
