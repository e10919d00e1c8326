"""Entries and rounds over HTTP (organisers only): refusals tested by calling each endpoint without the key and
with a seat's token, bad input answered with a code and changing nothing, a round seated and read, its links as
JSON, CSV and a printable sheet with a QR code per seat."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from service.commands.application import Digsite
from tests.service.api.support import bearer, new_players, ok, organiser


def _cup(client: FlaskClient, entries: int, rounds: int = 2) -> tuple[str, list[str]]:
    body = {"name": "Cup", "rounds": rounds, "game": "ruins"}
    cup = ok(client.post("/api/v1/tournaments", json=body, headers=organiser()), 201)["id"]
    players = new_players(client, entries)
    ok(client.post(f"/api/v1/tournaments/{cup}/entries", json={"players": players}, headers=organiser()))
    return cup, players


def _code(answer: Any, status: int) -> str:
    assert answer.status_code == status, (answer.status_code, answer.get_data(as_text=True))
    return str(answer.get_json()["error"]["code"])


def test_every_round_endpoint_refuses_anyone_but_an_organiser(client: FlaskClient) -> None:
    cup, players = _cup(client, 4)
    seated = ok(client.post(f"/api/v1/tournaments/{cup}/rounds", json={"table_size": 2}, headers=organiser()), 201)
    seat_link = ok(client.get(f"/api/v1/tournaments/{cup}/rounds/1/links", headers=organiser()))["links"][0]
    seat_token = bearer(seat_link["url"].split("token=")[1])
    calls = [
        ("GET", f"/api/v1/tournaments/{cup}/rounds", None),
        ("POST", f"/api/v1/tournaments/{cup}/entries", {"players": players[:1]}),
        ("DELETE", f"/api/v1/tournaments/{cup}/entries/{players[0]}", None),
        ("POST", f"/api/v1/tournaments/{cup}/rounds", {"force": True}),
        ("GET", f"/api/v1/tournaments/{cup}/rounds/1", None),
        ("GET", f"/api/v1/tournaments/{cup}/rounds/1/links?format=csv", None),
        ("GET", f"/api/v1/tournaments/{cup}/rounds/1/links?format=html", None),
    ]
    for i, (method, path, body) in enumerate(calls):
        assert _code(client.open(path, method=method, json=body), 401) == "missing_token", path
        elsewhere = {"REMOTE_ADDR": f"198.51.100.{i}"}  # (each wrong key from its own address: none throttled)
        wrong = client.open(path, method=method, json=body, headers=seat_token, environ_base=elsewhere)
        assert _code(wrong, 401) == "invalid_api_key", path
    status = ok(client.get(f"/api/v1/tournaments/{cup}/rounds", headers=organiser()))
    assert len(status["seated_rounds"]) == 1 and len(status["entries"]) == 4  # nothing changed
    assert seated["round"] == 1


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"table_size": 9}, 400, "table_size_not_allowed"),
        ({"format": "knockout"}, 400, "malformed_request"),
        ({"format": "csv"}, 400, "invalid_csv"),
        ({"format": "csv", "tables": [["00000000-0000-4000-8000-000000000000"] * 2]}, 400, "unknown_entry"),
        ({"round": 2}, 409, "round_not_next"),
    ],
)
def test_bad_rounds_get_a_code_and_change_nothing(
    client: FlaskClient, service: Digsite, body: dict[str, Any], status: int, code: str
) -> None:
    cup, _ = _cup(client, 3)
    assert _code(client.post(f"/api/v1/tournaments/{cup}/rounds", json=body, headers=organiser()), status) == code
    assert ok(client.get(f"/api/v1/tournaments/{cup}/rounds", headers=organiser()))["seated_rounds"] == []
    assert list(service.game_ids(tournament=cup)) == []


def test_a_round_seated_twice_or_while_in_play_is_refused(client: FlaskClient, service: Digsite) -> None:
    cup, players = _cup(client, 4)
    rounds = f"/api/v1/tournaments/{cup}/rounds"
    first = client.post(rounds, json={"table_size": 2, "round": 1}, headers=organiser())
    assert first.status_code == 201 and first.headers["Location"].endswith(f"/tournaments/{cup}/rounds/1")
    assert _code(client.post(rounds, json={"table_size": 2, "round": 1}, headers=organiser()), 409) == (
        "round_already_seated"
    )
    assert _code(client.post(rounds, json={}, headers=organiser()), 409) == "round_in_play"
    assert _code(client.post(f"/api/v1/tournaments/{cup}/entries", json={"players": players[:1]},
                             headers=organiser()), 409) == "already_entered"  # fmt: skip
    assert _code(client.get(f"{rounds}/2", headers=organiser()), 404) == "unknown_round"
    assert _code(client.get(f"{rounds}/two", headers=organiser()), 404) == "unknown_round"
    assert len(list(service.game_ids(tournament=cup))) == 2
    forced = ok(client.post(rounds, json={"force": True}, headers=organiser()), 201)
    assert forced["round"] == 2 and len(forced["forced_past"]) == 2
    assert _code(client.post(rounds, json={"force": True}, headers=organiser()), 409) == "tournament_complete"


def test_a_round_s_links_come_as_json_csv_and_a_printable_sheet_with_a_qr_code_per_seat(client: FlaskClient) -> None:
    cup, _ = _cup(client, 5)
    seated = ok(client.post(f"/api/v1/tournaments/{cup}/rounds", json={"table_size": 3}, headers=organiser()), 201)
    links = f"/api/v1/tournaments/{cup}/rounds/1/links"
    base = "https://club.example/digsite"
    found = ok(client.get(f"{links}?base_url={base}", headers=organiser()))["links"]
    assert len(found) == 5 and {link["game"] for link in found} == {t["game"] for t in seated["tables"]}
    assert all(link["url"].startswith(f"{base}/replay/{link['game']}?token=") for link in found)
    as_csv = client.get(f"{links}?format=csv&base_url={base}", headers=organiser())
    assert as_csv.mimetype == "text/csv" and as_csv.headers["Cache-Control"] == "no-store"
    lines = as_csv.get_data(as_text=True).splitlines()
    assert lines[0] == "round,table,seat,name,player,game,url" and len(lines) == 6
    assert all(link["url"] in as_csv.get_data(as_text=True) for link in found)
    page = client.get(f"{links}?format=html&base_url={base}", headers=organiser())
    text = page.get_data(as_text=True)
    assert page.mimetype == "text/html" and text.count("<svg") == 5 and text.count('class="card"') == 5
    assert all(link["url"].replace("&", "&amp;") in text or link["url"] in text for link in found)
    assert _code(client.get(f"{links}?base_url=javascript:alert(1)", headers=organiser()), 400) == "malformed_request"


def test_entries_are_entered_and_withdrawn_over_http(client: FlaskClient) -> None:
    cup, players = _cup(client, 3)
    after = ok(client.delete(f"/api/v1/tournaments/{cup}/entries/{players[1]}", headers=organiser()))
    assert [e["id"] for e in after["entries"]] == [players[0], players[2]]
    assert _code(client.delete(f"/api/v1/tournaments/{cup}/entries/{players[1]}", headers=organiser()), 404) == (
        "unknown_entry"
    )
    unknown = "00000000-0000-4000-8000-000000000000"
    assert _code(client.post(f"/api/v1/tournaments/{cup}/entries", json={"players": [unknown]},
                             headers=organiser()), 404) == "unknown_player"  # fmt: skip


def test_a_first_round_in_a_tournament_whose_games_were_created_directly_is_refused(
    client: FlaskClient, service: Digsite
) -> None:
    """Its games count in the standings under their labels' rounds; a round seated here would be round 1 again."""
    cup, players = _cup(client, 4)
    body = {"game": "ruins", "seats": players[:2], "tournament": cup, "round": 1, "table": 1}
    made = ok(client.post("/api/v1/games", json=body, headers=organiser()), 201)
    rounds = f"/api/v1/tournaments/{cup}/rounds"
    for body in ({"table_size": 2}, {"table_size": 2, "dry_run": True}):
        assert _code(client.post(rounds, json=body, headers=organiser()), 409) == "games_created_directly"
    assert ok(client.get(rounds, headers=organiser()))["seated_rounds"] == []
    assert list(service.game_ids(tournament=cup)) == [made["id"]]  # nothing changed


def test_a_game_created_directly_in_a_tournament_with_a_seated_round_is_refused(
    client: FlaskClient, service: Digsite
) -> None:
    """The other way round: once a round is seated, the tournament's games come from its seatings only."""
    cup, players = _cup(client, 4)
    seated = ok(client.post(f"/api/v1/tournaments/{cup}/rounds", json={"table_size": 2}, headers=organiser()), 201)
    body = {"game": "ruins", "seats": players[:2], "tournament": cup, "round": 2, "table": 1}
    assert _code(client.post("/api/v1/games", json=body, headers=organiser()), 409) == "tournament_seated_here"
    assert sorted(service.game_ids(tournament=cup)) == sorted(t["game"] for t in seated["tables"])  # nothing more
