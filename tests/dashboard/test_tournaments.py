# ruff: noqa: F811  (the fixtures imported from test_access are redefined as parameters: how pytest shares them)
"""The tournaments page: standings, the cross table and the CSV, through the same door as every page: an organiser
sees games in play in the cross table, a spectator finished games only, and with spectator mode off nobody but an
organiser gets anything (the callbacks are called directly, not only through the page)."""

from __future__ import annotations

import json
from typing import Any

from dashboard.format import ordinal
from tests.dashboard.client import Browser, by_id, components, organiser, text
from tests.dashboard.test_access import Venue, app, closed, venue  # noqa: F401  (the door's venue and apps)

SHOW_OUTPUTS = [("standings-body", "children"), ("standings-round", "options")]
CSV_OUTPUTS = [("standings-csv", "data")]


def _show(browser: Browser, tournament: str, points: str | None = None, after: int | None = None) -> Any:
    return browser.post_callback(
        SHOW_OUTPUTS,
        [("standings-tournament", "data", tournament), ("standings-points", "value", points),
         ("standings-round", "value", after)],
    )  # fmt: skip


def _shown(browser: Browser, tournament: str, points: str | None = None, after: int | None = None) -> dict[str, Any]:
    response = _show(browser, tournament, points, after)
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    return dict(json.loads(response.get_data(as_text=True))["response"])


def _csv(browser: Browser, tournament: str, points: str | None = None) -> Any:
    return browser.post_callback(
        CSV_OUTPUTS,
        [("standings-csv-button", "n_clicks", 1)],
        [("standings-tournament", "data", tournament), ("standings-points", "value", points)],
    )


def test_the_organiser_s_standings_rank_the_players_and_show_the_game_in_play(app: Any, venue: Venue) -> None:
    org = organiser(app)
    page = json.dumps(org.route(f"/tournaments/{venue.tournament}"))
    assert "Door Cup" in page and "standings-points" in page
    out = _shown(org, venue.tournament)
    body = out["standings-body"]["children"]
    table = by_id(body, "standings-table")
    rows = table["props"]["children"][1]["props"]["children"]
    assert len(rows) == 4  # the cup's three players and the live game's newcomer
    assert "Ties are broken by games won" in text(by_id(body, "standings-rules"))
    cross = json.dumps(by_id(body, "standings-cross"))
    for game in (*venue.finished, venue.live):
        assert f"/replay/{game}" in cross
    assert "in play" in cross
    assert [o["value"] for o in out["standings-round"]["options"]] == [1, 2]


def test_a_spectator_sees_finished_games_only(app: Any, venue: Venue) -> None:
    anyone = Browser(app)
    out = _shown(anyone, venue.tournament)
    shown = json.dumps(out)
    assert venue.live not in shown and "in play" not in shown
    for game in venue.finished:
        assert f"/replay/{game}" in shown
    csv_text = json.loads(_csv(anyone, venue.tournament).get_data(as_text=True))["response"]["standings-csv"]["data"]
    assert csv_text["content"].startswith("rank,name,player_id,games,wins,points,score,average_place")
    assert "in play" not in csv_text["content"]


def test_with_spectator_mode_off_the_standings_are_refused_without_a_session(closed: Any, venue: Venue) -> None:
    anyone = Browser(closed)
    for response in (_show(anyone, venue.tournament), _csv(anyone, venue.tournament)):
        assert response.status_code == 403
        assert venue.finished[0] not in response.get_data(as_text=True)
    assert _show(organiser(closed), venue.tournament).status_code == 200


def test_a_points_table_changes_the_points_and_a_bad_one_is_a_sentence(app: Any, venue: Venue) -> None:
    org = organiser(app)
    default = json.dumps(_shown(org, venue.tournament))
    custom = json.dumps(_shown(org, venue.tournament, points="10,5"))
    assert default != custom
    bad = _shown(org, venue.tournament, points="ten")
    assert "whole numbers" in text(bad["standings-body"]["children"])


def test_standings_after_round_1_leave_round_2_out(app: Any, venue: Venue) -> None:
    org = organiser(app)
    out = _shown(org, venue.tournament, after=1)
    assert "Standings after round 1" in json.dumps(out)


def test_an_unknown_tournament_is_not_found_and_the_list_links_each_one(app: Any, venue: Venue) -> None:
    org = organiser(app)
    assert "no tournament with id" in text(org.route("/tournaments/nope"))
    listed = json.dumps(org.route("/tournaments"))
    assert f"/tournaments/{venue.tournament}" in listed


def test_the_games_list_shows_each_player_s_place_and_points(app: Any, venue: Venue) -> None:
    org = organiser(app)
    out = org.games(tournament=venue.tournament, status="over")
    table = by_id(out["games-results"]["children"], "games-table")
    shown = " ".join(text(table).split())  # (the text helper spaces out every element)
    seats = venue.queries.lists.tournament_seats(venue.tournament, finished_only=True)
    assert {s["game_id"] for s in seats} == set(venue.finished)
    for seat in seats:
        assert f"{seat['name']} {ordinal(seat['place'])} {seat['score']}" in shown


def test_rulings_show_on_the_standings_with_their_reasons(app: Any, venue: Venue) -> None:
    """Last in this module: it records rulings on the venue's games (an annulment and a penalty)."""
    from tests.dashboard.test_access import _catch_up

    service = venue.service
    annulled = venue.finished[0]
    service.rulings.rule_on_game(annulled, {"ruling": "annul", "reason": "two players swapped seats"})
    player = service.game(venue.finished[1])["players"][0]["id"]
    penalty = {"ruling": "penalty", "player": player, "points": 1, "reason": "late to the table"}
    service.rulings.rule_on_tournament(venue.tournament, penalty)
    _catch_up(service.settings)
    body = _shown(Browser(app), venue.tournament)["standings-body"]["children"]
    listed = text(by_id(body, "standings-rulings"))
    name = service.player(player)["name"]  # whose penalty: the list names them
    assert "game annulled: two players swapped seats" in listed
    assert f"penalty of 1 point(s) for {name}: late to the table" in listed
    # beside their points in both tables: the points no longer add up to their places without it
    rows = [r for r in components(by_id(body, "standings-table"), "Tr") if name in text(r)]
    crossed = [r for r in components(by_id(body, "standings-cross"), "Tr") if name in text(r)]
    assert rows and "(1 off: penalty)" in text(rows[0]) and crossed and "(1 off: penalty)" in text(crossed[0])
    others = [r for r in components(by_id(body, "standings-table"), "Tr") if name not in text(r)]
    assert not any("penalty" in text(r) for r in others)
    cross = json.dumps(by_id(body, "standings-cross"))
    assert "annulled" in cross and f"/replay/{annulled}" in cross
