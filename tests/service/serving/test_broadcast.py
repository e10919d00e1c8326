"""The delayed broadcast (``GET /games/<id>/broadcast``): off by default; a spectator never sees a move before its
delay (moves behind: after every move; minutes behind: an injected clock, nothing slept), nor any hidden fact (a
position whose hidden facts differ gives the same broadcast; the seed only at the end); the wait wakes only when a
new version becomes visible. SQLite and PostgreSQL (the ``service`` fixture)."""

from __future__ import annotations

import copy
import json
import random
import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import pytest
from flask.testing import FlaskClient

from domain.games import game as game_of
from service.api import create_app
from service.commands.application import Digsite, Viewer, records_as_seen
from service.serving import broadcast as broadcasting
from service.serving import push
from tests.domain.twins import HIDDEN_TWINS
from tests.service.api.support import ok, organiser, strong_seed

SEATS = {"ruins": 3, "arnak": 2}


@pytest.fixture
def client(service: Digsite) -> FlaskClient:
    return create_app(service=service).test_client()


TIMEOUT = 30  # seconds; only a hang would reach it


def cup(service: Digsite, kind: str) -> str:
    return service.create_tournament("Cup", 3, kind)


def new_game(service: Digsite, kind: str, tournament: str | None, label: str = "a") -> str:
    players = [service.create_player(f"P{i}") for i in range(SEATS[kind])]
    labels = {} if tournament is None else {"tournament": tournament}
    return service.create_game(kind, players, None, labels, strong_seed(label))["id"]


def play(service: Digsite, game_id: str) -> None:
    """One move: the first seat to act plays its first legal action."""
    game = service.live.current(UUID(game_id))
    rules = game_of(game.kind).rules
    seat = rules.to_act(game.state)[0]
    action = rules.legal_actions(game.state, seat)[0]
    service.submit(game_id, Viewer(seat), game.version, rules.action_to_dict(action))


def play_to_the_end(service: Digsite, game_id: str, limit: int = 5000) -> None:
    for _ in range(limit):
        if service.live.current(UUID(game_id)).seed is not None:
            return
        play(service, game_id)
    raise AssertionError("the game did not end")


def seen(client: FlaskClient, game_id: str, **query: Any) -> Any:
    return client.get(f"/api/v1/games/{game_id}/broadcast", query_string=query)


def set_delay(client: FlaskClient, tournament: str, body: dict[str, Any]) -> Any:
    return client.put(f"/api/v1/tournaments/{tournament}/broadcast", json=body, headers=organiser())


# -- off by default, and refusals -------------------------------------------------------------------------------


def test_a_game_is_not_broadcast_until_its_organiser_turns_it_on(client: FlaskClient, service: Digsite) -> None:
    tournament = cup(service, "ruins")
    game = new_game(service, "ruins", tournament)
    alone = new_game(service, "ruins", None, "alone")  # outside a tournament: never broadcast
    refusals = [seen(client, g) for g in (game, alone, "00000000-0000-4000-8000-000000000000", "not-an-id")]
    assert {r.status_code for r in refusals} == {404}
    # No such game and a game not broadcast answer alike: trying ids tells nobody which games are in play.
    assert len({json.dumps(r.get_json()) for r in refusals}) == 1
    assert refusals[0].get_json()["error"]["code"] == "not_broadcast"
    assert ok(set_delay(client, tournament, {"moves": 0})) == {"tournament": tournament, "delay": {"moves": 0}}
    assert ok(seen(client, game))["version"] == 1
    assert ok(set_delay(client, tournament, {})) == {"tournament": tournament, "delay": None}  # off again
    assert seen(client, game).status_code == 404


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"moves": 1, "minutes": 2}, "malformed_request"),  # (the schema allows one field)
        ({"moves": -1}, "malformed_request"),
        ({"minutes": 0}, "malformed_request"),
        ({"minutes": "5"}, "malformed_request"),
        ({"moves": 1.5}, "malformed_request"),
        ({"seconds": 5}, "malformed_request"),
    ],
)
def test_a_bad_delay_is_refused_with_a_code_and_changes_nothing(
    client: FlaskClient, service: Digsite, body: dict[str, Any], code: str
) -> None:
    tournament = cup(service, "ruins")
    game = new_game(service, "ruins", tournament)
    ok(set_delay(client, tournament, {"moves": 3}))
    refused = set_delay(client, tournament, body)
    assert refused.status_code == 400, refused.get_json()
    assert refused.get_json()["error"]["code"] == code
    assert ok(seen(client, game))["delay"] == {"moves": 3}  # unchanged
    assert client.put(f"/api/v1/tournaments/{tournament}/broadcast", json={"moves": 0}).status_code == 401
    assert set_delay(client, "00000000-0000-4000-8000-000000000000", {"moves": 0}).status_code == 404


