"""What every documented route really answers validates against the schema the OpenAPI document publishes for
that route and status (a real JSON Schema validator, jsonschema-rs, formats checked too), and the schemas are
closed: an answer with a field its type does not name, or without one it requires, is refused."""

from __future__ import annotations

import json
import re
from typing import Any

import jsonschema_rs
import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.analysis import stored
from service.analysis.judging import judge_records
from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from tests.service import fair_play_support
from tests.service.api.support import bearer, new_players, ok, organiser, project, strong_seed

JSON = "application/json"
NO_SUCH_GAME = "00000000-0000-4000-8000-000000000000"


class Checked:
    """A test client whose every JSON answer is validated against the published schema of its route, method and
    status; it remembers which documented operations it has seen answer."""

    def __init__(self, app: Flask, client: FlaskClient) -> None:
        self.app, self.client = app, client
        self.document = ok(client.get("/api/v1/openapi.json"))  # as served
        self.seen: set[tuple[str, str]] = set()
        self.validators: dict[str, jsonschema_rs.Validator] = {}

    def __call__(self, method: str, path: str, status: int, **request: Any) -> Any:
        answer = self.client.open(path, method=method, **request)
        assert answer.status_code == status, (method, path, answer.status_code, answer.get_data(as_text=True))
        rule, _ = self.app.url_map.bind("localhost").match(path.split("?")[0], method=method, return_rule=True)
        route = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        self.seen.add((route, method.lower()))
        if answer.mimetype == JSON:
            body = answer.get_json()
            errors = list(self.validator(route, method.lower(), status).iter_errors(body))
            assert not errors, (method, path, status, [f"{e.instance_path}: {e.message}" for e in errors[:5]])
            return body
        return answer

    def validator(self, route: str, method: str, status: int) -> jsonschema_rs.Validator:
        responses = self.document["paths"][route][method]["responses"]
        response = responses.get(str(status), responses["default"])
        if "$ref" in response:
            response = self.document["components"]["responses"][response["$ref"].split("/")[-1]]
        schema = response["content"][JSON]["schema"]
        key = json.dumps(schema, sort_keys=True)
        if key not in self.validators:
            whole = {**schema, "components": self.document["components"]}
            self.validators[key] = jsonschema_rs.validator_for(whole, validate_formats=True)
        return self.validators[key]


@pytest.fixture
def checked(app: Flask, client: FlaskClient) -> Checked:
    return Checked(app, client)


