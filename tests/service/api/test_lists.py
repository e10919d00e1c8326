"""Listing games, tournaments and players through the API: filters, cursor pages that neither repeat nor skip,
and the same access rules as the single resources."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from service.commands.application import Digsite
from tests.service.api.support import act, new_players, ok, organiser, project, seat_headers


def every_page(client: FlaskClient, path: str, key: str, headers: dict[str, str], **query: Any) -> list[list[Any]]:
    pages, cursor = [], None
    while True:
        found = ok(client.get(path, headers=headers, query_string={**query, **({"cursor": cursor} if cursor else {})}))
        pages.append(found[key])
        cursor = found["next"]
        if cursor is None:
            return pages


def test_games_are_listed_with_filters_and_cursor_pages(client: FlaskClient, service: Digsite) -> None:
    seats = new_players(client, 4)
    cup = ok(
        client.post("/api/v1/tournaments", json={"name": "Cup", "rounds": 2, "game": "ruins"}, headers=organiser()), 201
    )
    made = []
    for i in range(7):
        body: dict[str, Any] = {"game": "ruins", "seats": seats[: 2 + i % 3]}
        if i < 4:
            body |= {"tournament": cup["id"], "round": 1 + i % 2, "table": i + 1}
        made.append(ok(client.post("/api/v1/games", json=body, headers=organiser()), 201))
    arnak = ok(client.post("/api/v1/games", json={"game": "arnak", "seats": seats[3:]}, headers=organiser()), 201)
    ok(act(client, made[0]["id"], seat_headers(made[0], 0), 1, {"type": "flip", "seat": 0, "ruin": None}))
    project(service)

    pages = every_page(client, "/api/v1/games", "games", organiser(), limit=3)
    assert [len(p) for p in pages] == [3, 3, 2]
    listed = [g for p in pages for g in p]
    assert sorted(g["id"] for g in listed) == sorted([g["id"] for g in made] + [arnak["id"]])
    started = [g["started_at"] for g in listed]
    assert started == sorted(started, reverse=True)  # newest first
    first = next(g for g in listed if g["id"] == made[0]["id"])
    assert first["version"] == 2 and first["moves"] == 1 and first["status"] == "playing"
    assert first["tournament"] == cup["id"] and first["round"] == 1 and first["table"] == 1
    assert [p["id"] for p in first["players"]] == seats[:2]

    def ids(**query: Any) -> set[str]:
        return {g["id"] for p in every_page(client, "/api/v1/games", "games", organiser(), limit=2, **query) for g in p}

    assert ids(kind="arnak") == {arnak["id"]}
    assert ids(tournament=cup["id"]) == {g["id"] for g in made[:4]}
    assert ids(tournament=cup["id"], round=2) == {made[1]["id"], made[3]["id"]}
    assert ids(player=seats[3]) == {arnak["id"]} | {g["id"] for g in made if len(g["tokens"]) == 4}
    assert ids(status="over") == set()
    assert ids(status="playing", kind="ruins") == {g["id"] for g in made}


def test_tournaments_and_players_are_listed(client: FlaskClient, service: Digsite) -> None:
    ruins = [
        ok(
            client.post(
                "/api/v1/tournaments", json={"name": f"R{i}", "rounds": 1, "game": "ruins"}, headers=organiser()
            ),
            201,
        )["id"]
        for i in range(3)
    ]
    arnak = ok(
        client.post("/api/v1/tournaments", json={"name": "A", "rounds": 1, "game": "arnak"}, headers=organiser()), 201
    )
    people = new_players(client, 3)
    bot = ok(
        client.post(
            "/api/v1/players", json={"name": "Zed", "kind": "bot", "bot": {"bot": "random"}}, headers=organiser()
        ),
        201,
    )
    project(service)
    # Tournaments are public, as each tournament is.
    listed = [t for p in every_page(client, "/api/v1/tournaments", "tournaments", {}, limit=2) for t in p]
    assert {t["id"] for t in listed} == {*ruins, arnak["id"]}
    only = [t for p in every_page(client, "/api/v1/tournaments", "tournaments", {}, game="ruins") for t in p]
    assert {t["id"] for t in only} == set(ruins) and all(t["game"] == "ruins" for t in only)
    # Players are the organisers' (as each player is), by name.
    pages = every_page(client, "/api/v1/players", "players", organiser(), limit=2)
    names = [p["name"] for page in pages for p in page]
    assert names == sorted(names) and len(names) == 4
    bots = [p for page in every_page(client, "/api/v1/players", "players", organiser(), kind="bot") for p in page]
    assert [(p["id"], p["bot"]) for p in bots] == [(bot["id"], {"bot": "random"})]
    assert {p["id"] for page in pages for p in page} == {*people, bot["id"]}


def test_lists_refuse_what_the_single_resources_refuse(client: FlaskClient, service: Digsite) -> None:
    game = ok(
        client.post("/api/v1/games", json={"game": "ruins", "seats": new_players(client, 2)}, headers=organiser()), 201
    )
    project(service)
    seat = seat_headers(game, 0)
    for path in ("/api/v1/games", "/api/v1/players"):
        for headers, status, code in (({}, 401, "missing_token"), (seat, 401, "invalid_api_key")):
            answer = client.get(path, headers=headers)
            assert answer.status_code == status and answer.get_json()["error"]["code"] == code, path
    for query, code in (
        ({"cursor": "bm90LWEtY3Vyc29y"}, "invalid_cursor"),
        ({"cursor": "!!"}, "malformed_request"),
        ({"limit": 0}, "malformed_request"),
        ({"limit": 201}, "malformed_request"),
        ({"status": "paused"}, "malformed_request"),
        ({"player": "not-a-uuid"}, "malformed_request"),
        ({"colour": "red"}, "malformed_request"),
    ):
        answer = client.get("/api/v1/games", headers=organiser(), query_string=query)
        assert answer.status_code == 400 and answer.get_json()["error"]["code"] == code, query
