"""The push channel (``GET /games/<id>/updates``, a long poll): a waiting request wakes when a record lands, in
its own process or another (two services on one store, as two gunicorn workers); what it carries is exactly
the log as that caller may read it; callers the log refuses are refused here too."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.api import create_app
from service.commands.application import Digsite, Viewer
from service.serving import push
from service.settings import Settings
from tests.service.api.support import (
    ORGANISER_KEY,
    act,
    bearer,
    look,
    new_game,
    new_players,
    ok,
    organiser,
    seat_headers,
    strong_seed,
)

TIMEOUT = 30  # seconds; only a hang would reach it


def updates(client: FlaskClient, game_id: str, headers: dict[str, str], **query: Any) -> Any:
    return client.get(f"/api/v1/games/{game_id}/updates", headers=headers, query_string=query)


def records(client: FlaskClient, game_id: str, headers: dict[str, str], after: int = 0) -> list[dict[str, Any]]:
    found = ok(client.get(f"/api/v1/games/{game_id}/log", headers=headers, query_string={"after": after}))
    return found["records"]  # type: ignore[no-any-return]


def in_background(call: Any) -> tuple[threading.Thread, dict[str, Any]]:
    out: dict[str, Any] = {}

    def run() -> None:
        out["answer"] = call()
        out["at"] = time.monotonic()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, out


def wait_until_waiting(service: Digsite, count: int = 1) -> None:
    """Until ``count`` requests wait on the service's hub (what the test does next must happen during the wait)."""
    hub = push.hub_for(service)
    deadline = time.monotonic() + TIMEOUT
    while hub.waiting < count:
        assert time.monotonic() < deadline, "the request never started waiting"
        time.sleep(0.005)


@pytest.fixture(params=["same process", "another process"])
def other(request: pytest.FixtureRequest, app: Flask, service: Digsite) -> Iterator[tuple[Flask, Digsite]]:
    """The app (and service) the move is posted through: the waiting one's, or a second one on the same store."""
    if request.param == "same process":
        yield app, service
        return
    second = Digsite(Settings(database=service.settings.database, api_key=ORGANISER_KEY))
    try:
        yield create_app(service=second), second
    finally:
        second.close()


def test_a_waiting_seat_wakes_when_a_move_lands_and_gets_the_record_as_its_log_has_it(
    client: FlaskClient, service: Digsite, other: tuple[Flask, Digsite]
) -> None:
    created = new_game(client, players=3, seed=strong_seed("push-wakes"))
    game_id = created["id"]
    hands = look(client, game_id, organiser())["view"]["hands"]
    thread, out = in_background(lambda: updates(client, game_id, seat_headers(created, 0), after=1, wait=TIMEOUT))
    wait_until_waiting(service)
    moved_at = time.monotonic()
    flip = {"type": "flip", "seat": 1, "ruin": hands[1]["ruins"][0]}
    ok(act(other[0].test_client(), game_id, seat_headers(created, 1), 1, flip))
    thread.join(TIMEOUT)
    assert not thread.is_alive()
    answer = ok(out["answer"])
    assert out["at"] - moved_at < TIMEOUT / 2  # woken by the move, not by the wait running out
    assert answer["ready"] is True and answer["version"] == 2 and answer["status"] == "playing"
    assert answer["to_act"] == [0, 2]
    # The record exactly as seat 0's log has it: seat 1's secret flip is hidden.
    assert answer["records"] == records(client, game_id, seat_headers(created, 0), after=1)
    (record,) = answer["records"]
    assert record["body"]["action"]["ruin"] == "hidden" and "hash" not in record
    assert str(hands[1]["ruins"][0]) not in json.dumps(record["body"]["events"])


