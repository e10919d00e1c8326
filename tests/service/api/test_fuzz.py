"""Whatever request arrives, the API answers it: random JSON (and random bytes) never produce a 5xx, and
requests generated from the OpenAPI document get answers that conform to it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from service.api import create_app
from service.commands.application import Digsite
from service.serving import push
from service.settings import Database, Settings
from service.store import backends
from tests.service.api.support import ORGANISER_KEY, new_game, new_players, ok, organiser, seat_headers

FIELDS = ["version", "action", "type", "seat", "ruins", "rank", "purchases", "claims", "ruin", "discovery"]
FIELDS += ["game", "seats", "options", "tournament", "round", "table", "seed", "name", "_type_", "_data_"]
WORDS = ["ruins", "play", "pass", "flip", "discard", "chess", "", "\x00", "\ud800"]


def bodies(ids: list[str]) -> st.SearchStrategy[Any]:
    scalars = (
        st.none()
        | st.booleans()
        | st.integers()
        | st.integers(-3, 60)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=12)
        | st.sampled_from(ids + WORDS)
    )
    keys = st.sampled_from(FIELDS) | st.text(max_size=6)
    values = st.recursive(
        scalars, lambda inner: st.lists(inner, max_size=6) | st.dictionaries(keys, inner, max_size=6), max_leaves=25
    )
    action = st.fixed_dictionaries(
        {"type": st.sampled_from(["play", "pass", "flip", "discard"]) | values, "seat": st.integers(-1, 5) | values},
        optional={
            "ruins": st.lists(st.integers(-2, 55), max_size=4) | values,
            "rank": st.integers(-1, 16) | values,
            "ruin": st.none() | st.integers(-2, 55) | values,
            "purchases": st.lists(
                st.fixed_dictionaries({"discovery": st.integers(-1, 40), "ruin": st.integers(-1, 55)})
            ),
            "claims": st.lists(st.integers(-2, 55), max_size=3) | values,
        },
    )
    move = st.fixed_dictionaries({"version": st.integers(-1, 4) | values, "action": action | values})
    game = st.fixed_dictionaries(
        {"game": st.just("ruins") | values, "seats": st.lists(st.sampled_from(ids), max_size=6) | values},
        optional={
            "options": values,
            "seed": values,
            "round": st.integers(-1, 2000) | values,
            "table": values,
            "tournament": values,
        },
    )
    return values | move | game


def test_random_bodies_never_cause_a_server_error(client: FlaskClient, service: Digsite) -> None:
    created = new_game(client, players=3)
    ids = [*new_players(client, 2), created["id"]]
    targets = [
        (f"/api/v1/games/{created['id']}/actions", seat_headers(created, 0)),
        (f"/api/v1/games/{created['id']}/actions", seat_headers(created, 1)),
        ("/api/v1/games", organiser()),
    ]

    @settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(target=st.sampled_from(targets), body=bodies(ids) | st.binary(max_size=200), ascii_only=st.booleans())
    def post(target: tuple[str, dict[str, str]], body: Any, ascii_only: bool) -> None:
        if isinstance(body, bytes):
            data = body
        else:  # ASCII JSON spells a lone surrogate as an escape; raw UTF-8 makes it an invalid byte sequence
            data = json.dumps(body, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
        path, headers = target
        answer = client.post(path, data=data, headers=headers, content_type="application/json")
        assert answer.status_code < 500, (answer.status_code, answer.get_data(as_text=True)[:300])
        assert answer.is_json
        if answer.status_code >= 400:
            assert set(answer.get_json()["error"]) == {"code", "message"}

    post()


def test_random_query_strings_never_cause_a_server_error(client: FlaskClient) -> None:
    created = new_game(client, players=2)
    paths = [f"/api/v1/games/{created['id']}", f"/api/v1/games/{created['id']}/log"]
    names = st.sampled_from(["version", "after", "limit"]) | st.text(min_size=1, max_size=5)
    numbers = st.integers().map(str) | st.text(max_size=25)

    @settings(max_examples=100, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(path=st.sampled_from(paths), query=st.lists(st.tuples(names, numbers), max_size=3), seat=st.booleans())
    def get(path: str, query: list[tuple[str, str]], seat: bool) -> None:
        answer = client.get(path, query_string=query, headers=seat_headers(created, 0) if seat else organiser())
        assert answer.status_code < 500 and answer.is_json, answer.get_data(as_text=True)[:300]

    get()


@pytest.mark.slow
def test_the_openapi_document_holds_for_a_thousand_generated_requests(tmp_path: Path, monkeypatch: Any) -> None:
    """Schemathesis reads the served document and sends every operation requests generated from it, valid
    ones and invalid ones, with the organisers' key or a seat's token (and ids of real players and games half
    the time): no answer is a 5xx, and every answer conforms to the document (status, content type, headers,
    body schema). Derandomized: the same requests on every run. SQLite only: the store is not what is tested."""
    database = Database.from_url(f"sqlite:///{tmp_path / 'digsite.sqlite'}")
    backends.upgrade(database)
    service = Digsite(Settings(database=database, api_key=ORGANISER_KEY))
    # A generated long poll with nothing to wait for would hold its example for up to `wait` seconds: here every
    # wait runs out at once (the answer's shape is what is checked; tests/service/api/test_push.py checks waits).
    monkeypatch.setattr(push.Watch, "wait", lambda self, deadline: False)
    try:
        _exercise_the_document(create_app(service=service))
    finally:
        service.close()


def _exercise_the_document(app: Flask) -> None:
    client = app.test_client()
    created = new_game(client, players=3)
    tournament = ok(
        client.post("/api/v1/tournaments", json={"name": "Cup", "rounds": 2, "game": "ruins"}, headers=organiser()), 201
    )
    players = [p["player"] for p in created["tokens"]]
    real = {"game_id": created["id"], "player_id": players[0], "tournament_id": tournament["id"], "round_no": "1"}
    seat = seat_headers(created, 0)["Authorization"]

    def real_ids(names: list[str]) -> dict[str, str]:
        return {name: real[name] for name in names}

    def realistic(case: Any) -> Any:
        """The case with its game's seats real players, no option or tournament, no past version asked."""
        if isinstance(case.body, dict) and "seats" in case.body:
            case.body = {**case.body, "seats": players[:2], "options": None, "tournament": None}
        if isinstance(case.query, dict):
            case.query = {k: v for k, v in case.query.items() if k != "version"}
        return case

    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    checks = [
        not_a_server_error,
        status_code_conformance,
        content_type_conformance,
        response_headers_conformance,
        response_schema_conformance,
    ]
    sent: Counter[tuple[str, int]] = Counter()
    operations = [result.ok() for result in schema.get_all_operations()]
    assert {o.label for o in operations} >= {"POST /api/v1/games", "POST /api/v1/games/{game_id}/actions"}

    def exercise(operation: Any) -> None:
        names = [p["name"] for p in operation.definition.raw.get("parameters", []) if p["in"] == "path"]
        seat_only = operation.definition.raw.get("security") == [{"seatToken": []}]
        token = seat if seat_only else f"Bearer {ORGANISER_KEY}"
        strategies = [
            operation.as_strategy(mode, headers={"Authorization": token}, path_parameters=fixed)
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
            for fixed in (real_ids(names), None)
            if not (fixed is None and not names)
        ]
        # and valid requests that name real things, so that the successful answers are checked too
        strategies.append(
            operation.as_strategy(
                GenerationMode.POSITIVE, headers={"Authorization": token}, path_parameters=real_ids(names)
            ).map(realistic)
        )

        @settings(
            max_examples=160 if names else 120,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
            phases=[Phase.explicit, Phase.generate],
        )
        @given(case=st.one_of(strategies))
        def call(case: Any) -> None:
            response = case.call()
            sent[(operation.label, response.status_code)] += 1
            case.validate_response(response, checks=checks)

        call()

    for operation in operations:
        exercise(operation)
    assert sum(sent.values()) >= 1000, sent
    assert {status for _, status in sent} >= {200, 201, 400, 403, 404, 409}, sent
    for label in ("POST /api/v1/games", "GET /api/v1/games/{game_id}", "GET /api/v1/games/{game_id}/log"):
        assert sent[(label, 201 if label.startswith("POST") else 200)] >= 5, sent  # successes were checked too
