# ruff: noqa: F811  (the fixtures imported are redefined as parameters: how pytest shares them)
"""The replay's judgement obeys the game log's door, and agrees with the API's (``GET /games/{id}/analysis``):
the replay's callback and the API called directly, as a spectator, a seat of another game, a seat of the game and
an organiser, for a game in play and a finished one.

The two doors differ where their logs do: the dashboard shows a finished game's log to anyone while spectator mode
is on, so its judgement too; the API reads a log only with a seat's token or the organisers' key. A game in play
has no judgement through either (the API: 409; the replay: no card), whoever asks."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dashboard import create_dashboard
from service.api import create_app
from tests.dashboard.client import Browser, by_id, components, organiser, text
from tests.dashboard.conftest import access_settings
from tests.dashboard.judged import Judged, judged  # noqa: F401  (the judged store, a fixture)


@pytest.fixture(scope="module")
def app(judged: Judged) -> Any:
    return create_dashboard(judged.queries, judged.service, access=access_settings(failures=1000))


@pytest.fixture(scope="module")
def api(judged: Judged) -> Any:
    return create_app(service=judged.service).test_client()


def judgement_response(browser: Browser, game_id: str, latest: int = 1) -> Any:
    """The replay's judgement card, as its page asks for it once the first table shows (with the VP chart)."""
    return browser.post_callback(
        [("replay-judge", "children")],
        [("replay-chart-wanted", "data", {"v": 1})],
        [("replay-meta", "data", {"game": game_id, "latest": latest})],
    )


def shown(response: Any) -> Any:
    """The judgement card's children, from a callback that succeeded."""
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return json.loads(response.get_data(as_text=True))["response"]["replay-judge"]["children"]


def seated(app: Any, game_id: str, token: str) -> Browser:
    """A browser whose session proved a seat of ``game_id`` (the seat link, as a player opens it)."""
    player = Browser(app)
    assert player.get(f"/replay/{game_id}?v=2&token={token}").status_code == 200
    return player


def notes_of(card: Any) -> dict[str, Any]:
    return dict(json.loads(by_id(card, "replay-judge-data")["props"]["data-notes"]))


def seats_of(card: Any) -> list[list[str]]:
    """The rows of the card's seats table, as text cells."""
    table = by_id(card, "replay-judge-seats")
    return [[text(cell) for cell in components(row, "Td")] for row in components(table, "Tr")][1:]


def test_the_replays_judgement_and_the_apis_analysis_agree_door_by_door(app: Any, api: Any, judged: Judged) -> None:
    facts = judged.facts
    finished, live = facts["seated"], facts["live"]
    spectator, organisers = Browser(app), organiser(app)
    for game_id, tokens in ((finished, facts["seated_tokens"]), (live, facts["live_tokens"])):
        other_tokens = facts["live_tokens"] if game_id == finished else facts["seated_tokens"]
        other_game = live if game_id == finished else finished
        doors: dict[str, tuple[Browser, dict[str, str]]] = {
            "spectator": (spectator, {}),
            "seat of another game": (seated(app, other_game, other_tokens[1]), _bearer(other_tokens[1])),
            "seat of this game": (seated(app, game_id, tokens[0]), _bearer(tokens[0])),
            "organiser": (organisers, {"Authorization": "Bearer organiser-key"}),
        }
        for who, (browser, headers) in doors.items():
            page = judgement_response(browser, game_id)
            answer = api.get(f"/api/v1/games/{game_id}/analysis", headers=headers)
            if game_id == live:
                # Nobody sees a judgement of a game in play: the API says it is still being played to those it
                # lets in, the replay refuses those it does not let in and shows no card to the others.
                if who in ("spectator", "seat of another game"):
                    assert page.status_code == 403, who
                    assert answer.status_code == 401, who
                else:
                    assert shown(page) == [], who
                    assert answer.status_code == 409 and answer.get_json()["error"]["code"] == "game_not_finished"
                continue
            card = shown(page)
            notes = notes_of(card)
            if who in ("spectator", "seat of another game"):  # (spectator mode: a finished game is public)
                assert answer.status_code == 401, who
                analysis = api.get(
                    f"/api/v1/games/{game_id}/analysis", headers={"Authorization": "Bearer organiser-key"}
                ).get_json()
            else:
                assert answer.status_code == 200, who
                analysis = answer.get_json()
            # The same figures: each seat's accuracy and marks, each move's mark.
            rows = seats_of(card)
            assert [r[1] for r in rows] == [f"{s['accuracy']:.1f}" for s in analysis["seats"]], who
            assert [r[3:] for r in rows] == [
                [str(s["inaccuracies"]), str(s["mistakes"]), str(s["blunders"])] for s in analysis["seats"]
            ]
            assert {v: n["mark"] for v, n in notes.items()} == {str(m["version"]): m["mark"] for m in analysis["moves"]}


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_spectator_mode_off_shows_no_judgement_to_a_stranger(judged: Judged) -> None:
    closed = create_dashboard(judged.queries, judged.service, access=access_settings(spectators=False, failures=1000))
    game_id = judged.facts["seated"]
    refused = judgement_response(Browser(closed), game_id)
    assert refused.status_code == 403
    assert "data-notes" not in refused.get_data(as_text=True)
    assert notes_of(shown(judgement_response(organiser(closed), game_id)))


def test_a_finished_game_not_judged_says_so_and_a_judged_one_names_its_moves(app: Any, judged: Judged) -> None:
    anyone = Browser(app)
    card = shown(judgement_response(anyone, judged.facts["unjudged"]))
    assert "has not been judged yet" in text(card)
    for game_id in (judged.facts["cup"][0], judged.facts["arnak"][0]):
        notes = notes_of(shown(judgement_response(anyone, game_id)))
        lines = [line for n in notes.values() for line in n["lines"]]
        assert any("forced" in line for line in lines)
        assert any(line.startswith("The best move found: ") for line in lines)
        assert not any("{" in line for line in lines)  # the game's words, never an action's JSON
