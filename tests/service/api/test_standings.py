"""The standings through the API: public finished games; the organisers' key adds the games in play; CSV; a bad
points table or a wrong key is a 4xx with a code, and nothing changes."""

from __future__ import annotations

import csv
import io

from flask.testing import FlaskClient

from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from tests.service.api.support import ok, organiser, project


def test_standings_are_public_and_the_organiser_also_sees_games_in_play(client: FlaskClient, service: Digsite) -> None:
    cup = run_tournament(service, kind="ruins", players=2, games=2, seed="api-standings", pool=4)
    live = service.create_game("ruins", [p["id"] for p in cup.pool[:2]], labels={"tournament": cup.id, "round": 2})
    project(service)
    path = f"/api/v1/tournaments/{cup.id}/standings"
    public = ok(client.get(path))
    assert public["standings"][0]["rank"] == 1
    assert {line["player_id"] for line in public["standings"]} == {p["id"] for p in cup.pool}
    shown = str(public["cross_table"])
    assert live["id"] not in shown and all(g.id in shown for g in cup.games)
    assert public["tie_breaks"][0] == "tournament points"
    everything = ok(client.get(path, headers=organiser()))
    assert live["id"] in str(everything["cross_table"])
    assert everything["standings"] == public["standings"]  # a game in play counts for nothing

    as_csv = client.get(path, query_string={"format": "csv", "points": "5,0"})
    assert as_csv.status_code == 200 and as_csv.mimetype == "text/csv"
    lines = list(csv.DictReader(io.StringIO(as_csv.get_data(as_text=True))))
    assert sorted(int(r["points"]) for r in lines) == sorted(5 * line["points"] for line in public["standings"])


def test_bad_requests_are_refused_with_a_code(client: FlaskClient, service: Digsite) -> None:
    cup = run_tournament(service, kind="ruins", players=2, games=1, seed="api-standings-bad", pool=2)
    project(service)
    path = f"/api/v1/tournaments/{cup.id}/standings"
    for query, code in (({"points": "1,,2"}, "invalid_points"), ({"format": "xml"}, None), ({"nope": "1"}, None)):
        answer = client.get(path, query_string=query)
        assert answer.status_code == 400, query
        if code:
            assert answer.get_json()["error"]["code"] == code
    wrong = client.get(path, headers={"Authorization": "Bearer not-the-key"})
    assert wrong.status_code == 401 and wrong.get_json()["error"]["code"] == "invalid_api_key"
    unknown = client.get("/api/v1/tournaments/00000000-0000-4000-8000-000000000000/standings")
    assert unknown.status_code == 404 and unknown.get_json()["error"]["code"] == "unknown_tournament"


def test_the_standings_apply_rulings_with_notes_in_json_and_csv(client: FlaskClient, service: Digsite) -> None:
    cup = run_tournament(service, kind="ruins", players=2, games=2, seed="api-standings-rulings", pool=4)
    first, second = cup.games[0].id, cup.games[1].id
    seats = service.game(first)["players"]
    loser = max(seats, key=lambda s: service.game(first)["result"]["ranking"].index(s["seat"]))  # type: ignore[index]
    ok(client.post(f"/api/v1/games/{second}/rulings", json={"ruling": "annul", "reason": "a misdeal"},
                   headers=organiser()))  # fmt: skip
    ranking = [loser["seat"], 1 - loser["seat"]]
    body = {"ruling": "adjust_result", "reason": "miscounted", "result": {"ranking": ranking}}
    ok(client.post(f"/api/v1/games/{first}/rulings", json=body, headers=organiser()))
    penalty = {"ruling": "penalty", "reason": "late", "player": seats[0]["id"], "points": 1}
    ok(client.post(f"/api/v1/tournaments/{cup.id}/rulings", json=penalty, headers=organiser()))
    project(service)
    answer = ok(client.get(f"/api/v1/tournaments/{cup.id}/standings"))
    lines = {line["player_id"]: line for line in answer["standings"]}
    assert lines[loser["id"]]["wins"] == 1 and "result adjusted: miscounted" in lines[loser["id"]]["notes"]
    fined = f"penalty of 1 point(s) for {seats[0]['name']}: late"  # (whose: the tournament's list of rulings too)
    assert lines[seats[0]["id"]]["penalty"] == 1 and fined in lines[seats[0]["id"]]["notes"]
    assert sum(line["games"] for line in answer["standings"]) == 2  # one game of two seats: the other is annulled
    assert [r["ruling"] for r in answer["rulings"]] == ["annul", "adjust_result", "penalty"]
    assert answer["rulings"][2]["note"] == fined
    [penalised] = [line for line in answer["cross_table"] if line["player_id"] == seats[0]["id"]]
    earned = sum(c["points"] for cells in penalised["rounds"].values() for c in cells)
    assert lines[seats[0]["id"]]["points"] == earned - 1  # the penalty is off the points it earned
    cells = [c for line in answer["cross_table"] for cells in line["rounds"].values() for c in cells]
    assert {c["ruling"] for c in cells if c["game_id"] == second} == {"game annulled: a misdeal"}
    as_csv = client.get(f"/api/v1/tournaments/{cup.id}/standings", query_string={"format": "csv"})
    rows = {r["player_id"]: r for r in csv.DictReader(io.StringIO(as_csv.get_data(as_text=True)))}
    assert fined in rows[seats[0]["id"]]["rulings"] and rows[seats[0]["id"]]["penalty"] == "1"
