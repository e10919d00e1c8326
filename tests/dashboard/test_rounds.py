# ruff: noqa: F811  (the fixtures imported from test_access are redefined as parameters: how pytest shares them)
"""The rounds page (organisers only): entries and rounds shown, the next round seated and started through the one
service function, seat links downloaded as CSV and as a printable sheet; anyone else is refused, by the page and by
each callback called directly, and nothing is seated nor any link given away."""

from __future__ import annotations

import json
from typing import Any

from service.bots.seated_rounds import enter_bots, play_rounds
from tests.dashboard.client import Browser, by_id, organiser, text
from tests.dashboard.test_access import Venue, app, closed, venue  # noqa: F401  (the door's venue and apps)
from tests.service.api.support import project

START_OUTPUTS = [
    ("rounds-body", "children"),
    ("rounds-message", "children"),
    ("rounds-start", "disabled"),
    ("rounds-links-round", "options"),
    ("rounds-enter-players", "value"),
    ("rounds-enter-players", "options"),
    ("rounds-enter-new", "value"),
]


def _cup(venue: Venue) -> str:
    service = venue.service
    cup = service.create_tournament("Night cup", 2, "ruins")
    service.rounds.enter(cup, [service.create_player(n) for n in ("Ana", "Beto", "Carla", "Diego", "Elif")])
    return cup


def _act(browser: Browser, cup: str, button: str | None, **states: Any) -> Any:
    """The rounds page's form callback, as the browser sends it when ``button`` (one of its two inputs) is pressed,
    or (``None``) as it sends it when the page loads."""
    buttons = ("rounds-start", "rounds-enter")
    values = {
        "rounds-tournament.data": cup,
        "rounds-format.value": None,
        "rounds-size.value": 2,
        "rounds-force.value": None,
        "rounds-enter-players.value": None,
        "rounds-enter-bots.value": None,
        "rounds-enter-new.value": None,
        **{k.replace("__", "."): v for k, v in states.items()},
    }
    body = {
        "output": ".." + "...".join(f"{i}.{p}" for i, p in START_OUTPUTS) + "..",
        "outputs": [{"id": i, "property": p} for i, p in START_OUTPUTS],
        "inputs": [{"id": b, "property": "n_clicks", "value": 1 if b == button else None} for b in buttons],
        "state": [{"id": k.split(".")[0], "property": k.split(".")[1], "value": v} for k, v in values.items()],
        "changedPropIds": [f"{button}.n_clicks"] if button else [],
    }
    return browser.post("_dash-update-component", json=body)


def _start(browser: Browser, cup: str, force: list[str] | None = None) -> Any:
    return _act(browser, cup, "rounds-start", **{"rounds-force__value": force})


def _links(browser: Browser, cup: str, button: str) -> Any:
    """The download callback, as the browser sends it when ``button`` (one of its two inputs) is clicked."""
    buttons = ("rounds-links-csv", "rounds-links-sheet")
    body = {
        "output": "rounds-links.data",
        "outputs": {"id": "rounds-links", "property": "data"},
        "inputs": [{"id": b, "property": "n_clicks", "value": 1 if b == button else None} for b in buttons],
        "state": [
            {"id": "rounds-tournament", "property": "data", "value": cup},
            {"id": "rounds-links-round", "property": "value", "value": None},
        ],
        "changedPropIds": [f"{button}.n_clicks"],
    }
    return browser.post("_dash-update-component", json=body)


RULING_OUTPUTS = [("ruling-message", "children"), ("ruling-game", "options")]


def _rule(browser: Browser, cup: str, **fields: Any) -> Any:
    """The ruling form's callback, as the browser sends it when *Record the ruling* is pressed."""
    values = {
        "rounds-tournament.data": cup,
        "ruling-kind.value": None,
        "ruling-game.value": None,
        "ruling-order.value": None,
        "ruling-player.value": None,
        "ruling-points.value": None,
        "ruling-reason.value": None,
        **{k.replace("__", ".").replace("_", "-"): v for k, v in fields.items()},
    }
    body = {
        "output": ".." + "...".join(f"{i}.{p}" for i, p in RULING_OUTPUTS) + "..",
        "outputs": [{"id": i, "property": p} for i, p in RULING_OUTPUTS],
        "inputs": [{"id": "ruling-record", "property": "n_clicks", "value": 1}],
        "state": [{"id": k.split(".")[0], "property": k.split(".")[1], "value": v} for k, v in values.items()],
        "changedPropIds": ["ruling-record.n_clicks"],
    }
    return browser.post("_dash-update-component", json=body)


