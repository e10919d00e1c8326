"""``digsite verify``, ``export`` and ``import`` through click, against the fixture stores (exit codes and output)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from service.cli import main
from service.commands.application import Digsite
from service.settings import Database, Settings
from tests.service.conftest import another_store
from tests.service.integrity.test_audit import bump_rank, edit_row, finished_game, first_play, new_game, play


def run(database: Database, *args: str) -> Result:
    return CliRunner().invoke(main, list(args), env={"DIGSITE_DATABASE_URL": database.url})


@pytest.fixture
def other(database: Database, request: pytest.FixtureRequest) -> Iterator[Database]:
    with another_store(database, request) as db:
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
    tournament = service.create_tournament("Cup", rounds=2, kind="ruins")
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


# -- the ledger and its checkpoints ---------------------------------------------------------------------------


@pytest.fixture
def keys(tmp_path: Path) -> tuple[Path, Path]:
    private = tmp_path / "keys" / "organiser.key"
    result = CliRunner().invoke(main, ["checkpoint", "keygen", str(private)])
    assert result.exit_code == 0, result.output
    public = private.with_name("organiser.key.pub")
    assert public.exists() and (private.stat().st_mode & 0o777) == 0o600
    assert "key id" in result.output
    again = CliRunner().invoke(main, ["checkpoint", "keygen", str(private)])
    assert again.exit_code == 2 and "never overwritten" in again.output
    return private, public


def test_checkpoint_then_verify_against_it(
    service: Digsite, database: Database, keys: tuple[Path, Path], tmp_path: Path
) -> None:
    private, public = keys
    done, cut = finished_game(service, "a"), finished_game(service, "b")
    path = tmp_path / "checkpoint.json"
    issued = run(database, "checkpoint", "--key", str(private), "-o", str(path))
    assert issued.exit_code == 0, issued.output
    assert "checkpoint of ledger entries 1 to 4" in issued.stderr
    later = finished_game(service, "c")  # finished after the checkpoint: not covered, not an error

    result = run(database, "verify", "--all", "--checkpoint", str(path), "--public-key", str(public))
    assert result.exit_code == 0, result.output
    assert "signature checked with the public key given" in result.output
    assert "ok   checkpoint: the store's ledger entries 1 to 4 are the ones signed" in result.output
    assert "covered by the checkpoint: 2 game(s) whole, 0 from creation only" in result.output
    assert "(ended after it, or in play); 1 not covered" in result.output
    assert "3 game(s) checked (3 over, 0 in play or unreadable): 3 verified, 0 failed" in result.output

    one = run(database, "verify", later, "--checkpoint", str(path), "--public-key", str(public))
    assert one.exit_code == 0 and "ok   checkpoint    not covered" in one.output

    # The end of a game cut off, and the ledger rewritten to match: only the checkpoint shows it.
    from tests.service.integrity.test_ledger import cut_the_end, rewrite_ledger

    cut_the_end(database, service, cut)
    rewrite_ledger(database, lambda rows: [r for r in rows if (r["game_id"], r["kind"]) != (cut, "finished")])
    assert run(database, "verify", "--all").exit_code == 0
    caught = run(database, "verify", "--all", "--checkpoint", str(path), "--public-key", str(public))
    assert caught.exit_code == 1
    assert f"FAIL game {cut}: first bad record" in caught.output and "the end of the game was removed" in caught.output
    assert "FAIL checkpoint: ledger entry 4 in the store is not the one signed" in caught.output
    as_json = run(database, "verify", "--all", "--json", "--checkpoint", str(path), "--public-key", str(public))
    lines = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert {line["game"]: line["coverage"] for line in lines[:-1]} == {done: "whole", cut: None, later: None}
    assert lines[-1]["checkpoint_ok"] is False and lines[-1]["ledger_ok"] is True
    assert run(database, "verify", done, "--checkpoint", str(path)).exit_code == 0


def test_a_checkpoint_refused(service: Digsite, database: Database, keys: tuple[Path, Path], tmp_path: Path) -> None:
    private, public = keys
    finished_game(service)
    path = tmp_path / "checkpoint.json"
    result = CliRunner().invoke(
        main,
        ["checkpoint", "-o", str(path)],
        env={"DIGSITE_DATABASE_URL": database.url, "DIGSITE_CHECKPOINT_KEY": str(private)},
    )
    assert result.exit_code == 0, result.output

    wrong = tmp_path / "other.key"
    assert CliRunner().invoke(main, ["checkpoint", "keygen", str(wrong)]).exit_code == 0
    refused = run(database, "verify", "--all", "--checkpoint", str(path), "--public-key", f"{wrong}.pub")
    assert refused.exit_code == 1 and "checkpoint refused: the checkpoint was signed by key" in refused.output

    data = json.loads(path.read_text())
    data["statement"]["head"] = "0" * 64
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    bad = run(database, "verify", "--all", "--checkpoint", str(forged), "--public-key", str(public))
    assert bad.exit_code == 1 and "signature does not hold" in bad.output
    assert run(database, "verify", "--all", "--checkpoint", str(tmp_path / "missing.json")).exit_code == 2
    assert run(database, "checkpoint").exit_code == 2  # no key named


def test_checkpoint_refuses_a_ledger_that_does_not_hold(
    service: Digsite, database: Database, keys: tuple[Path, Path]
) -> None:
    from tests.service.integrity.test_ledger import delete_game

    game_id = finished_game(service)
    delete_game(database, game_id)
    result = run(database, "checkpoint", "--key", str(keys[0]))
    assert result.exit_code == 1 and "refused: ledger entry 1" in result.stderr and result.stdout == ""


def test_ledger_backfill(service: Digsite, database: Database) -> None:
    from tests.service.integrity.test_ledger import rewrite_ledger

    clean, tampered = finished_game(service, "a"), finished_game(service, "b")
    rewrite_ledger(database, lambda rows: [])
    edit_row(database, tampered, first_play(service, tampered), bump_rank)
    before = run(database, "verify", clean)
    assert before.exit_code == 1 and "the ledger has no entry for this game" in before.output
    result = run(database, "ledger", "backfill")
    assert result.exit_code == 1
    assert f"NOT ENTERED game {tampered}: record" in result.output
    summary = "entered 2 ledger entries; 0 game(s) and 0 tournament(s) were in the ledger already; 1 not entered"
    assert summary in result.output
    assert run(database, "verify", clean).exit_code == 0
