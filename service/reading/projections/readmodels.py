"""Stored records -> read-model rows: the generic core (games, seats, moves, results, think time) from the
rules protocol alone, and each game's fact rows from its analytics part (``domain.metrics``).

Nothing here knows a game: ``GameRules.result`` gives who finished where with what score, ``GameRules.progress``
the round of a game without facts, ``Analytics.move_facts`` a move's kind, round, summary and fact rows, which
land in the game's tables (``facts.game_tables``) combined per column. A game without an analytics part gets
the core rows only.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Tracking
from eventsourcing.projection import Projection

from domain.games import game as game_of
from domain.metrics import FactRow
from domain.protocol import Result
from service.commands.application import DigsiteApplication
from service.reading.projections.batch import MOVES, THINK_US, Batch
from service.reading.projections.facts import StoredTable, game_tables
from service.reading.projections.tables import ReadModels
from service.store.aggregates import Game, Player, Tournament

MICROSECOND = timedelta(microseconds=1)


class _Kind:
    """A game's functions the projection calls for every move, and its fact tables, looked up once per kind."""

    __slots__ = ("decode", "move_facts", "opening_rows", "progress", "replay", "result", "rules", "tables")

    def __init__(self, kind: str) -> None:
        found = game_of(kind)
        self.rules = found.rules
        self.decode: Callable[[dict[str, Any]], Any] = self.rules.event_from_dict
        # A move's events applied in one go (``replay`` builds one state for them, not one per event).
        self.replay: Callable[[list[Any], Any], Any] = self.rules.replay
        self.result: Callable[[Any], Result | None] = self.rules.result
        self.progress = self.rules.progress
        analytics = found.analytics
        self.move_facts: Callable[..., Any] | None = None if analytics is None else analytics.move_facts
        self.opening_rows: Callable[[Any], Iterable[FactRow]] | None = (
            None if analytics is None else analytics.opening_rows
        )
        self.tables: dict[str, StoredTable] = game_tables(kind)


_KINDS: dict[str, _Kind] = {}


def _kind(kind: str) -> _Kind:
    found = _KINDS.get(kind)
    if found is None:
        found = _KINDS[kind] = _Kind(kind)
    return found


@dataclass(eq=False)
class GameContext:
    """What the projection keeps in memory about a game in play (rebuilt from the store when missing)."""

    game_id: str
    kind: str
    players: list[str]
    state: Any
    version: int
    last_time: datetime | None  # when the game's last record was made (for think time)
    row: dict[str, Any]
    fns: _Kind


