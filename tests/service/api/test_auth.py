"""The API's doors (``service/api/auth.py``), each refusal checked by calling the endpoint: wrong secrets are
throttled per kind (organiser key per address; seat tokens per address and game, with a ceiling across games)
with 429, ``Retry-After`` and a code, and a right secret of the other kind still opens; a seat token is refused
alike on every tournament endpoint anyone may read; ``If-None-Match`` is held to its published limit."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.api import create_app
from service.commands.application import Digsite
from service.serving.throttle import Throttle
from tests.service.api.support import act, bearer, look, new_game, ok, organiser, seat_headers
from tests.service.serving.test_throttle import Clock

NEIGHBOUR = {"REMOTE_ADDR": "198.51.100.9"}  # another address (the test client's own is 127.0.0.1)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def door(service: Digsite, clock: Clock) -> Flask:
    """The API with the default limits (5 wrong secrets of a kind in 5 minutes) on a clock the test moves."""
    return create_app(service=service, throttle=Throttle(timer=clock))


def _error(response: Any) -> tuple[int, str]:
    return response.status_code, response.get_json()["error"]["code"]


def test_wrong_organiser_keys_are_answered_401_then_429_with_retry_after(door: Flask, clock: Clock) -> None:
    client = door.test_client()
    answers = [client.get("/api/v1/players", headers=bearer(f"guess-{n}")) for n in range(30)]
    assert [a.status_code for a in answers] == [401] * 5 + [429] * 25
    shut = answers[-1]
    assert _error(shut) == (429, "too_many_wrong_keys")
    assert shut.headers["Retry-After"] == "300" and "wait 300 s" in shut.get_json()["error"]["message"]
    assert _error(client.get("/api/v1/players", headers=organiser())) == (
        429,
        "too_many_wrong_keys",
    )  # the right key too
    assert client.get("/api/v1/players", headers=organiser(), environ_base=NEIGHBOUR).status_code == 200
    clock.now += 299
    assert client.get("/api/v1/players", headers=organiser()).headers["Retry-After"] == "1"
    clock.now += 1
    ok(client.get("/api/v1/players", headers=organiser()))
    document = client.get("/api/v1/openapi.json").get_json()
    assert document["paths"]["/api/v1/players"]["get"]["responses"]["429"] == {
        "$ref": "#/components/responses/TooManyWrongSecrets"
    }
    assert "Retry-After" in document["components"]["responses"]["TooManyWrongSecrets"]["headers"]


def test_every_door_of_the_organiser_key_counts_together_and_a_right_key_does_not_wipe_the_count(
    door: Flask,
) -> None:
    client = door.test_client()
    tournament = ok(
        client.post("/api/v1/tournaments", json={"name": "Cup", "rounds": 2, "game": "ruins"}, headers=organiser()),
        201,
    )["id"]
    wrong = bearer("organiser-kez")
    assert _error(client.get("/api/v1/games", headers=wrong)) == (401, "invalid_api_key")
    assert _error(client.post("/api/v1/players", json={"name": "Gus"}, headers=wrong)) == (401, "invalid_api_key")
    ok(client.get("/api/v1/players", headers=organiser()))  # right, between wrong ones: the count stays
    assert _error(client.get("/api/v1/tournaments", headers=wrong)) == (401, "invalid_api_key")
    assert _error(client.get(f"/api/v1/tournaments/{tournament}", headers=wrong)) == (401, "invalid_api_key")
    assert _error(client.get(f"/api/v1/tournaments/{tournament}/standings", headers=wrong)) == (401, "invalid_api_key")
    assert _error(client.get("/api/v1/games", headers=organiser())) == (429, "too_many_wrong_keys")
    assert _error(client.get(f"/api/v1/tournaments/{tournament}/standings", headers=organiser())) == (
        429,
        "too_many_wrong_keys",
    )
    ok(client.get(f"/api/v1/tournaments/{tournament}/standings"))  # without a key: the public's answer


def test_during_an_organiser_lockout_seat_tokens_still_play(door: Flask) -> None:
    client = door.test_client()
    game = new_game(client, players=2)
    for n in range(5):
        client.get("/api/v1/games", headers=bearer(f"guess-{n}"))
    assert _error(client.post("/api/v1/players", json={"name": "Gus"}, headers=organiser())) == (
        429,
        "too_many_wrong_keys",
    )
    seat = look(client, game["id"], seat_headers(game, 0))["to_act"][0]
    seen = look(client, game["id"], seat_headers(game, seat))
    ok(act(client, game["id"], seat_headers(game, seat), seen["version"], seen["legal_actions"][0]))
    ok(client.get(f"/api/v1/games/{game['id']}/log", headers=seat_headers(game, 1 - seat)))


def test_wrong_seat_tokens_shut_only_that_game_for_that_address(door: Flask, clock: Clock) -> None:
    """A player behind a venue's NAT who mistypes their token shuts their own game's door, not the venue's."""
    client = door.test_client()
    game, other = new_game(client, players=2), new_game(client, players=2)
    url = f"/api/v1/games/{game['id']}"
    assert [_error(client.get(url, headers=bearer(f"guess-{n}"))) for n in range(5)] == [(401, "invalid_token")] * 5
    shut = client.get(url, headers=seat_headers(game, 0))  # the right token, after five wrong ones
    assert _error(shut) == (429, "too_many_wrong_tokens") and shut.headers["Retry-After"] == "300"
    assert "wrong seat token for this game from your address: wait 300 s" in shut.get_json()["error"]["message"]
    assert _error(client.get(f"{url}/log", headers=seat_headers(game, 1))) == (429, "too_many_wrong_tokens")
    assert _error(act(client, game["id"], seat_headers(game, 1), 1, {"type": "any"})) == (429, "too_many_wrong_tokens")
    # The organisers' key on this game's endpoints is shut out too: let through, it would be told apart by the
    # answer, and this game's door would be a way to guess it without limit.
    assert _error(client.get(url, headers=organiser())) == (429, "too_many_wrong_tokens")
    # Another game, another address of the venue, the organisers' own endpoints: open.
    look(client, other["id"], seat_headers(other, 0))
    ok(client.get(url, headers=seat_headers(game, 0), environ_base=NEIGHBOUR))
    ok(client.get("/api/v1/games", headers=organiser()))
    ok(client.post("/api/v1/players", json={"name": "Gus"}, headers=organiser()), 201)
    clock.now += 300
    look(client, game["id"], seat_headers(game, 0))