def test_the_service_refuses_what_the_schema_cannot_say(service: Digsite) -> None:
    """The CLI and the dashboard reach the same function without the API's schema: its own code."""
    from service.commands.broadcasts import set_broadcast
    from service.errors import BadRequest

    tournament = cup(service, "ruins")
    for moves, minutes in ((1, 2.0), (-1, None), (None, 0), (None, float("nan")), (True, None)):
        with pytest.raises(BadRequest) as refused:
            set_broadcast(service, tournament, moves, minutes)
        assert refused.value.code == "invalid_broadcast"
    assert service.reader.aggregate(tournament, object, "tournament").broadcast is None


# -- never a move before its delay ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(SEATS))
def test_moves_behind_shows_every_move_but_the_last_n(client: FlaskClient, service: Digsite, kind: str) -> None:
    tournament = cup(service, kind)
    game = new_game(service, kind, tournament)
    ok(set_delay(client, tournament, {"moves": 3}))
    shown_before = 0
    for moves in range(12):
        answer = ok(seen(client, game, after=shown_before))
        expected = 1 + max(0, moves - 3)  # the opening, then every move but the last three
        assert answer["version"] == expected, moves
        assert [r["version"] for r in answer["records"]] == list(range(shown_before + 1, expected + 1))
        assert answer["game"]["view"] == game_of(kind).rules.view(
            service.app.repository.get(UUID(game), version=expected).state, broadcasting.SPECTATOR_SEAT
        )
        assert answer["ready"] == (expected > shown_before)
        shown_before = expected
        play(service, game)


@pytest.mark.parametrize("kind", sorted(SEATS))
def test_minutes_behind_shows_the_last_record_old_enough_by_the_stored_times(service: Digsite, kind: str) -> None:
    tournament = cup(service, kind)
    game = new_game(service, kind, tournament)
    from service.commands.broadcasts import set_broadcast

    set_broadcast(service, tournament, minutes=5)
    for _ in range(4):
        play(service, game)
    times = [(r["version"], datetime.fromisoformat(r["body"]["at"])) for r in service.stored_records(game)]
    delay = timedelta(minutes=5)
    for version, at in times:

        def shown(now: datetime) -> int:
            return broadcasting.broadcast(service, game, clock=lambda: now)["version"]

        # A hair before the record is five minutes old it is not shown; at five minutes it is.
        assert shown(at + delay - timedelta(microseconds=1)) == version - 1
        assert shown(at + delay) == version
    just_made = broadcasting.broadcast(service, game, clock=lambda: times[0][1])
    assert just_made["version"] == 0 and just_made["game"] is None and just_made["records"] == []


# -- never a hidden fact ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(SEATS))
def test_positions_whose_hidden_facts_differ_are_broadcast_alike(service: Digsite, kind: str) -> None:
    """At every tenth version of a played game: the position with another seat's hidden facts dealt anew (for each
    seat in turn) gives the same public game, while the referee tells them apart; the seed only at the end."""
    tournament = cup(service, kind)
    game_id = new_game(service, kind, tournament)
    from service.commands.broadcasts import set_broadcast

    set_broadcast(service, tournament, moves=0)
    play_to_the_end(service, game_id)
    rules = game_of(kind).rules
    latest = service.live.current(UUID(game_id))
    differed = 0
    for version in range(1, latest.version, 10):
        at = service.app.repository.get(UUID(game_id), version=version)
        public = broadcasting.public_game(at)
        for seat in range(SEATS[kind]):
            twin = copy.copy(at)
            twin.state = HIDDEN_TWINS[kind](at.state, seat, random.Random(version))
            differed += rules.view(twin.state) != rules.view(at.state)
            assert broadcasting.public_game(twin) == public, (version, seat)
        assert public["seed"] is None
    assert differed > 0  # (the twins do hide something: else this test could not fail)
    # The records a spectator follows hold no seed and no hash until the end; then the game is public.
    during = ok_broadcast_before_end(service, game_id, latest.version)
    assert latest.seed not in json.dumps(during)
    assert all("hash" not in r["body"] and "prev_hash" not in r["body"] for r in during["records"])
    after = broadcasting.broadcast(service, game_id)
    assert after["status"] == "over" and after["game"]["seed"] == latest.seed


def ok_broadcast_before_end(service: Digsite, game_id: str, latest: int) -> dict[str, Any]:
    """The broadcast as it was one record before the end (the delay set so that the last move is not shown)."""
    from service.commands.broadcasts import set_broadcast

    tournament = service.live.current(UUID(game_id)).labels["tournament"]
    set_broadcast(service, tournament, minutes=1)
    times = [datetime.fromisoformat(r["body"]["at"]) for r in service.stored_records(game_id)]
    # The seed's record is written after the last move (or with it): a clock just before it is a minute old.
    clock = times[-1] + timedelta(minutes=1) - timedelta(microseconds=1)
    return _as_if_in_play(service, game_id, clock, latest)