def test_waiting_for_a_turn_wakes_only_when_the_seat_is_to_act_and_carries_its_game(
    client: FlaskClient, service: Digsite
) -> None:
    created = new_game(client, players=2, seed=strong_seed("push-turn"))
    game_id = created["id"]
    ok(act(client, game_id, seat_headers(created, 0), 1, {"type": "flip", "seat": 0, "ruin": None}))
    ok(act(client, game_id, seat_headers(created, 1), 2, {"type": "flip", "seat": 1, "ruin": None}))
    game = look(client, game_id, organiser())
    (mover,) = game["to_act"]
    waiter = 1 - mover
    query = {"after": 3, "wait": TIMEOUT, "until": "turn", "include": "game"}
    # The mover is to act now: answered at once, with its game to act on.
    now = ok(updates(client, game_id, seat_headers(created, mover), **query))
    assert now["ready"] and now["records"] == [] and now["game"] == look(client, game_id, seat_headers(created, mover))
    # The other seat waits through the mover's play and wakes when its turn comes.
    thread, out = in_background(lambda: updates(client, game_id, seat_headers(created, waiter), **query))
    wait_until_waiting(service)
    legal = now["game"]["legal_actions"]
    play = next(a for a in legal if a["type"] == "play")
    ok(act(client, game_id, seat_headers(created, mover), 3, play))
    thread.join(TIMEOUT)
    answer = ok(out["answer"])
    assert answer["ready"] and waiter in answer["to_act"] and answer["version"] == 4
    assert answer["records"] == records(client, game_id, seat_headers(created, waiter), after=3)
    assert answer["game"]["seat"] == waiter and answer["game"]["legal_actions"]
    assert answer["game"] == look(client, game_id, seat_headers(created, waiter))


def test_a_wait_with_nothing_new_ends_with_the_state_unchanged(client: FlaskClient) -> None:
    created = new_game(client, players=2)
    began = time.monotonic()
    answer = ok(updates(client, created["id"], seat_headers(created, 0), after=1, wait=1))
    assert time.monotonic() - began >= 1
    assert answer == {
        "id": created["id"],
        "version": 1,
        "status": "playing",
        "to_act": [0, 1],
        "records": [],
        "ready": False,
    }
    # Without a wait the answer comes at once: everything since `after`.
    everything = ok(updates(client, created["id"], organiser()))
    assert everything["records"] == records(client, created["id"], organiser()) and everything["ready"]


def test_who_may_not_read_the_log_may_not_subscribe(client: FlaskClient) -> None:
    created = new_game(client, players=2)
    another = new_game(client, players=2)
    game_id = created["id"]
    refusals = [
        (updates(client, game_id, {}, wait=5), 401, "missing_token"),
        (updates(client, game_id, seat_headers(another, 0), wait=5), 401, "invalid_token"),
        (updates(client, game_id, bearer("not-a-token"), wait=5), 401, "invalid_token"),
        (updates(client, game_id, bearer("wrong-organiser-key"), wait=5), 401, "invalid_token"),
        (updates(client, game_id, organiser(), until="turn", wait=5), 403, "seat_token_required"),
        (updates(client, game_id, seat_headers(created, 0), after=9, wait=5), 404, "unknown_version"),
        (updates(client, game_id, seat_headers(created, 0), wait=56), 400, "malformed_request"),
        (updates(client, game_id, seat_headers(created, 0), until="ever"), 400, "malformed_request"),
        (updates(client, "not-a-game", seat_headers(created, 0)), 404, "unknown_game"),
    ]
    for response, status, code in refusals:
        assert response.status_code == status, response.get_json()
        body = response.get_json()["error"]
        assert body["code"] == code and body["message"]
    assert "records" not in json.dumps([r.get_json() for r, _, _ in refusals])


