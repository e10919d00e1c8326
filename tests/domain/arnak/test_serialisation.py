"""Actions, events and states round-trip through their JSON forms; malformed input is refused with a sentence."""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain import arnak
from domain.arnak.actions import (
    Action,
    Buy,
    Choose,
    Dig,
    Discover,
    EndTurn,
    Overcome,
    Pass,
    Payment,
    PlaceIdol,
    Play,
    Research,
    TempleTile,
    UseAssistant,
    UseBoon,
)
from domain.errors import MalformedAction

EXAMPLES: list[Action] = [
    Dig(0, "camp1a", Payment((301,))),
    Dig(1, "L1-3", Payment((5, 6), ("boot",), 1)),
    Discover(2, "L2-1", Payment(charter=2)),
    Overcome(3, "L1-1", Payment((101,))),
    Buy(0, 117),
    Play(1, 2),
    Research(0, "glass", "r0p1"),
    Research(0, "notebook", "r1p0", row_first=True),
    TempleTile(2, 5),
    Pass(3),
    EndTurn(0),
    UseAssistant(1, 12),
    UseBoon(1, 4),
    PlaceIdol(0, "draw"),
    Choose(2, "hand:17"),
]


@pytest.mark.parametrize("action", EXAMPLES, ids=str)
def test_every_action_round_trips_through_json(action: Action) -> None:
    data = json.loads(json.dumps(arnak.action_to_dict(action)))
    assert arnak.action_from_dict(data) == action


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"type": "dance", "seat": 0},
        {"type": "pass"},
        {"type": "pass", "seat": "0"},
        {"type": "pass", "seat": True},
        {"type": "pass", "seat": 0, "extra": 1},
        {"type": "buy", "seat": 0},
        {"type": "dig", "seat": 0, "space": "camp1a", "payment": {"cards": "301"}},
        {"type": "dig", "seat": 0, "space": "camp1a", "payment": {"cards": [1], "charter": 1.5}},
        {"type": "research", "seat": 0, "token": "glass", "to": 3},
    ],
)
def test_malformed_actions_are_refused_with_a_sentence(data: Any) -> None:
    with pytest.raises(MalformedAction) as caught:
        arnak.action_from_dict(data)
    assert str(caught.value)


def test_unknown_events_are_refused() -> None:
    with pytest.raises(MalformedAction):
        arnak.event_from_dict({"type": "Nonsense"})
    with pytest.raises(MalformedAction):
        arnak.event_from_dict({"type": "Passed", "seat": "x"})


def test_a_new_games_state_round_trips_through_json() -> None:
    state = arnak.new_game(["a", "b", "c"], seed=4)
    assert arnak.state_from_dict(json.loads(json.dumps(arnak.state_to_dict(state)))) == state
    with pytest.raises(MalformedAction):
        arnak.state_from_dict({"players": []})
