"""A whole game over HTTP: bots see only their seat's view and choose among the legal actions the API offers."""

from __future__ import annotations

import random

from flask.testing import FlaskClient

from domain import ruins
from domain.ruins.bots import RandomBot, Seen
from service.commands.application import Digsite
from service.integrity.records import record_hash, seed_commitment
from tests.service.api.support import act, look, new_game, ok, organiser, seat_headers, strong_seed

MAX_MOVES = 5000  # a Ruins game ends long before this; the bound only stops a broken loop

SEED = strong_seed("over-http")


def test_health(client: FlaskClient) -> None:
    assert ok(client.get("/api/v1/health")) == {"status": "ok"}


def test_a_bot_game_over_http_plays_to_the_end_and_reveals_the_committed_seed(
    client: FlaskClient, service: Digsite
) -> None:
    created = new_game(client, players=3, seed=SEED, tournament=None, round=2, table=5)
    game_id, rng, bot = created["id"], random.Random(11), RandomBot()
    assert created["version"] == 1 and [t["seat"] for t in created["tokens"]] == [0, 1, 2]
    moves = 0
    while (public := look(client, game_id, seat_headers(created, 0)))["status"] == "playing":
        assert public["seed"] is None
        seat = public["to_act"][0]
        seen = look(client, game_id, seat_headers(created, seat))
        assert seen["seat"] == seat and seen["legal_actions"], "a seat that is to act is offered actions"
        legal = [ruins.action_from_dict(a) for a in seen["legal_actions"]]
        choice = bot.choose(Seen.from_view(seen["view"]), legal, rng)
        answer = ok(act(client, game_id, seat_headers(created, seat), seen["version"], ruins.action_to_dict(choice)))
        assert answer["version"] > seen["version"]
        moves += 1
        assert moves < MAX_MOVES
    final = look(client, game_id, organiser())
    assert final["status"] == "over" and final["view"]["outcome"] is not None
    assert final["version"] == moves + 2  # created, one record per move, seed revealed
    assert final["labels"] == {"round": 2, "table": 5}
    assert public["seed"] == final["seed"] == SEED
    assert seed_commitment(public["seed"]) == created["seed_commitment"] == public["seed_commitment"]

    # The game is over: a seat now reads the whole log, hashes included, and can check the chain itself.
    records = ok(client.get(f"/api/v1/games/{game_id}/log", headers=seat_headers(created, 1)))["records"]
    assert records == service.stored_records(game_id)
    previous = "0" * 64
    for version, record in enumerate(records, start=1):
        assert record["version"] == version and record["prev_hash"] == previous
        assert record["hash"] == record_hash(game_id, version, previous, record["body"])
        previous = record["hash"]
    assert records[-1]["type"] == "seed_revealed" and records[-1]["body"]["seed"] == SEED

    # Nothing more can be played.
    last = ruins.action_to_dict(legal[0])
    refused = act(client, game_id, seat_headers(created, last["seat"]), final["version"], last)
    assert (refused.status_code, refused.get_json()["error"]["code"]) == (422, "game_over")
    assert len(service.stored_records(game_id)) == final["version"]


def test_the_log_pages_with_after_and_limit(client: FlaskClient) -> None:
    created = new_game(client, players=2)
    for seat in (0, 1):
        seen = look(client, created["id"], seat_headers(created, seat))
        ok(
            act(
                client,
                created["id"],
                seat_headers(created, seat),
                seen["version"],
                {"type": "flip", "seat": seat, "ruin": None},
            )
        )
    url = f"/api/v1/games/{created['id']}/log"
    everything = ok(client.get(url, headers=organiser()))["records"]
    assert [r["version"] for r in everything] == [1, 2, 3]
    page = ok(client.get(url, headers=organiser(), query_string={"after": 1, "limit": 1}))["records"]
    assert page == everything[1:2]
    assert ok(client.get(url, headers=organiser(), query_string={"after": 3}))["records"] == []


def test_a_past_version_shows_the_game_then_without_legal_actions(client: FlaskClient) -> None:
    created = new_game(client, players=2)
    headers = seat_headers(created, 0)
    ok(act(client, created["id"], headers, 1, {"type": "flip", "seat": 0, "ruin": None}))
    now = look(client, created["id"], headers)
    then = look(client, created["id"], headers, version=1)
    assert (now["version"], now["latest_version"], then["version"], then["latest_version"]) == (2, 2, 1, 2)
    assert then["view"]["flips"][0]["chosen"] is False and now["view"]["flips"][0]["chosen"] is True
    assert then["legal_actions"] == [] and now["legal_actions"] == []  # seat 0 has chosen; seat 1 has not
    assert look(client, created["id"], seat_headers(created, 1))["legal_actions"]


def test_created_resources_can_be_read_back(client: FlaskClient) -> None:
    made = client.post(
        "/api/v1/players",
        json={"name": "Robo", "kind": "bot", "bot": {"bot": "heuristic", "pass_rate": 0.2}},
        headers=organiser(),
    )
    player = ok(client.get(made.headers["Location"], headers=organiser()))
    assert player["id"] == ok(made, 201)["id"]
    assert (player["name"], player["kind"], player["bot"]) == ("Robo", "bot", {"bot": "heuristic", "pass_rate": 0.2})
    made = client.post(
        "/api/v1/tournaments", json={"name": "Spring Open", "rounds": 3, "game": "ruins"}, headers=organiser()
    )
    tournament = ok(client.get(made.headers["Location"]))  # tournaments are public
    assert (tournament["id"], tournament["name"], tournament["rounds"], tournament["game"]) == (
        ok(made, 201)["id"],
        "Spring Open",
        3,
        "ruins",
    )
    created = new_game(client, players=2, tournament=tournament["id"], round=1, table=2, seed=strong_seed("s"))
    game = look(client, created["id"], organiser())
    assert game["labels"] == {"tournament": tournament["id"], "round": 1, "table": 2}
