"""Actions round-trip through their string and JSON forms; malformed input is refused with a sentence.

Every action kind the seed's turn has: a play ('play ... a set of same-rank ruins', crafted with purchased
discoveries and claims), a pass ('or pass'), the round-start night flip ('may secretly flip 1 ruin', or none)
and the discard after a dig ('draw and discard').
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import DomainError, MalformedAction, RuleViolation
from domain.ruins import (
    Action,
    Discard,
    Flip,
    Pass,
    Play,
    Purchase,
    action_from_dict,
    action_from_str,
    action_to_dict,
)

EXAMPLES: list[Action] = [
    Play(0, (14,), 3),
    Play(2, (14, 31), 7),
    Play(1, (3, 17), 7, purchases=(Purchase(12, 3),)),
    Play(1, (3, 17), 9, purchases=(Purchase(12, 3), Purchase(30, 17)), claims=(17,)),
    Play(4, (40, 41, 42), 9, claims=(40, 42)),
    Play(3, (5,), 13, purchases=(Purchase(0, 5), Purchase(13, 5), Purchase(26, 5)), claims=(5,)),
    Pass(0),
    Pass(4),
    Flip(2, 23),
    Flip(2, 0),
    Flip(1, None),
    Discard(3, (8,)),
    Discard(3, (8, 9, 44)),
]


def via_json(action: Action) -> Action:
    return action_from_dict(json.loads(json.dumps(action_to_dict(action))))


@pytest.mark.parametrize("action", EXAMPLES, ids=str)
def test_the_string_form_round_trips(action: Action) -> None:
    assert action_from_str(str(action)) == action


@pytest.mark.parametrize("action", EXAMPLES, ids=str)
def test_the_json_form_round_trips(action: Action) -> None:
    data = action_to_dict(action)
    assert data["seat"] == action.seat
    assert via_json(action) == action


def test_the_string_forms_read_as_documented() -> None:
    """The forms in domain/ruins/actions.py: seat first, 'buy discovery>ruin', 'claim ruin', '-' for no flip."""
    assert action_from_str("2 play 14,31@7") == Play(2, (14, 31), 7)
    assert action_from_str("2 play 14,31@7 buy 12>14") == Play(2, (14, 31), 7, (Purchase(12, 14),))
    assert action_from_str("2 play 14@7 claim 14") == Play(2, (14,), 7, claims=(14,))
    assert action_from_str("1 play 3,17@7 buy 12>3 claim 17 buy 5>17") == Play(
        1, (3, 17), 7, (Purchase(12, 3), Purchase(5, 17)), (17,)
    )
    assert action_from_str("2 pass") == Pass(2)
    assert action_from_str("2 flip 23") == Flip(2, 23)
    assert action_from_str("2 flip -") == Flip(2, None)
    assert action_from_str("2 discard 8") == Discard(2, (8,))
    assert str(Play(1, (3, 17), 7, (Purchase(12, 3),), (17,))) == "1 play 3,17@7 buy 12>3 claim 17"
    assert str(Flip(0, None)) == "0 flip -"


def test_purchases_keep_their_order() -> None:
    """'Legality is judged after crafting' and prices depend on the market slot, so purchase order matters."""
    play = Play(0, (1, 2), 1, (Purchase(9, 2), Purchase(4, 1), Purchase(7, 2)))
    assert via_json(play).purchases == play.purchases
    assert action_from_str(str(play)).purchases == play.purchases


ids = st.integers(min_value=0, max_value=60)
purchases = st.builds(Purchase, ids, ids)
actions = st.one_of(
    st.builds(
        Play,
        ids,
        st.lists(ids, min_size=1, max_size=9).map(tuple),
        st.integers(min_value=0, max_value=14),
        st.lists(purchases, max_size=4).map(tuple),
        st.lists(ids, max_size=3).map(tuple),
    ),
    st.builds(Pass, ids),
    st.builds(Flip, ids, st.none() | ids),
    st.builds(Discard, ids, st.lists(ids, min_size=1, max_size=4).map(tuple)),
)


@given(actions)
def test_every_action_round_trips_through_both_forms(action: Action) -> None:
    assert action_from_str(str(action)) == action
    assert via_json(action) == action


# --------------------------------------------------------------------------- malformed JSON


def assert_malformed(call: Any, *args: Any) -> str:
    with pytest.raises(MalformedAction) as info:
        call(*args)
    error = info.value
    assert not isinstance(error, RuleViolation), "a shape error is not a rule violation"
    message = str(error)
    assert len(message.split()) >= 3, f"the refusal should be a sentence, not {message!r}"
    return message


@pytest.mark.parametrize("data", [None, 3, "0 pass", ["pass", 0], [], True], ids=repr)
def test_an_action_that_is_not_a_json_object_is_malformed(data: Any) -> None:
    assert_malformed(action_from_dict, data)


@pytest.mark.parametrize(
    "data",
    [
        {"seat": 0},
        {"type": "bid", "seat": 0},
        {"type": "PASS", "seat": 0},
        {"type": None, "seat": 0},
        {"type": 1, "seat": 0},
    ],
    ids=repr,
)
def test_an_unknown_action_type_is_malformed(data: dict[str, Any]) -> None:
    message = assert_malformed(action_from_dict, data)
    assert "type" in message


BASE: dict[str, dict[str, Any]] = {
    "play": {"type": "play", "seat": 1, "ruins": [3, 17], "rank": 7, "purchases": [{"discovery": 12, "ruin": 3}]},
    "pass": {"type": "pass", "seat": 1},
    "flip": {"type": "flip", "seat": 1, "ruin": 23},
    "discard": {"type": "discard", "seat": 1, "ruins": [8]},
}


def test_the_base_documents_are_well_formed() -> None:
    """The malformed cases below each change one field of these, so these must parse."""
    for data in BASE.values():
        assert action_to_dict(action_from_dict(data)) == data


@pytest.mark.parametrize("kind", sorted(BASE))
def test_an_action_without_a_seat_is_malformed(kind: str) -> None:
    data = dict(BASE[kind])
    del data["seat"]
    message = assert_malformed(action_from_dict, data)
    assert "seat" in message


WRONG_TYPES = [
    ("play", "seat", "1"),
    ("play", "seat", 1.0),
    ("play", "seat", None),
    ("play", "ruins", "3,17"),
    ("play", "ruins", 3),
    ("play", "ruins", [3, "17"]),
    ("play", "ruins", [3, 17.0]),
    ("play", "ruins", None),
    ("play", "rank", "7"),
    ("play", "rank", None),
    ("play", "rank", [7]),
    ("play", "purchases", {"discovery": 12, "ruin": 3}),
    ("play", "purchases", [[12, 3]]),
    ("play", "purchases", [{"discovery": 12}]),
    ("play", "purchases", [{"discovery": 12, "ruin": 3, "price": 1}]),
    ("play", "purchases", [{"discovery": "12", "ruin": 3}]),
    ("play", "purchases", None),
    ("play", "claims", 3),
    ("play", "claims", ["3"]),
    ("play", "claims", None),
    ("pass", "seat", "one"),
    ("flip", "seat", [1]),
    ("flip", "ruin", "23"),
    ("flip", "ruin", 23.5),
    ("flip", "ruin", [23]),
    ("discard", "ruins", 8),
    ("discard", "ruins", ["8"]),
    ("discard", "ruins", {"8": 8}),
]


@pytest.mark.parametrize(("kind", "field", "value"), WRONG_TYPES, ids=repr)
def test_a_field_of_the_wrong_type_is_malformed(kind: str, field: str, value: Any) -> None:
    assert_malformed(action_from_dict, {**BASE[kind], field: value})


BOOLS = [
    ("play", "seat", True),
    ("play", "rank", True),
    ("play", "ruins", [3, True]),
    ("play", "purchases", [{"discovery": True, "ruin": 3}]),
    ("play", "purchases", [{"discovery": 12, "ruin": False}]),
    ("play", "claims", [True]),
    ("pass", "seat", False),
    ("flip", "ruin", True),
    ("flip", "ruin", False),
    ("discard", "ruins", [False]),
]


@pytest.mark.parametrize(("kind", "field", "value"), BOOLS, ids=repr)
def test_a_bool_is_not_an_integer(kind: str, field: str, value: Any) -> None:
    """JSON true/false must not sneak in as seat 1/0 or ruin 1/0 (Python's bool is an int)."""
    message = assert_malformed(action_from_dict, {**BASE[kind], field: value})
    assert "integer" in message


@pytest.mark.parametrize(
    ("kind", "extra"),
    [("pass", "ruin"), ("pass", "ruins"), ("flip", "ruins"), ("discard", "rank"), ("play", "count"), ("play", "id")],
    ids=repr,
)
def test_an_extra_field_is_malformed(kind: str, extra: str) -> None:
    message = assert_malformed(action_from_dict, {**BASE[kind], extra: 1})
    assert extra in message


@pytest.mark.parametrize(("kind", "field"), [("play", "rank"), ("play", "ruins"), ("discard", "ruins")], ids=repr)
def test_a_missing_required_field_is_malformed(kind: str, field: str) -> None:
    data = dict(BASE[kind])
    del data[field]
    assert_malformed(action_from_dict, data)


@pytest.mark.parametrize("kind", [[], {}, ["play"], {"play": 1}], ids=repr)
def test_a_type_that_is_not_a_string_is_malformed(kind: Any) -> None:
    """A JSON client can send any value as 'type': a list or an object must be refused as malformed,
    not crash the parser (it is unhashable, so a set/dict membership test raises TypeError)."""
    assert_malformed(action_from_dict, {"type": kind, "seat": 0})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
action_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["play", "pass", "flip", "discard"]) | json_values},
    optional={
        "seat": json_values | ids,
        "ruins": json_values | st.lists(ids, max_size=3),
        "rank": json_values | ids,
        "ruin": json_values | ids,
        "purchases": json_values | st.lists(st.fixed_dictionaries({"discovery": ids, "ruin": json_values | ids})),
        "claims": json_values | st.lists(ids, max_size=2),
    },
)


