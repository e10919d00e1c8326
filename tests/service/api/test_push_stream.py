"""A move posted with ``?wait=S`` by a client that accepts ``application/x-ndjson``: the acknowledgement comes at
once (line 1), the seat's next turn when it comes (line 2). Whatever the wait meets after the move landed (the
store going down, a server that will not hold it), the move's answer still says the move landed."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.commands.application import Digsite
from service.serving import push
from service.store.backends import StoreUnavailable
from tests.service.api.support import act, look, new_game, ok, organiser, seat_headers, strong_seed
from tests.service.api.test_push import TIMEOUT, records, wait_until_waiting

STREAM = {"Accept": "application/x-ndjson"}


def started_game(client: FlaskClient, label: str) -> tuple[dict[str, Any], int, dict[str, Any]]:
    """A two-seat game past its opening flips: the game, the seat to act and a play it may post (on version 3)."""
    created = new_game(client, players=2, seed=strong_seed(label))
    game_id = created["id"]
    ok(act(client, game_id, seat_headers(created, 0), 1, {"type": "flip", "seat": 0, "ruin": None}))
    ok(act(client, game_id, seat_headers(created, 1), 2, {"type": "flip", "seat": 1, "ruin": None}))
    (mover,) = look(client, game_id, organiser())["to_act"]
    play = next(a for a in look(client, game_id, seat_headers(created, mover))["legal_actions"] if a["type"] == "play")
    return created, mover, play


def post(client: FlaskClient, created: dict[str, Any], seat: int, body: dict[str, Any], **headers: str) -> Any:
    url = f"/api/v1/games/{created['id']}/actions"
    return client.post(
        url, json=body, headers={**seat_headers(created, seat), **headers}, query_string={"wait": TIMEOUT}
    )


def test_a_streamed_move_is_acknowledged_at_once_and_its_next_turn_follows_on_the_second_line(
    client: FlaskClient, service: Digsite
) -> None:
    created, mover, play = started_game(client, "stream-ack")
    game_id = created["id"]
    answer = post(client, created, mover, {"version": 3, "action": play}, **STREAM)
    assert answer.status_code == 200 and answer.mimetype == "application/x-ndjson"
    acknowledged, read = threading.Event(), []

    def read_lines() -> None:  # (as a server writes them: the first, then the second when it comes)
        for line in answer.response:
            read.append(json.loads(line))
            acknowledged.set()

    reader = threading.Thread(target=read_lines, daemon=True)
    reader.start()
    # (held until the next turn, the first line would come only after the other seat's moves below)
    assert acknowledged.wait(TIMEOUT), "the acknowledgement did not come before the seat's next turn"
    wait_until_waiting(service)  # the next turn is still awaited: nobody else has moved
    assert look(client, game_id, organiser())["version"] == 4 and len(read) == 1
    (ack,) = read
    assert ack["version"] == 4 and ack["status"] == "playing" and ack["events"]
    assert set(ack) == {"version", "events", "status", "to_act"}  # the move's answer, as without a wait
    # The other seat plays until the mover is to act again; the second line is that turn.
    while True:
        now = look(client, game_id, organiser())
        if mover in now["to_act"] or now["status"] == "over":
            break
        (seat,) = now["to_act"]
        theirs = seat_headers(created, seat)
        ok(act(client, game_id, theirs, now["version"], look(client, game_id, theirs)["legal_actions"][0]))
    reader.join(TIMEOUT)
    assert not reader.is_alive() and len(read) == 2  # two lines, no more
    following = read[1]
    mine = seat_headers(created, mover)
    assert following["ready"] and following["version"] == now["version"] and mover in following["to_act"]
    assert following["records"] == records(client, game_id, mine, after=4)
    assert following["game"] == look(client, game_id, mine)


@pytest.mark.parametrize(
    ("accept", "wait"),
    [
        ("application/json", 1),
        ("*/*", 1),
        ("application/x-ndjson;q=0", 1),
        (None, 1),
        ("application/x-ndjson", 0),  # (no wait: the acknowledgement is all there is)
    ],
)
def test_a_client_that_does_not_ask_for_the_stream_keeps_the_single_json_answer(
    client: FlaskClient, accept: str | None, wait: int
) -> None:
    created = new_game(client, players=2, seed=strong_seed("stream-not-asked"))
    headers = {"Accept": accept} if accept is not None else {}
    flip = {"type": "flip", "seat": 0, "ruin": None}
    url = f"/api/v1/games/{created['id']}/actions"
    answer = client.post(
        url,
        json={"version": 1, "action": flip},
        headers={**seat_headers(created, 0), **headers},
        query_string={"wait": wait},
    )
    assert answer.mimetype == "application/json"
    moved = ok(answer)
    assert moved["version"] == 2
    if wait:  # (seat 0 is not to act again before seat 1 flips: the wait runs out)
        assert moved["next"]["ready"] is False and moved["next"]["version"] == 2


def test_a_refused_streamed_move_is_an_ordinary_error_answered_at_once(client: FlaskClient) -> None:
    created, mover, play = started_game(client, "stream-refused")
    stale = post(client, created, mover, {"version": 2, "action": play}, **STREAM)
    assert stale.status_code == 409 and stale.mimetype == "application/json"
    assert stale.get_json()["error"]["code"] == "stale_version"


def test_a_wait_that_fails_after_the_move_landed_leaves_the_move_acknowledged(
    client: FlaskClient, service: Digsite, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store goes down (or the server will not hold the wait) once the move is recorded: the move's answer is
    still 200 with the move; streamed, the second line is the error the wait met, not ready, and when to ask
    again; not streamed, the answer has no ``next`` (the client asks the channel)."""
    created, mover, play = started_game(client, "stream-fails")

    def down(*args: Any, **kwargs: Any) -> Any:
        raise StoreUnavailable("the game store is unreachable; try again shortly")

    monkeypatch.setattr(push, "updates", down)
    streamed = post(client, created, mover, {"version": 3, "action": play}, **STREAM)
    assert streamed.status_code == 200
    acknowledged, failed = (json.loads(line) for line in streamed.data.splitlines())
    assert acknowledged["version"] == 4
    assert failed["error"]["code"] == "store_unavailable" and failed["ready"] is False and failed["retry_after"] >= 1
    # Not streamed: the move's answer alone.
    (seat,) = look(client, created["id"], organiser())["to_act"]
    legal = look(client, created["id"], seat_headers(created, seat))["legal_actions"]
    plain = ok(post(client, created, seat, {"version": 4, "action": legal[0]}))
    assert plain["version"] == 5 and "next" not in plain and "error" not in plain
    assert look(client, created["id"], organiser())["version"] == 5
