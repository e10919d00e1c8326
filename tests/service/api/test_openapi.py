"""The OpenAPI document describes every route the app serves, and only those."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from service.api import schemas
from service.api.validation import KEYWORDS
from tests.service.api.support import ok

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
    assert len(served) == 10
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
    assert document["components"]["schemas"]["Error"]["properties"]["error"]["required"] == ["code", "message"]


def test_the_published_request_schemas_are_the_ones_requests_are_checked_against(client: FlaskClient) -> None:
    published = ok(client.get("/api/v1/openapi.json"))["components"]["schemas"]
    assert published["NewPlayer"] == schemas.NEW_PLAYER and published["NewGame"] == schemas.NEW_GAME
    assert published["NewTournament"] == schemas.NEW_TOURNAMENT and published["Submit"] == schemas.SUBMIT

    def keywords(schema: dict[str, Any]) -> None:
        assert set(schema) <= KEYWORDS, set(schema) - KEYWORDS
        for inner in schema.get("properties", {}).values():
            keywords(inner)
        for key in ("items", "additionalProperties", "propertyNames"):
            if isinstance(schema.get(key), dict):
                keywords(schema[key])

    for schema in (schemas.NEW_PLAYER, schemas.NEW_GAME, schemas.NEW_TOURNAMENT, schemas.SUBMIT):
        keywords(schema)
    for parameter in schemas.GAME_QUERY + schemas.LOG_QUERY:
        keywords(parameter["schema"])