@given(st.one_of(json_values, action_like))
def test_any_json_value_parses_or_is_refused_as_malformed(data: Any) -> None:
    """Whatever a client sends, the parser answers with an action or a MalformedAction, never a crash;
    and what it accepts writes back to the same action."""
    try:
        action = action_from_dict(data)
    except MalformedAction as error:
        assert str(error)
        return
    assert via_json(action) == action


# --------------------------------------------------------------------------- malformed strings

GARBAGE = [
    "",
    "   ",
    "pass",
    "x pass",
    "1.5 pass",
    "0",
    "0 jump",
    "0 pass now",
    "0 pass 3",
    "0 play",
    "0 play 1,2",
    "0 play 1,2@",
    "0 play @3",
    "0 play a@3",
    "0 play 1,,2@3",
    "0 play 1@2@3",
    "0 play 1@3 buy",
    "0 play 1@3 buy 4",
    "0 play 1@3 buy 4-1",
    "0 play 1@3 buy 4>1>2",
    "0 play 1@3 steal 4",
    "0 play 1@3 claim",
    "0 play 1@3 claim x",
    "0 flip",
    "0 flip 1 2",
    "0 flip x",
    "0 flip none",
    "0 discard",
    "0 discard a",
    "0 discard 1 2",
    "{'type': 'pass', 'seat': 0}",
]


