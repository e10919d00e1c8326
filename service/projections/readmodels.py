"""Stored records -> read-model rows: games, moves, and per-player-per-game facts for tendencies."""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Tracking
from eventsourcing.projection import Projection

from domain.games import game as game_of
from domain.protocol import Result
from service.aggregates import Game, Player, Tournament
from service.application import DigsiteApplication
from service.projections.batch import SLOT, Batch
from service.projections.tables import ReadModels

# Counter slots a Ruins move adds to (see ``Batch.seat_counters``).
_MOVES, _THINK_MS = SLOT["moves"], SLOT["think_ms"]
_FOLLOW_TURNS, _FOLLOW_TURNS_ABLE = SLOT["follow_turns"], SLOT["follow_turns_able"]
_PASSES, _PASSES_ABLE, _PLAYS = SLOT["passes"], SLOT["passes_able"], SLOT["plays"]
_LEADS, _LEAD_SIZE_SUM, _LEAD_RANK_SUM = SLOT["leads"], SLOT["lead_size_sum"], SLOT["lead_rank_sum"]
_SKIPS, _TORCHES_SPENT, _PURCHASES = SLOT["skips"], SLOT["torches_spent"], SLOT["purchases"]
_CLAIMS, _NIGHT_FLIPS = SLOT["claims"], SLOT["night_flips"]


class _Kind:
    """A game's functions the projection calls for every move, looked up once per kind. A game without an
    analytics part (``Game.analytics is None``) gets the common rows only: games, seats, moves (their kind and
    think time) and results."""

    __slots__ = ("decode", "move_facts", "replay", "rules")

    def __init__(self, kind: str) -> None:
        found = game_of(kind)
        self.rules = found.rules
        self.decode: Callable[[dict[str, Any]], Any] = self.rules.event_from_dict
        # A move's events applied in one go (``replay`` builds one state for them, not one per event).
        self.replay: Callable[[list[Any], Any], Any] = self.rules.replay
        self.move_facts: Callable[..., Any] | None = None if found.analytics is None else found.analytics.move_facts


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
    batch_no: int = -1  # the last batch whose player_of names this game's seats


