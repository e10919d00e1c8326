# ruff: noqa: F811  (the fixtures imported from test_access are redefined as parameters: how pytest shares them)
"""Setting up an evening without the API: the New tournament form (clock, out of time, broadcast), new people
entered by name on the rounds page, and the rounds page (with the ruling form's games) refreshing itself when a
round seats itself. Bad input is the API's sentence with its code and stores nothing; anyone but an organiser is
refused each callback (403) and the form."""

from __future__ import annotations

import json
from typing import Any

from service.bots.seated_rounds import enter_bots
from service.commands.broadcasts import delay_of
from tests.dashboard.client import Browser, by_id, organiser
from tests.dashboard.test_access import Venue, app, closed, venue  # noqa: F401  (the door's venue and apps)
from tests.dashboard.test_rounds import _act, _answer

FORM = {
    "new-tournament-name": "Friday evening",
    "new-tournament-game": "ruins",
    "new-tournament-rounds": 2,
    "new-tournament-clock": None,
    "new-tournament-seconds": None,
    "new-tournament-increment": None,
    "new-tournament-on-timeout": None,
    "new-tournament-delay-kind": None,
    "new-tournament-delay": None,
}


def _create(browser: Browser, **fields: Any) -> Any:
    """The New tournament form's callback, as the browser sends it when *Create the tournament* is pressed."""
    values = {**FORM, **{k.replace("_", "-"): v for k, v in fields.items()}}
    return browser.post_callback(
        [("new-tournament-message", "children")],
        [("new-tournament-create", "n_clicks", 1)],
        [(i, "data" if i == "rounds-tournament" else "value", v) for i, v in values.items()],
    )


def _stored(venue: Venue) -> int:
    return venue.service.app.recorder.max_notification_id() or 0


def _refused(response: Any) -> None:
    assert response.status_code == 403, response.get_data(as_text=True)[:500]
    assert '"response"' not in response.get_data(as_text=True)


def _seat_holder(app: Any, venue: Venue) -> Browser:
    """A player who opened their own seat with its link's token."""
    cup = venue.service.create_tournament("Seat cup", 1, "ruins")
    enter_bots(venue.service, cup, 2)
    venue.service.rounds.seat_round(cup, "round_robin", 2)
    link = venue.service.rounds.links(cup, 1, "http://x")[0]
    browser = Browser(app)
    browser.get(f"replay/{link['game']}?token={link['url'].split('token=')[1]}")
    return browser


def test_an_organiser_creates_a_timed_broadcast_tournament_from_the_form(app: Any, venue: Venue) -> None:
    org = organiser(app)
    assert by_id(org.route("/tournaments"), "new-tournament-card")
    out = _create(
        org,
        new_tournament_clock="bank",
        new_tournament_seconds=900,
        new_tournament_increment=15,
        new_tournament_on_timeout="forfeit",
        new_tournament_delay_kind="moves",
        new_tournament_delay=2,
    )
    shown = json.loads(out.get_data(as_text=True))["response"]["new-tournament-message"]["children"]
    assert shown[0] == "Created Friday evening. Next: "
    cup = shown[1]["props"]["href"].split("/tournaments/")[1].removesuffix("/rounds")
    assert venue.service.tournament(cup)["clock"] == {"bank": 900, "increment": 15, "on_timeout": "forfeit"}
    assert venue.service.tournament(cup)["rounds"] == 2 and delay_of(venue.service, cup) == {"moves": 2}
    per_move = _create(org, new_tournament_clock="per_move", new_tournament_seconds=120)
    made = json.loads(per_move.get_data(as_text=True))["response"]["new-tournament-message"]["children"]
    other = made[1]["props"]["href"].split("/tournaments/")[1].removesuffix("/rounds")
    assert venue.service.tournament(other)["clock"] == {"per_move": 120} and delay_of(venue.service, other) is None


def test_bad_input_on_the_form_is_the_api_s_sentence_and_creates_nothing(app: Any, venue: Venue) -> None:
    org = organiser(app)
    before = _stored(venue)
    for fields, said in [
        (
            {"new_tournament_clock": "per_move", "new_tournament_seconds": 0},
            "Not done: the clock's 'per_move' must be more than 0 and at most 2592000 seconds, not 0 (invalid_clock)",
        ),
        ({"new_tournament_clock": "bank", "new_tournament_seconds": None}, "a number of seconds (invalid_clock)"),
        (
            {"new_tournament_clock": "per_move", "new_tournament_seconds": 60, "new_tournament_delay_kind": "minutes",
             "new_tournament_delay": 0},
            "'minutes' must be a number above 0 and at most 1440 (invalid_broadcast)",
        ),
        ({"new_tournament_name": "  "}, "(invalid_tournament)"),
        ({"new_tournament_rounds": None}, "a tournament has 1 to 1000 rounds (invalid_tournament)"),
    ]:  # fmt: skip
        answer = _answer(_create(org, **fields))["new-tournament-message"]["children"]
        assert answer.startswith("Not done: ") and answer.endswith(said), answer
    assert _stored(venue) == before


