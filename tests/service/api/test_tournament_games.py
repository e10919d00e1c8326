"""A tournament is for one game: a game of another kind, under other rule options, with a player in two seats, or
of the same players twice at one table of one round is refused with a code, and nothing is stored or counted."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from service.commands.application import Digsite
from service.settings import Settings
from tests.service.api.support import new_players, ok, organiser, project

WITH_OPTIONS = ("arnak", 1)  # a game with rule options (the board side: bird by default), and its fewest seats


def tournament(client: FlaskClient, game: str, **fields: Any) -> str:
    body = {"name": "Spring Cup", "rounds": 3, "game": game, **fields}
    return ok(client.post("/api/v1/tournaments", json=body, headers=organiser()), 201)["id"]  # type: ignore[no-any-return]


def post_game(client: FlaskClient, game: str, seats: list[str], **fields: Any) -> Any:
    return client.post("/api/v1/games", json={"game": game, "seats": seats, **fields}, headers=organiser())


def refused(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, (response.status_code, response.get_json())
    error = response.get_json()["error"]
    assert error["code"] == code and error["message"], error
    return str(error["message"])


def stored_games(service: Digsite) -> list[str]:
    return list(service.game_ids())


def test_a_game_of_another_kind_than_its_tournament_is_refused_and_counts_nowhere(
    client: FlaskClient, service: Digsite
) -> None:
    ana, beto = new_players(client, 2)
    cup = tournament(client, "ruins")
    message = refused(
        post_game(client, "arnak", [ana], tournament=cup, round=1, table=1), 400, "tournament_game_mismatch"
    )
    assert "Ruins" in message and "Arnak" in message
    assert stored_games(service) == []  # nothing was stored
    ok(post_game(client, "ruins", [ana, beto], tournament=cup, round=1, table=1), 201)
    project(service)
    standings = ok(client.get(f"/api/v1/tournaments/{cup}/standings", headers=organiser()))
    games = {c["game_id"] for line in standings["cross_table"] for cells in line["rounds"].values() for c in cells}
    assert games == set(stored_games(service)) and len(games) == 1


def test_other_rule_options_than_the_tournament_s_are_refused_and_none_play_the_tournament_s(
    client: FlaskClient, service: Digsite
) -> None:
    game, seats = WITH_OPTIONS
    players = new_players(client, seats)
    side = {"side": "snake"}
    cup = tournament(client, game, options=side)
    assert ok(client.get(f"/api/v1/tournaments/{cup}"))["options"] == side
    message = refused(
        post_game(client, game, players, options={"side": "bird"}, tournament=cup), 400, "tournament_options_mismatch"
    )
    assert "snake" in message and "bird" in message
    assert stored_games(service) == []
    given = ok(post_game(client, game, players, options=side, tournament=cup, round=1, table=1), 201)
    inherited = ok(post_game(client, game, players, tournament=cup, round=2, table=1), 201)
    for created in (given, inherited):
        shown = ok(client.get(f"/api/v1/games/{created['id']}", headers=organiser()))
        assert shown["options"] == side and shown["view"]["side"] == "snake"
    project(service)
    [listed] = ok(client.get("/api/v1/tournaments"))["tournaments"]
    assert listed == ok(client.get(f"/api/v1/tournaments/{cup}"))  # the list shows what the tournament does


def test_a_tournament_without_options_plays_the_game_s_defaults_whichever_way_they_are_written(
    client: FlaskClient,
) -> None:
    game, seats = WITH_OPTIONS
    players = new_players(client, seats)
    cup = tournament(client, game)
    assert ok(client.get(f"/api/v1/tournaments/{cup}"))["options"] == {}
    ok(post_game(client, game, players, options={"side": "bird"}, tournament=cup, round=1, table=1), 201)
    refused(
        post_game(client, game, players, options={"side": "snake"}, tournament=cup), 400, "tournament_options_mismatch"
    )


def test_a_tournament_s_options_are_checked_against_its_game(client: FlaskClient, service: Digsite) -> None:
    game, _ = WITH_OPTIONS
    for options in ({"board": "moon"}, {"side": "moon"}):
        answer = client.post(
            "/api/v1/tournaments",
            json={"name": "Cup", "rounds": 1, "game": game, "options": options},
            headers=organiser(),
        )
        refused(answer, 400, "invalid_setup")
    refused(
        client.post(
            "/api/v1/tournaments",
            json={"name": "Cup", "rounds": 1, "game": "ruins", "options": {"side": "snake"}},
            headers=organiser(),
        ),
        400,
        "invalid_setup",
    )
    project(service)
    assert ok(client.get("/api/v1/tournaments"))["tournaments"] == []


def test_the_same_players_twice_at_one_table_of_one_round_are_refused(client: FlaskClient, service: Digsite) -> None:
    ana, beto, carla = new_players(client, 3)
    cup = tournament(client, "ruins")
    first = ok(post_game(client, "ruins", [ana, beto], tournament=cup, round=1, table=4), 201)
    message = refused(post_game(client, "ruins", [beto, ana], tournament=cup, round=1, table=4), 409, "duplicate_game")
    assert first["id"] in message and "table 4" in message and "round 1" in message
    assert stored_games(service) == [first["id"]]
    # the same players in another round, or other players at that table: games of their own
    ok(post_game(client, "ruins", [ana, beto], tournament=cup, round=2, table=4), 201)
    ok(post_game(client, "ruins", [ana, carla], tournament=cup, round=1, table=4), 201)
    ok(post_game(client, "ruins", [ana, beto], tournament=tournament(client, "ruins"), round=1, table=4), 201)
    assert len(stored_games(service)) == 4


def test_a_second_server_on_the_same_store_refuses_the_same_table_too(client: FlaskClient, service: Digsite) -> None:
    """The refusal is the store's (a seating record whose id the table and players decide), not one process's
    memory: another API worker on the same store refuses the second game as well."""
    ana, beto = new_players(client, 2)
    cup = tournament(client, "ruins")
    ok(post_game(client, "ruins", [ana, beto], tournament=cup, round=1, table=1), 201)
    other = Digsite(Settings(database=service.settings.database, api_key="organiser-key"))
    try:
        from service.api import create_app

        again = create_app(service=other).test_client()
        refused(post_game(again, "ruins", [ana, beto], tournament=cup, round=1, table=1), 409, "duplicate_game")
    finally:
        other.close()
    assert len(stored_games(service)) == 1


def test_a_player_in_two_seats_of_a_tournament_game_is_refused(client: FlaskClient, service: Digsite) -> None:
    ana, beto = new_players(client, 2)
    cup = tournament(client, "ruins")
    refused(post_game(client, "ruins", [ana, beto, ana.upper()], tournament=cup), 400, "player_seated_twice")
    assert stored_games(service) == []


def test_the_same_table_posted_twice_at_once_to_two_servers_lands_once(client: FlaskClient, service: Digsite) -> None:
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    from service.api import create_app

    ana, beto = new_players(client, 2)
    cup = tournament(client, "ruins")
    others = [Digsite(Settings(database=service.settings.database, api_key="organiser-key")) for _ in range(2)]
    clients = [create_app(service=other).test_client() for other in others]
    for other in others:  # (each reads the tournament and the players once before the race)
        other.tournament(cup)
    start = Barrier(2)

    def post(each: FlaskClient) -> int:
        start.wait()
        return int(post_game(each, "ruins", [ana, beto], tournament=cup, round=3, table=2).status_code)

    try:
        with ThreadPoolExecutor(2) as pool:
            statuses = sorted(pool.map(post, clients))
    finally:
        for other in others:
            other.close()
    assert statuses == [201, 409]
    assert len(stored_games(service)) == 1
