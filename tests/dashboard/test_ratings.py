# ruff: noqa: F811  (the fixtures imported from test_access are redefined as parameters: how pytest shares them)
"""Ratings on the dashboard (dashboard/ratings.py, dashboard/pages/leaderboards.py): the leaderboard page, the player
page's rating with its band, the tournament page's change per player; through the same door as every page. The
venue has a game of the tournament in play whose players are rated from their finished games: neither the game in
play nor its lurker (seated in it only) shows, for a spectator or an organiser; with spectator mode off nothing
shows without a session (the router and the callbacks called directly)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dashboard.access import Denied, Visitor
from domain.games import GAMES
from tests.dashboard.client import Browser, by_id, graphs, ids, organiser, text
from tests.dashboard.test_access import Venue, app, closed, venue  # noqa: F401  (the door's venue and apps)


def _rows(tree: Any, table_id: str) -> list[list[str]]:
    table = by_id(tree, table_id)
    body = table["props"]["children"][1]["props"]["children"]
    return [[text(cell) for cell in row["props"]["children"]] for row in body]


def _cup_players(venue: Venue) -> dict[str, str]:
    """The cup's players (id -> name): those of its finished games."""
    found: dict[str, str] = {}
    for game_id in venue.finished:
        for seat in venue.service.game(game_id)["players"]:
            found[seat["id"]] = seat["name"]
    return found


def _games_of(venue: Venue, player: str) -> int:
    return sum(player in [p["id"] for p in venue.service.game(g)["players"]] for g in venue.finished)


def test_the_leaderboard_lists_the_rated_players_by_their_conservative_rating(app: Any, venue: Venue) -> None:
    cup = _cup_players(venue)
    for browser in (Browser(app), organiser(app)):  # a spectator, and an organiser who sees the game in play
        response = browser.route_response("/leaderboards/ruins")
        assert "/leaderboards" in json.dumps(response["nav"])
        page = response["page"]["children"]
        rows = _rows(page, "leaderboard-table")
        assert sorted(r[1] for r in rows) == sorted(cup.values())  # not the lurker: seated in the game in play only
        assert "Lurker" not in json.dumps(page)
        conservative = [float(r[4]) for r in rows]
        assert conservative == sorted(conservative, reverse=True)
        games = {r[1]: int(r[5]) for r in rows}
        assert games == {name: _games_of(venue, p) for p, name in cup.items()}  # finished games only
    arnak = Browser(app).route("/leaderboards/arnak")
    assert f"No rated {GAMES['arnak'].title} game yet" in text(arnak)


def test_the_player_page_draws_the_rating_with_its_band(app: Any, venue: Venue) -> None:
    cup = _cup_players(venue)
    player = next(iter(cup))
    inputs = [
        ("players-player", "value", player),
        ("players-other", "value", None),
        ("players-kind", "value", "ruins"),
        ("players-size", "value", None),
    ]
    for browser in (Browser(app), organiser(app)):
        content = browser.call([("players-content", "children")], inputs)["players-content"]["children"]
        summary = by_id(content, "players-rating")
        figure = graphs(content)["players-rating-chart"]  # (drawn when scrolled to: below the first screen)
        upper, lower, estimate = figure["data"]
        assert lower["fill"] == "tonexty" and estimate["name"] == "rating (mu)"
        n = _games_of(venue, player)
        assert len(estimate["y"]) == n + 1  # the start, then one point a finished game (not the game in play)
        assert estimate["y"][0] == pytest.approx(25.0)
        assert all(lo < mu < hi for lo, mu, hi in zip(lower["y"], estimate["y"], upper["y"], strict=True))
        assert f"{n} games)" in text(summary) and "players-rating-card" in ids(content)


def test_the_tournament_page_shows_each_player_s_change_over_its_finished_games(app: Any, venue: Venue) -> None:
    cup = _cup_players(venue)
    for browser in (Browser(app), organiser(app)):
        page = browser.route(f"/tournaments/{venue.tournament}")
        rows = _rows(page, "tournament-ratings-table")
        assert sorted(r[0] for r in rows) == sorted(cup.values())
        assert {r[0]: int(r[1]) for r in rows} == {name: _games_of(venue, p) for p, name in cup.items()}
        changes = [float(r[2]) for r in rows]
        assert changes == sorted(changes, reverse=True) and changes[0] > 0 > changes[-1]
        assert "tournament-ratings-chart" in ids(page)


def test_with_spectator_mode_off_no_rating_shows_without_a_session(closed: Any, venue: Venue) -> None:
    anyone = Browser(closed)
    for path in ("/leaderboards", "/leaderboards/ruins", f"/tournaments/{venue.tournament}"):
        out = anyone.route_response(path)
        assert out["page"]["children"] == [] and out["go"]["href"].startswith("/login")
    data = closed.digsite.data
    shut = Visitor(spectators=False)
    player = next(iter(_cup_players(venue)))
    for read in (
        lambda: data.leaderboard(shut, "ruins", 10),
        lambda: data.rating_history(shut, player, "ruins"),
        lambda: data.tournament_ratings(shut, venue.tournament),
    ):
        with pytest.raises(Denied):
            read()
    assert _rows(organiser(closed).route("/leaderboards/ruins"), "leaderboard-table")
