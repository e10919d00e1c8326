"""The request checker's alternatives (``anyOf`` / ``oneOf``): an action is checked against the form its ``type``
names, and what is accepted or refused, with which sentence, is as if every form were tried."""

from __future__ import annotations

import uuid
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


def test_the_first_problem_as_the_body_is_read_is_named() -> None:
    """A value's own kind and fields as a whole before its fields, the fields in the order they are written, a
    field's unknown name before anything in it."""
    game = {"game": "ruins", "seats": [str(i) for i in range(6)], "seed": "4711"}
    assert refusal({**game, "table": [[]]}, schemas.NEW_GAME) == "'seats' must hold 1 to 5 items"
    assert refusal({"round": 0, "game": "go"}, schemas.NEW_GAME) == "the body is missing the field(s) seats"
    assert refusal({"seed": 7, "kind": 1, "x": 1, "name": "Ana"}, schemas.NEW_PLAYER).startswith(
        "the body has an unknown field 'seed' (allowed: name, kind, bot)"
    )
    assert refusal({"kind": 1, "seed": 7, "name": "Ana"}, schemas.NEW_PLAYER) == "'kind' must be a string"
    assert refusal({"name": "Ana", "bot": {"ok": 1, "a b": [], "c": []}}, schemas.NEW_PLAYER) == (
        "'bot.a b (the name)' must match the pattern ^[A-Za-z][A-Za-z0-9_]{0,63}$"
    )


def test_a_refusal_takes_the_code_its_schema_names() -> None:
    """``x-refusal`` names the refusal of a pattern; ``x-code`` (the outermost) the code of anything within."""
    with pytest.raises(BadRequest) as weak:
        check({"game": "ruins", "seats": [str(uuid.UUID(int=1))], "seed": "4711"}, schemas.NEW_GAME)
    assert weak.value.code == "weak_seed" and weak.value.message.startswith("'seed' is refused: a seed must be")
    with pytest.raises(BadRequest) as shape:
        check({"version": 2, "action": {"type": "pass", "seat": "0"}}, schemas.SUBMIT)
    assert shape.value.code == "malformed_action"
    with pytest.raises(BadRequest) as setup:
        check({"side": 3}, schemas.options_of("arnak"), "options")
    assert setup.value.code == "invalid_setup" and setup.value.message.startswith("'options.side' must be")


def test_whole_numbers_are_integers_only_where_the_schema_wants_one() -> None:
    bot = check({"name": "Bo", "kind": "bot", "bot": {"rate": 1.0}}, schemas.NEW_PLAYER)
    assert isinstance(bot["bot"]["rate"], float)  # (a number: kept as sent)
    move = check({"version": 3.0, "action": {"type": "flip", "seat": 1.0, "ruin": 4.0}}, schemas.SUBMIT)
    assert move == {"version": 3, "action": {"type": "flip", "seat": 1, "ruin": 4}}
    assert all(type(v) is int for v in (move["version"], move["action"]["seat"], move["action"]["ruin"]))
