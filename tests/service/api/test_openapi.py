"""The OpenAPI document describes every route the app serves, and only those."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import jsonschema_rs
import openapi_spec_validator
import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from service.api import document as api_document
from service.api import openapi, schemas
from service.api.validation import check
from service.errors import BadRequest
from service.stored_text import check_text
from tests.service.api.support import act, new_game, ok, organiser, seat_headers
from tests.service.api.test_fuzz import bodies

IGNORED_METHODS = {"HEAD", "OPTIONS"}


def routes(app: Flask) -> set[tuple[str, str]]:
    found = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/v1/"):
            path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
            found |= {(path, method.lower()) for method in (rule.methods or set()) - IGNORED_METHODS}
    return found


def resolve(document: dict[str, Any], node: Any) -> None:
    """Every $ref in ``node`` points at something in ``document``."""
    if isinstance(node, dict):
        if "$ref" in node:
            target: Any = document
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target[part]
        for value in node.values():
            resolve(document, value)
    elif isinstance(node, list):
        for value in node:
            resolve(document, value)


def test_every_route_is_described_and_every_description_is_a_route(app: Flask, client: FlaskClient) -> None:
    document = ok(client.get("/api/v1/openapi.json"))
    assert document["openapi"].startswith("3.1")
    described = {(path, method) for path, item in document["paths"].items() for method in item}
    served = routes(app)
    # (six of them a tournament's entries and rounds, one a game's clock, one a leaderboard, four rulings, two
    # a broadcast, one a tournament's fair-play report)
    assert len(served) == 31
    assert described == served
    resolve(document, document)
    for path, method in served:
        operation = document["paths"][path][method]
        assert operation["operationId"] and operation["responses"]
        for name in re.findall(r"{(\w+)}", path):
            assert {"name": name, "in": "path"}.items() <= next(
                p for p in operation["parameters"] if p["name"] == name
            ).items()
        errors = [r for status, r in operation["responses"].items() if status[0] in "45" or status == "default"]
        assert errors and all(r == {"$ref": f"#/components/responses/{r['$ref'].split('/')[-1]}"} for r in errors)
        outage = document["components"]["responses"][operation["responses"]["503"]["$ref"].split("/")[-1]]
        assert "Retry-After" in outage["headers"], f"{method} {path}: a store outage answers 503 with Retry-After"
    error = document["components"]["schemas"]["Error"]["properties"]["error"]["$ref"].split("/")[-1]
    assert document["components"]["schemas"][error]["required"] == ["code", "message"]


def test_the_published_request_schemas_are_the_ones_requests_are_checked_against(client: FlaskClient) -> None:
    published = ok(client.get("/api/v1/openapi.json"))["components"]["schemas"]
    assert published["NewPlayer"] == schemas.NEW_PLAYER and published["NewGame"] == schemas.NEW_GAME
    assert published["NewTournament"] == schemas.NEW_TOURNAMENT and published["Submit"] == schemas.SUBMIT


def test_the_document_is_valid_openapi_3_1_and_its_schemas_valid_json_schema(client: FlaskClient) -> None:
    """The served document passes an OpenAPI 3.1 validator (openapi-spec-validator: the document's structure, and
    every schema in it against the JSON Schema dialect OpenAPI 3.1 uses), and each component schema, the very
    objects requests are checked against, passes the Draft 2020-12 meta-schema (jsonschema-rs)."""
    document = ok(client.get("/api/v1/openapi.json"))
    openapi_spec_validator.validate(document)
    for name, schema in document["components"]["schemas"].items():
        assert jsonschema_rs.meta.is_valid(schema), name


@pytest.mark.parametrize(
    "broken",
    [
        lambda d: d["components"]["schemas"]["NewGame"]["properties"]["round"].update(type="whole number"),
        lambda d: d["paths"]["/api/v1/health"]["get"]["responses"]["200"].pop("description"),
        lambda d: d["paths"]["/api/v1/games/{game_id}/log"]["get"]["parameters"][1].update({"in": "body"}),
    ],
)
def test_the_document_validator_refuses_a_broken_document(broken: Any) -> None:
    """The check above can fail: a wrong type word, a response without its description, a parameter in no place."""
    document = json.loads(json.dumps(api_document()))
    broken(document)
    with pytest.raises(openapi_spec_validator.validation.exceptions.OpenAPIValidationError):
        openapi_spec_validator.validate(document)


REQUEST_BODIES = {"createPlayer": "NewPlayer", "createTournament": "NewTournament", "createGame": "NewGame"}
REQUEST_BODIES["submitAction"] = "Submit"


def accepted_by_the_server(body: Any, schema: dict[str, Any]) -> bool:
    try:
        check_text(body, "the body")
        check(body, schema)
    except BadRequest:
        return False
    return True


@pytest.mark.slow
def test_the_document_and_the_request_checker_agree_on_every_body() -> None:
    """What a JSON Schema validator makes of the published document is what the server's checker makes of the
    request: random bodies (and their near misses) are accepted by both or refused by both."""
    document = json.loads(json.dumps(api_document()))  # as served
    published = document["components"]["schemas"]
    validators = {
        name: jsonschema_rs.validator_for({**published[name], "components": document["components"]})
        for name in REQUEST_BODIES.values()
    }
    checked = {"NewPlayer": schemas.NEW_PLAYER, "NewTournament": schemas.NEW_TOURNAMENT}
    checked |= {"NewGame": schemas.NEW_GAME, "Submit": schemas.SUBMIT}
    ids = [str(uuid.UUID(int=i)) for i in (1, 2, 3)]
    near = {
        "NewPlayer": st.fixed_dictionaries(
            {"name": st.text(max_size=4) | st.sampled_from(["Ana", "  ", "A\x00", "\u00a0"])},
            optional={"kind": st.sampled_from(["human", "bot", "cat"]), "bot": bodies(ids) | st.just({"s": 1.5})},
        ),
        "NewTournament": st.fixed_dictionaries(
            {"name": st.sampled_from(["Cup", "", "C\x7fup"]), "rounds": st.sampled_from([1, 2.0, 2.5, 0, 1000, 1001])}
        ),
        "NewGame": st.fixed_dictionaries(
            {"game": st.just("ruins"), "seats": st.lists(st.sampled_from(ids), max_size=6)},
            optional={
                "seed": st.sampled_from(["4711", "ab" * 16, "AB" * 64, "ab" * 65, None]),
                "round": st.sampled_from([1, 1.0, 0, None, True]),
                "options": st.dictionaries(
                    st.sampled_from(["speed", "_x", "a b"]), st.integers() | st.text(max_size=3)
                ),
            },
        ),
        "Submit": st.fixed_dictionaries(
            {
                "version": st.sampled_from([1, 2.0, 2.5, 0, True]),
                "action": st.fixed_dictionaries(
                    {"type": st.sampled_from(["play", "pass", "flip", "discard", "steal"])},
                    optional={
                        "seat": st.sampled_from([0, 1.0, -1, "0", None]),
                        "ruin": st.sampled_from([None, 3, 3.0, "3"]),
                        "ruins": st.lists(st.integers(-1, 60), max_size=2) | st.just([1.0]),
                        "rank": st.integers(0, 14),
                        "purchases": st.lists(
                            st.fixed_dictionaries({"discovery": st.integers(0, 40)}, optional={"ruin": st.integers()}),
                            max_size=1,
                        ),
                        "claims": st.lists(st.integers(0, 60), max_size=2),
                    },
                ),
            }
        ),
    }

    a, b = ids[:2]
    chosen = {  # each rule, just met and just broken
        "NewPlayer": [
            {"name": "Ana"},
            {"name": "  "},
            {"name": "A\x00"},
            {"name": "x" * 101},
            {"name": "Ana", "bot": {"s": 1.5}},
        ],
        "NewTournament": [
            {"name": "Cup", "rounds": 2.0},
            {"name": "Cup", "rounds": 2.5},
            {"name": "Cup", "rounds": 1001},
        ],
        "NewGame": [
            {"game": "ruins", "seats": []},
            {"game": "ruins", "seats": [a]},
            {"game": "ruins", "seats": [a, b]},
            {"game": "ruins", "seats": [a, b] * 3},
            {"game": "ruins", "seats": [a, b], "seed": "ab" * 16},
            {"game": "ruins", "seats": [a, b], "seed": "4711"},
            {"game": "ruins", "seats": [a, b], "round": 1.0, "table": 2.0},
            {"game": "ruins", "seats": [a, b], "options": {"speed": "fast\n"}},
        ],
        "Submit": [
            {"version": 2.0, "action": {"type": "pass", "seat": 1.0}},
            {"version": 2, "action": {"type": "pass", "seat": 1.5}},
            {"version": 2, "action": {"type": "flip", "seat": 0}},
            {"version": 2, "action": {"type": "flip", "seat": 0, "ruin": 3.0}},
            {"version": 2, "action": {"type": "play", "seat": 0, "ruins": [1], "rank": 2, "purchases": [{"ruin": 1}]}},
            {"version": 2, "action": {"type": "steal", "seat": 0}},
            {"version": 2, "action": []},
        ],
    }
    for name, cases in chosen.items():
        for body in cases:
            assert validators[name].is_valid(body) == accepted_by_the_server(body, checked[name]), (name, body)

    @settings(max_examples=400, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def agree(data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(sorted(checked)))
        body = data.draw(near[name] | bodies(ids))
        try:
            json.dumps(body, ensure_ascii=False).encode()
        except UnicodeEncodeError:
            assume(False)  # a lone surrogate is no text at all: the server refuses it, a document cannot say so
        assert validators[name].is_valid(body) == accepted_by_the_server(body, checked[name]), (name, body)

    agree()


def test_a_whole_number_written_with_a_fraction_is_read_as_the_integer(client: FlaskClient) -> None:
    """JSON Schema (so the document) has 2.0 an integer; the server reads it as 2, whatever it stores."""
    created = new_game(client, players=2)
    answer = act(client, created["id"], seat_headers(created, 0), 1.0, {"type": "flip", "seat": 0.0, "ruin": None})
    assert ok(answer)["version"] == 2
    [record] = ok(client.get(f"/api/v1/games/{created['id']}/log?after=1", headers=organiser()))["records"]
    assert record["body"]["action"] == {"type": "flip", "seat": 0, "ruin": None}
    assert isinstance(record["body"]["seat"], int)


def test_a_route_without_an_operation_is_an_error_when_the_document_is_built() -> None:
    """Each route declares its operation beside it (``described``): one that does not cannot go unnoticed."""
    app = Flask(__name__)
    app.add_url_rule("/api/v1/secret", "secret", lambda: {})
    with pytest.raises(AssertionError, match="/api/v1/secret declares no OpenAPI operation"):
        openapi.document(app)