@pytest.mark.parametrize(
    ("kind", "seats", "options"), [("ruins", 3, None), ("arnak", 2, {"side": "snake"}), ("arnak", 1, None)]
)
def test_through_the_channel_each_seat_gets_exactly_its_own_log_and_never_another_seat_s_secrets(
    client: FlaskClient, kind: str, seats: int, options: dict[str, Any] | None
) -> None:
    """Every seat follows a game move by move through the channel while the seats play their first legal action:
    each gets the records of its own log, never the referee's, for both games."""
    body: dict[str, Any] = {"game": kind, "seats": new_players(client, seats), "seed": strong_seed(f"push-{kind}")}
    if options is not None:
        body["options"] = options
    created = ok(client.post("/api/v1/games", json=body, headers=organiser()), 201)
    game_id = created["id"]
    heard: dict[int, list[dict[str, Any]]] = {seat: [] for seat in range(seats)}
    known = dict.fromkeys(range(seats), 0)
    for _ in range(40):
        for seat in range(seats):
            answer = ok(updates(client, game_id, seat_headers(created, seat), after=known[seat]))
            heard[seat] += answer["records"]
            known[seat] = answer["version"]
        game = look(client, game_id, organiser())
        if game["status"] == "over":
            break
        mover = game["to_act"][0]
        seen = look(client, game_id, seat_headers(created, mover))
        ok(act(client, game_id, seat_headers(created, mover), seen["version"], seen["legal_actions"][0]))
    referee = records(client, game_id, organiser())
    over = look(client, game_id, organiser())["status"] == "over"
    for seat in range(seats):
        mine = records(client, game_id, seat_headers(created, seat))
        assert heard[seat] == mine[: len(heard[seat])] and len(heard[seat]) >= 20
        if not over:
            assert all("hash" not in r for r in heard[seat])
            assert "token_hashes" not in heard[seat][0]["body"]
            assert heard[seat] != referee[: len(heard[seat])]  # something was hidden from this seat
            if kind == "arnak":  # e.g. the idols of sites not yet explored
                assert "hidden" in json.dumps(heard[seat])
    if kind == "ruins" and not over:
        dealt = next(e for e in heard[0][0]["body"]["opening"] if e["type"] == "RoundDealt")
        assert dealt["hands"][1] == {"count": 9} and isinstance(dealt["hands"][0], list)


