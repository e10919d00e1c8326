"""``digsite ruling``: each ruling recorded with its reason through the service, listed; refusals with their code
and exit code (1 bad input, 3 the game's state), nothing written."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner, Result

from service.cli import main
from service.commands.application import Digsite
from tests.service.integrity.test_audit import finished_game, new_game, play


@pytest.fixture
def run(service: Digsite, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("DIGSITE_DATABASE_URL", service.settings.database.url)
    return CliRunner()


def _ok(result: Result) -> str:
    assert result.exit_code == 0, result.output
    return result.output


def test_rulings_are_recorded_and_listed_from_the_command_line(run: CliRunner, service: Digsite) -> None:
    over = finished_game(service)
    ranking = ",".join(str(s) for s in reversed(service.game(over)["result"]["ranking"]))  # type: ignore[index]
    adjusted = json.loads(
        _ok(run.invoke(main, ["ruling", "adjust", over, "--ranking", ranking, "--reason", "miscount"]))
    )
    assert adjusted["body"]["reason"] == "miscount"
    in_play = new_game(service, "cli")
    play(service, in_play, 4)
    dora = service.create_player("Dora")
    sub = run.invoke(main, ["ruling", "substitute", in_play, "--seat", "1", "--player", dora, "--reason", "ill"])
    assert json.loads(_ok(sub))["token"]["player"] == dora
    restarted = run.invoke(main, ["ruling", "restart", in_play, "--from-version", "3", "--reason", "a misplay"])
    assert json.loads(_ok(restarted))["continued_as"]["version"] == 3
    listed = json.loads(_ok(run.invoke(main, ["ruling", "list", in_play])))
    assert [r["body"]["ruling"] for r in listed] == ["substitute", "restart"]


def test_refusals_exit_with_their_code_and_write_nothing(run: CliRunner, service: Digsite) -> None:
    game_id = new_game(service, "cli-refused")
    before = service.stored_records(game_id)
    blank = run.invoke(main, ["ruling", "annul", game_id, "--reason", "  "])
    assert blank.exit_code == 1 and "[invalid_ruling]" in blank.output
    early = run.invoke(main, ["ruling", "adjust", game_id, "--ranking", "0,1,2", "--reason", "x"])
    assert early.exit_code == 3 and "[game_in_play]" in early.output
    unknown = run.invoke(main, ["ruling", "restart", game_id, "--from-version", "9", "--reason", "x"])
    assert unknown.exit_code == 1 and "[unknown_version]" in unknown.output
    assert run.invoke(main, ["ruling", "annul", game_id]).exit_code == 2  # (no --reason: a usage error)
    assert service.stored_records(game_id) == before
    cup = service.create_tournament("Cup", 1, "ruins")
    nobody = run.invoke(main, ["ruling", "penalty", cup, "--player", game_id, "--points", "1", "--reason", "x"])
    assert nobody.exit_code == 1 and "[unknown_player]" in nobody.output
    assert json.loads(_ok(run.invoke(main, ["ruling", "list", cup, "--tournament"]))) == []
