"""A game's judgement is of its moves, keyed by the version the game ended at (docs/judge.md, *The service side*):
an organiser's ruling recorded after the end (a result adjusted, the game annulled) moves the game's last version on
and changes no move, so the judgement stands. The analysis API answers the same figures, the player's accuracy still
counts the game, and ``digsite analyse`` does not judge it again (a game without a judgement it still judges). On
SQLite and PostgreSQL (the ``database`` fixture)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.analysis import stored
from service.analysis.judging import judge_records
from service.commands.application import Digsite
from service.reading.read_port import ReadPort
from service.settings import Database
from service.store.read_models import JUDGED_MOVES, JUDGED_SEATS
from tests.service.api.support import ok, organiser, project
from tests.service.api.test_analysis import BUDGET, analyse, finished, stored_rows

RULINGS = {
    "adjust_result": {"ruling": "adjust_result", "reason": "a scoring error", "result": {"ranking": [1, 0]}},
    "annul": {"ruling": "annul", "reason": "a misdeal"},
}


def rule(client: FlaskClient, game_id: str, ruling: str) -> None:
    ok(client.post(f"/api/v1/games/{game_id}/rulings", json=RULINGS[ruling], headers=organiser()))


def analysis(client: FlaskClient, game_id: str) -> dict[str, Any]:
    return ok(client.get(f"/api/v1/games/{game_id}/analysis", headers=organiser()))  # type: ignore[no-any-return]


def accuracy(client: FlaskClient, player: str) -> Any:
    """The player's accuracy as ``GET /players/{id}`` answers it (their only game kind: Ruins)."""
    (skill,) = ok(client.get(f"/api/v1/players/{player}", headers=organiser()))["skills"]
    return skill["accuracy"]


def rows_of(database: Database, game_id: str) -> dict[str, list[tuple[Any, ...]]]:
    return {name: [r for r in found if r[0] == game_id] for name, found in stored_rows(database).items()}


@pytest.mark.parametrize("ruling", sorted(RULINGS))
def test_a_ruling_after_the_game_was_judged_leaves_its_judgement_standing(
    client: FlaskClient, service: Digsite, database: Database, ruling: str
) -> None:
    created = finished(client, service)
    game_id, player = created["id"], created["tokens"][0]["player"]
    unjudged = finished(client, service, seed=2)["id"]
    assert analyse(database, "--game", game_id, "--budget", str(BUDGET)).exit_code == 0
    project(service)
    before, counted, rows = analysis(client, game_id), accuracy(client, player), rows_of(database, game_id)
    assert counted["games"] == 1

    rule(client, game_id, ruling)
    project(service)
    records = service.stored_records(game_id)
    assert records[-1]["type"] == "ruling" and before["version"] == records[-2]["version"]  # the stream moved on
    assert analysis(client, game_id) == before  # the same figures, at the version the game ended
    assert accuracy(client, player) == counted

    again = analyse(database, "--all", "--budget", str(BUDGET))
    assert again.exit_code == 0, again.output
    assert "2 game(s) asked for; 1 already judged" in again.output and "judged 1 game(s)" in again.output
    assert rows_of(database, game_id) == rows  # not judged again
    assert rows_of(database, unjudged)[JUDGED_SEATS.name]  # the game without a judgement was judged


def test_a_game_ruled_on_before_it_is_judged_is_keyed_at_the_version_it_ended(
    client: FlaskClient, service: Digsite, database: Database
) -> None:
    created = finished(client, service)
    game_id, player = created["id"], created["tokens"][0]["player"]
    end = service.stored_records(game_id)[-1]["version"]
    rule(client, game_id, "adjust_result")
    assert analyse(database, "--game", game_id, "--budget", str(BUDGET)).exit_code == 0
    rows = rows_of(database, game_id)
    assert {r[1] for table in (JUDGED_MOVES, JUDGED_SEATS) for r in rows[table.name]} == {end}  # (last_version)
    assert analysis(client, game_id)["version"] == end
    project(service)
    port = ReadPort.over(service.reader)
    try:  # the player page's accuracy (joined to the game's row) counts it, as GET /players/{id} does
        assert [g["game_id"] for g in port.judgements.of_player(player, "ruins")] == [game_id]
    finally:
        port.close()
    assert accuracy(client, player)["games"] == 1


def test_rows_an_earlier_release_keyed_after_a_ruling_are_still_the_game_s_judgement(
    client: FlaskClient, service: Digsite, database: Database
) -> None:
    created = finished(client, service)
    game_id = created["id"]
    rule(client, game_id, "adjust_result")
    records = service.stored_records(game_id)
    judged = judge_records(records, BUDGET)
    # Judged after the ruling by the release that keyed a judgement at the game's last version (the ruling's).
    stored.write(database, dataclasses.replace(judged, end_version=int(records[-1]["version"])))
    project(service)
    found = analysis(client, game_id)
    assert found["version"] == records[-1]["version"] and found["seats"] == judged.judgement.to_dict()["seats"]
    assert accuracy(client, created["tokens"][1]["player"])["games"] == 1
    passed = analyse(database, "--all", "--budget", str(BUDGET))
    assert "1 already judged" in passed.output and "judged 0 game(s)" in passed.output, passed.output
    # Judged again now, its rows move to the version it ended at: never two judgements of the same moves.
    stored.write(database, judged)
    assert {r[1] for r in rows_of(database, game_id)[JUDGED_SEATS.name]} == {judged.end_version}
    assert analysis(client, game_id)["version"] == judged.end_version