def _answer(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    return dict(json.loads(response.get_data(as_text=True))["response"])


def test_an_organiser_seats_a_round_and_downloads_its_links(app: Any, venue: Venue) -> None:
    cup = _cup(venue)
    org = organiser(app)
    page = org.route(f"/tournaments/{cup}/rounds")
    assert "Ana, Beto, Carla, Diego, Elif" in text(by_id(page, "rounds-entries")) and by_id(page, "rounds-none")
    out = _answer(_start(org, cup))
    assert "Round 1 seated and started: 2 table(s)" in out["rounds-message"]["children"]
    [seated] = venue.service.rounds.status(cup)["seated_rounds"]
    assert len(seated["tables"]) == 2 and len(seated["byes"]) == 1
    refused = _answer(_start(org, cup))  # the round is in play: a sentence with its code, nothing seated
    assert "(round_in_play)" in refused["rounds-message"]["children"]
    assert len(venue.service.rounds.status(cup)["seated_rounds"]) == 1

    as_csv = _answer(_links(org, cup, "rounds-links-csv"))["rounds-links"]["data"]
    lines = as_csv["content"].splitlines()
    assert lines[0].startswith("round,table,seat") and len(lines) == 5
    for line in lines[1:]:
        game, url = line.split(",")[-2:]
        seat = int(line.split(",")[2]) - 1
        assert venue.service.seat_for_token(game, url.split("token=")[1]) == seat  # each link opens its seat
    sheet = _answer(_links(org, cup, "rounds-links-sheet"))["rounds-links"]["data"]
    assert sheet["filename"] == "seats-round-1.html" and sheet["content"].count("<svg") == 4


def test_an_organiser_enters_people_and_bots_from_the_page(app: Any, venue: Venue) -> None:
    service = venue.service
    cup = service.create_tournament("Walk-in cup", 1, "ruins")
    org = organiser(app)
    picked = [service.create_player("Zed")]
    out = _answer(
        _act(org, cup, "rounds-enter", **{"rounds-enter-players__value": picked, "rounds-enter-bots__value": 2})
    )
    assert "Entered 3 player(s)" in out["rounds-message"]["children"]
    assert service.rounds.status(cup)["entries"][0]["id"] == picked[0]
    again = _answer(_act(org, cup, "rounds-enter", **{"rounds-enter-players__value": picked}))
    assert "(already_entered)" in again["rounds-message"]["children"]
    assert len(service.rounds.status(cup)["entries"]) == 3


def test_anyone_but_an_organiser_is_refused_the_page_and_every_callback(app: Any, closed: Any, venue: Venue) -> None:
    cup = _cup(venue)
    venue.service.rounds.seat_round(cup, "round_robin", 2)
    seat_holder = Browser(app)  # a player who opened their own seat with its link's token
    link = venue.service.rounds.links(cup, 1, "http://x")[0]
    seat_holder.get(f"replay/{link['game']}?token={link['url'].split('token=')[1]}")
    for browser in (Browser(app), seat_holder, Browser(closed)):
        page = browser.route(f"/tournaments/{cup}/rounds")  # (spectator mode off: the sign-in page, empty here)
        assert "rounds-start" not in json.dumps(page) and "Carla" not in json.dumps(page)
        assert "ruling-record" not in json.dumps(page)  # (nor the ruling form)
        assert not page or "for organisers" in text(page)
        for response in (
            _start(browser, cup, force=["force"]),
            _act(browser, cup, "rounds-enter", **{"rounds-enter-bots__value": 1}),
            _links(browser, cup, "rounds-links-csv"),
            _links(browser, cup, "rounds-links-sheet"),
            _rule(
                browser,
                cup,
                ruling_kind__value="penalty",
                ruling_player__value=link["player"],
                ruling_points__value=3,
                ruling_reason__value="slow play",
            ),
            _rule(
                browser,
                cup,
                ruling_kind__value="annul",
                ruling_game__value=link["game"],
                ruling_reason__value="a misdeal",
            ),
        ):
            assert response.status_code == 403, response.get_data(as_text=True)[:500]
            assert "token=" not in response.get_data(as_text=True) and '"response"' not in response.get_data(
                as_text=True
            )
    status = venue.service.rounds.status(cup)
    assert len(status["seated_rounds"]) == 1 and len(status["entries"]) == 5  # nothing seated, nobody entered
    assert not venue.service.rulings.of_tournament(cup) and not venue.service.rulings.of_game(link["game"])
    assert "tournament-rounds-link" not in json.dumps(Browser(app).route(f"/tournaments/{venue.tournament}"))
    assert "tournament-rounds-link" in json.dumps(organiser(app).route(f"/tournaments/{venue.tournament}"))


def _void(browser: Browser, cup: str, table: Any, seat: Any, reason: Any) -> Any:
    """The void-a-link callback, as the browser sends it when its button is pressed."""
    states = {
        "rounds-tournament.data": cup,
        "rounds-links-round.value": None,
        "rounds-void-table.value": table,
        "rounds-void-seat.value": seat,
        "rounds-void-reason.value": reason,
    }
    body = {
        "output": "rounds-void-message.children",
        "outputs": {"id": "rounds-void-message", "property": "children"},
        "inputs": [{"id": "rounds-void", "property": "n_clicks", "value": 1}],
        "state": [{"id": k.split(".")[0], "property": k.split(".")[1], "value": v} for k, v in states.items()],
        "changedPropIds": ["rounds-void.n_clicks"],
    }
    return browser.post("_dash-update-component", json=body)


def test_an_organiser_voids_one_seat_s_link_from_the_page_and_no_one_else_can(
    app: Any, closed: Any, venue: Venue
) -> None:
    service = venue.service
    cup = _cup(venue)
    service.rounds.seat_round(cup, "round_robin", 2)
    before = service.rounds.links(cup, 1, "http://x")
    lost = next(x for x in before if x["table"] == 2 and x["seat"] == 1)
    old_token = lost["url"].split("token=")[1]
    for browser in (Browser(app), Browser(closed)):
        response = _void(browser, cup, 2, 2, "sheet lost")
        assert response.status_code == 403 and "token=" not in response.get_data(as_text=True)
    assert service.seat_for_token(lost["game"], old_token) == 1  # (refused callers changed nothing)

    org = organiser(app)
    refused = _answer(_void(org, cup, 2, 2, "  "))["rounds-void-message"]["children"]
    assert "Not done" in refused and "(invalid_ruling)" in refused
    shown = json.dumps(_answer(_void(org, cup, 2, 2, "sheet lost"))["rounds-void-message"]["children"])
    assert "table 2, seat 2" in shown and old_token not in shown
    new_token = shown.split("token=")[1].split('"')[0]
    assert service.seat_for_token(lost["game"], new_token) == 1
    after = service.rounds.links(cup, 1, "http://x")

    def others(links: list[Any]) -> list[str]:
        return [x["url"] for x in links if (x["game"], x["seat"]) != (lost["game"], 1)]

    assert others(after) == others(before) and len(others(after)) == 3  # the other seats' links as they were
    assert [x["url"] for x in after if (x["game"], x["seat"]) == (lost["game"], 1)] == [
        lost["url"].replace(old_token, new_token)
    ]
    assert "(unknown_table)" in _answer(_void(org, cup, 9, 1, "x"))["rounds-void-message"]["children"]


def test_an_organiser_rules_from_the_rounds_page_and_a_refusal_is_a_sentence(app: Any, venue: Venue) -> None:
    service = venue.service
    cup = service.create_tournament("Ruled cup", 1, "ruins")
    bots = enter_bots(service, cup, 4)
    service.rounds.seat_round(cup, "round_robin", 2)
    play_rounds(service, cup, seed="ruled")
    game = service.rounds.status(cup)["seated_rounds"][0]["tables"][0]["game"]
    assert game is not None
    org = organiser(app)
    page = org.route(f"/tournaments/{cup}/rounds")
    assert "Record the ruling" in text(by_id(page, "ruling-card"))

    unreasoned = _answer(
        _rule(
            org,
            cup,
            ruling_kind__value="adjust_result",
            ruling_game__value=game,
            ruling_order__value="2 1",
            ruling_reason__value="  ",
        )
    )
    assert "a ruling needs the organiser's reason" in unreasoned["ruling-message"]["children"]
    other_cup = _answer(
        _rule(
            org, cup, ruling_kind__value="annul", ruling_game__value=venue.finished[0], ruling_reason__value="not ours"
        )
    )
    assert "(invalid_ruling)" in other_cup["ruling-message"]["children"]
    not_seats = _answer(
        _rule(
            org,
            cup,
            ruling_kind__value="adjust_result",
            ruling_game__value=game,
            ruling_order__value="first",
            ruling_reason__value="x",
        )
    )
    assert "seat numbers" in not_seats["ruling-message"]["children"]
    assert not service.rulings.of_game(game) and not service.rulings.of_game(venue.finished[0])

    adjusted = _answer(
        _rule(
            org,
            cup,
            ruling_kind__value="adjust_result",
            ruling_game__value=game,
            ruling_order__value="2, 1",
            ruling_reason__value="scores misread",
        )
    )
    said = "Recorded: Round 1 · table 1, result adjusted. The standings show it."
    assert adjusted["ruling-message"]["children"] == said
    (ruling,) = service.rulings.of_game(game)
    assert ruling["body"]["ruling"] == "adjust_result" and ruling["body"]["reason"] == "scores misread"
    assert ruling["body"]["details"]["result"]["ranking"] == [1, 0]

    fined = _answer(
        _rule(
            org,
            cup,
            ruling_kind__value="penalty",
            ruling_player__value=bots[0],
            ruling_points__value=2,
            ruling_reason__value="slow play",
        )
    )
    assert fined["ruling-message"]["children"].startswith("Recorded: a penalty of 2 point(s) for ")
    assert [(p["player"], p["points"], p["reason"]) for p in service.rulings.of_tournament(cup)] == [
        (bots[0], 2, "slow play")
    ]


def test_a_tournament_whose_games_were_created_directly_says_so_on_its_rounds_page(app: Any, venue: Venue) -> None:
    """The venue's cup was played by creating its games (two finished, one in play, rounds 1 and 2), none seated
    here: the page says so (the organiser counts the game in play too), and a seated tournament's page does not."""
    org = organiser(app)
    page = org.route(f"/tournaments/{venue.tournament}/rounds")
    note = text(by_id(page, "rounds-outside"))
    assert f"{len(venue.finished) + 1} game(s), in round(s) 1, 2, were created directly" in note
    assert by_id(page, "rounds-start")["props"]["disabled"]  # the service refuses it (games_created_directly)
    assert text(by_id(page, "rounds-message")) == "Seating a round here is refused: see the note at the top."
    seated = _cup(venue)
    _start(org, seated)
    project(venue.service)  # its games in the read models, so the standings count them
    page = org.route(f"/tournaments/{seated}/rounds")
    assert "rounds-outside" not in json.dumps(page) and not by_id(page, "rounds-start")["props"]["disabled"]


def test_the_next_round_s_button_is_off_once_every_round_is_seated_and_the_card_says_why(
    app: Any, venue: Venue
) -> None:
    """Seated but in play, then played: the card says which; a tournament with a round to seat keeps its button."""
    service = venue.service
    cup = service.create_tournament("One-round cup", 1, "ruins")
    enter_bots(service, cup, 4)
    org = organiser(app)

    def card() -> tuple[bool, str]:
        page = org.route(f"/tournaments/{cup}/rounds")
        said = bool(by_id(page, "rounds-start")["props"].get("disabled")), text(by_id(page, "rounds-message"))
        # The buttons' callback runs as the page loads and writes the card: what the browser shows is its answer.
        loaded = _answer(_act(org, cup, None))
        assert (loaded["rounds-start"]["disabled"], loaded["rounds-message"]["children"]) == said
        return said

    assert card() == (False, "")
    service.rounds.seat_round(cup, "round_robin", 2)
    assert card() == (True, "All 1 round(s) are seated; the last games are still in play.")
    play_rounds(service, cup, seed="one round")
    assert card() == (True, "All 1 round(s) are seated and played: the tournament is complete.")
