"""The request checker's alternatives (``anyOf`` / ``oneOf``): an action is checked against the form its ``type``
names, and what is accepted or refused, with which sentence, is as if every form were tried."""

from __future__ import annotations

from typing import Any

import pytest

from service.api import schemas
from service.api.validation import check
from service.errors import BadRequest


def form(name: str, **fields: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["type", *fields],
        "properties": {"type": {"type": "string", "const": name}, **fields},
    }


FORMS = {"oneOf": [form("move", to={"type": "integer"}), form("pass"), form("say", words={"type": "string"})]}


def refusal(value: Any, schema: dict[str, Any]) -> str:
    with pytest.raises(BadRequest) as refused:
        check(value, schema)
    return refused.value.message


def test_a_value_naming_its_form_is_checked_against_that_form() -> None:
    assert check({"type": "move", "to": 2.0}, FORMS) == {"type": "move", "to": 2}
    assert check({"type": "pass"}, FORMS) == {"type": "pass"}
    assert refusal({"type": "say", "words": 3}, FORMS) == "'words' must be a string"
    assert refusal({"type": "move"}, FORMS) == "the body is missing the field(s) to"


def test_a_value_naming_no_form_is_told_the_forms_there_are() -> None:
    assert refusal({"type": "jump"}, FORMS) == "the body must be an object whose 'type' is one of move, pass, say"
    assert refusal({"to": 1}, FORMS) == "the body must be an object whose 'type' is one of move, pass, say"
    assert refusal({"type": 1}, FORMS) == "the body must be an object whose 'type' is one of move, pass, say"


def test_a_form_that_does_not_require_a_type_is_tried_too() -> None:
    """Narrowing by the type is only sound when every form requires one: here the open form fits as well."""
    loose = {"oneOf": [form("move", to={"type": "integer"}), {"type": "object"}]}
    assert refusal({"type": "move", "to": 1}, loose) == "the body fits more than one of its possible forms"
    assert check({"type": "jump"}, loose) == {"type": "jump"}


def test_two_forms_of_one_type_are_both_tried() -> None:
    twins = {"oneOf": [form("move", to={"type": "integer"}), form("move", to={"type": "number"})]}
    assert refusal({"type": "move", "to": 1}, twins) == "the body fits more than one of its possible forms"
    assert check({"type": "move", "to": 1.5}, twins) == {"type": "move", "to": 1.5}


@pytest.mark.parametrize("kind", schemas.GAME_KINDS)
def test_each_games_actions_pass_the_published_union_and_their_own_schema(kind: str) -> None:
    """Every example action a game publishes is accepted by the body's union of all games' actions and by its own
    game's schema; an action of another game is refused by the own schema (400 malformed_action)."""
    own = schemas.action_of(kind)
    published = schemas.COMPONENTS[schemas.component(kind, "Action")]
    for example in published.get("examples", []):
        assert check({"version": 1, "action": example}, schemas.SUBMIT)["action"] == example
        assert check(example, own) == example
        for other in schemas.GAME_KINDS:
            foreign = schemas.COMPONENTS[schemas.component(other, "Action")]["oneOf"]
            if other != kind and all(f["properties"]["type"]["const"] != example["type"] for f in foreign):
                with pytest.raises(BadRequest) as refused:
                    check(example, schemas.action_of(other))
                assert refused.value.code == "malformed_action"