def test_a_seat_reads_its_game_conditionally(client: FlaskClient, service: Digsite, monkeypatch: Any) -> None:
    created = new_game(client, players=2)
    game_id = created["id"]
    url = f"/api/v1/games/{game_id}"
    first = client.get(url, headers=seat_headers(created, 0))
    tag = first.headers["ETag"]
    assert first.status_code == 200 and tag and first.headers["Cache-Control"] == "private, no-cache"
    other_seat = client.get(url, headers=seat_headers(created, 1)).headers["ETag"]
    referee = client.get(url, headers=organiser()).headers["ETag"]
    assert len({tag, other_seat, referee}) == 3

    # Unchanged: 304, and the view is not built (the store reader's game() is not called).
    built = []
    real_game = service.reader.game
    monkeypatch.setattr(service.reader, "game", lambda *a, **k: built.append(a) or real_game(*a, **k))
    again = client.get(url, headers={**seat_headers(created, 0), "If-None-Match": tag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == tag and built == []
    # Another seat's tag does not match this seat's answer; a move changes the tag.
    assert client.get(url, headers={**seat_headers(created, 0), "If-None-Match": other_seat}).status_code == 200
    ok(act(client, game_id, seat_headers(created, 1), 1, {"type": "flip", "seat": 1, "ruin": None}))
    moved = client.get(url, headers={**seat_headers(created, 0), "If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["ETag"] != tag and moved.get_json()["version"] == 2
    # A past version has its own tag, and is 304 while the game does not move.
    past = client.get(url, headers=seat_headers(created, 0), query_string={"version": 1})
    assert past.headers["ETag"] not in (tag, moved.headers["ETag"])
    unchanged = {**seat_headers(created, 0), "If-None-Match": past.headers["ETag"]}
    assert client.get(url, headers=unchanged, query_string={"version": 1}).status_code == 304
    # A refused caller is refused whatever tag it sends.
    stolen = client.get(url, headers={**bearer("not-a-token"), "If-None-Match": tag})
    assert stolen.status_code == 401 and stolen.get_json()["error"]["code"] == "invalid_token"


def test_past_the_most_waiting_requests_a_process_holds_a_wait_is_refused_at_once_with_503_and_retry_after(
    client: FlaskClient, service: Digsite, monkeypatch: Any
) -> None:
    """Waiting requests hold server threads and connections: past ``DIGSITE_PUSH_MAX_WAITING`` in one process a
    wait is not held (moves must still find a thread) but refused the HTTP way, saying when to ask again; one whose
    answer is there already is answered; a move is still accepted, and wakes the wait that is held."""
    monkeypatch.setattr(push, "MAX_WAITING", 1)
    created = new_game(client, players=2)
    game_id = created["id"]
    thread, out = in_background(lambda: updates(client, game_id, seat_headers(created, 0), after=1, wait=TIMEOUT))
    wait_until_waiting(service)
    refused = updates(client, game_id, seat_headers(created, 1), after=1, wait=TIMEOUT)
    assert refused.status_code == 503 and refused.get_json()["error"]["code"] == "busy"
    assert int(refused.headers["Retry-After"]) >= 1 and "retry_after" not in refused.get_json()
    assert not out  # (still held: the refusal did not wait for it)
    # Already there: not a wait, answered whatever the server holds.
    assert ok(updates(client, game_id, seat_headers(created, 1), after=0, wait=TIMEOUT))["version"] == 1
    ok(act(client, game_id, seat_headers(created, 1), 1, {"type": "flip", "seat": 1, "ruin": None}))
    thread.join(TIMEOUT)
    first = ok(out["answer"])
    assert first["ready"] and first["version"] == 2 and "retry_after" not in first


def test_a_hub_lets_in_at_most_its_limit_of_watches_counted_as_they_come_and_go(service: Digsite) -> None:
    """Counted and let in under one lock (a burst of requests cannot all see room for one more)."""
    hub = push.hub_for(service)
    uid = UUID(int=7)

    def ready(game: Any, to_act: list[int]) -> bool:
        return True

    with hub.watch(uid, ready, 2) as first, hub.watch(uid, ready, 2) as second, hub.watch(uid, ready, 2) as third:
        assert first is not None and second is not None and third is None and hub.waiting == 2
    with hub.watch(uid, ready, 2) as again:
        assert again is not None and hub.waiting == 1
    assert hub.waiting == 0


def test_a_move_past_the_most_waiting_requests_is_acknowledged_with_a_next_that_says_when_to_ask(
    client: FlaskClient, service: Digsite, monkeypatch: Any
) -> None:
    """A move posted with ``?wait`` has landed whatever the server holds: its answer is the move (200), and its
    ``next``, not held, says when to ask the channel again."""
    monkeypatch.setattr(push, "MAX_WAITING", 1)
    created, other = new_game(client, players=2), new_game(client, players=2)
    game_id = created["id"]
    # The one wait the process may hold is on another game, which this move does not wake: a wait on this game
    # would be woken by the move and could leave before the move's ``next`` asks for room.
    held, held_out = in_background(lambda: updates(client, other["id"], seat_headers(other, 1), after=1, wait=TIMEOUT))
    wait_until_waiting(service)
    flip = {"type": "flip", "seat": 0, "ruin": None}
    moved = ok(
        client.post(
            f"/api/v1/games/{game_id}/actions",
            json={"version": 1, "action": flip},
            headers=seat_headers(created, 0),
            query_string={"wait": TIMEOUT},
        )
    )
    assert moved["version"] == 2 and moved["next"]["retry_after"] >= 1 and moved["next"]["ready"] is False
    ok(client.post(f"/api/v1/games/{other['id']}/actions", json={"version": 1, "action": flip},
                   headers=seat_headers(other, 0)))  # fmt: skip
    held.join(TIMEOUT)
    assert ok(held_out["answer"])["version"] == 2


def test_closing_the_service_stops_its_feed_before_the_store_closes(database: Any) -> None:
    """A feed still reading a store that closes under it crashed the process (SQLite): closing a service stops
    its feed, wakes whoever waits, and returns only once the feed's thread has left the store."""
    service = Digsite(Settings(database=database, api_key=ORGANISER_KEY))
    client = create_app(service=service).test_client()
    made = new_game(client, players=2, seed=strong_seed("push-closes"))
    headers = seat_headers(made, 0)
    thread, out = in_background(lambda: updates(client, made["id"], headers, after=1, wait=TIMEOUT))
    wait_until_waiting(service)
    hub = push.hub_for(service)
    deadline = time.monotonic() + TIMEOUT
    while not hub.feeding:  # (the request waits from just before its feed starts)
        assert time.monotonic() < deadline, "the feed never started"
        time.sleep(0.005)
    service.close()
    assert not hub.feeding  # (it lingers LINGER_SECONDS after the last request if nobody stops it)
    thread.join(TIMEOUT)
    assert not thread.is_alive() and "answer" in out  # the waiting request was answered, not left hanging


def test_a_move_posted_with_wait_is_answered_with_the_seat_s_next_turn(
    client: FlaskClient, service: Digsite, other: tuple[Flask, Digsite]
) -> None:
    """``POST /actions?wait=S``: the move, then (as ``next``) what the push channel answers for the seat's next
    turn, so a client makes one request a move; the other seats' moves may land in another process."""
    created = new_game(client, players=2, seed=strong_seed("push-post-wait"))
    game_id = created["id"]
    ok(act(client, game_id, seat_headers(created, 0), 1, {"type": "flip", "seat": 0, "ruin": None}))
    ok(act(client, game_id, seat_headers(created, 1), 2, {"type": "flip", "seat": 1, "ruin": None}))
    (mover,) = look(client, game_id, organiser())["to_act"]
    mine = seat_headers(created, mover)
    play = next(a for a in look(client, game_id, mine)["legal_actions"] if a["type"] == "play")
    url = f"/api/v1/games/{game_id}/actions"
    thread, out = in_background(
        lambda: client.post(url, json={"version": 3, "action": play}, headers=mine, query_string={"wait": TIMEOUT})
    )
    wait_until_waiting(service)
    elsewhere = other[0].test_client()
    while True:  # the other seat plays until the mover is to act again (or the game ends)
        now = look(client, game_id, organiser())
        if mover in now["to_act"] or now["status"] == "over":
            break
        (seat,) = now["to_act"]
        theirs = seat_headers(created, seat)
        ok(act(elsewhere, game_id, theirs, now["version"], look(client, game_id, theirs)["legal_actions"][0]))
    thread.join(TIMEOUT)
    answer = ok(out["answer"])
    assert answer["version"] == 4 and answer["status"] == "playing"  # the move itself, as without a wait
    following = answer["next"]
    assert following["ready"] and following["version"] == now["version"] and mover in following["to_act"]
    assert following["records"] == records(client, game_id, mine, after=4)  # as the mover's log has them
    assert following["game"] == look(client, game_id, mine)


def test_a_refused_move_posted_with_wait_is_answered_at_once_and_a_bad_wait_is_refused(client: FlaskClient) -> None:
    created = new_game(client, players=2)
    url = f"/api/v1/games/{created['id']}/actions"
    flip = {"type": "flip", "seat": 0, "ruin": None}
    began = time.monotonic()
    stale = client.post(
        url, json={"version": 7, "action": flip}, headers=seat_headers(created, 0), query_string={"wait": TIMEOUT}
    )
    assert stale.status_code == 409 and time.monotonic() - began < TIMEOUT / 2
    for bad in (-1, 56, "soon"):
        refused = client.post(
            url, json={"version": 1, "action": flip}, headers=seat_headers(created, 0), query_string={"wait": bad}
        )
        assert refused.status_code == 400 and refused.get_json()["error"]["code"] == "malformed_request"
    assert look(client, created["id"], organiser())["version"] == 1  # nothing was played


def test_the_feed_keeps_a_watched_game_s_latest_records_only_while_it_is_watched(
    client: FlaskClient, service: Digsite
) -> None:
    """What a woken request answers from memory (``Hub.recent``): every record the feed read for the game, in
    order, only for a range it read whole, and nothing once nobody watches the game."""
    created = new_game(client, players=2, seed=strong_seed("push-recent"))
    uid = UUID(created["id"])
    hub = push.hub_for(service)
    with hub.watch(uid, lambda game, to_act: False):
        assert hub.recent(uid, 1, 1) is None  # nothing read yet
        for seat, version in ((0, 1), (1, 2)):
            ok(
                act(
                    client,
                    created["id"],
                    seat_headers(created, seat),
                    version,
                    {"type": "flip", "seat": seat, "ruin": None},
                )
            )
        deadline = time.monotonic() + TIMEOUT
        while (held := hub.recent(uid, 1, 3)) is None:
            assert time.monotonic() < deadline, "the feed never read the moves"
            time.sleep(0.005)
        stored = list(service.app.repository.event_store.get(uid, gt=1))
        assert [e.originator_version for e in held] == [2, 3] and [e.__dict__ for e in held] == [
            e.__dict__ for e in stored
        ]
        assert [e.originator_version for e in hub.recent(uid, 2, 3) or []] == [3]
        assert hub.recent(uid, 0, 3) is None  # record 1 was never read by the feed: the store must be asked
        assert hub.recent(uid, 1, 4) is None  # nor a record it has not read yet
    assert hub.recent(uid, 1, 3) is None


def _play_seat(service: Digsite, game_id: str, seat: int) -> int:
    """Play seat ``seat``'s first legal action through ``service``; the version it made."""
    now = service.game(game_id, Viewer(seat))
    return int(service.submit(game_id, Viewer(seat), now["version"], now["legal_actions"][0])["version"])


def _heard(hub: push.Hub, uid: UUID, version: int) -> None:
    deadline = time.monotonic() + TIMEOUT
    while hub.heard.get(uid, 0) < version:
        assert time.monotonic() < deadline, "the feed never read the move"
        time.sleep(0.005)


def test_a_wait_trusts_the_cached_game_the_feed_covers_and_only_that(
    client: FlaskClient, service: Digsite, monkeypatch: Any
) -> None:
    """A wait answers from the game this process cached, without reading the store, when the feed covers it
    (``Hub.covers``): it has run since before the move that made the cached version (``POST /actions?wait``'s
    mark), or has heard the game in this epoch, and has heard nothing newer. A record it heard (from another
    process, landed before the wait began watching) or a break of the feed sends it to the store, so no turn is
    missed and no answer is older than the store."""
    second = Digsite(Settings(database=service.settings.database, api_key=ORGANISER_KEY))
    try:
        created = new_game(client, players=2, seed=strong_seed("push-trust"))
        game_id, uid = created["id"], UUID(created["id"])
        hub = push.hub_for(service)
        reads: list[UUID] = []
        current = service.live.current
        monkeypatch.setattr(service.live, "current", lambda u: reads.append(u) or current(u))
        with hub.watch(UUID(new_game(client, players=2)["id"]), lambda game, to_act: False):  # the feed runs
            # Nothing newer: the cached game is the answer, and the store is not read.
            mark = hub.mark()
            assert mark is not None
            made = _play_seat(service, game_id, 0)
            reads.clear()
            answer = push.updates(service, game_id, Viewer(0), made, 0.2, "turn", include_game=True, mark=mark)
            assert not answer["ready"] and answer["version"] == made and reads == []
            # Another process moves the game before this one watches it: the feed heard it, so the store is read.
            _play_seat(service, game_id, 1)  # (the second night flip)
            (leader,) = service.game(game_id)["to_act"]
            mark = hub.mark()
            made = _play_seat(service, game_id, leader)
            theirs = _play_seat(second, game_id, 1 - leader)
            assert leader in second.game(game_id)["to_act"], "this seed's game changed: pick one where the lead returns"
            _heard(hub, uid, theirs)
            reads.clear()
            answer = push.updates(service, game_id, Viewer(leader), made, TIMEOUT, "turn", include_game=True, mark=mark)
            assert reads == [uid] and answer["ready"] and answer["version"] == theirs
            assert answer["game"] == service.game(game_id, Viewer(leader))
            # A break of the feed (a failure, a restart) after the move: neither the mark nor what it heard before
            # covers the game, until the feed hears it again.
            seat = service.game(game_id)["to_act"][0]
            mark = hub.mark()
            made = _play_seat(service, game_id, seat)
            _heard(hub, uid, made)
            with hub.lock:
                hub._new_epoch()
            reads.clear()
            push.updates(service, game_id, Viewer(seat), made, 0.01, "turn", include_game=True, mark=mark)
            assert reads == [uid]
            # A wait with no move of its own (GET /updates) trusts the game once the feed has heard it in this epoch.
            seat = service.game(game_id)["to_act"][0]
            made = _play_seat(service, game_id, seat)
            _heard(hub, uid, made)
            reads.clear()
            answer = push.updates(service, game_id, Viewer(seat), made, 0.01, "record")
            assert reads == [] and answer["version"] == made and not answer["ready"]
    finally:
        second.close()


def test_a_move_stored_in_the_waiting_request_s_own_process_wakes_it_without_the_feed(
    client: FlaskClient, service: Digsite, monkeypatch: Any
) -> None:
    """``Hub.landed``: the process that stores a move wakes the requests it holds on that game at once, with the
    move's records, rather than when its feed hears of the move through the store (here it never does)."""
    created = new_game(client, players=2, seed=strong_seed("push-landed"))
    game_id = created["id"]
    monkeypatch.setattr(push.Hub, "catch_up", lambda hub, read=None: None)  # the feed hears nothing
    answers_read: list[threading.Thread] = []  # who read a range of records from the store (the answer's records)
    store = service.app.repository.event_store
    get = store.get

    def counted(*args: Any, **kwargs: Any) -> Any:
        if "lte" in kwargs:
            answers_read.append(threading.current_thread())
        return get(*args, **kwargs)

    monkeypatch.setattr(store, "get", counted)
    # The move is posted once the request waits on its watch, not merely once it is counted as waiting: counted,
    # it may still be reading the game, and a move landing then is read from the store, as it should be.
    in_wait, real_wait = threading.Event(), push.Watch.wait

    def wait(watch: push.Watch, deadline: float) -> bool:
        in_wait.set()
        return real_wait(watch, deadline)

    monkeypatch.setattr(push.Watch, "wait", wait)
    waiting, out = in_background(lambda: push.updates(service, game_id, Viewer(1), 1, TIMEOUT, "record"))
    assert in_wait.wait(TIMEOUT), "the request never started waiting"
    made = ok(act(client, game_id, seat_headers(created, 0), 1, {"type": "flip", "seat": 0, "ruin": None}))
    waiting.join(TIMEOUT)
    assert not waiting.is_alive()
    answer = out["answer"]
    assert answer["ready"] and answer["version"] == made["version"] == 2
    assert waiting not in answers_read  # its records came with the move, not from the store
    assert answer["records"] == records(client, game_id, seat_headers(created, 1), after=1)


def test_records_kept_out_of_order_are_answered_only_as_a_run_without_gaps(service: Digsite) -> None:
    """A move stored here is kept when it lands, one stored by another process when the feed hears of it, which
    may be later: ``Hub.recent`` answers only from consecutive versions, in order."""

    class Record:
        def __init__(self, version: int) -> None:
            self.originator_version = version

    hub = push.hub_for(service)
    uid = UUID(int=7)
    with hub.watch(uid, lambda game, to_act: False):
        hub._keep(uid, [Record(2), Record(3)])
        hub._keep(uid, [Record(5)])  # stored here before the feed heard of 4
        assert hub.recent(uid, 1, 3) is None  # (a gap after them: only the latest run is kept)
        assert [r.originator_version for r in hub.recent(uid, 4, 5) or []] == [5]
        assert hub.recent(uid, 3, 5) is None
        hub._keep(uid, [Record(4)])
        assert [r.originator_version for r in hub.recent(uid, 3, 5) or []] == [4, 5]
        hub._keep(uid, [Record(v) for v in range(6, 6 + push.RECENT)])
        kept = hub.recent(uid, 5, 5 + push.RECENT)
        assert kept is not None and len(kept) == push.RECENT