class ReadModelProjection(Projection[Any]):
    name = "read-models"
    topics = ()  # every record

    def __init__(self, read_models: ReadModels, app: DigsiteApplication, cache_size: int = 4096) -> None:
        super().__init__(read_models)  # the library calls it the projection's view
        self.app = app
        self.batch = Batch()
        self.cache_size = cache_size
        # Keyed by the game id's 128-bit integer (hashing a UUID object runs Python code, twice per record);
        # most recently used last, and ``_last`` is that key (already last: no need to move it). An LRU by hand, not
        # cachetools' LRUCache (the other LRUs' library): its lookup, which always reorders, measured 1.66 us
        # against 0.49 us for this one's (timeit, 5 x 200,000, load 20), and a record projects in about 33 us
        # (docs/performance.md): some 3% of every catch-up and rebuild, for one lookup per record.
        self._games: OrderedDict[int, GameContext] = OrderedDict()
        self._last: int | None = None
        # The games of this batch and their state at its end: their rm_games round is asked once per batch.
        self._states: dict[str, tuple[_Kind, Any]] = {}

    def take_batch(self) -> Batch:
        batch, self.batch = self.batch, Batch()
        for game_id, (fns, state) in self._states.items():
            row = batch.games.get(game_id)
            if row is not None:
                row["round"] = fns.progress(state).round
        self._states = {}
        return batch

    def forget(self) -> None:
        """Drop in-memory contexts (after a failed write: the store is the truth, contexts are rebuilt)."""
        self._games.clear()
        self._last = None
        self.batch = Batch()
        self._states = {}

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        self.project(domain_event, tracking.notification_id)
        self.batch.events += 1
        self.batch.last_notification_id = tracking.notification_id

    def projected(self, count: int, last_notification_id: int) -> None:
        """Note that ``count`` records up to ``last_notification_id`` went through ``project``."""
        self.batch.events += count
        self.batch.last_notification_id = last_notification_id

    def project(self, domain_event: Any, notification_id: int) -> None:
        """Add one record's changes to the batch (the caller tracks its position: see ``projected``);
        ``notification_id`` is the record's, noted when it finishes a game (the order games are rated in)."""
        if isinstance(domain_event, Game.MoveRecorded):
            self._move(domain_event, notification_id)
        elif isinstance(domain_event, Game.Created):
            self._created(domain_event)
        elif isinstance(domain_event, Game.Forfeited):  # the game ends: the seat out of time last
            ctx = self._context(domain_event.originator_id, domain_event.originator_version - 1)
            result = _forfeit_result(domain_event.result)
            ctx.row.update(_result_columns(result, ctx.players), ended_at=domain_event.at)
            for s, seated in enumerate(ctx.players):
                won = int(s in result.winners)
                self.batch.results.append((1, won, result.place(s), result.scores[s], ctx.game_id, s))
                self.batch.finished(seated, won)
            ctx.version = ctx.row["last_version"] = domain_event.originator_version
            self.batch.games[ctx.game_id] = ctx.row
        elif isinstance(domain_event, Game.ClockChanged):  # (no move: the game's version moves on, nothing else)
            ctx = self._context(domain_event.originator_id, domain_event.originator_version - 1)
            ctx.version = ctx.row["last_version"] = domain_event.originator_version
            self.batch.games[ctx.game_id] = ctx.row
        elif isinstance(domain_event, Game.SeedRevealed):
            uid = domain_event.originator_id
            ctx = self._context(uid, domain_event.originator_version - 1)
            ctx.version = ctx.row["last_version"] = domain_event.originator_version
            self.batch.games[ctx.game_id] = ctx.row
            self._states[ctx.game_id] = (ctx.fns, ctx.state)
            self._games.pop(uid.int, None)  # finished: no further records
            self._last = None
        elif isinstance(domain_event, Game.RulingRecorded):
            details = json.dumps(domain_event.details)
            self._ruling(domain_event, domain_event.ruling, domain_event.reason, details)
        elif isinstance(domain_event, Tournament.PenaltyGiven):
            details = json.dumps({"player": domain_event.player, "points": domain_event.points})
            self._ruling(domain_event, "penalty", domain_event.reason, details)
        elif isinstance(domain_event, Player.Created):
            bot = None if domain_event.bot is None else json.dumps(domain_event.bot)
            self.batch.players.append(
                (str(domain_event.originator_id), domain_event.name, domain_event.kind, bot, domain_event.at)
            )
        elif isinstance(domain_event, Tournament.Created):
            self.batch.tournaments.append(
                (
                    str(domain_event.originator_id),
                    domain_event.name,
                    domain_event.rounds,
                    domain_event.game,
                    domain_event.at,
                    None if domain_event.options is None else json.dumps(domain_event.options),
                )
            )

    def _ruling(self, event: Any, ruling: str, reason: str, details: str) -> None:
        subject = str(event.originator_id)
        self.batch.rulings.append((subject, event.originator_version, ruling, reason, details, event.at))

    # -- games ----------------------------------------------------------------------------------------------

    def _created(self, event: Game.Created) -> None:
        uid = event.originator_id
        game_id = str(uid)
        fns = _kind(event.kind)
        state = fns.replay([fns.decode(e) for e in event.opening], None)
        row = _game_row(
            game_id,
            event.kind,
            fns,
            event.labels,
            event.players,
            event.names,
            state,
            event.originator_version,
            moves=0,
            started_at=event.at,
            ended_at=None,
        )
        ctx = GameContext(
            game_id, event.kind, event.players, state, event.originator_version, _time(event.at), row, fns
        )
        self._remember(uid, ctx)
        batch = self.batch
        batch.games[game_id] = row
        self._states[game_id] = (fns, state)
        n_players = len(event.players)
        for seat, player in enumerate(event.players):
            batch.seat(game_id, seat, player, event.kind, n_players)
        if fns.opening_rows is not None:
            self._facts(batch, fns.tables, game_id, event.originator_version, fns.opening_rows(state))

    def _move(self, event: Game.MoveRecorded, notification_id: int) -> None:
        # This runs for nearly every record projected: lookups are hoisted and the common path is inline.
        uid = event.originator_id
        key = uid.int
        version = event.originator_version
        ctx = self._games.get(key)
        if ctx is None or ctx.version != version - 1:
            ctx = self._context(uid, version - 1)
        elif key != self._last:
            self._games.move_to_end(key)
            self._last = key
        fns = ctx.fns
        domain_events = list(map(fns.decode, event.events))
        before = ctx.state
        state = fns.replay(domain_events, before)
        at = event.at
        now = _time(at)
        last = ctx.last_time
        think_us = max(0, (now - last) // MICROSECOND) if now and last else 0
        batch = self.batch
        game_id = ctx.game_id
        seat = event.seat
        player = ctx.players[seat]
        row = ctx.row
        row["moves"] += 1
        row["last_version"] = version
        action = event.action
        move_facts = fns.move_facts
        if move_facts is None:  # a game without analytics: the kind of action, and the round the rules say
            kind = str(action.get("type", "?"))
            batch.moves.append(
                (game_id, version, seat, player, kind, fns.progress(before).round, at, think_us / 1000, kind)
            )
        else:
            facts = move_facts(before, action, domain_events)
            seat = facts.seat
            batch.moves.append(
                (game_id, version, seat, player, facts.kind, facts.round, at, think_us / 1000, facts.summary)
            )
            self._facts(batch, fns.tables, game_id, version, facts.rows())
        common = batch.seats.get((game_id, seat))
        if common is None:
            common = batch.seat(game_id, seat, player, ctx.kind, len(ctx.players))
        common[MOVES] += 1
        common[THINK_US] += think_us
        if row["status"] != "over":
            result = fns.result(state)
            if result is not None:
                row.update(_result_columns(result, ctx.players), ended_at=at)
                for s, seated in enumerate(ctx.players):
                    won = int(s in result.winners)
                    batch.results.append((1, won, result.place(s), result.scores[s], game_id, s))
                    batch.finished(seated, won)
                batch.finishes.append((game_id, ctx.kind, notification_id, at))
        ctx.state, ctx.version, ctx.last_time = state, version, now
        batch.games[game_id] = row
        self._states[game_id] = (fns, state)

    @staticmethod
    def _facts(
        batch: Batch, tables: dict[str, StoredTable], game_id: str, version: int, rows: Iterable[FactRow]
    ) -> None:
        """Fold a move's fact rows into the batch: an append table's as new rows keyed by the move (its
        version and the row's order among the move's rows of that table), the others combined by key."""
        order: dict[str, int] | None = None  # an append table's rows of this move so far
        facts = batch.facts
        for name, values in rows:
            table = tables[name]
            stored = table.name
            if table.append:
                order = {} if order is None else order
                idx = order.get(stored, 0)
                order[stored] = idx + 1
                batch.appended.setdefault(stored, []).append((game_id, version, idx, *values))
                continue
            size = table.key_size
            key = (game_id, *values[:size]) if size else (game_id,)
            combined = facts.get(stored)
            if combined is None:
                combined = facts[stored] = {}
            found = combined.get(key)
            if found is None:
                combined[key] = list(values[size:])
            else:
                table.combine(found, values[size:])

    def _context(self, uid: UUID, version: int) -> GameContext:
        ctx = self._games.get(uid.int)
        if ctx is not None and ctx.version == version:
            self._games.move_to_end(uid.int)
            self._last = uid.int
            return ctx
        game: Game = self.app.repository.get(uid, version=version)
        game_id = str(uid)
        fns = _kind(game.kind)
        row = _game_row(
            game_id,
            game.kind,
            fns,
            game.labels,
            game.players,
            game.names,
            game.state,
            version,
            moves=game.moves,
            started_at=game.created_at,
            ended_at=game.updated_at,
            result=None if game.forfeit is None else _forfeit_result(game.forfeit["result"]),
        )
        ctx = GameContext(game_id, game.kind, game.players, game.state, version, _time(game.updated_at), row, fns)
        self._remember(uid, ctx)
        return ctx

    def _remember(self, uid: UUID, ctx: GameContext) -> None:
        self._games[uid.int] = ctx
        self._games.move_to_end(uid.int)
        self._last = uid.int
        while len(self._games) > self.cache_size:
            self._games.popitem(last=False)


def _game_row(
    game_id: str,
    kind: str,
    fns: _Kind,
    labels: dict[str, Any],
    players: list[str],
    names: list[str],
    state: Any,
    version: int,
    *,
    moves: int,
    started_at: str,
    ended_at: str | None,
    result: Result | None = None,
) -> dict[str, Any]:
    """The rm_games row of a game whose rules state is ``state`` at ``version`` (``result``: how it ended if not by
    its rules: a forfeit)."""
    result = result if result is not None else fns.result(state)
    return {
        "game_id": game_id,
        "kind": kind,
        "tournament_id": labels.get("tournament"),
        "round_label": labels.get("round"),
        "table_label": labels.get("table"),
        "n_players": len(players),
        "players": [{"seat": i, "id": p, "name": n} for i, (p, n) in enumerate(zip(players, names, strict=True))],
        **_result_columns(result, players),
        "round": fns.progress(state).round,
        "moves": moves,
        "started_at": started_at,
        "ended_at": None if result is None else ended_at,
        "last_version": version,
    }


def _forfeit_result(data: dict[str, Any]) -> Result:
    """A forfeit's recorded result (``service.store.clocks.forfeit_result``) as the common summary."""
    return Result(tuple(data["ranking"]), tuple(data["winners"]), tuple(data["scores"]), data["detail"])


def _result_columns(result: Result | None, players: list[str]) -> dict[str, Any]:
    """The rm_games columns of a game's result: every winner, and the first of them (a seat the engine plays,
    like a solo rival, has no player id), and the game's own words about its end (``Result.detail``)."""
    if result is None:
        return {"status": "playing", "winner_seat": None, "winner_player": None, "winners": [], "detail": None}
    winner = result.winners[0]
    return {
        "status": "over",
        "winner_seat": winner,
        "winner_player": players[winner] if winner < len(players) else None,
        "winners": list(result.winners),
        "detail": dict(result.detail),
    }


def _time(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None
