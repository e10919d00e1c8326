"""A delayed broadcast: what a spectator may see of a tournament's game in play (``GET /games/<id>/broadcast``).

The tournament's organiser sets the delay (``service.commands.broadcasts``): ``moves`` behind, or ``minutes``
behind; off by default, and then the game is not broadcast at all (404 ``not_broadcast``, the same answer as for
no such game, so trying ids tells nobody which games are in play). A game outside a tournament is never broadcast.

What is shown is the public view: the engine's view for ``SPECTATOR_SEAT``, a seat at no table (never ``None``,
which is the referee's), at the latest version the delay allows, and the records up to it redacted as for that
seat (``records_as_seen``, as the log redacts them for a seat: no hashes, no hidden card, no seed):
- ``moves`` N: the opening and every record before the N-th last move (a record that is no move, a clock's pause
  or a ruling, shows with the move before it);
- ``minutes`` M: the last record at least M minutes old, by the times the store recorded (``at``); version 0 (no
  game shown) while even the opening is younger.
A finished game is public in full (spectators replay it from every seat), so its broadcast shows it to its end.

The wait (``?after=V&wait=S``) watches the game through the push channel's hub (``service.serving.push``) and
answers only when a version after ``after`` becomes visible: with moves, when a move lands that makes one so; with
minutes, when time makes one so. That moment follows from stored times (the first record not shown yet, plus M),
so the request sleeps until then (or until a record lands, when none was waiting to be shown) and costs nothing
meanwhile; a second API server computes the same moment from the same records.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, cast
from uuid import UUID

from domain.games import game as game_of
from service.caller_values import parse_uuid
from service.commands import results
from service.commands.application import Digsite, Viewer, records_as_seen
from service.commands.broadcasts import delay_of
from service.commands.results import BroadcastDelay
from service.errors import NotFound
from service.reading.results import Broadcast, PublicGame
from service.serving import push
from service.store import clocks
from service.store.aggregates import Game

# The seat a spectator views from: a seat at no table (seats are 0 and up; ``None`` is the referee, who sees all).
# Every engine hides from it what it hides from any seat but the owner: hands, decks, secret choices, the seed.
SPECTATOR_SEAT = -1
SPECTATOR = Viewer(SPECTATOR_SEAT)
NOT_BROADCAST = "this game is not broadcast: no such game, or its tournament's organiser has not turned it on"

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


Stored = tuple[int, str, bool]  # a record of a game as the delay reads it: its version, its ``at``, whether a move


def visible(game: Game, delay: BroadcastDelay, records: list[Stored], now: datetime) -> tuple[int, datetime | None]:
    """The version a spectator may see of ``game`` (as stored now, its ``records`` read from the store) under
    ``delay``, and when the next one becomes visible by time alone (minutes only; else None).

    Moves behind N: every record before the N-th last move (a clock's pause or a timeout's record between moves
    shows with the move before it); the opening always. Minutes behind M: every record at least M minutes old."""
    if game.seed is not None:  # over: public in full
        return game.version, None
    if "moves" in delay:
        behind = delay["moves"]
        moves = [version for version, _, move in records if move]
        if behind == 0:
            return game.version, None
        return (max(1, moves[-behind] - 1) if len(moves) >= behind else 1), None
    wait = timedelta(minutes=delay["minutes"])
    shown = 0
    for version, at, _ in records:
        if _parsed(at) + wait > now:
            return shown, _parsed(at) + wait
        shown = version
    return shown, None


def shown_moves(game: Game, delay: BroadcastDelay) -> int:
    """How many moves a spectator sees of ``game`` with moves behind (what a new visible version needs to grow)."""
    return game.moves if game.seed is not None else max(0, game.moves - delay["moves"])


def _parsed(at: str) -> datetime:
    found = datetime.fromisoformat(at)
    return found if found.tzinfo is not None else found.replace(tzinfo=UTC)


def broadcast(service: Digsite, game_id: str, after: int = 0, wait: float = 0, clock: Clock = utc_now) -> Broadcast:
    """The game as a spectator may see it under its tournament's delay, and the records after ``after`` up to that
    version; if none after ``after`` is visible yet, wait up to ``wait`` seconds for one (see the module)."""
    try:
        uid = parse_uuid(game_id, "game")
        game = service.live.current(uid)
    except NotFound:
        raise NotFound(NOT_BROADCAST, "not_broadcast") from None
    deadline = time.monotonic() + wait
    # What the wait judges new moves against (``ready``), known before the watch begins: a move the feed hears
    # before the first answer inside the watch is then judged, not taken for a change.
    known: dict[str, Any] = {}
    first = _answer(service, uid, game, after, clock, known)
    if wait <= 0 or first["ready"]:
        return first
    hub = push.hub_for(service)
    # The delay as the wait began, read once: ``ready`` runs on the push feed's thread for every waiting spectator
    # at every move, and a store read there for each of thousands of spectators would hold back every seat's wake
    # up. An organiser's change of the delay is read by the next answer (the wait's end, or its next wake).
    delay = delay_of(service, game.labels.get("tournament"))

    def ready(now_game: Game, to_act: list[int]) -> bool:
        # Wake for a move that makes a version after ``after`` visible (moves), or for a record landing when none
        # was waiting to be shown (minutes: it sets when the next becomes visible); else sleep on.
        if delay is None or now_game.seed is not None:
            return True
        if "moves" in delay:
            return shown_moves(now_game, delay) > int(known["moves"])
        return not known["pending"] and now_game.version > int(known["version"])

    with hub.watch(uid, ready, push.MAX_WAITING) as watch:
        while True:
            game = service.live.current(uid)
            answer = _answer(service, uid, game, after, clock, known)
            if answer["ready"] or watch is None:
                return answer
            watch.arm()
            until = deadline
            if known.get("next") is not None:
                until = min(until, time.monotonic() + max(0.0, known["next"]))
            woken = watch.latest > game.version or watch.wait(until)
            if hub.closed:  # the service is closing (its store with it): answer what was seen, read nothing more
                return answer
            if not woken and time.monotonic() >= deadline:
                return _answer(service, uid, service.live.current(uid), after, clock, known)


def _answer(
    service: Digsite, uid: UUID, game: Game, after: int, clock: Clock, known: dict[str, Any] | None = None
) -> Broadcast:
    delay = delay_of(service, game.labels.get("tournament"))
    if delay is None:
        raise NotFound(NOT_BROADCAST, "not_broadcast")
    now = clock()
    # Every record while the game is on (the delay counts them); once it is over, only those after ``after``.
    since = 0 if game.seed is None else min(after, game.version)
    stored = list(service.app.repository.event_store.get(uid, gt=since))
    kept = [(e.originator_version, getattr(e, "at"), isinstance(e, Game.MoveRecorded)) for e in stored]  # noqa: B009
    shown, next_at = visible(game, delay, kept, now)
    if known is not None:  # (what the wait needs: the version it judged, and how long until the next shows)
        known.update(
            version=game.version,
            moves=shown_moves(game, delay) if "moves" in delay else -1,
            pending=next_at is not None,
            next=None if next_at is None else (next_at - now).total_seconds(),
        )
    at = None if shown == 0 else (game if shown == game.version else service.app.repository.get(uid, version=shown))
    records = []
    if at is not None and shown > after:
        found = [e for e in stored if after < e.originator_version <= shown][: push.LOG_LIMIT]
        records = records_as_seen(at, found, SPECTATOR)
    over = at is not None and at.seed is not None
    return {
        "id": str(uid),
        "delay": delay,
        "version": shown,
        "status": "over" if over else "playing",
        "records": records,
        "ready": shown > after,
        "game": None if at is None else public_game(at),
    }


def public_game(game: Game) -> PublicGame:
    """``game`` (at its version) as a spectator sees it: nothing any one seat alone may see."""
    rules = game_of(game.kind).rules
    result = rules.result(game.state)
    return {
        "kind": game.kind,
        "players": [
            {"seat": i, "id": p, "name": n} for i, (p, n) in enumerate(zip(game.players, game.names, strict=True))
        ],
        "labels": game.labels,
        "options": game.options,
        "status": "over" if game.seed is not None else "playing",
        "to_act": rules.to_act(game.state),
        "result": None if result is None else result.to_dict(),
        "seed": game.seed,
        "view": rules.view(game.state, SPECTATOR_SEAT),
        "clock": cast("results.Clock | None", clocks.shown(game.clock, game.time_control)),
    }
