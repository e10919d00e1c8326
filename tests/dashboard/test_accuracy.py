# ruff: noqa: F811  (the fixtures imported are redefined as parameters: how pytest shares them)
"""Accuracy across judged games on the player page and the tournament page (``dashboard.accuracy``): the figures
are the stored judgements' (each seat's accuracy, read back through the API's read port), the field is every judged
seat at a table size, the pages' doors are theirs (the callbacks called directly)."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import pytest

from dashboard import create_dashboard
from dashboard.accuracy import interval
from tests.dashboard.client import Browser, by_id, components, graphs, organiser, text
from tests.dashboard.conftest import access_settings
from tests.dashboard.judged import Judged
from tests.dashboard.test_replay_judgement_access import app, judged  # noqa: F401  (the judged store and its app)


def seat_accuracies(judged: Judged, game_ids: list[str]) -> list[tuple[str, str, int, float]]:
    """(game, player, table size, accuracy) of every judged seat of ``game_ids``, from the stored judgements."""
    out = []
    for game_id in game_ids:
        game = judged.service.game(game_id)
        analysis = judged.queries.judgements.of(game_id)
        assert analysis is not None
        players = [p["id"] for p in game["players"]]
        for seat in analysis["seats"]:
            if seat["accuracy"] is not None:
                out.append((game_id, players[seat["seat"]], len(players), seat["accuracy"]))
    return out


def player_content(browser: Browser, player: str, kind: str = "ruins", size: int | None = None) -> Any:
    response = browser.post_callback(
        [("players-content", "children")],
        [("players-player", "value", player), ("players-other", "value", None), ("players-kind", "value", kind),
         ("players-size", "value", size)],
    )  # fmt: skip
    return response


def tournament_body(browser: Browser, tournament: str) -> Any:
    return browser.post_callback(
        [("standings-body", "children"), ("standings-round", "options")],
        [("standings-tournament", "data", tournament), ("standings-points", "value", None),
         ("standings-round", "value", None)],
    )  # fmt: skip


def body_of(response: Any, output: str) -> Any:
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return json.loads(response.get_data(as_text=True))["response"][output]["children"]


def test_a_mean_s_interval_is_student_s_and_none_under_two() -> None:
    """A mean of a few accuracies has its spread estimated from those few: the interval's half-width is t(n-1)
    standard errors (2.776 at 5 values), not the normal 1.96, which would claim far more than 5 games show."""
    assert interval(80.0, 6400.0, 1) is None
    low, high = interval(80.0, 6500.0, 5) or (0.0, 0.0)  # variance 100 * 5/4, standard error sqrt(125/5) = 5
    assert (round(low, 6), round(high, 6)) == (round(80 - 2.776 * 5, 6), round(80 + 2.776 * 5, 6))
    assert interval(50.0, 2500.0 + 1.0, 2) == pytest.approx((50 - 12.706, 50 + 12.706))  # 2 values: 12.7 errors
    assert (interval(99.0, 99.0 * 99.0 + 300.0, 4) or (0, 0))[1] == 100.0  # (an accuracy is at most 100)


def test_the_player_page_shows_each_judged_game_and_the_field_at_its_table_size(app: Any, judged: Judged) -> None:
    facts = judged.facts
    seats = seat_accuracies(judged, [*facts["cup"], facts["seated"]])
    player = facts["pool"][0]  # in the cup's games (at 3) and the seated game (at 2)
    mine = [s for s in seats if s[1] == player]
    assert {s[2] for s in mine} == {2, 3}
    content = body_of(player_content(Browser(app), player), "players-content")
    figure = graphs(content)["players-accuracy-graph"]
    points, field = figure["data"][0], figure["data"][1]
    by_game = {s[0]: s for s in mine}
    games = judged.queries.judgements.of_player(player, "ruins")
    assert [g["game_id"] for g in games] and set(by_game) == {g["game_id"] for g in games}
    assert points["y"] == [by_game[g["game_id"]][3] for g in games]
    # The field: every judged seat at that table size, the player's own included; n says how many.
    at: dict[int, list[float]] = defaultdict(list)
    for s in seats:
        at[s[2]].append(s[3])
    assert field["y"] == pytest.approx([sum(at[g["n_players"]]) / len(at[g["n_players"]]) for g in games])
    assert [c[1] for c in field["customdata"]] == [len(at[g["n_players"]]) for g in games]
    table = text(by_id(content, "players-accuracy-table"))
    assert f"n={len(at[3])} seats" in table and f"n={len(at[2])} seats" in table
    assert "every judged seat at that table size" in text(by_id(content, "players-accuracy"))
    # At the table size chosen, only those games.
    three = body_of(player_content(Browser(app), player, size=3), "players-content")
    assert len(graphs(three)["players-accuracy-graph"]["data"][0]["y"]) == sum(1 for s in mine if s[2] == 3)


def test_the_tournament_page_shows_each_player_s_mean_accuracy_with_n(app: Any, judged: Judged) -> None:
    facts = judged.facts
    seats = seat_accuracies(judged, facts["cup"])  # (the seated game is no game of the cup's)
    by_player: dict[str, list[float]] = defaultdict(list)
    for s in seats:
        by_player[s[1]].append(s[3])
    body = body_of(tournament_body(Browser(app), facts["tournament"]), "standings-body")
    table = by_id(body, "tournament-accuracy-table")
    rows = [[text(c) for c in components(r, "Td")] for r in components(table, "Tr")][1:]
    names = {p["id"]: p["name"] for p in judged.service.game(facts["cup"][0])["players"]}
    names |= {p["id"]: p["name"] for p in judged.service.game(facts["cup"][1])["players"]}
    expected = {names[p]: (f"{sum(v) / len(v):.1f}", str(len(v))) for p, v in by_player.items()}
    assert {r[0]: (r[1], r[3]) for r in rows} == expected
    assert [float(r[1]) for r in rows] == sorted((float(r[1]) for r in rows), reverse=True)


def test_the_accuracy_cards_keep_their_pages_doors(judged: Judged) -> None:
    closed = create_dashboard(judged.queries, judged.service, access=access_settings(spectators=False, failures=1000))
    player, tournament = judged.facts["pool"][0], judged.facts["tournament"]
    for response in (player_content(Browser(closed), player), tournament_body(Browser(closed), tournament)):
        assert response.status_code == 403
        assert "accuracy" not in response.get_data(as_text=True).lower()
    assert "players-accuracy-graph" in json.dumps(body_of(player_content(organiser(closed), player), "players-content"))
    shown = json.dumps(body_of(tournament_body(organiser(closed), tournament), "standings-body"))
    assert "tournament-accuracy-table" in shown
