"""A finished game judged (issue 26, section 2, the service side): ``digsite analyse`` stores the judge's
judgement in the read models, one transaction a game, and ``GET /games/{id}/analysis`` answers it as stored, with
the log's door and nothing for a game in play. On SQLite and PostgreSQL (the ``database`` fixture)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from typing import Any

import psycopg
import pytest
from click.testing import CliRunner, Result
from flask.testing import FlaskClient

from service.analysis import stored
from service.analysis.judging import judge_records
from service.cli import main
from service.commands.application import Digsite
from service.settings import Database
from service.store.read_models import JUDGED_MOVES, JUDGED_SEATS
from tests.service.api.support import new_game, ok, organiser, seat_headers
from tests.service.integrity.test_audit import play

BUDGET = 8  # playouts a decision: a small game judged in seconds; the figures' quality is the domain's tests'


def analyse(database: Database, *args: str) -> Result:
    return CliRunner().invoke(main, ["analyse", *args], env={"DIGSITE_DATABASE_URL": database.url})


def stored_rows(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the judge's tables, in key order."""
    out = {}
    for table in (JUDGED_MOVES, JUDGED_SEATS):
        sql = f"SELECT * FROM {{p}}{table.name} ORDER BY {', '.join(table.primary_key)}"
        if db.backend == "sqlite":
            with closing(sqlite3.connect(db.path)) as conn:
                out[table.name] = conn.execute(sql.replace("{p}", "")).fetchall()
        else:
            with psycopg.connect(db.psycopg_conninfo()) as pg:
                out[table.name] = pg.execute(sql.replace("{p}", f'"{db.schema}".')).fetchall()
    return out


def finished(client: FlaskClient, service: Digsite, seed: int = 1) -> dict[str, Any]:
    """A two-seat game played to its end by random bots; the creation's answer (id, tokens)."""
    created = new_game(client, players=2)
    play(service, created["id"], seed=seed)
    assert service.game(created["id"])["status"] == "over"
    return created


def test_a_finished_game_analysed_by_the_command_reads_back_through_the_api_as_the_judge_gave_it(
    client: FlaskClient, service: Digsite, database: Database
) -> None:
    created = finished(client, service)
    game_id = created["id"]
    result = analyse(database, "--game", game_id, "--budget", str(BUDGET))
    assert result.exit_code == 0, result.output
    assert "judged 1 game(s)" in result.output

    records = service.stored_records(game_id)
    expected = judge_records(records, BUDGET).judgement.to_dict()  # the judge, run here again: the same figures
    answer = ok(client.get(f"/api/v1/games/{game_id}/analysis", headers=organiser()))
    assert (answer["game_id"], answer["version"], answer["budget"]) == (game_id, records[-1]["version"], BUDGET)
    assert answer["seats"] == expected["seats"]
    moves = [r for r in records if r["type"] == "move"]
    assert [m["version"] for m in answer["moves"]] == [r["version"] for r in moves]
    for got, want in zip(answer["moves"], expected["moves"], strict=True):
        same = [k for k in want if k in got and k != "options"]
        assert {k: got[k] for k in same} == {k: want[k] for k in same}
        assert (got["played_estimate"], got["best_estimate"]) == (want["played_estimate"], want["best_estimate"])
        # Every seat's figures (judge version 3): the played, best and options estimates', as the judge gave them.
        options = want["options"]
        assert got["options"] == (None if options is None else {"wins": options["wins"], "values": options["values"]})
    judged = [m for m in answer["moves"] if m["judged"]]
    assert all(len(m["options"]["values"]) == len(m["played_estimate"]["wins"]) == 2 for m in judged)
    assert any(m["judged"] for m in answer["moves"]) and any(s["accuracy"] is not None for s in answer["seats"])
    # A seat of the finished game reads it too (the log's door), at the budget named.
    by_seat = client.get(f"/api/v1/games/{game_id}/analysis?budget={BUDGET}", headers=seat_headers(created, 1))
    assert ok(by_seat) == answer


def test_judging_a_game_again_gives_the_same_rows_not_more(
    client: FlaskClient, service: Digsite, database: Database
) -> None:
    game_id = finished(client, service)["id"]
    assert analyse(database, "--all", "--budget", str(BUDGET)).exit_code == 0
    first = stored_rows(database)
    assert first[JUDGED_SEATS.name] and first[JUDGED_MOVES.name]
    again = analyse(database, "--game", game_id, "--budget", str(BUDGET))
    assert again.exit_code == 0 and "1 already judged" in again.output
    stored.write(database, judge_records(service.stored_records(game_id), BUDGET))  # written over: replaced whole
    assert stored_rows(database) == first