def test_a_game_counts_once_however_its_id_is_spelt(door: Flask) -> None:
    client = door.test_client()
    game = new_game(client, players=2)
    spellings = [game["id"].upper(), game["id"].replace("-", ""), "{" + game["id"] + "}"]
    for n in range(5):
        assert _error(client.get(f"/api/v1/games/{spellings[n % 3]}", headers=bearer(f"guess-{n}"))) == (
            401,
            "invalid_token",
        )
    assert _error(client.get(f"/api/v1/games/{game['id']}", headers=seat_headers(game, 0)))[0] == 429


def test_seat_tokens_tried_across_games_meet_a_ceiling_and_unknown_games_are_not_counted(
    service: Digsite, clock: Clock
) -> None:
    client = create_app(service=service, throttle=Throttle(failures=2, across_games=3, timer=clock)).test_client()
    games = [new_game(client, players=2) for _ in range(4)]
    for n in range(6):  # no such game: a 404 tells nothing about any token
        assert _error(client.get(f"/api/v1/games/{uuid.uuid4()}", headers=bearer(f"guess-{n}")))[0] == 404
    look(client, games[0]["id"], seat_headers(games[0], 0))
    for game in games[:3]:
        assert _error(client.get(f"/api/v1/games/{game['id']}", headers=bearer("guess"))) == (401, "invalid_token")
    shut = client.get(f"/api/v1/games/{games[3]['id']}", headers=seat_headers(games[3], 0))
    assert _error(shut) == (429, "too_many_wrong_tokens")
    assert "for this game" not in shut.get_json()["error"]["message"]  # every game's door, for this address
    ok(client.get(f"/api/v1/games/{games[3]['id']}", headers=seat_headers(games[3], 0), environ_base=NEIGHBOUR))
    ok(client.get("/api/v1/games", headers=organiser()))


