"""Every registered game through the whole service, on SQLite and PostgreSQL: created, played and read over the
play API (its actions checked against its own schema), verified, exported and imported, and projected."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.games import GAMES
from domain.games import game as game_of
from service.api import create_app
from service.commands.application import Digsite
from service.integrity.audit import verify
from service.integrity.transfer import import_lines, write_export
from service.reading.projections.follower import Follower
from service.reading.read_port import ReadPort
from service.settings import Database, Settings
from tests.service.api.support import bearer, new_players, ok, organiser, strong_seed
from tests.service.conftest import another_store

# (kind, seats, options): each registered game at least once; Arnak solo (the rival's seat is the engine's).
TABLES = [("ruins", 3, None), ("arnak", 2, {"side": "snake"}), ("arnak", 1, {"difficulty": 3})]


def test_every_registered_game_has_a_table_here() -> None:
    assert {kind for kind, _, _ in TABLES} == set(GAMES)


@pytest.fixture
def client(service: Digsite) -> FlaskClient:
    return create_app(service=service).test_client()


@pytest.fixture
def target(database: Database, request: pytest.FixtureRequest) -> Iterator[Digsite]:
    with another_store(database, request) as other:
        svc = Digsite(Settings(database=other))
        try:
            yield svc
        finally:
            svc.close()


def play_over_http(client: FlaskClient, kind: str, seats: int, options: dict[str, Any] | None) -> dict[str, Any]:
    """Create a game and play it to its end over the API, each seat with its own token and one of the game's bots;
    returns the created game's answer and what was seen on the way."""
    body: dict[str, Any] = {"game": kind, "seats": new_players(client, seats), "seed": strong_seed(f"{kind}{seats}")}
    if options is not None:
        body["options"] = options
    created = ok(client.post("/api/v1/games", json=body, headers=organiser()), 201)
    tokens = {t["seat"]: t["token"] for t in created["tokens"]}
    rules, bots = game_of(kind).rules, game_of(kind).bots
    policy, rng = bots.make("random"), random.Random(kind)
    url = f"/api/v1/games/{created['id']}"
    to_act = ok(client.get(url, headers=organiser()))["to_act"]
    acted: set[int] = set()
    for _ in range(5000):
        seat = to_act[0]
        assert seat in tokens, "only seated players are ever asked to act (a solo rival is the engine's)"
        seen = ok(client.get(url, headers=bearer(tokens[seat])))
        assert seen["kind"] == kind and seen["seat"] == seat and seen["view"]["viewer"] == seat
        legal = [rules.action_from_dict(a) for a in seen["legal_actions"]]
        action = policy.choose(seen["view"], legal, rng)
        answer = ok(
            client.post(
                f"{url}/actions",
                json={"version": seen["version"], "action": rules.action_to_dict(action)},
                headers=bearer(tokens[seat]),
            )
        )
        acted.add(seat)
        if answer["status"] == "over":
            assert answer["to_act"] == []
            return {"created": created, "tokens": tokens, "acted": acted}
        to_act = answer["to_act"]
        assert to_act == ok(client.get(url, headers=organiser()))["to_act"], "the answer names who acts next"
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("kind", "seats", "options"), TABLES)
def test_a_game_plays_over_the_api_verifies_exports_imports_and_projects(
    client: FlaskClient, service: Digsite, target: Digsite, kind: str, seats: int, options: dict[str, Any] | None
) -> None:
    played = play_over_http(client, kind, seats, options)
    game_id = played["created"]["id"]
    assert played["acted"] == set(range(seats))
    final = ok(client.get(f"/api/v1/games/{game_id}", headers=organiser()))
    assert final["status"] == "over" and final["options"] == (options or {})
    result = final["result"]
    everyone = final["view"]["players"]
    assert sorted(result["ranking"]) == list(range(len(everyone))) and len(result["scores"]) == len(everyone)
    assert final["seed"] == strong_seed(f"{kind}{seats}")

    # The log: the referee's whole; a seat's, once the game is over, whole too (hidden only while it is on).
    records = ok(client.get(f"/api/v1/games/{game_id}/log", headers=organiser()))["records"]
    assert records == service.stored_records(game_id)
    assert ok(client.get(f"/api/v1/games/{game_id}/log", headers=bearer(played["tokens"][0])))["records"] == records

    report = verify(service, game_id)
    assert report.ok, [c for c in report.checks if not c.ok]
    assert report.kind == kind and report.status == "over" and report.seed_public

    out = io.StringIO()
    write_export(service, [game_id], out)
    imported = import_lines(target, out.getvalue().splitlines())
    assert [(r.game, r.imported) for r in imported] == [(game_id, True)]
    assert target.stored_records(game_id) == records and verify(target, game_id).ok
    assert target.game(game_id)["view"] == final["view"]

    follower = Follower(service.settings)
    queries = ReadPort.over(service.reader)
    try:
        follower.catch_up()
        assert follower.behind() == 0
        row = queries.lists.game_row(game_id)
        assert row is not None and row["kind"] == kind and row["status"] == "over"
        assert row["moves"] == len(records) - 2 and row["winner_seat"] == result["winners"][0]
        timeline = queries.replays.vp_timeline(game_id)
        assert len(timeline["vp"]) == len(records) and timeline["vp"][-1] == result["scores"]
        assert timeline["names"] == everyone
        assert min(queries.replays.round_starts(game_id)) == 1
    finally:
        queries.close()
        follower.close()


