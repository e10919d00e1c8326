"""The API's JSON (service/api/encoding.py) writes exactly the bytes ``json.dumps`` writes for the same answer,
although it writes a Ruins view's cards from texts it keeps."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from flask import Flask

from domain import ruins
from domain.ruins import caches
from service.api import create_app, encoding
from service.api.encoding import AnswerJSON
from service.application import Digsite


@pytest.fixture
def app(service: Digsite) -> Flask:
    return create_app(service=service)


def plain(obj: Any) -> str:
    """What Flask's own provider writes (compact, keys unsorted)."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=True, sort_keys=False)


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


def test_answers_are_written_byte_for_byte_as_json_dumps_writes_them(app: Flask, monkeypatch: Any) -> None:
    monkeypatch.setattr(encoding, "TEXTS_LIMIT", 300)  # the kept texts are emptied many times over
    monkeypatch.setattr(caches, "CARDS_LIMIT", 500)  # and so are the shared cards
    provider = app.json
    assert isinstance(provider, AnswerJSON)
    with app.app_context():
        for seed in (1, 2):
            for state in game_states(seed)[::3]:
                for seat in (None, 0, 1):
                    for answer in answers(state, seat):
                        text = provider.response(answer).get_data(as_text=True)
                        assert text == plain(answer) + "\n"
    assert provider._texts  # (the cards were written from kept texts)


def test_the_cards_are_shared_between_views_and_never_changed_by_writing_them(app: Flask) -> None:
    states = game_states(3)
    first, later = ruins.view(states[40], 0), ruins.view(states[41], 1)
    assert sum(a is b for a, b in zip(first["ruins"], later["ruins"], strict=True)) > 40  # most are the same dicts
    before = json.dumps(first)
    with app.app_context():
        app.json.response(answers(states[40], 0)[2])
    assert json.dumps(first) == before


def test_an_answer_holding_the_marker_or_written_indented_is_written_plainly(app: Flask) -> None:
    provider = app.json
    assert isinstance(provider, AnswerJSON)
    answer = answers(game_states(4)[10], 2)[1]
    answer["game"]["labels"] = {"round": provider._marker}
    with app.app_context():
        assert provider.response(answer).get_data(as_text=True) == plain(answer) + "\n"
        assert provider.dumps(answer, indent=2) == json.dumps(answer, indent=2, sort_keys=False)


def test_what_is_not_a_ruins_view_is_written_plainly(app: Flask) -> None:
    odd = {"view": {"game": "ruins", "ruins": [1, {"id": 2}]}, "game": {"view": {"game": "arnak", "ruins": [{}]}}}
    with app.app_context():
        assert app.json.response(odd).get_data(as_text=True) == plain(odd) + "\n"
