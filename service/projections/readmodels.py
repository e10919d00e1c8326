"""Stored records -> read-model rows: games, moves, and per-player-per-game facts for tendencies."""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Tracking
from eventsourcing.projection import Projection

from domain.games import GAMES, rules_for
from service.aggregates import Game, Player, Tournament
from service.application import DigsiteApplication
from service.projections.batch import Batch
from service.projections.view import ReadModels

# Stored actions were checked when they were played: rebuild them without checking again where a game can.
_ACTION_PARSERS = {kind: getattr(module, "action_from_record", None) for kind, module in GAMES.items()}


@dataclass
class GameContext:
    """What the projection keeps in memory about a game in play (rebuilt from the store when missing)."""

    kind: str
    players: list[str]
    state: Any
    version: int
    last_time: datetime | None  # when the game's last record was made (for think time)
    row: dict[str, Any]


class ReadModelProjection(Projection[Any]):
    name = "read-models"
    topics = ()  # every record

    def __init__(self, view: ReadModels, app: DigsiteApplication, cache_size: int = 4096) -> None:
        super().__init__(view)
        self.app = app
        self.batch = Batch()
        self.cache_size = cache_size
        self._games: OrderedDict[str, GameContext] = OrderedDict()

    def take_batch(self) -> Batch:
        batch, self.batch = self.batch, Batch()
        return batch

    def forget(self) -> None:
        """Drop in-memory contexts (after a failed write: the store is the truth, contexts are rebuilt)."""
        self._games.clear()
        self.batch = Batch()

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        batch = self.batch
        if isinstance(domain_event, Game.MoveRecorded):
            self._move(domain_event)
        elif isinstance(domain_event, Game.Created):
            self._created(domain_event)
        elif isinstance(domain_event, Game.SeedRevealed):
            ctx = self._context(str(domain_event.originator_id), domain_event.originator_version - 1)
            ctx.version = ctx.row["last_version"] = domain_event.originator_version
            batch.games[str(domain_event.originator_id)] = ctx.row
            self._games.pop(str(domain_event.originator_id), None)  # finished: no further records
        elif isinstance(domain_event, Player.Created):
            bot = None if domain_event.bot is None else json.dumps(domain_event.bot)
            batch.players.append(
                (str(domain_event.originator_id), domain_event.name, domain_event.kind, bot, domain_event.at)
            )
        elif isinstance(domain_event, Tournament.Created):
            batch.tournaments.append(
                (
                    str(domain_event.originator_id),
                    domain_event.name,
                    domain_event.rounds,
                    domain_event.game,
                    domain_event.at,
                )
            )
        batch.events += 1
        batch.last_notification_id = tracking.notification_id

    # -- games ----------------------------------------------------------------------------------------------

    def _created(self, event: Game.Created) -> None:
        game_id = str(event.originator_id)
        rules = rules_for(event.kind)
        state = rules.replay([rules.event_from_dict(e) for e in event.opening])
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
        self._remember(
            game_id, GameContext(event.kind, event.players, state, event.originator_version, _time(event.at), row)
        )
        batch = self.batch
        batch.games[game_id] = row
        for seat, player in enumerate(event.players):
            batch.seats.append((game_id, seat, player, event.kind, len(event.players)))
            batch.player_of[(game_id, seat)] = player
        if row["first_leader_seat"] is not None:
            batch.count(game_id, row["first_leader_seat"], led_round1=1)

    def _move(self, event: Game.MoveRecorded) -> None:
        game_id = str(event.originator_id)
        version = event.originator_version
        ctx = self._context(game_id, version - 1)
        rules = rules_for(ctx.kind)
        action = _ACTION_PARSERS.get(ctx.kind) or rules.action_from_dict
        decode, evolve = rules.event_from_dict, rules.evolve
        domain_events = [decode(e) for e in event.events]
        before = ctx.state
        state = before
        for domain_event in domain_events:
            state = evolve(state, domain_event)
        now = _time(event.at)
        think_ms = max(0, int((now - ctx.last_time).total_seconds() * 1000)) if now and ctx.last_time else 0
        batch = self.batch
        seat = event.seat
        player = ctx.players[seat]
        if (game_id, seat) not in batch.player_of:
            for s, p in enumerate(ctx.players):
                batch.player_of[(game_id, s)] = p
        row = ctx.row
        row["moves"] += 1
        row["last_version"] = version
        move_facts = getattr(rules, "move_facts", None)
        facts = move_facts(before, action(event.action), domain_events) if move_facts else None
        if facts is None:
            batch.moves.append(
                (
                    game_id,
                    version,
                    seat,
                    player,
                    event.action.get("type", "?"),
                    0,
                    event.at,
                    think_ms,
                    0,
                    0,
                    0,
                    0,
                    None,
                    0,
                    _summary(event.action),
                )
            )
            batch.count(game_id, seat, moves=1, think_ms=think_ms)
        else:
            self._ruins_facts(batch, ctx, facts, game_id, version, player, event.at, think_ms, event.action, state)
        ctx.state, ctx.version, ctx.last_time = state, version, now
        batch.games[game_id] = row

    def _ruins_facts(
        self,
        batch: Batch,
        ctx: GameContext,
        facts: Any,
        game_id: str,
        version: int,
        player: str,
        at: str,
        think_ms: int,
        action: dict[str, Any],
        state: Any,
    ) -> None:
        seat = facts.seat
        could = facts.could_follow
        batch.moves.append(
            (
                game_id,
                version,
                seat,
                player,
                facts.kind,
                facts.round,
                at,
                think_ms,
                int(facts.lead),
                facts.size,
                facts.rank,
                int(facts.skipped_next),
                None if could is None else int(could),
                facts.torches_spent,
                _summary(action),
            )
        )
        # Add straight into the batch's counters for this seat (this runs for every move projected).
        row = batch.counters[(game_id, seat)]
        row["moves"] += 1
        row["think_ms"] += think_ms
        if could is not None:
            row["follow_turns"] += 1
            if could:
                row["follow_turns_able"] += 1
        kind = facts.kind
        if kind == "pass":
            row["passes"] += 1
            if could:
                row["passes_able"] += 1
        elif kind == "play":
            row["plays"] += 1
            if facts.lead:
                row["leads"] += 1
                row["lead_size_sum"] += facts.size
                row["lead_rank_sum"] += facts.rank
            if facts.skipped_next:
                row["skips"] += 1
            if facts.torches_spent:
                row["torches_spent"] += facts.torches_spent
                row["purchases"] += len(facts.purchases)
            if facts.claims:
                row["claims"] += len(facts.claims)
        elif facts.night_flip:
            row["night_flips"] += 1
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
        row = ctx.row
        if facts.next_round is not None:
            round_no, showdown, participants = facts.next_round
            row["rounds"] = min(round_no, 4) if not showdown else 4
            if showdown:
                row["showdown"] = True
                for s in participants:
                    batch.count(game_id, s, showdown=1)
        if facts.winner is not None:
            winner, how = facts.winner
            row.update(status="over", winner_seat=winner, winner_player=ctx.players[winner], win_how=how, ended_at=at)
            if how == "showdown":
                batch.count(game_id, winner, showdown_won=1)
            if how == "instant":  # the deciding round ends with the win: record it as played
                for s in state.participants:
                    batch.count(game_id, s, rounds_played=1, first_outs=int(s == winner))
            for s in range(len(ctx.players)):
                batch.results.append((1, int(s == winner), state.vp[s], game_id, s))

    def _context(self, game_id: str, version: int) -> GameContext:
        ctx = self._games.get(game_id)
        if ctx is not None and ctx.version == version:
            self._games.move_to_end(game_id)
            return ctx
        game: Game = self.app.repository.get(UUID(game_id), version=version)
        first = self.app.repository.get(UUID(game_id), version=1).state  # who led round 1
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
        ctx = GameContext(game.kind, game.players, game.state, version, _time(game.updated_at), row)
        self._remember(game_id, ctx)
        return ctx

    def _remember(self, game_id: str, ctx: GameContext) -> None:
        self._games[game_id] = ctx
        self._games.move_to_end(game_id)
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
    outcome = rules_for(kind).outcome(state)
    return {
        "game_id": game_id,
        "kind": kind,
        "tournament_id": labels.get("tournament"),
        "round_label": labels.get("round"),
        "table_label": labels.get("table"),
        "n_players": len(players),
        "players": [{"seat": i, "id": p, "name": n} for i, (p, n) in enumerate(zip(players, names, strict=True))],
        "status": "playing" if outcome is None else "over",
        "winner_seat": None if outcome is None else outcome.winner,
        "winner_player": None if outcome is None else players[outcome.winner],
        "win_how": None if outcome is None else outcome.how,
        "moves": moves,
        "rounds": min(getattr(state, "round", 1), 4),
        "showdown": bool(getattr(state, "showdown", False)),
        "first_leader_seat": first_leader,
        "started_at": started_at,
        "ended_at": None if outcome is None else ended_at,
        "last_version": version,
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
