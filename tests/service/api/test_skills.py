"""A player's skill through the API (issue 26, section 3): ``GET /players/{id}`` carries each game kind's rating
(with its 95 % band, ordinal and games) and mean accuracy over the player's judged games at the current judge
version; ``GET /leaderboards/{kind}`` pages the kind's players by ordinal. Organisers only, as the players are;
an unknown game is 404 ``unknown_game_kind``. On SQLite and PostgreSQL (the ``database`` fixture)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.judge import JUDGE_VERSION
from service.analysis import stored
from service.analysis.judging import judge_records
from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from service.reading.listing import encode_cursor
from tests.service.api.support import bearer, new_game, ok, organiser, project
from tests.service.reading.projections.support import rows
from tests.service.reading.projections.test_ratings import a_bot_game

BUDGET = 4  # playouts a decision: the figures' quality is the judge's tests'


def follower_rows(service: Digsite, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    from service import bootstrap

    follower = bootstrap.follower(service.settings)
    try:
        return rows(follower, sql, params)
    finally:
        follower.close()


def test_a_player_s_ratings_and_accuracy_per_game_kind(client: FlaskClient, service: Digsite) -> None:
    played = run_tournament(service, kind="ruins", players=2, games=4, seed="skills", pool=3)
    judged = played.games[:2]
    for game in judged:
        stored.write(service.settings.database, judge_records(service.stored_records(game.id), BUDGET))
    solo = a_bot_game(service, "arnak", 1, "skills-solo")  # finished, not rated; judged below
    stored.write(service.settings.database, judge_records(service.stored_records(solo), BUDGET))
    project(service)
    someone = judged[0].seats[0]
    answer = ok(client.get(f"/api/v1/players/{someone}", headers=organiser()))
    assert answer["id"] == someone and answer["name"]
    (skill,) = answer["skills"]
    assert skill["kind"] == "ruins"
    (mu, sigma, games), *_ = follower_rows(
        service, "SELECT mu, sigma, games FROM {p}rm_ratings WHERE player_id = ? AND kind = 'ruins'", (someone,)
    )
    rating = skill["rating"]
    assert (rating["mu"], rating["sigma"], rating["games"]) == (mu, sigma, games)
    assert games == sum(someone in g.seats for g in played.games)
    assert rating["low"] == pytest.approx(mu - 1.96 * sigma) and rating["high"] == pytest.approx(mu + 1.96 * sigma)
    assert rating["ordinal"] == pytest.approx(mu - 3 * sigma)
    # The accuracy: the mean of the player's judged seats, as the games' analyses answer them.
    mine = []
    for game in judged:
        analysis = ok(client.get(f"/api/v1/games/{game.id}/analysis", headers=organiser()))
        mine += [s["accuracy"] for s in analysis["seats"] if game.seats[s["seat"]] == someone]
    assert skill["accuracy"] == {
        "mean": pytest.approx(sum(mine) / len(mine)),
        "games": sum(someone in g.seats for g in judged),
        "judge_version": JUDGE_VERSION,
    }
    # The solo player: judged, not rated.
    (alone,) = follower_rows(service, "SELECT player_id FROM {p}rm_player_games WHERE game_id = ?", (solo,))
    solo_skills = ok(client.get(f"/api/v1/players/{alone[0]}", headers=organiser()))["skills"]
    assert [(s["kind"], s["rating"], s["accuracy"]["games"]) for s in solo_skills] == [("arnak", None, 1)]


def test_accuracy_counts_the_current_judge_version_and_each_game_s_largest_budget_only(
    client: FlaskClient, service: Digsite
) -> None:
    played = run_tournament(service, kind="ruins", players=2, games=1, seed="versions", pool=2)
    (game,) = played.games
    stored.write(service.settings.database, judge_records(service.stored_records(game.id), BUDGET))
    project(service)
    player = game.seats[0]
    before = ok(client.get(f"/api/v1/players/{player}", headers=organiser()))["skills"][0]["accuracy"]
    assert before["games"] == 1
    # The same game judged by an older judge and at a smaller budget, with other figures: neither counts.
    from service import bootstrap

    follower = bootstrap.follower(service.settings)
    try:
        models = follower.read_models
        with models._transaction() as curs:
            for version, budget in ((JUDGE_VERSION - 1, BUDGET), (JUDGE_VERSION, BUDGET - 1)):
                curs.execute(
                    models._q(
                        "INSERT INTO {p}rm_judged_seats (game_id, last_version, judge_version, budget, seat, judged, "
                        "accuracy, mean_loss) SELECT game_id, last_version, ?, ?, seat, judged, 3.0, mean_loss "
                        "FROM {p}rm_judged_seats WHERE game_id = ? AND judge_version = ? AND budget = ?"
                    ),
                    (version, budget, game.id, JUDGE_VERSION, BUDGET),
                )
    finally:
        follower.close()
    after = ok(client.get(f"/api/v1/players/{player}", headers=organiser()))["skills"][0]["accuracy"]
    assert after == before


def test_a_leaderboard_pages_every_rated_player_by_ordinal(client: FlaskClient, service: Digsite) -> None:
    run_tournament(service, kind="ruins", players=3, games=6, seed="board", pool=5)
    project(service)
    whole = ok(client.get("/api/v1/leaderboards/ruins?limit=200", headers=organiser()))
    assert whole["kind"] == "ruins" and whole["next"] is None
    ordinals = [e["rating"]["ordinal"] for e in whole["players"]]
    assert len(ordinals) == 5 and ordinals == sorted(ordinals, reverse=True)
    assert [e["rank"] for e in whole["players"]] == [1, 2, 3, 4, 5]
    stored_rows = follower_rows(service, "SELECT player_id, mu, sigma FROM {p}rm_ratings WHERE kind = 'ruins'")
    assert {e["player"]: (e["rating"]["mu"], e["rating"]["sigma"]) for e in whole["players"]} == {
        p: (mu, sigma) for p, mu, sigma in stored_rows
    }
    paged, cursor = [], None
    while True:
        query = "?limit=2" + (f"&cursor={cursor}" if cursor else "")
        page = ok(client.get(f"/api/v1/leaderboards/ruins{query}", headers=organiser()))
        paged += page["players"]
        if not (cursor := page["next"]):
            break
    assert paged == whole["players"]
    assert ok(client.get("/api/v1/leaderboards/arnak", headers=organiser())) == {
        "kind": "arnak",
        "players": [],
        "next": None,
    }


def test_the_skill_routes_refuse_what_they_must(client: FlaskClient, service: Digsite) -> None:
    created = new_game(client, players=2)
    player = created["tokens"][0]["player"]
    seat = bearer(created["tokens"][0]["token"])
    for path in (f"/api/v1/players/{player}", "/api/v1/leaderboards/ruins"):
        for headers in ({}, seat, bearer("not-the-key")):  # no key, a seat's token, a wrong key
            answer = client.get(path, headers=headers)
            assert answer.status_code == 401 and answer.get_json()["error"]["code"], (path, headers)
    unknown = client.get("/api/v1/leaderboards/chess", headers=organiser())
    assert unknown.status_code == 404 and unknown.get_json()["error"]["code"] == "unknown_game_kind"
    assert client.get("/api/v1/leaderboards/chess").status_code == 401  # (no key: not even whether it exists)
    not_its_own = encode_cursor(["2026-12-05T10:00:00", player])  # the games list's kind of cursor
    for query, code in (
        ("?cursor=bm90LWEtY3Vyc29y", "invalid_cursor"),
        (f"?cursor={not_its_own}", "invalid_cursor"),
        ("?limit=0", "malformed_request"),
        ("?page=2", "malformed_request"),
    ):
        answer = client.get(f"/api/v1/leaderboards/ruins{query}", headers=organiser())
        assert (answer.status_code, answer.get_json()["error"]["code"]) == (400, code), query