def a_move(checked: Checked, game_id: str, tokens: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The seat to act (its headers) and a legal action of it, from the game as that seat sees it."""
    for token in tokens:
        seen = checked("GET", f"/api/v1/games/{game_id}", 200, headers=bearer(token["token"]))
        if seen["legal_actions"]:
            return bearer(token["token"]), {"version": seen["version"], "action": seen["legal_actions"][0]}
    raise AssertionError("no seat may act")


def test_every_documented_route_answers_what_its_schema_says(checked: Checked, service: Digsite) -> None:
    checked("GET", "/api/v1/health", 200)
    checked("GET", "/api/v1/openapi.json", 200)

    # Organisers: players and tournaments, made and read.
    player = checked("POST", "/api/v1/players", 201, json={"name": "Zoe"}, headers=organiser())
    checked("POST", "/api/v1/players", 201, json={"name": "Bot", "kind": "bot", "bot": {"s": 1}}, headers=organiser())
    checked("POST", "/api/v1/players", 400, json={"name": ""}, headers=organiser())
    checked("GET", f"/api/v1/players/{player['id']}", 200, headers=organiser())
    checked("GET", f"/api/v1/players/{NO_SUCH_GAME}", 404, headers=organiser())
    checked("GET", "/api/v1/players", 401)
    cup = checked("POST", "/api/v1/tournaments", 201, json={"name": "Cup", "rounds": 2, "game": "ruins"},
                  headers=organiser())  # fmt: skip
    checked("GET", f"/api/v1/tournaments/{cup['id']}", 200)

    # Its entries and rounds: entered, withdrawn, a round seated (and a dry run), read, its links three ways.
    rounds = f"/api/v1/tournaments/{cup['id']}/rounds"
    entered = new_players(checked.client, 3)
    checked("POST", f"/api/v1/tournaments/{cup['id']}/entries", 200, json={"players": entered}, headers=organiser())
    checked("DELETE", f"/api/v1/tournaments/{cup['id']}/entries/{entered[2]}", 200, headers=organiser())
    checked("DELETE", f"/api/v1/tournaments/{cup['id']}/entries/{entered[2]}", 404, headers=organiser())
    checked("POST", rounds, 200, json={"table_size": 2, "dry_run": True}, headers=organiser())
    checked("POST", rounds, 400, json={"table_size": 9}, headers=organiser())
    seated = checked("POST", rounds, 201, json={"table_size": 2}, headers=organiser())
    checked("POST", rounds, 409, json={}, headers=organiser())
    checked("GET", rounds, 200, headers=organiser())
    checked("GET", f"{rounds}/1", 200, headers=organiser())
    checked("GET", f"{rounds}/2", 404, headers=organiser())
    checked("GET", f"{rounds}/1/links", 200, headers=organiser())
    checked("GET", f"{rounds}/1/links?format=csv", 200, headers=organiser())
    checked("GET", f"{rounds}/1/links?format=html", 200, headers=organiser())

    # Its broadcast: set (and a bad delay refused), a game of the round followed, a game not broadcast refused.
    broadcast = f"/api/v1/tournaments/{cup['id']}/broadcast"
    checked("PUT", broadcast, 400, json={"moves": -1}, headers=organiser())
    checked("PUT", broadcast, 200, json={"minutes": 1.5}, headers=organiser())
    checked("PUT", broadcast, 200, json={"moves": 0}, headers=organiser())
    followed = checked("GET", f"/api/v1/games/{seated['tables'][0]['game']}/broadcast?after=0&wait=0", 200)
    assert followed["game"]["view"] and followed["records"]
    checked("GET", f"/api/v1/games/{NO_SUCH_GAME}/broadcast", 404)

    # A game of each kind, seen by the organisers and by a seat, played, waited on, refused.
    for kind in ("ruins", "arnak"):
        body = {"game": kind, "seats": new_players(checked.client, 2), "seed": strong_seed(kind), "round": 1}
        created = checked("POST", "/api/v1/games", 201, json=body, headers=organiser())
        game = f"/api/v1/games/{created['id']}"
        checked("GET", game, 200, headers=organiser())
        headers, move = a_move(checked, created["id"], created["tokens"])
        checked("POST", f"{game}/actions", 200, json=move, headers=headers)
        checked("POST", f"{game}/actions", 409, json=move, headers=headers)  # the version is stale now
        headers, move = a_move(checked, created["id"], created["tokens"])
        waited = checked("POST", f"{game}/actions?wait=1", 200, json=move, headers=headers)
        assert "next" in waited
        checked("GET", f"{game}/log", 200, headers=organiser())
        checked("GET", f"{game}/log", 200, headers=headers)
        checked("GET", f"{game}/updates?after=1", 200, headers=organiser())
        headers, _ = a_move(checked, created["id"], created["tokens"])
        turn = checked("GET", f"{game}/updates?after=1&until=turn&include=game", 200, headers=headers)
        assert turn["ready"] and "game" in turn
        checked("GET", f"{game}?version=1", 200, headers=headers)
    # A timed game: its clock in every answer, changed by the organisers only.
    timed = {"game": "ruins", "seats": new_players(checked.client, 2), "clock": {"bank": 300, "increment": 5}}
    created = checked("POST", "/api/v1/games", 201, json=timed, headers=organiser())
    clock = f"/api/v1/games/{created['id']}/clock"
    assert checked("GET", f"/api/v1/games/{created['id']}", 200, headers=organiser())["clock"]["seats"]
    checked("POST", clock, 201, json={"change": "pause", "reason": "a break"}, headers=organiser())
    checked("POST", clock, 409, json={"change": "pause", "reason": "again"}, headers=organiser())
    checked("POST", clock, 400, json={"change": "add", "reason": "x", "seconds": 0}, headers=organiser())
    checked(
        "POST", clock, 401, json={"change": "resume", "reason": "me"}, headers=bearer(created["tokens"][0]["token"])
    )
    checked("POST", "/api/v1/games", 400, json={**timed, "clock": {"per_move": 0}}, headers=organiser())
    checked("GET", f"/api/v1/games/{NO_SUCH_GAME}", 404, headers=organiser())
    checked("GET", f"/api/v1/games/{NO_SUCH_GAME}/log", 404, headers=organiser())
    checked("GET", f"{game}/analysis", 409, headers=organiser())  # in play: judged once over
    checked("POST", f"/api/v1/games/{NO_SUCH_GAME}/actions", 401, json={"version": 1, "action": {}})

    # Finished games of a tournament: their results, the lists and the standings from the read models.
    played = run_tournament(service, kind="ruins", players=2, games=2, seed="responses", pool=3)
    over = checked("GET", f"/api/v1/games/{played.games[0].id}", 200, headers=organiser())
    assert over["result"] is not None and over["seed"] is not None
    checked("GET", f"/api/v1/games/{played.games[0].id}/analysis", 404, headers=organiser())  # not analysed yet
    stored.write(service.settings.database, judge_records(service.stored_records(played.games[0].id), 8))
    analysis = checked("GET", f"/api/v1/games/{played.games[0].id}/analysis", 200, headers=organiser())
    assert analysis["moves"] and analysis["seats"]
    project(service)
    assert checked("GET", "/api/v1/games", 200, headers=organiser())["games"]
    checked("GET", "/api/v1/games?status=over&limit=1", 200, headers=organiser())
    assert checked("GET", "/api/v1/players?limit=2", 200, headers=organiser())["next"]
    assert checked("GET", "/api/v1/tournaments", 200)["tournaments"]
    standings = checked("GET", f"/api/v1/tournaments/{played.id}/standings", 200, headers=organiser())
    assert standings["standings"] and standings["cross_table"]
    checked("GET", f"/api/v1/tournaments/{played.id}/standings?format=csv", 200)
    rated = checked("GET", f"/api/v1/players/{played.games[0].seats[0]}", 200, headers=organiser())
    assert rated["skills"][0]["rating"] and rated["skills"][0]["accuracy"]
    assert checked("GET", "/api/v1/leaderboards/ruins?limit=1", 200, headers=organiser())["next"]
    checked("GET", "/api/v1/leaderboards/chess", 404, headers=organiser())

    # The fair-play report (a hand-made reporter: the signals' scores are not what is checked here).
    checked.app.config["FAIR_PLAY_REPORTER"] = fair_play_support.reporter
    report = checked("GET", f"/api/v1/tournaments/{played.id}/fair-play", 200, headers=organiser())
    assert report["signals"]["gifts"][0]["moves"] and report["judged_games"] == 1
    checked("GET", f"/api/v1/tournaments/{NO_SUCH_GAME}/fair-play", 404, headers=organiser())
    checked("GET", f"/api/v1/tournaments/{played.id}/fair-play", 401)

    # Rulings: a substitute (its new token), a restart (the new game), an adjusted result, a penalty; refusals.
    rulings = f"/api/v1/games/{created['id']}/rulings"
    sub = {"ruling": "substitute", "reason": "ill", "seat": 0, "player": player["id"]}
    assert "token" in checked("POST", rulings, 200, json=sub, headers=organiser())
    restart = {"ruling": "restart", "reason": "a misplay", "version": 2}
    assert checked("POST", rulings, 200, json=restart, headers=organiser())["continued_as"]["tokens"]
    checked("POST", rulings, 409, json={"ruling": "annul", "reason": "x"}, headers=organiser())
    checked("GET", rulings, 200, headers=organiser())
    over_game = played.games[0].id
    seats = len(over["players"])
    adjusted = {"ruling": "adjust_result", "reason": "a scoring error", "result": {"ranking": list(range(seats))}}
    checked("POST", f"/api/v1/games/{over_game}/rulings", 200, json=adjusted, headers=organiser())
    checked("POST", f"/api/v1/games/{over_game}/rulings", 400, json={"ruling": "annul", "reason": ""},
            headers=organiser())  # fmt: skip
    penalties = f"/api/v1/tournaments/{played.id}/rulings"
    penalty = {"ruling": "penalty", "reason": "late", "player": over["players"][0]["id"], "points": 1}
    checked("POST", penalties, 200, json=penalty, headers=organiser())
    checked("POST", penalties, 404, json={**penalty, "player": NO_SUCH_GAME}, headers=organiser())
    assert checked("GET", penalties, 200, headers=organiser())["rulings"]

    documented = {(path, method) for path, item in checked.document["paths"].items() for method in item}
    assert checked.seen == documented, documented - checked.seen


@pytest.mark.parametrize(
    "changed",
    [
        lambda game: game.pop("version"),  # a required field missing
        lambda game: game.update(secret_of_the_engine=1),  # a field the type does not name
        lambda game: game.update(status="paused"),  # a value the type does not allow
        lambda game: game.update(created_at="yesterday"),  # not a date-time
        lambda game: game["players"][0].update(seat="0"),  # a wrong type, deeper down
        lambda game: game.update(view={"board": None}),  # a view of no game
    ],
)
def test_the_published_schemas_refuse_an_answer_that_differs_from_its_type(checked: Checked, changed: Any) -> None:
    """The check above can fail: a game's answer changed in one way is refused by the schema of a game."""
    body = {"game": "ruins", "seats": new_players(checked.client, 2), "seed": strong_seed("closed")}
    created = checked("POST", "/api/v1/games", 201, json=body, headers=organiser())
    game = checked("GET", f"/api/v1/games/{created['id']}", 200, headers=organiser())
    validator = checked.validator("/api/v1/games/{game_id}", "get", 200)
    assert validator.is_valid(game)
    changed(game)
    assert not validator.is_valid(game)
