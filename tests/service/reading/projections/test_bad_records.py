"""A record the projection cannot project, written straight into the store (as a bug or a hand-made store
could): it is named, every record before it is projected, nothing after it; the commands exit non-zero
with the message, and an operator can let the projection pass it with --skip."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from click.testing import CliRunner

from service.bots.simulation import run_tournament
from service.cli import main
from service.cli.projections import EXIT_UNPROJECTABLE
from service.commands.application import Digsite
from service.reading.projections.follower import Follower, UnprojectableRecord
from service.store.aggregates import Game, Player


@pytest.fixture
def follower(service: Digsite) -> Iterator[Follower]:
    found = Follower(service.settings, batch_size=10_000)  # one batch: the bad record is in its middle
    try:
        yield found
    finally:
        found.close()


def player_names(follower: Follower) -> set[str]:
    with follower.read_models.tracker.datastore.transaction(commit=False) as curs:
        curs.execute(follower.read_models._q("SELECT name FROM {p}rm_players"))
        return {r["name"] if isinstance(r, dict) else r[0] for r in curs.fetchall()}


def game_versions(follower: Follower, game_id: str) -> tuple[Any, list[int]]:
    """The game's rm_games last_version and its rm_moves versions."""
    tables = follower.read_models
    with tables.tracker.datastore.transaction(commit=False) as curs:
        curs.execute(tables._q("SELECT last_version FROM {p}rm_games WHERE game_id = ?"), (game_id,))
        row = curs.fetchone()
        curs.execute(tables._q("SELECT version FROM {p}rm_moves WHERE game_id = ? ORDER BY version"), (game_id,))
        versions = [r["version"] if isinstance(r, dict) else r[0] for r in curs.fetchall()]
    last = None if row is None else (row["last_version"] if isinstance(row, dict) else row[0])
    return last, versions


def bad_move(service: Digsite) -> tuple[str, int]:
    """A new game whose second record is a move no rules can read, appended without the rules: (game, its
    notification id)."""
    players = [service.create_player(name) for name in ("Ana", "Beto")]
    game_id = service.create_game("ruins", players)["id"]
    game = service.app.repository.get(UUID(game_id))
    assert isinstance(game, Game)
    game.record_move(
        game.state,
        seat=0,
        action={"type": "dance", "seat": 0},
        events=[{"type": "Nonsense"}],
        at="2026-01-01T00:00:00+00:00",
        rules_version="?",
        prev_hash=game.last_hash,
        hash="0" * 64,
    )
    service.app.save(game)
    return game_id, service.app.recorder.max_notification_id() or 0


def test_a_move_no_rules_can_read_stops_the_projection_after_every_record_before_it(
    service: Digsite, follower: Follower
) -> None:
    run_tournament(service, kind="ruins", players=3, games=1, seed="before")
    game_id, bad = bad_move(service)
    service.create_player("After")
    with pytest.raises(UnprojectableRecord) as caught:
        follower.catch_up()
    error = caught.value
    assert (error.notification_id, error.originator_id, error.version) == (bad, game_id, 2)
    assert error.topic.endswith("Game.MoveRecorded") and error.reason
    assert follower.read_models.position() == bad - 1 == error.position
    assert game_versions(follower, game_id) == (1, [])  # the game's creation is projected, its bad move not
    assert "After" not in player_names(follower)  # nothing after it
    with pytest.raises(UnprojectableRecord):  # and it stays stopped there: retrying cannot help
        follower.catch_up()
    assert follower.read_models.position() == bad - 1


def test_an_operator_can_let_the_projection_pass_the_record(service: Digsite, follower: Follower) -> None:
    game_id, bad = bad_move(service)
    service.create_player("After")
    passing = Follower(service.settings, skip=frozenset({bad}))
    try:
        assert passing.catch_up() == service.app.recorder.max_notification_id()
        assert "After" in player_names(passing) and game_versions(passing, game_id) == (1, [])
    finally:
        passing.close()


def test_a_name_the_read_model_store_cannot_hold_is_found_within_its_batch(
    service: Digsite, follower: Follower
) -> None:
    """PostgreSQL text cannot hold NUL: the write of the batch fails, the record is found and named and
    the records before it are written. (SQLite text can hold it: there the record is simply projected.)"""
    service.create_player("Before")
    player = Player.create(name="A\x00na", kind="human", bot=None, at="2026-01-01T00:00:00+00:00")
    service.app.save(player)  # around the service, which refuses such a name
    bad = service.app.recorder.max_notification_id()
    service.create_player("After")
    if service.settings.database.backend == "sqlite":
        follower.catch_up()
        assert player_names(follower) == {"Before", "A\x00na", "After"}
        return
    with pytest.raises(UnprojectableRecord) as caught:
        follower.catch_up()
    error = caught.value
    assert (error.notification_id, error.originator_id) == (bad, str(player.id)) and "NUL" in error.reason
    assert player_names(follower) == {"Before"} and follower.read_models.position() == bad - 1


@pytest.fixture
def cli_env(service: Digsite, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    # `projections run` installs its own SIGINT/SIGTERM handlers: the test process keeps its own.
    monkeypatch.setattr(signal, "signal", lambda sig, handler: signal.getsignal(sig))
    return {"DIGSITE_DATABASE_URL": service.settings.database.url}


@pytest.mark.parametrize("command", [["projections", "run"], ["projections", "rebuild"]])
def test_the_commands_exit_non_zero_with_the_message_and_pass_it_when_told(
    service: Digsite, cli_env: dict[str, str], command: list[str]
) -> None:
    game_id, bad = bad_move(service)
    runner = CliRunner()
    stopped = runner.invoke(main, command, env=cli_env)
    assert stopped.exit_code == EXIT_UNPROJECTABLE, stopped.output
    assert f"cannot project record {bad}" in stopped.output and game_id in stopped.output
    assert f"--skip {bad}" in stopped.output
    passed = runner.invoke(main, ["projections", "rebuild", "--skip", str(bad)], env=cli_env)
    assert passed.exit_code == 0, passed.output
    status = runner.invoke(main, ["projections", "status"], env=cli_env)
    assert f"position {bad}, 0 record(s) behind" in status.output


def test_of_two_bad_records_in_one_batch_the_first_is_named(service: Digsite, follower: Follower) -> None:
    """A name the store cannot hold (on PostgreSQL), then a move no rules can read, in one batch: the
    projection stops at the first of them, with everything before it written."""
    service.create_player("Before")
    player = Player.create(name="A\x00na", kind="human", bot=None, at="2026-01-01T00:00:00+00:00")
    service.app.save(player)
    nul = service.app.recorder.max_notification_id() or 0
    _, bad = bad_move(service)
    with pytest.raises(UnprojectableRecord) as caught:
        follower.catch_up()
    first = nul if service.settings.database.backend == "postgresql" else bad
    assert caught.value.notification_id == first and follower.read_models.position() == first - 1
