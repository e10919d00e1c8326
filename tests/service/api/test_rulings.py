"""Rulings over HTTP (organisers only): each endpoint refused without the key and with a seat's token, called
directly; bad input answered with a code and changing nothing; a ruling recorded, listed and shown in the log."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.service.api.support import look, new_game, new_players, ok, organiser, seat_headers

NOBODY = "00000000-0000-4000-8000-000000000000"


def _code(answer: Any, status: int) -> str:
    assert answer.status_code == status, (answer.status_code, answer.get_data(as_text=True))
    return str(answer.get_json()["error"]["code"])


def _cup(client: FlaskClient) -> tuple[str, list[str]]:
    body = {"name": "Cup", "rounds": 2, "game": "ruins"}
    cup = ok(client.post("/api/v1/tournaments", json=body, headers=organiser()), 201)["id"]
    players = new_players(client, 2)
    ok(client.post(f"/api/v1/tournaments/{cup}/entries", json={"players": players}, headers=organiser()))
    return cup, players


def test_every_ruling_endpoint_refuses_anyone_but_an_organiser(client: FlaskClient) -> None:
    created = new_game(client)
    game_id = created["id"]
    cup, players = _cup(client)
    calls = [
        ("POST", f"/api/v1/games/{game_id}/rulings", {"ruling": "annul", "reason": "a misdeal"}),
        ("GET", f"/api/v1/games/{game_id}/rulings", None),
        (
            "POST",
            f"/api/v1/tournaments/{cup}/rulings",
            {"ruling": "penalty", "reason": "late", "player": players[0], "points": 1},
        ),
        ("GET", f"/api/v1/tournaments/{cup}/rulings", None),
    ]
    for i, (method, path, body) in enumerate(calls):
        assert _code(client.open(path, method=method, json=body), 401) == "missing_token", path
        elsewhere = {"REMOTE_ADDR": f"198.51.100.{i}"}  # (each wrong key from its own address: none throttled)
        wrong = client.open(path, method=method, json=body, headers=seat_headers(created, 0), environ_base=elsewhere)
        assert _code(wrong, 401) == "invalid_api_key", path
    assert ok(client.get(f"/api/v1/games/{game_id}/rulings", headers=organiser())) == {"rulings": []}
    assert ok(client.get(f"/api/v1/tournaments/{cup}/rulings", headers=organiser())) == {"rulings": []}
    assert look(client, game_id, organiser())["version"] == created["version"]  # nothing changed


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"ruling": "annul", "reason": ""}, 400, "invalid_ruling"),
        ({"ruling": "annul"}, 400, "malformed_request"),
        ({"ruling": "erase", "reason": "x"}, 400, "invalid_ruling"),
        ({"ruling": "restart", "reason": "x", "version": 99}, 404, "unknown_version"),
        ({"ruling": "substitute", "reason": "x", "seat": 0, "player": NOBODY}, 404, "unknown_player"),
        ({"ruling": "adjust_result", "reason": "x", "result": {"ranking": [0, 1, 2]}}, 409, "game_in_play"),
    ],
)
def test_a_bad_ruling_gets_its_code_and_changes_nothing(
    client: FlaskClient, body: dict[str, Any], status: int, code: str
) -> None:
    game_id = new_game(client)["id"]
    assert _code(client.post(f"/api/v1/games/{game_id}/rulings", json=body, headers=organiser()), status) == code
    assert ok(client.get(f"/api/v1/games/{game_id}/rulings", headers=organiser())) == {"rulings": []}
    assert look(client, game_id, organiser())["version"] == 1


def test_a_ruling_is_recorded_listed_and_in_the_log_with_its_reason(client: FlaskClient) -> None:
    created = new_game(client)
    game_id = created["id"]
    body = {"ruling": "annul", "reason": "two players swapped seats"}
    record = ok(client.post(f"/api/v1/games/{game_id}/rulings", json=body, headers=organiser()))
    assert record["type"] == "ruling" and record["version"] == 2
    assert ok(client.get(f"/api/v1/games/{game_id}/rulings", headers=organiser()))["rulings"] == [record]
    log = ok(client.get(f"/api/v1/games/{game_id}/log", headers=seat_headers(created, 1)))["records"]
    assert log[-1]["body"]["reason"] == "two players swapped seats"  # (a seat sees the ruling and why)
    assert _code(client.post(f"/api/v1/games/{game_id}/rulings", json=body, headers=organiser()), 409) == "game_stopped"


def test_a_penalty_is_recorded_and_a_bad_one_refused(client: FlaskClient) -> None:
    cup, players = _cup(client)
    path = f"/api/v1/tournaments/{cup}/rulings"
    given = ok(
        client.post(
            path, json={"ruling": "penalty", "reason": "late", "player": players[1], "points": 2}, headers=organiser()
        )
    )
    assert given["points"] == 2 and given["reason"] == "late"
    bad = {"ruling": "penalty", "reason": "late", "player": NOBODY, "points": 2}
    assert _code(client.post(path, json=bad, headers=organiser()), 404) == "unknown_player"
    assert (
        _code(client.post(path, json={**bad, "player": players[0], "reason": " "}, headers=organiser()), 400)
        == "invalid_ruling"
    )
    assert ok(client.get(path, headers=organiser()))["rulings"] == [given]