def _as_if_in_play(service: Digsite, game_id: str, clock: datetime, latest: int) -> dict[str, Any]:
    """What a spectator saw while the game was in play: the broadcast of the game as it stood before its last
    record (the cached game swapped for that version: a finished game is shown to its end)."""
    uid = UUID(game_id)
    before = service.app.repository.get(uid, version=latest - 1)
    original = service.live.current
    service.live.current = lambda _uid: before  # type: ignore[method-assign]
    try:
        return dict(broadcasting.broadcast(service, game_id, clock=lambda: clock))
    finally:
        service.live.current = original  # type: ignore[method-assign]


# -- the wait ---------------------------------------------------------------------------------------------------


def test_a_wait_wakes_only_when_a_new_version_becomes_visible(client: FlaskClient, service: Digsite) -> None:
    tournament = cup(service, "ruins")
    game = new_game(service, "ruins", tournament)
    ok(set_delay(client, tournament, {"moves": 2}))
    out: dict[str, Any] = {}
    waiting = threading.Thread(target=lambda: out.update(answer=seen(client, game, after=1, wait=TIMEOUT)))
    waiting.start()
    hub = push.hub_for(service)
    _until(lambda: hub.waiting == 1)
    [watch] = hub.watches[UUID(game)]
    play(service, game)
    play(service, game)  # two moves: with two behind, nothing new is visible yet
    # The push feed may wake every wait on the game when it hears of the moves (a wait then looks again: by design),
    # so the test waits for the feed to have heard both, then for the woken request to have looked: it must be
    # waiting again, not answered.
    current = service.live.load(UUID(game))
    assert current.version == 3 and not watch.ready(current, push.seats_to_act(current))  # no wake for these moves
    _until(lambda: hub.heard.get(UUID(game), 0) >= 3)
    _until(lambda: not watch.woken.is_set() or "answer" in out)
    assert "answer" not in out and waiting.is_alive() and hub.waiting == 1
    play(service, game)  # the third: version 2 (the first move) becomes visible
    waiting.join(TIMEOUT)
    answer = ok(out["answer"])
    assert answer["version"] == 2 and answer["ready"] and [r["version"] for r in answer["records"]] == [2]


