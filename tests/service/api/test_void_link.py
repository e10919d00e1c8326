"""Voiding one seat's link (a lost or leaked printed sheet): a recorded ruling with a reason; the old token is
refused by name at the seat's own endpoints from then on, the others' links still open their seats, and the round's
links give the seat's new one. Refusals are tested by calling the endpoints directly; the CLI does the same."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from service.cli import main
from service.commands.application import Digsite
from service.integrity.audit import verify, verify_records
from service.integrity.records import record_hash
from tests.service.api.support import bearer, new_players, ok, organiser


def _seated(client: FlaskClient) -> tuple[str, list[dict[str, Any]]]:
    body = {"name": "Cup", "rounds": 2, "game": "ruins"}
    cup = ok(client.post("/api/v1/tournaments", json=body, headers=organiser()), 201)["id"]
    players = new_players(client, 4)
    ok(client.post(f"/api/v1/tournaments/{cup}/entries", json={"players": players}, headers=organiser()))
    ok(client.post(f"/api/v1/tournaments/{cup}/rounds", json={"table_size": 2}, headers=organiser()), 201)
    return cup, ok(client.get(f"/api/v1/tournaments/{cup}/rounds/1/links", headers=organiser()))["links"]


def _token(link: dict[str, Any]) -> str:
    return str(link["url"].split("token=")[1])


def _error(answer: Any) -> tuple[int, str]:
    return answer.status_code, str(answer.get_json()["error"]["code"])


def test_a_voided_link_is_refused_by_name_and_the_new_one_and_the_others_still_open_their_seats(
    client: FlaskClient, service: Digsite
) -> None:
    cup, links = _seated(client)
    lost, kept = links[0], links[1]
    game = lost["game"]
    assert kept["game"] == game and (lost["seat"], kept["seat"]) == (0, 1)
    assert ok(client.get(f"/api/v1/games/{game}", headers=bearer(_token(lost))))["seat"] == 0

    body = {"ruling": "void_link", "seat": 0, "reason": "sheet of table 1 left on the bus"}
    ruled = ok(client.post(f"/api/v1/games/{game}/rulings", json=body, headers=organiser()))
    assert ruled["body"]["ruling"] == "void_link" and ruled["body"]["reason"] == body["reason"]
    new = ruled["token"]["token"]
    assert new != _token(lost) and ruled["token"]["seat"] == 0

    refused = client.get(f"/api/v1/games/{game}", headers=bearer(_token(lost)), environ_base={"REMOTE_ADDR": "1.2.3.4"})
    assert _error(refused) == (401, "link_voided")
    move = client.post(
        f"/api/v1/games/{game}/actions",
        json={"version": 1, "action": {}},
        headers=bearer(_token(lost)),
        environ_base={"REMOTE_ADDR": "1.2.3.5"},
    )
    assert _error(move) == (401, "link_voided")
    assert ok(client.get(f"/api/v1/games/{game}", headers=bearer(new)))["seat"] == 0
    assert ok(client.get(f"/api/v1/games/{game}", headers=bearer(_token(kept))))["seat"] == 1

    again = ok(client.get(f"/api/v1/tournaments/{cup}/rounds/1/links", headers=organiser()))["links"]
    assert _token(again[0]) == new and [_token(x) for x in again[1:]] == [_token(x) for x in links[1:]]
    seen = ok(client.get(f"/api/v1/games/{game}/log", headers=bearer(new)))["records"][-1]["body"]["details"]
    assert "token_hash" not in seen and "voided_hash" not in seen  # (hashes of tokens: never shown to a seat)
    assert verify(service, game).ok


def test_voiding_a_link_is_refused_to_anyone_but_an_organiser_and_for_bad_input_changes_nothing(
    client: FlaskClient, service: Digsite
) -> None:
    _, links = _seated(client)
    game, token = links[0]["game"], _token(links[0])
    path = f"/api/v1/games/{game}/rulings"
    body = {"ruling": "void_link", "seat": 0, "reason": "lost"}
    assert _error(client.post(path, json=body)) == (401, "missing_token")
    assert _error(client.post(path, json=body, headers=bearer(token))) == (401, "invalid_api_key")
    assert _error(client.post(path, json={**body, "reason": " "}, headers=organiser()))[0] == 400
    assert _error(client.post(path, json={**body, "seat": 7}, headers=organiser())) == (400, "invalid_ruling")
    assert service.game(game)["version"] == 1
    assert ok(client.get(f"/api/v1/games/{game}", headers=bearer(token)))["seat"] == 0


def test_the_cli_voids_one_seat_s_link_and_prints_the_new_one(
    client: FlaskClient, service: Digsite, monkeypatch: pytest.MonkeyPatch
) -> None:
    cup, links = _seated(client)
    monkeypatch.setenv("DIGSITE_DATABASE_URL", service.settings.database.url)
    runner = CliRunner()
    result = runner.invoke(
        main, ["tournament", "void-link", cup, "1", "--table", "2", "--seat", "2", "--reason", "photo posted online"]
    )
    assert result.exit_code == 0, result.output
    new_url = result.output.strip().splitlines()[-1]
    [old] = [x for x in links if x["table"] == 2 and x["seat"] == 1]
    assert new_url.endswith(f"/replay/{old['game']}?token=" + new_url.split("token=")[1]) and new_url != old["url"]
    refused = client.get(f"/api/v1/games/{old['game']}", headers=bearer(_token(old)))
    assert _error(refused) == (401, "link_voided")
    assert ok(client.get(f"/api/v1/games/{old['game']}", headers=bearer(new_url.split("token=")[1])))["seat"] == 1
    wrong = runner.invoke(main, ["tournament", "void-link", cup, "1", "--table", "9", "--seat", "1", "--reason", "x"])
    assert wrong.exit_code == 1 and "[unknown_table]" in wrong.output


def test_verify_names_a_voided_link_that_does_not_void_the_seat_s_token_of_that_moment(
    client: FlaskClient, service: Digsite
) -> None:
    """A forger who rewrites the ruling (another voided hash, the chain recomputed after it) fails ``rulings``."""
    _, links = _seated(client)
    game = links[0]["game"]
    body = {"ruling": "void_link", "seat": 1, "reason": "sheet lost"}
    ok(client.post(f"/api/v1/games/{game}/rulings", json=body, headers=organiser()))
    records = service.stored_records(game)
    assert verify_records(records).ok
    records[-1]["body"]["details"]["voided_hash"] = records[0]["body"]["token_hashes"][0]  # (seat 0's, not seat 1's)
    records[-1]["hash"] = record_hash(game, records[-1]["version"], records[-1]["prev_hash"], records[-1]["body"])
    report = verify_records(records)
    [rulings] = [c for c in report.checks if c.name == "rulings"]
    assert not rulings.ok and "not the token seat 1 held then" in rulings.detail
    assert all(c.ok for c in report.checks if c.name != "rulings")