def test_a_seat_token_is_refused_alike_on_every_tournament_endpoint_anyone_may_read(client: FlaskClient) -> None:
    game = new_game(client, players=2)
    tournament = ok(
        client.post("/api/v1/tournaments", json={"name": "Cup", "rounds": 2, "game": "ruins"}, headers=organiser()),
        201,
    )["id"]
    for path in (
        "/api/v1/tournaments",
        f"/api/v1/tournaments/{tournament}",
        f"/api/v1/tournaments/{tournament}/standings",
    ):
        ok(client.get(path))
        ok(client.get(path, headers=organiser()))
        refused = client.get(path, headers=seat_headers(game, 0))
        assert _error(refused) == (401, "invalid_api_key"), path
        assert refused.headers["WWW-Authenticate"].startswith("Bearer")


def test_if_none_match_is_held_to_its_published_limit(client: FlaskClient) -> None:
    game = new_game(client, players=2)
    operation = client.get("/api/v1/openapi.json").get_json()["paths"]["/api/v1/games/{game_id}"]["get"]
    limit = next(p for p in operation["parameters"] if p["name"] == "If-None-Match")["schema"]["maxLength"]
    url, headers = f"/api/v1/games/{game['id']}", seat_headers(game, 0)
    tag = client.get(url, headers=headers).headers["ETag"]
    listed = f'{tag}, "{"x" * (limit - len(tag) - 4)}"'  # the current tag among others, exactly at the limit
    assert len(listed) == limit
    assert client.get(url, headers={**headers, "If-None-Match": listed}).status_code == 304
    over = client.get(url, headers={**headers, "If-None-Match": listed + "x"})
    assert _error(over) == (400, "malformed_request")
    assert "'If-None-Match' must be 0 to 200 characters long" in over.get_json()["error"]["message"]


def test_behind_a_trusted_proxy_each_client_is_counted_apart(service: Digsite, monkeypatch: pytest.MonkeyPatch) -> None:
    """Behind a reverse proxy every request comes from the proxy's address: with DIGSITE_TRUSTED_PROXIES=1 the
    client it names is counted, so one guesser does not shut the key out for every organiser."""
    monkeypatch.setenv("DIGSITE_TRUSTED_PROXIES", "1")
    client = create_app(service=service).test_client()
    guesser, organiser_there = {"X-Forwarded-For": "203.0.113.7"}, {"X-Forwarded-For": "198.51.100.9"}
    for n in range(5):
        client.get("/api/v1/players", headers={**bearer(f"guess-{n}"), **guesser})
    assert _error(client.get("/api/v1/players", headers={**organiser(), **guesser})) == (429, "too_many_wrong_keys")
    forged = {"X-Forwarded-For": "192.0.2.1, 203.0.113.7"}  # a client's own entry is not believed
    assert _error(client.get("/api/v1/players", headers={**organiser(), **forged}))[0] == 429
    ok(client.get("/api/v1/players", headers={**organiser(), **organiser_there}))
    monkeypatch.delenv("DIGSITE_TRUSTED_PROXIES")
    direct = create_app(service=service).test_client()  # no proxy trusted: the header changes nothing
    for n in range(5):
        direct.get("/api/v1/players", headers={**bearer(f"guess-{n}"), "X-Forwarded-For": f"192.0.2.{n}"})
    assert _error(direct.get("/api/v1/players", headers={**organiser(), **organiser_there}))[0] == 429