@pytest.mark.parametrize(("kind", "seats", "options"), TABLES)
def test_a_seat_reads_the_log_of_a_game_in_play_as_its_view_would_show_it(
    client: FlaskClient, service: Digsite, kind: str, seats: int, options: dict[str, Any] | None
) -> None:
    body: dict[str, Any] = {"game": kind, "seats": new_players(client, seats), "options": options}
    created = ok(client.post("/api/v1/games", json=body, headers=organiser()), 201)
    rules = game_of(kind).rules
    records = ok(client.get(f"/api/v1/games/{created['id']}/log", headers=bearer(created["tokens"][0]["token"])))
    opening = records["records"][0]["body"]["opening"]
    assert "token_hashes" not in records["records"][0]["body"] and "hash" not in records["records"][0]
    assert rules.seed_of(opening) is None, "the seed stays hidden from a seat while the game is on"
    stored = service.stored_records(created["id"])[0]["body"]["opening"]
    assert opening == [rules.redact_event(e, 0, False) for e in stored] != stored


def test_an_action_is_checked_against_its_own_game_s_schema(client: FlaskClient) -> None:
    arnak = ok(
        client.post("/api/v1/games", json={"game": "arnak", "seats": new_players(client, 2)}, headers=organiser()), 201
    )
    ruins = ok(
        client.post("/api/v1/games", json={"game": "ruins", "seats": new_players(client, 2)}, headers=organiser()), 201
    )
    for created, foreign in (
        (arnak, {"type": "flip", "seat": 0, "ruin": None}),
        (ruins, {"type": "end_turn", "seat": 0}),
    ):
        answer = client.post(
            f"/api/v1/games/{created['id']}/actions",
            json={"version": 1, "action": foreign},
            headers=bearer(created["tokens"][0]["token"]),
        )
        assert answer.status_code == 400 and answer.get_json()["error"]["code"] == "malformed_action"
    bad_option = client.post(
        "/api/v1/games",
        json={"game": "arnak", "seats": new_players(client, 2), "options": {"side": "moon"}},
        headers=organiser(),
    )
    assert bad_option.status_code == 400 and bad_option.get_json()["error"]["code"] == "invalid_setup"
    no_game = client.post("/api/v1/games", json={"seats": new_players(client, 2)}, headers=organiser())
    assert no_game.status_code == 400 and "game" in no_game.get_json()["error"]["message"]