@pytest.mark.parametrize("text", GARBAGE, ids=repr)
def test_a_garbage_string_is_malformed(text: str) -> None:
    message = assert_malformed(action_from_str, text)
    assert "e.g." in message, "the refusal shows the forms that do read"


WORDS = ["0", "1", "play", "pass", "flip", "discard", "-", "buy", "claim", "3,4@5", "7>3", "12", "@", ",", ">"]


@given(st.text(max_size=40) | st.lists(st.sampled_from(WORDS), max_size=7).map(" ".join))
def test_any_string_parses_or_is_refused_as_malformed(text: str) -> None:
    try:
        action = action_from_str(text)
    except MalformedAction as error:
        assert str(error)
        return
    assert isinstance(action, (Play, Pass, Flip, Discard))
    assert action_from_str(str(action)) == action


def test_malformed_is_a_domain_error_the_service_can_map() -> None:
    assert issubclass(MalformedAction, DomainError)
    assert MalformedAction.code == "malformed_action"


@pytest.mark.parametrize("text", ["+1 pass", "0 play 1_0@3", "٣ pass", "0 flip +5"])
def test_the_string_form_takes_plain_ascii_numbers_only(text: str) -> None:
    with pytest.raises(MalformedAction):
        action_from_str(text)


def test_a_flip_must_say_which_ruin_or_null() -> None:
    with pytest.raises(MalformedAction, match="ruin"):
        action_from_dict({"type": "flip", "seat": 0})
    assert action_from_dict({"type": "flip", "seat": 0, "ruin": None}) == Flip(0, None)


def test_a_stored_action_is_rebuilt_as_it_was_accepted() -> None:
    """action_from_record (for projections reading the store) agrees with the checked parser on every form."""
    from domain.ruins import action_from_record

    for action in (
        Play(1, (3, 17), 7, (Purchase(12, 3), Purchase(5, 17)), (17,)),
        Play(0, (9,), 2),
        Pass(2),
        Flip(0, None),
        Flip(3, 23),
        Discard(1, (8, 9)),
    ):
        stored = json.loads(json.dumps(action_to_dict(action)))
        assert action_from_record(stored) == action_from_dict(stored) == action