def test_a_game_is_stored_whole_or_not_at_all(
    client: FlaskClient, service: Digsite, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = finished(client, service)["id"]
    judged = judge_records(service.stored_records(game_id), BUDGET)
    stored.write(database, judged)
    before = stored_rows(database)
    # A write that fails after the moves' rows went in (a seat's row the table refuses) changes nothing.
    monkeypatch.setattr(stored, "seat_row", lambda key, summary: (*key, None, 0, None, None, 0, 0, 0))
    with pytest.raises((sqlite3.IntegrityError, psycopg.errors.NotNullViolation)):
        stored.write(database, judged)
    assert stored_rows(database) == before


# On SQLite only: the workers judge records handed to them, the backend is the coordinator's alone (tested above).
@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_two_workers_store_what_one_does(client: FlaskClient, service: Digsite, database: Database) -> None:
    games = [finished(client, service, seed)["id"] for seed in (1, 2)]
    result = analyse(database, "--all", "--budget", str(BUDGET), "--workers", "2")
    assert result.exit_code == 0 and "judged 2 game(s)" in result.output, result.output
    by_workers = stored_rows(database)
    for game_id in games:
        stored.write(database, judge_records(service.stored_records(game_id), BUDGET))
    assert stored_rows(database) == by_workers


def test_a_game_in_play_has_no_judgement_for_anyone(client: FlaskClient, service: Digsite, database: Database) -> None:
    created = new_game(client, players=2)
    game_id = created["id"]
    play(service, game_id, moves=4)
    refused = analyse(database, "--game", game_id, "--budget", str(BUDGET))
    assert refused.exit_code == 1 and "is not over: only finished games are judged" in refused.output
    passed = analyse(database, "--all", "--budget", str(BUDGET))
    assert passed.exit_code == 0 and "1 not over, passed over" in passed.output
    assert stored_rows(database) == {JUDGED_MOVES.name: [], JUDGED_SEATS.name: []}
    for headers in (organiser(), seat_headers(created, 0)):
        answer = client.get(f"/api/v1/games/{game_id}/analysis", headers=headers)
        assert answer.status_code == 409
        assert answer.get_json()["error"]["code"] == "game_not_finished"


def test_refusals_say_what_is_wrong(client: FlaskClient, service: Digsite, database: Database) -> None:
    created = finished(client, service)
    game_id = created["id"]
    other = new_game(client, players=2)
    unknown = "00000000-0000-4000-8000-000000000000"

    not_yet = client.get(f"/api/v1/games/{game_id}/analysis", headers=organiser())
    assert not_yet.status_code == 404 and not_yet.get_json()["error"]["code"] == "not_analysed"
    assert "digsite analyse" in not_yet.get_json()["error"]["message"]
    assert analyse(database, "--game", game_id, "--budget", str(BUDGET)).exit_code == 0
    other_budget = client.get(f"/api/v1/games/{game_id}/analysis?budget={2 * BUDGET}", headers=organiser())
    assert other_budget.status_code == 404 and "at budget 16" in other_budget.get_json()["error"]["message"]
    assert client.get(f"/api/v1/games/{game_id}/analysis?budget=2", headers=organiser()).status_code == 400

    foreign = client.get(f"/api/v1/games/{game_id}/analysis", headers=seat_headers(other, 0))
    assert foreign.status_code == 401 and foreign.get_json()["error"]["code"] == "invalid_token"
    assert client.get(f"/api/v1/games/{game_id}/analysis").status_code == 401
    missing = client.get(f"/api/v1/games/{unknown}/analysis", headers=organiser())
    assert missing.status_code == 404 and missing.get_json()["error"]["code"] == "unknown_game"

    no_game = analyse(database, "--game", unknown)
    assert no_game.exit_code == 2 and f"no game with id {unknown}" in no_game.output
    assert analyse(database, "--game", game_id, "--all").exit_code == 2  # one target only (a usage error)


def test_an_interrupted_run_leaves_the_games_it_stored_whole_and_the_next_run_judges_the_rest(
    client: FlaskClient, service: Digsite, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = [finished(client, service, seed)["id"] for seed in (1, 2)]
    write = stored.write
    written: list[str] = []

    def interrupted_at_the_second(db: Database, judged: Any) -> None:
        if written:
            raise KeyboardInterrupt  # Ctrl-C while the second game's judgement is at hand
        write(db, judged)
        written.append(judged.game_id)

    monkeypatch.setattr(stored, "write", interrupted_at_the_second)
    stopped = analyse(database, "--all", "--budget", str(BUDGET))
    assert stopped.exit_code == 130 and "1 game(s) judged and stored whole" in stopped.output, stopped.output
    rows = stored_rows(database)
    assert {row[0] for row in rows[JUDGED_SEATS.name]} == set(written)
    moves = [r for r in service.stored_records(written[0]) if r["type"] == "move"]
    assert len(rows[JUDGED_MOVES.name]) == len(moves)  # the game stored is whole
    monkeypatch.setattr(stored, "write", write)
    again = analyse(database, "--all", "--budget", str(BUDGET))
    assert again.exit_code == 0 and "1 already judged" in again.output and "judged 1 game(s)" in again.output
    assert {row[0] for row in stored_rows(database)[JUDGED_SEATS.name]} == set(games)