class ReadModelProjection(Projection[Any]):
    name = "read-models"
    topics = ()  # every record

    def __init__(self, read_models: ReadModels, app: DigsiteApplication, cache_size: int = 4096) -> None:
        super().__init__(read_models)  # the library calls it the projection's view
        self.app = app
        self.batch = Batch()
        self._batch_no = 0
        self.cache_size = cache_size
        # Keyed by the game id's 128-bit integer (hashing a UUID object runs Python code, twice per record);
        # most recently used last, and ``_last`` is that key (already last: no need to move it).
        self._games: OrderedDict[int, GameContext] = OrderedDict()
        self._last: int | None = None

    def take_batch(self) -> Batch:
        batch, self.batch = self.batch, Batch()
        self._batch_no += 1
        return batch

    def forget(self) -> None:
        """Drop in-memory contexts (after a failed write: the store is the truth, contexts are rebuilt)."""
        self._games.clear()
        self._last = None
        self.batch = Batch()
        self._batch_no += 1

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        self.project(domain_event)
        self.batch.events += 1
        self.batch.last_notification_id = tracking.notification_id

    def projected(self, count: int, last_notification_id: int) -> None:
        """Note that ``count`` records up to ``last_notification_id`` went through ``project``."""
        self.batch.events += count
        self.batch.last_notification_id = last_notification_id

    def project(self, domain_event: Any) -> None:
        """Add one record's changes to the batch (the caller tracks its position: see ``projected``)."""
        if isinstance(domain_event, Game.MoveRecorded):
            self._move(domain_event)
        elif isinstance(domain_event, Game.Created):
            self._created(domain_event)
        elif isinstance(domain_event, Game.SeedRevealed):
            uid = domain_event.originator_id
            ctx = self._context(uid, domain_event.originator_version - 1)
            ctx.version = ctx.row["last_version"] = domain_event.originator_version
            self.batch.games[ctx.game_id] = ctx.row
            self._games.pop(uid.int, None)  # finished: no further records
            self._last = None
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
                )
            )

    # -- games ----------------------------------------------------------------------------------------------

    def _created(self, event: Game.Created) -> None:
        uid = event.originator_id
        game_id = str(uid)
        fns = _kind(event.kind)
        state = fns.rules.replay([fns.decode(e) for e in event.opening])
        row = _game_row(
            game_id,
            event.kind,
            event.labels,
            event.players,
            event.names,
            state,
            event.originator_version,
            moves=0,
            started_at=event.at,
            ended_at=None,
            first_leader=getattr(state, "leader", None),
        )
        ctx = GameContext(
            game_id, event.kind, event.players, state, event.originator_version, _time(event.at), row, fns
        )
        self._remember(uid, ctx)
        batch = self.batch
        batch.games[game_id] = row
        for seat, player in enumerate(event.players):
            batch.seats.append((game_id, seat, player, event.kind, len(event.players)))
            batch.player_of[(game_id, seat)] = player
        ctx.batch_no = self._batch_no
        if row["first_leader_seat"] is not None:
            batch.count(game_id, row["first_leader_seat"], led_round1=1)

    def _move(self, event: Game.MoveRecorded) -> None:
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
        think_ms = max(0, int((now - last).total_seconds() * 1000)) if now and last else 0
        batch = self.batch
        game_id = ctx.game_id
        players = ctx.players
        player = players[event.seat]
        if ctx.batch_no != self._batch_no:  # the game's first record in this batch: name its seats
            ctx.batch_no = self._batch_no
            player_of = batch.player_of
            for s, p in enumerate(players):
                player_of[(game_id, s)] = p
        row = ctx.row
        row["moves"] += 1
        row["last_version"] = version
        action = event.action
        move_facts = fns.move_facts
        facts = move_facts(before, action, domain_events) if move_facts else None
        if facts is None:
            batch.moves.append(
                (
                    game_id,
                    version,
                    event.seat,
                    player,
                    action.get("type", "?"),
                    0,
                    at,
                    think_ms,
                    0,
                    0,
                    0,
                    0,
                    None,
                    0,
                    _summary(action),
                )
            )
            counters = batch.seat_counters(game_id, event.seat)
            counters[_MOVES] += 1
            counters[_THINK_MS] += think_ms
            result = fns.rules.result(state)
            if result is not None and row["status"] != "over":
                row.update(_result_columns(result, ctx.players), ended_at=at)
                for s in range(len(ctx.players)):
                    batch.results.append((1, int(s in result.winners), result.scores[s], game_id, s))
        else:  # the games with move facts (Ruins): the common part here, the rarer facts in _later_facts
            seat = facts.seat
            could = facts.could_follow
            kind = facts.kind
            torches = facts.torches_spent
            batch.moves.append(
                (
                    game_id,
                    version,
                    seat,
                    player,
                    kind,
                    facts.round,
                    at,
                    think_ms,
                    int(facts.lead),
                    facts.size,
                    facts.rank,
                    int(facts.skipped_next),
                    None if could is None else int(could),
                    torches,
                    _summary(action),
                )
            )
            counted = batch.counters.get((game_id, seat))
            counters = batch.seat_counters(game_id, seat) if counted is None else counted
            counters[_MOVES] += 1
            counters[_THINK_MS] += think_ms
            if could is not None:
                counters[_FOLLOW_TURNS] += 1
                if could:
                    counters[_FOLLOW_TURNS_ABLE] += 1
            if kind == "pass":
                counters[_PASSES] += 1
                if could:
                    counters[_PASSES_ABLE] += 1
            elif kind == "play":
                counters[_PLAYS] += 1
                if facts.lead:
                    counters[_LEADS] += 1
                    counters[_LEAD_SIZE_SUM] += facts.size
                    counters[_LEAD_RANK_SUM] += facts.rank
                if facts.skipped_next:
                    counters[_SKIPS] += 1
                if torches:
                    counters[_TORCHES_SPENT] += torches
                    counters[_PURCHASES] += len(facts.purchases)
                if facts.claims:
                    counters[_CLAIMS] += len(facts.claims)
            elif facts.night_flip:
                counters[_NIGHT_FLIPS] += 1
            if (
                torches
                or facts.purchases
                or facts.claims
                or facts.went_out is not None
                or facts.round_ended is not None
                or facts.next_round is not None
                or facts.winner is not None
            ):
                self._later_facts(batch, ctx, facts, version, player, at, state)
        ctx.state, ctx.version, ctx.last_time = state, version, now
        batch.games[game_id] = row

    def _later_facts(
        self, batch: Batch, ctx: GameContext, facts: Any, version: int, player: str, at: str, state: Any
    ) -> None:
        """Purchases, claims, places, rounds and the winner: the facts only some moves have."""
        game_id = ctx.game_id
        seat = facts.seat
        if facts.torches_spent:
            batch.round_torches[(game_id, facts.round, seat)] += facts.torches_spent
        for i, p in enumerate(facts.purchases):
            batch.purchases.append(
                (game_id, version, i, seat, player, facts.round, p.discovery, p.effect, p.kind, p.position, p.price)
            )
        for i, c in enumerate(facts.claims):
            batch.claims.append((game_id, version, i, seat, player, c.ruin, c.rank, c.sleeves))
        if facts.went_out is not None:
            batch.place(game_id, facts.round, seat, place=facts.went_out)
        if facts.round_ended is not None:
            round_no, order, vp = facts.round_ended
            for place, s in enumerate(order, start=1):
                batch.place(game_id, round_no, s, place=place, vp_end=vp[s])
                batch.count(game_id, s, rounds_played=1, first_outs=int(place == 1))
        game = ctx.row
        if facts.next_round is not None:
            round_no, showdown, participants = facts.next_round
            game["rounds"] = min(round_no, 4) if not showdown else 4
            if showdown:
                game["showdown"] = True
                for s in participants:
                    batch.count(game_id, s, showdown=1)
        if facts.winner is not None:
            winner, how = facts.winner
            game.update(status="over", winner_seat=winner, winner_player=ctx.players[winner], win_how=how, ended_at=at)
            if how == "showdown":
                batch.count(game_id, winner, showdown_won=1)
            if how == "instant":  # the deciding round ends with the win: record it as played
                for s in state.participants:
                    batch.count(game_id, s, rounds_played=1, first_outs=int(s == winner))
            for s in range(len(ctx.players)):
                batch.results.append((1, int(s == winner), state.vp[s], game_id, s))

    def _context(self, uid: UUID, version: int) -> GameContext:
        ctx = self._games.get(uid.int)
        if ctx is not None and ctx.version == version:
            self._games.move_to_end(uid.int)
            self._last = uid.int
            return ctx
        game: Game = self.app.repository.get(uid, version=version)
        opened: Game = self.app.repository.get(uid, version=1)
        first = opened.state  # who led round 1
        game_id = str(uid)
        row = _game_row(
            game_id,
            game.kind,
            game.labels,
            game.players,
            game.names,
            game.state,
            version,
            moves=game.moves,
            started_at=game.created_at,
            ended_at=game.updated_at,
            first_leader=getattr(first, "leader", None),
        )
        ctx = GameContext(
            game_id, game.kind, game.players, game.state, version, _time(game.updated_at), row, _kind(game.kind)
        )
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
    labels: dict[str, Any],
    players: list[str],
    names: list[str],
    state: Any,
    version: int,
    *,
    moves: int,
    started_at: str,
    ended_at: str | None,
    first_leader: int | None,
) -> dict[str, Any]:
    """The rm_games row of a game whose rules state is ``state`` at ``version``."""
    result = game_of(kind).rules.result(state)
    return {
        "game_id": game_id,
        "kind": kind,
        "tournament_id": labels.get("tournament"),
        "round_label": labels.get("round"),
        "table_label": labels.get("table"),
        "n_players": len(players),
        "players": [{"seat": i, "id": p, "name": n} for i, (p, n) in enumerate(zip(players, names, strict=True))],
        **_result_columns(result, players),
        "moves": moves,
        "rounds": min(getattr(state, "round", 1), 4),
        "showdown": bool(getattr(state, "showdown", False)),
        "first_leader_seat": first_leader,
        "started_at": started_at,
        "ended_at": None if result is None else ended_at,
        "last_version": version,
    }


def _result_columns(result: Result | None, players: list[str]) -> dict[str, Any]:
    """The rm_games columns of a game's result: the first winner (a seat the engine plays, like a solo rival,
    has no player id), and how it won where the game says (its detail's ``how``)."""
    if result is None:
        return {"status": "playing", "winner_seat": None, "winner_player": None, "win_how": None}
    winner = result.winners[0]
    how = result.detail.get("how")
    return {
        "status": "over",
        "winner_seat": winner,
        "winner_player": players[winner] if winner < len(players) else None,
        "win_how": how if isinstance(how, str) else None,
    }


def _time(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def _summary(action: dict[str, Any]) -> str:
    kind = action.get("type")
    if kind == "play":
        text = f"play {','.join(map(str, action.get('ruins', [])))} as {action.get('rank')}"
        if action.get("purchases"):
            text += f" +{len(action['purchases'])} discovery"
        if action.get("claims"):
            text += " +claim"
        return text
    if kind == "flip":
        return "flip" if action.get("ruin") is not None else "no flip"
    return str(kind)
