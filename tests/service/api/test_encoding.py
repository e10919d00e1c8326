"""The API's JSON (service/api/encoding.py): orjson writes the answers, and a client reads back exactly what
``json.dumps`` would have written: keys in the service's order, Flask's dates, the rest by ``json.dumps``."""

from __future__ import annotations

import dataclasses
import json
import random
from datetime import UTC, datetime
from typing import Any

import pytest
from flask import Flask

from domain import ruins
from service.api import create_app
from service.commands.application import Digsite


@pytest.fixture
def app(service: Digsite) -> Flask:
    return create_app(service=service)


def game_states(seed: int, players: int = 4) -> list[Any]:
    rng = random.Random(seed)
    state = ruins.new_game([f"P{i}" for i in range(players)], seed=seed)
    states = [state]
    while state.outcome is None and len(states) < 400:
        seat = ruins.to_act(state)[0]
        state = ruins.apply(state, rng.choice(ruins.legal_actions(state, seat)))
        states.append(state)
    return states


def answers(state: Any, seat: int | None) -> list[dict[str, Any]]:
    """A game as ``seat`` sees it, in each of the three answers that carry one."""
    game = {"id": "g", "kind": "ruins", "players": [{"name": "Zoë ☃"}], "view": ruins.view(state, seat), "seat": seat}
    following = {"id": "g", "version": 9, "records": [{"body": {"x": "ü"}}], "ready": True, "game": game}
    return [game, following, {"version": 8, "events": [], "next": following}]


def written(app: Flask, answer: Any) -> bytes:
    with app.app_context():
        return app.json.response(answer).get_data()


def read(text: bytes) -> Any:
    """What a client reads, keeping the order of keys as written."""
    return json.loads(text, object_pairs_hook=lambda pairs: pairs)


def test_a_client_reads_back_what_json_dumps_would_have_written_keys_in_the_same_order(app: Flask) -> None:
    for seed in (1, 2):
        for state in game_states(seed)[::5]:
            for seat in (None, 0, 1):
                for answer in answers(state, seat):
                    text = written(app, answer)
                    assert text.endswith(b"\n")
                    assert read(text) == read(json.dumps(answer).encode())


def test_text_outside_ascii_is_written_as_utf8_and_int_keys_as_strings(app: Flask) -> None:
    text = written(app, {"name": "Zoë ☃", 3: "three"})
    assert text == '{"name":"Zoë ☃","3":"three"}\n'.encode()


def test_dates_and_dataclasses_are_written_as_flask_writes_them(app: Flask) -> None:
    @dataclasses.dataclass
    class Pair:
        left: int
        right: str

    at = datetime(2026, 12, 4, 9, 30, tzinfo=UTC)
    assert json.loads(written(app, {"at": at, "pair": Pair(1, "x")})) == {
        "at": "Fri, 04 Dec 2026 09:30:00 GMT",
        "pair": {"left": 1, "right": "x"},
    }


def test_what_orjson_cannot_write_is_written_by_json_dumps(app: Flask) -> None:
    huge = {"big": 2**70, "list": [1, 2]}
    assert written(app, huge) == b'{"big":1180591620717411303424,"list":[1,2]}\n'
    quoted = {"error": {"message": "'a\ud800b' holds a lone surrogate"}}
    assert written(app, quoted) == b'{"error":{"message":"\'a\\ud800b\' holds a lone surrogate"}}\n'


def test_an_indented_answer_debug_mode_is_written_by_json_dumps(app: Flask) -> None:
    app.json.compact = False  # type: ignore[attr-defined]
    answer = {"b": 1, "a": ["ü"]}
    assert written(app, answer) == (json.dumps(answer, indent=2) + "\n").encode()
