"""An organiser's corrections, each a recorded ruling: nothing stored is ever edited (docs/events.md, *Rulings*).

On a game's stream, chained like a move (so ``verify``, the ledger and export cover them exactly as they cover
moves): ``annul`` (the game no longer counts), ``adjust_result`` (a new ranking and scores; the engine's own
result stays in the record beside it), ``substitute`` (a seat's player changes from the next move on, with a new
seat token given once), ``restart`` (the game goes on as a new game dealt from the same seed and replaying the
moves up to a version; the original stops there, its later moves kept in the record and no longer counting),
``void_link`` (a seat's link voided, a lost or leaked printed sheet: the seat's next derived token replaces it,
given once, and the old one is refused by name, 401 ``link_voided``). On
a tournament's stream: ``penalty`` (points off a player's standing). Each carries the organiser's reason.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from eventsourcing.persistence import IntegrityError

from domain.errors import DomainError
from domain.games import game as game_of
from service.caller_values import now, parse_uuid
from service.commands.live_games import TOKEN_RULING_SETTLE_SECONDS
from service.commands.rounds import seat_token
from service.errors import BadRequest, Conflict, NotFound, from_domain
from service.integrity.chain import record_move, record_ruling
from service.integrity.records import token_hash
from service.store import eventsourcing_workarounds
from service.store.aggregates import STOPPING, Game, Tournament, link_generation, ruled
from service.stored_text import check_text

GAME_RULINGS = ("annul", "restart", "adjust_result", "substitute", "void_link")
TOKEN_RULINGS = ("substitute", "void_link")  # the rulings that change which token opens a seat
TOURNAMENT_RULINGS = ("penalty",)
MAX_REASON = 2000
MAX_PENALTY = 1000


def check_reason(reason: Any) -> str:
    """The organiser's reason: required, 1 to ``MAX_REASON`` characters of text (400 ``invalid_ruling``)."""
    if not isinstance(reason, str) or not reason.strip():
        raise BadRequest("a ruling needs the organiser's reason: a non-empty 'reason'", "invalid_ruling")
    if len(reason) > MAX_REASON:
        raise BadRequest(f"a ruling's reason holds at most {MAX_REASON} characters", "invalid_ruling")
    check_text(reason, "a ruling's reason")
    return reason.strip()


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest(f"{name!r} must be a whole number", "invalid_ruling")
    return value