def test_anyone_but_an_organiser_is_refused_the_form_and_its_callback(app: Any, closed: Any, venue: Venue) -> None:
    seat_holder = _seat_holder(app, venue)
    before = _stored(venue)
    for browser in (Browser(app), seat_holder, Browser(closed)):
        assert "new-tournament-create" not in json.dumps(browser.route("/tournaments"))
        _refused(_create(browser, new_tournament_clock="per_move", new_tournament_seconds=60))
        _refused(_create(browser, new_tournament_clock="per_move", new_tournament_seconds=0))  # (bad input: 403 too)
    assert _stored(venue) == before


def test_an_organiser_enters_new_people_by_name_and_a_bad_name_registers_nobody(
    app: Any, closed: Any, venue: Venue
) -> None:
    service = venue.service
    cup = service.create_tournament("Walk-in night", 1, "ruins")
    org = organiser(app)
    existing = service.create_player("Zed")
    out = _answer(
        _act(
            org,
            cup,
            "rounds-enter",
            **{"rounds-enter-players__value": [existing], "rounds-enter-new__value": "Ines Ortega\n\n  Luis  \n"},
        )
    )
    assert out["rounds-message"]["children"] == "Entered 3 player(s)." and out["rounds-enter-new"]["value"] == ""
    entries = service.rounds.status(cup)["entries"]
    assert [e["name"] for e in entries] == ["Zed", "Ines Ortega", "Luis"]
    assert service.player(entries[1]["id"])["name"] == "Ines Ortega"

    before = _stored(venue)
    too_long = _answer(_act(org, cup, "rounds-enter", **{"rounds-enter-new__value": "Ana\n" + "x" * 101}))
    assert "a player needs a name of 1 to 100 characters" in too_long["rounds-message"]["children"]
    assert "(invalid_player)" in too_long["rounds-message"]["children"]
    again = _answer(
        _act(org, cup, "rounds-enter", **{"rounds-enter-players__value": [existing], "rounds-enter-new__value": "Ana"})
    )
    assert "(already_entered)" in again["rounds-message"]["children"]
    assert _stored(venue) == before and len(service.rounds.status(cup)["entries"]) == 3  # nobody registered

    for browser in (Browser(app), _seat_holder(app, venue), Browser(closed)):
        stored = _stored(venue)
        _refused(_act(browser, cup, "rounds-enter", **{"rounds-enter-new__value": "Mallory"}))
        assert _stored(venue) == stored


def _refresh(browser: Browser, cup: str, shown: Any, trigger: str = "rounds-refresh") -> Any:
    """The rounds page's refresh callback, as the browser sends it on its interval's tick."""
    key = next(k for k in browser.app.callback_map if "rounds-seen.data" in k)
    outputs = [part.rsplit(".", 1) for part in key.strip(".").split("...")]
    body = {
        "output": key,
        "outputs": [{"id": i, "property": p} for i, p in outputs],
        "inputs": [
            {"id": "rounds-refresh", "property": "n_intervals", "value": 1},
            {"id": "rounds-body", "property": "children", "value": None},
        ],
        "state": [
            {"id": "rounds-tournament", "property": "data", "value": cup},
            {"id": "rounds-seen", "property": "data", "value": shown},
        ],
        "changedPropIds": ["rounds-refresh.n_intervals" if trigger == "rounds-refresh" else "rounds-body.children"],
    }
    return browser.post("_dash-update-component", json=body)


def _by_id(answer: dict[str, Any], component: str) -> dict[str, Any]:
    return next(v for k, v in answer.items() if k == component)


def test_a_round_that_seats_itself_reaches_the_ruling_form_without_a_reload(
    app: Any, closed: Any, venue: Venue
) -> None:
    service = venue.service
    cup = service.create_tournament("Self-seating", 1, "ruins")
    enter_bots(service, cup, 4)
    org = organiser(app)
    page = org.route(f"/tournaments/{cup}/rounds")
    shown = by_id(page, "rounds-seen")["props"]["data"]
    assert by_id(page, "ruling-game")["props"]["options"] == []
    assert _refresh(org, cup, shown).status_code == 204  # nothing changed: nothing sent again

    service.rounds.seat_round(cup, "round_robin", 2)  # (as the last table of a round seats the next)
    answer = _answer(_refresh(org, cup, shown))
    games = {t["game"] for t in service.rounds.status(cup)["seated_rounds"][0]["tables"]}
    assert {o["value"] for o in _by_id(answer, "ruling-game")["options"]} == games and len(games) == 2
    assert len(_by_id(answer, "ruling-player")["options"]) == 4
    assert "Round 1" in json.dumps(_by_id(answer, "rounds-body")["children"])
    assert _by_id(answer, "rounds-links-round")["options"] == [{"label": "round 1", "value": 1}]
    # its only round seated: the button goes off and the card says why, without a reload
    assert _by_id(answer, "rounds-start")["disabled"] is True
    said = _by_id(answer, "rounds-message")["children"]
    assert said == "All 1 round(s) are seated; the last games are still in play."

    for browser in (Browser(app), Browser(closed)):
        response = _refresh(browser, cup, shown)
        _refused(response)
        assert "token=" not in response.get_data(as_text=True)
