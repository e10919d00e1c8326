"""``digsite verify``, ``export`` and ``import`` through click, against the fixture stores (exit codes and output)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from service.application import Digsite
from service.cli import main
from service.settings import Database, Settings
from tests.service.test_audit import bump_rank, edit_row, finished_game, first_play, new_game, play
from tests.service.test_transfer import another_store


def run(database: Database, *args: str) -> Result:
    return CliRunner().invoke(main, list(args), env={"DIGSITE_DATABASE_URL": database.url})


@pytest.fixture
def other(database: Database, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    with another_store(database, tmp_path_factory) as db:
        yield db


def test_verify_a_clean_game_exits_0_and_prints_each_check(service: Digsite, database: Database) -> None:
    game_id = finished_game(service)
    result = run(database, "verify", game_id)
    assert result.exit_code == 0, result.output
    for name in ("records", "hash_chain", "seed", "rules_version", "replay", "game_over"):
        assert f"ok   {name}" in result.output
    assert "verified: every check holds" in result.output


def test_verify_a_tampered_game_exits_1_naming_the_first_bad_record(service: Digsite, database: Database) -> None:
    game_id = finished_game(service)
    version = first_play(service, game_id)
    edit_row(database, game_id, version, bump_rank)
    result = run(database, "verify", game_id)
    assert result.exit_code == 1
    assert f"first bad record is version {version}" in result.output
    assert "FAIL hash_chain" in result.output
    as_json = run(database, "verify", game_id, "--json")
    assert as_json.exit_code == 1
    report = json.loads(as_json.stdout)
    assert report["ok"] is False and report["first_bad"]["version"] == version


def test_verify_an_unknown_game_exits_2(database: Database) -> None:
    result = run(database, "verify", "00000000-0000-4000-8000-000000000000")
    assert result.exit_code == 2 and "no game with id" in result.output


def test_verify_needs_exactly_one_target(database: Database) -> None:
    assert run(database, "verify").exit_code == 2
    assert run(database, "verify", "x", "--all").exit_code == 2


def test_verify_all_summarises_the_store(service: Digsite, database: Database) -> None:
    clean, in_play = finished_game(service, "a"), new_game(service, "b")
    play(service, in_play, moves=5)
    result = run(database, "verify", "--all")
    assert result.exit_code == 0, result.output
    assert "2 game(s) checked (1 over, 1 in play or unreadable): 2 verified, 0 failed" in result.output
    edit_row(database, clean, first_play(service, clean), bump_rank)
    result = run(database, "verify", "--all", "--json")
    assert result.exit_code == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert {line["game"]: line["ok"] for line in lines[:-1]} == {clean: False, in_play: True}
    summary = lines[-1]
    assert {k: summary[k] for k in ("summary", "games", "ok", "failed")} == {
        "summary": True,
        "games": 2,
        "ok": 1,
        "failed": 1,
    }
    assert summary["ledger_ok"] is True and summary["checkpoint"] is None


def test_export_to_a_file_then_import_into_another_store(
    service: Digsite, database: Database, other: Database, tmp_path: Path
) -> None:
    tournament = service.create_tournament("Cup", rounds=2)
    game_id = finished_game(service, tournament=tournament)
    path = tmp_path / "cup.jsonl"
    exported = run(database, "export", "--tournament", tournament, "-o", str(path))
    assert exported.exit_code == 0, exported.output
    assert "exported 1 game(s)" in exported.output
    imported = run(other, "import", str(path))
    assert imported.exit_code == 0, imported.output
    assert f"imported game {game_id}" in imported.output
    again = run(other, "import", str(path))
    assert again.exit_code == 1 and "already exists" in again.output
    assert run(other, "verify", game_id).exit_code == 0
    copy = Digsite(Settings(database=other))
    try:
        assert copy.stored_records(game_id) == service.stored_records(game_id)
    finally:
        copy.close()


def test_export_to_stdout_warns_about_a_game_in_play(service: Digsite, database: Database) -> None:
    game_id = new_game(service)
    play(service, game_id, moves=3)
    result = run(database, "export", game_id)
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["type"] for line in lines if line["type"] != "player"][:2] == ["game", "created"]
    assert f"game {game_id} is still in play" in result.stderr


def test_export_of_an_unknown_game_writes_no_file(database: Database, tmp_path: Path) -> None:
    path = tmp_path / "none.jsonl"
    result = run(database, "export", "00000000-0000-4000-8000-000000000000", "-o", str(path))
    assert result.exit_code == 2 and not path.exists()


def test_import_of_a_tampered_file_exits_1_and_writes_nothing(
    service: Digsite, database: Database, other: Database, tmp_path: Path
) -> None:
    game_id = finished_game(service)
    version = first_play(service, game_id)
    lines = [json.loads(line) for line in run(database, "export", game_id).stdout.splitlines()]
    move = next(line for line in lines if line["type"] == "move" and line["version"] == version)
    move["body"]["action"]["rank"] = move["body"]["action"]["rank"] % 13 + 1
    path = tmp_path / "tampered.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    result = run(other, "import", str(path))
    assert result.exit_code == 1
    assert f"REFUSED game {game_id}: verification failed at record {version}" in result.output
    assert run(other, "verify", "--all").output.endswith(
        "0 game(s) checked (0 over, 0 in play or unreadable): 0 verified, 0 failed\n"
    )