class Rulings:
    """The rulings the service records (``Digsite.rulings``); every door (API, CLI) comes through here."""

    def __init__(self, service: Any) -> None:
        self.service = service  # (the ``Digsite`` service: typed loosely, as it lives in the module that makes this)

    # -- a game's -----------------------------------------------------------------------------------------

    def rule_on_game(self, game_id: str, body: Any) -> dict[str, Any]:
        """Record the ruling ``body`` (``{"ruling", "reason", ...}``) on the game; returns the ruling's record
        (and for ``substitute`` the new seat token, shown once; for ``restart`` the new game with its tokens).
        Bad input is refused with nothing written."""
        if not isinstance(body, dict):
            raise BadRequest("a ruling is an object: {'ruling': ..., 'reason': ...}", "malformed_request")
        kind = body.get("ruling")
        if kind not in GAME_RULINGS:
            raise BadRequest(f"a game's ruling is one of {', '.join(GAME_RULINGS)}, not {kind!r}", "invalid_ruling")
        reason = check_reason(body.get("reason"))
        uid = parse_uuid(game_id, "game")
        service = self.service
        service.reader.aggregate(uid, Game, "game")  # (404 unknown_game before anything else)
        with service.live.locked(uid):
            game = eventsourcing_workarounds.detached_copy(service.live.current(uid))
            stopped = [r for r in ruled(game) if r["ruling"] in STOPPING]
            if stopped:
                raise Conflict(
                    f"this game was ruled '{stopped[0]['ruling']}' at version {stopped[0]['version']}: it is no "
                    "longer played, and takes no other ruling",
                    "game_stopped",
                )
            over = game.seed is not None
            extra: dict[str, Any] = {}
            new_game: Game | None = None
            if kind == "annul":
                details: dict[str, Any] = {"in_play": not over}
            elif kind == "adjust_result":
                details = self._adjusted(game, body)
            elif kind == "substitute":
                details, token = self._substitute(game, body)
                extra["token"] = {"seat": details["seat"], "player": details["player"], "token": token}
            elif kind == "void_link":
                details, token = self._void_link(game, body)
                extra["token"] = {"seat": details["seat"], "player": details["player"], "token": token}
            else:
                new_game, tokens, details = self._restart(game, body)
                extra["continued_as"] = {
                    "id": str(new_game.id),
                    "version": new_game.version,
                    "tokens": [
                        {"seat": i, "player": p, "token": t}
                        for i, (p, t) in enumerate(zip(new_game.players, tokens, strict=True))
                    ],
                }
            record_ruling(game, kind, reason, details)
            records = list(game.collect_events())
            if new_game is not None:
                records = list(new_game.collect_events()) + records  # one transaction: both or neither
            try:
                eventsourcing_workarounds.append(service.app, records)
            except IntegrityError:  # a move of another process landed first: nothing of this ruling is written
                service.live.forget(uid)
                raise Conflict("a move landed on this game meanwhile; look at it again and retry", "conflict") from None
            service.live.remember(game)
        service.landed(game, [r for r in records if r.originator_id == uid])  # (the push channel's waits wake)
        if kind in TOKEN_RULINGS:
            # Every process's push feed may vouch for a game it cached up to TRUST_SECONDS after it last read the
            # store (``Hub.vouches``); answering later than that (and outside the game's lock) means that once the
            # organiser sees this ruling, no process still lets the old token in.
            time.sleep(TOKEN_RULING_SETTLE_SECONDS)
        return {**service.reader.log(uid, after=game.version - 1, limit=1)[0], **extra}

    def _adjusted(self, game: Game, body: dict[str, Any]) -> dict[str, Any]:
        """An adjusted result: a ranking of every seat best first, the winners, one score per seat; for a game
        that is over (the engine's result is kept in the record, this stands beside it)."""
        if game.seed is None:
            raise Conflict("this game is still in play: a result is adjusted once the game is over", "game_in_play")
        result = body.get("result")
        seats = len(game.players)
        if not isinstance(result, dict) or set(result) - {"ranking", "winners", "scores"}:
            raise BadRequest(
                "'result' must be an object with 'ranking' (every seat, best first), optional 'winners' and "
                "'scores' (one per seat)",
                "invalid_ruling",
            )
        ranking = [_int(s, "ranking") for s in result.get("ranking") or []]
        if sorted(ranking) != list(range(seats)):
            raise BadRequest(f"'ranking' must list each of the seats 0 to {seats - 1} once", "invalid_ruling")
        winners = [_int(s, "winners") for s in result.get("winners", ranking[:1])]
        if not winners or sorted(winners) != sorted(ranking[: len(winners)]) or len(set(winners)) != len(winners):
            raise BadRequest("'winners' must be the first seats of the ranking", "invalid_ruling")
        engine = game_result(game)
        scores = [_int(s, "scores") for s in result.get("scores", engine["scores"] if engine else [])]
        if len(scores) != seats:
            raise BadRequest(f"'scores' must hold one score per seat ({seats})", "invalid_ruling")
        return {"result": {"ranking": ranking, "winners": winners, "scores": scores}, "engine_result": engine}

    def _substitute(self, game: Game, body: dict[str, Any]) -> tuple[dict[str, Any], str]:
        if game.seed is not None:
            raise Conflict("this game is over: a player is substituted while it is in play", "game_over")
        seat = _int(body.get("seat"), "seat")
        if not 0 <= seat < len(game.players):
            raise BadRequest(f"this game has seats 0 to {len(game.players) - 1}, not {seat}", "invalid_ruling")
        try:
            player = self.service.player(body.get("player", ""))
        except (BadRequest, NotFound):
            raise NotFound(f"no player with id {body.get('player')!r}", "unknown_player") from None
        if player["id"] in game.players:
            raise BadRequest("this player already holds a seat of this game", "player_seated_twice")
        token = secrets.token_urlsafe(24)
        details = {
            "seat": seat,
            "player": player["id"],
            "name": player["name"],
            "replaced": game.players[seat],
            "from_version": game.version + 2,  # the first move after this ruling
            "token_hash": token_hash(token),
        }
        return details, token

    def _void_link(self, game: Game, body: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """A seat's link voided: its token is replaced by the next one derived from the server secret for the seat
        (``seat_token``'s generation, so the rounds' sheets print the new link), the old token's hash kept to refuse
        it by name. While the game is in play: once it is over its records are public, a link opens nothing more."""
        if game.seed is not None:
            raise Conflict("this game is over: its links open nothing secret any more", "game_over")
        seat = _int(body.get("seat"), "seat")
        if not 0 <= seat < len(game.players):
            raise BadRequest(f"this game has seats 0 to {len(game.players) - 1}, not {seat}", "invalid_ruling")
        generation = link_generation(game, seat) + 1
        token = seat_token(self.service.settings.server_secret(), str(game.id), seat, generation)
        details = {
            "seat": seat,
            "player": game.players[seat],
            "generation": generation,
            "voided_hash": game.token_hashes[seat],
            "token_hash": token_hash(token),
        }
        return details, token

    def _restart(self, game: Game, body: dict[str, Any]) -> tuple[Game, list[str], dict[str, Any]]:
        """A new game of the same players, options and seed, its moves those of ``game`` up to ``version``
        (re-decided, so it verifies like any game), labelled ``restart_of``; the original stops."""
        if game.seed is not None:
            raise Conflict(
                "this game is over and its seed is public: the rest of its deal is known, so it cannot go on from "
                "an earlier move (annul it and create a new game)",
                "game_over",
            )
        version = _int(body.get("version"), "version")
        if not 1 <= version <= game.version:
            raise NotFound(f"this game has versions 1 to {game.version}, not {version}", "unknown_version")
        service = self.service
        records = service.reader.stored_records(game.id)[1:version]
        # A timeout's action is replayed as a move; a change of the clock is not (the new game's clock starts afresh)
        actions = [r["body"]["action"] for r in records if r["type"] in ("move", "timeout")]
        if any(r["type"] not in ("move", "timeout", "clock") for r in records):
            raise BadRequest(
                f"record {version} follows a ruling: a game restarts from a version its moves reached",
                "invalid_ruling",
            )
        labels = {**game.labels, "restart_of": {"game": str(game.id), "version": version}}
        seed = game.state.seed  # the game's own seed, still secret: the new game deals the same cards
        clock = (
            game.time_control
        )  # (the original's clock, started afresh: the moves up to the version are replayed now)
        new_game, tokens, _ = service._new_game(game.kind, list(game.players), game.options, labels, seed, clock)
        rules = game_of(game.kind).rules
        for data in actions:
            try:
                action = rules.action_from_dict(data)
                events, after = rules.step(new_game.state, action)
            except DomainError as error:
                raise from_domain(error) from None
            record_move(new_game, rules, action, events, after)
        details = {"version": version, "continued_as": str(new_game.id)}
        return new_game, tokens, details

    def of_game(self, game_id: str) -> list[dict[str, Any]]:
        return of_game(self.service.reader, game_id)

    # -- a tournament's -----------------------------------------------------------------------------------

    def rule_on_tournament(self, tournament_id: str, body: Any) -> dict[str, Any]:
        """Record a ``penalty`` (``{"ruling": "penalty", "player", "points", "reason"}``) on the tournament."""
        if not isinstance(body, dict):
            raise BadRequest("a ruling is an object: {'ruling': ..., 'reason': ...}", "malformed_request")
        if body.get("ruling") not in TOURNAMENT_RULINGS:
            raise BadRequest(
                f"a tournament's ruling is one of {', '.join(TOURNAMENT_RULINGS)}, not {body.get('ruling')!r}",
                "invalid_ruling",
            )
        reason = check_reason(body.get("reason"))
        points = _int(body.get("points"), "points")
        if not 1 <= points <= MAX_PENALTY:
            raise BadRequest(f"a penalty takes 1 to {MAX_PENALTY} points off", "invalid_ruling")
        tournament: Tournament = self.service.reader.aggregate(tournament_id, Tournament, "tournament")
        player = body.get("player")
        if player not in tournament_players(tournament) and player not in self._players_of_games(tournament_id):
            raise NotFound(f"player {player!r} is not entered in or seated at this tournament", "unknown_player")
        penalty = {"player": player, "points": points, "reason": reason, "at": now()}
        tournament.give_penalty(**penalty)
        self.service.app.save(tournament)  # (a ruling meeting another event of it: 409 from the store, retried)
        return {"ruling": "penalty", "tournament": str(tournament.id), "version": tournament.version, **penalty}

    def _players_of_games(self, tournament_id: str) -> set[str]:
        """The players of the tournament's games made by hand (not seated by a round): read only when a penalty
        names a player who is neither entered nor seated (rare: it walks the games' creations)."""
        games = self.service.game_ids(str(tournament_id))
        return {seat["id"] for game_id in games for seat in self.service.game(game_id)["players"]}

    def of_tournament(self, tournament_id: str) -> list[dict[str, Any]]:
        return of_tournament(self.service.reader, tournament_id)


def of_game(reader: Any, game_id: str) -> list[dict[str, Any]]:
    """The game's ruling records, oldest first (``reader``: the store's ``GameReader``, read only)."""
    return [r for r in reader.stored_records(game_id) if r["type"] == "ruling"]


def of_tournament(reader: Any, tournament_id: str) -> list[dict[str, Any]]:
    """The tournament's penalties, oldest first (``reader``: the store's ``GameReader``, read only)."""
    tournament: Tournament = reader.aggregate(tournament_id, Tournament, "tournament")
    return [{"ruling": "penalty", **p} for p in getattr(tournament, "penalties", [])]


def tournament_players(tournament: Tournament) -> set[str]:
    """Whoever is entered in the tournament or was seated at one of its tables."""
    seated = {p for r in tournament.seated for t in r["tables"] for p in t["players"]}
    return set(tournament.entries) | seated


def game_result(game: Game) -> dict[str, Any] | None:
    """The game's own result (the engine's, or a forfeit's: None while in play), as an adjusted result stands beside."""
    forfeit = getattr(game, "forfeit", None)  # (a forfeit clock's timeout ended it: its result is the record's)
    found = forfeit["result"] if forfeit is not None else game_of(game.kind).rules.result(game.state)
    if found is None:
        return None
    result = found if isinstance(found, dict) else found.to_dict()
    return {k: v for k, v in result.items() if k != "detail"}


__all__ = ["GAME_RULINGS", "TOURNAMENT_RULINGS", "Rulings"]