def test_a_waiting_spectator_reads_no_tournament_while_a_move_wakes_the_waiting(
    client: FlaskClient, service: Digsite, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Thousands may wait on one game: the wake-up test runs for each of them at each move, on the mover's own
    thread (``Hub.landed``) or the push feed's, so it must not read the store: the tournament's delay is read by
    the waiting request itself (as the wait begins, and in each answer), never by the move that wakes it."""
    tournament = cup(service, "ruins")
    game = new_game(service, "ruins", tournament)
    ok(set_delay(client, tournament, {"moves": 3}))
    readers: list[str] = []
    real = broadcasting.delay_of

    def counted(*args: Any) -> Any:
        readers.append(threading.current_thread().name)
        return real(*args)

    monkeypatch.setattr(broadcasting, "delay_of", counted)
    out: dict[str, Any] = {}
    waiting = threading.Thread(
        target=lambda: out.update(answer=seen(client, game, after=1, wait=TIMEOUT)), name="spectator"
    )
    waiting.start()
    hub = push.hub_for(service)
    _until(lambda: hub.waiting == 1)
    [watch] = hub.watches[UUID(game)]
    for _ in range(3):
        play(service, game)  # three moves behind: nothing new is visible yet, the spectator sleeps on
    # As in the test above: the push feed may wake every wait on the game when it cannot bring its cached game
    # forward (by design: the woken request looks again), so wait for the feed to have heard the moves and the
    # request to have looked: it must be waiting again, not answered.
    current = service.live.load(UUID(game))
    assert current.version == 4 and not watch.ready(current, push.seats_to_act(current))  # no wake for these moves
    _until(lambda: hub.heard.get(UUID(game), 0) >= 4)
    _until(lambda: not watch.woken.is_set() or "answer" in out)
    assert "answer" not in out and waiting.is_alive() and hub.waiting == 1
    play(service, game)  # the fourth makes version 2 visible
    waiting.join(TIMEOUT)
    assert ok(out["answer"])["version"] == 2
    assert readers and set(readers) == {"spectator"}, readers


def _until(condition: Any) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.005)


def test_moves_behind_counts_moves_not_a_clock_s_records(service: Digsite) -> None:
    """A timed table's pause and resume are records but no moves: N moves behind still hides the last N moves, and
    shows such a record with the move before it once the next move is N behind."""
    from service.commands.broadcasts import set_broadcast

    clock = {"bank": 3600, "increment": 0}
    tournament = service.create_tournament("Cup", 3, "ruins", clock=clock)
    players = [service.create_player(f"P{i}") for i in range(3)]
    game = service.create_game("ruins", players, None, {"tournament": tournament}, strong_seed("t"), clock=clock)["id"]
    set_broadcast(service, tournament, moves=1)
    play(service, game)
    play(service, game)  # versions 2 and 3
    service.change_clock(game, "pause", "a spilt drink")  # version 4
    service.change_clock(game, "resume", "cleaned up")  # version 5
    assert broadcasting.broadcast(service, game)["version"] == 2  # the second move is the last: hidden
    play(service, game)  # version 6
    shown = broadcasting.broadcast(service, game)
    assert shown["version"] == 5 and [r["type"] for r in shown["records"]][-2:] == ["clock", "clock"]
    # The clock as it stood at the version shown (resumed): a timed game's clock is public.
    assert shown["game"] is not None and shown["game"]["clock"] is not None
    assert shown["game"]["clock"]["paused"] is False and shown["game"]["clock"]["control"]["bank"] == 3600


def test_with_minutes_a_wait_wakes_when_time_makes_a_version_visible(service: Digsite) -> None:
    """No move lands during the wait: the request wakes by the deadline computed from the stored times (the last
    record's ``at`` plus the delay), not before it. The clock runs a minute less a moment ahead of the real one, so
    the last record turns a minute old about 0.3 s after it was stored."""
    from service.commands.broadcasts import set_broadcast

    tournament = cup(service, "ruins")
    game = new_game(service, "ruins", tournament)
    set_broadcast(service, tournament, minutes=1)
    play(service, game)
    ahead = timedelta(minutes=1) - timedelta(seconds=0.3)

    def clock() -> datetime:
        return datetime.now(UTC) + ahead

    records = service.stored_records(game)
    shown = broadcasting.broadcast(service, game, clock=clock)
    assert shown["version"] == 0  # (nothing is a minute old yet: the game was made a moment ago)
    while shown["version"] < records[-1]["version"]:
        began = time.monotonic()
        shown = broadcasting.broadcast(service, game, after=shown["version"], wait=TIMEOUT, clock=clock)
        # Woken by its deadline, not by the end of the wait (which would find the version visible too).
        assert shown["ready"] and time.monotonic() - began < TIMEOUT / 2
        at = datetime.fromisoformat(records[shown["version"] - 1]["body"]["at"])
        assert clock() >= at + timedelta(minutes=1)  # (not woken before the record shown is a minute old)


def _no_more_than(spectator: Any, seat: Any, where: str = "") -> None:
    """Every fact ``spectator`` (a record as the broadcast redacts it) holds, ``seat`` (the same record as a seat
    reads it) holds too; where they differ, the spectator's is a placeholder (a count, "hidden", null)."""
    if isinstance(spectator, dict) and isinstance(seat, dict):
        for key, value in spectator.items():
            assert key in seat, f"{where}.{key}: a spectator reads what a seat does not"
            _no_more_than(value, seat[key], f"{where}.{key}")
    elif isinstance(spectator, list) and isinstance(seat, list) and len(spectator) == len(seat):
        for i, (mine, theirs) in enumerate(zip(spectator, seat, strict=True)):
            _no_more_than(mine, theirs, f"{where}[{i}]")
    elif spectator != seat:
        placeholder = spectator in (None, "hidden") or (isinstance(spectator, dict) and set(spectator) == {"count"})
        assert placeholder, f"{where}: a spectator reads {spectator!r} where a seat reads {seat!r}"


@pytest.mark.parametrize("kind", sorted(SEATS))
def test_a_spectator_reads_in_the_records_nothing_that_any_seat_cannot(service: Digsite, kind: str) -> None:
    """Record by record, while the game is on: what the broadcast's redaction leaves, every seat's redaction leaves
    too (so no seat's hidden fact, its hand, its secret choice, the deck order or the seed, reaches a spectator)."""
    tournament = cup(service, kind)
    game_id = new_game(service, kind, tournament)
    play_to_the_end(service, game_id)
    uid = UUID(game_id)
    in_play = service.app.repository.get(uid, version=service.live.current(uid).version - 1)
    assert in_play.seed is None
    stored = list(service.app.repository.event_store.get(uid, lte=in_play.version))
    spectator = records_as_seen(in_play, stored, broadcasting.SPECTATOR)
    placeholders = 0
    for seat in range(SEATS[kind]):
        for mine, theirs in zip(spectator, records_as_seen(in_play, stored, Viewer(seat)), strict=True):
            _no_more_than(mine, theirs, f"record {mine['version']}")
            placeholders += mine != theirs
    assert placeholders > 0  # (each seat reads something a spectator does not: its own hand, at least)
