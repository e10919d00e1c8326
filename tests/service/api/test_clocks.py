"""The clock through the API, each door called directly: a clock of zero refused with its code and nothing stored;
the organisers' clock route refuses a seat's token; a move after the seat's deadline is 409 ``out_of_time`` and
the timeout is recorded instead; the seat's view shows the clock. Time is an injected clock."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.api import create_app
from service.commands.application import Digsite
from service.settings import Database, Settings
from tests.service.api.support import act, look, new_players, ok, organiser, seat_headers
from tests.service.commands.test_clocks import Clock


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def timed(database: Database, clock: Clock) -> Iterator[Digsite]:
    svc = Digsite(Settings(database=database, api_key="organiser-key"), clock=clock)
    try:
        yield svc
    finally:
        svc.close()


@pytest.fixture
def client(timed: Digsite) -> FlaskClient:
    return create_app(service=timed).test_client()


def _refused(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.get_json()
    error = response.get_json()["error"]
    assert error["code"] == code and error["message"]


def test_a_clock_of_zero_or_less_is_refused_with_its_code_and_nothing_is_stored(
    client: FlaskClient, timed: Digsite
) -> None:
    seats = new_players(client, 3)
    for bad in ({"bank": 0}, {"per_move": -30}, {"bank": 60, "increment": -1}, {"minutes": 5}, 30):
        body = {"game": "ruins", "seats": seats, "clock": bad}
        _refused(client.post("/api/v1/games", json=body, headers=organiser()), 400, "invalid_clock")
        tournament = {"name": "Cup", "rounds": 1, "game": "ruins", "clock": bad}
        _refused(client.post("/api/v1/tournaments", json=tournament, headers=organiser()), 400, "invalid_clock")
    assert list(timed.game_ids()) == []


def test_the_clock_route_is_the_organisers_and_a_seat_s_token_is_refused(client: FlaskClient, timed: Digsite) -> None:
    body = {"game": "ruins", "seats": new_players(client, 3), "clock": {"bank": 120, "increment": 2}}
    created = ok(client.post("/api/v1/games", json=body, headers=organiser()), 201)
    route = f"/api/v1/games/{created['id']}/clock"
    pause = {"change": "pause", "reason": "a break"}
    before = timed.stored_records(created["id"])
    chosen = look(client, created["id"], seat_headers(created, 0))["legal_actions"][0]  # (sent during the pause)
    _refused(client.post(route, json=pause, headers=seat_headers(created, 0)), 401, "invalid_api_key")
    _refused(client.post(route, json=pause), 401, "missing_token")
    _refused(client.post(route, json={"change": "pause"}, headers=organiser()), 400, "invalid_clock_change")
    _refused(client.post(route, json={**pause, "change": "stop"}, headers=organiser()), 400, "invalid_clock_change")
    assert timed.stored_records(created["id"]) == before  # nothing changed
    paused = ok(client.post(route, json=pause, headers=organiser()), 201)
    assert paused["clock"]["paused"] and paused["version"] == 2
    seen = look(client, created["id"], seat_headers(created, 0))
    assert seen["clock"]["paused"] and [s["seat"] for s in seen["clock"]["seats"]] == [0, 1, 2]
    assert seen["to_act"] == [] and seen["legal_actions"] == []  # nobody acts at a paused table
    _refused(
        act(client, created["id"], seat_headers(created, 0), seen["version"], chosen),
        409,
        "table_paused",
    )


def test_a_move_after_its_seat_s_deadline_is_409_and_the_timeout_is_recorded_instead(
    client: FlaskClient, timed: Digsite, clock: Clock
) -> None:
    body = {"game": "ruins", "seats": new_players(client, 3), "clock": {"per_move": 45}}
    created = ok(client.post("/api/v1/games", json=body, headers=organiser()), 201)
    seen = look(client, created["id"], seat_headers(created, 0))
    mine = next(s for s in seen["clock"]["seats"] if s["seat"] == 0)
    assert mine["running"] and mine["left"] == 45 and mine["deadline"] == "2026-01-01T12:00:45+00:00"
    clock.wait(45)  # (at the deadline itself the time has run out)
    _refused(
        act(client, created["id"], seat_headers(created, 0), seen["version"], seen["legal_actions"][0]),
        409,
        "out_of_time",
    )
    log = ok(client.get(f"/api/v1/games/{created['id']}/log", headers=organiser()))["records"]
    assert 0 in [r["body"]["seat"] for r in log if r["type"] == "timeout"]
    assert not any(r["type"] == "move" for r in log)
