"""Two bot runs with the same bot names seat the same players (a bot player is its name); the same name with
other settings is refused with one line, and nothing is played."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from eventsourcing.application import AggregateNotFoundError

from domain.games import game
from service.bots.simulation import run_tournament
from service.cli import main
from service.commands.application import Digsite
from service.errors import Conflict
from service.settings import Database, Settings


def test_two_stored_runs_seat_the_same_bot_players(service: Digsite) -> None:
    first = run_tournament(service, kind="ruins", players=2, games=1, seed="a", pool=4)
    second = run_tournament(service, kind="ruins", players=2, games=1, seed="b", pool=4)
    assert [p["id"] for p in first.pool] == [p["id"] for p in second.pool]
    assert len({p["name"] for p in first.pool}) == 4
    assert {pid for g in second.games for pid in g.seats} <= {p["id"] for p in first.pool}


def test_a_bot_player_is_found_by_its_name_whatever_its_case(service: Digsite) -> None:
    persona = game("ruins").bots.personas_for(1)[0]
    made = service.bot_player(persona.name, persona.record)
    assert service.bot_player(f"  {persona.name.upper()} ", persona.record) == made
    assert service.player(made)["name"] == persona.name and service.player(made)["bot"] == persona.record


def test_the_same_name_with_other_settings_is_refused(service: Digsite) -> None:
    persona = game("ruins").bots.personas_for(1)[0]
    made = service.bot_player(persona.name, persona.record)
    other = {**persona.record, "tendencies": {**persona.record["tendencies"], "pass_rate": 0.99}}
    with pytest.raises(Conflict) as refused:
        service.bot_player(persona.name, other)
    assert refused.value.code == "bot_name_taken" and persona.name in refused.value.message
    assert service.player(made)["bot"] == persona.record  # unchanged


def test_two_runs_creating_the_same_bot_at_once_end_with_one_player(service: Digsite, database: Database) -> None:
    """The second of two runs that both found no such player yet: its save conflicts, and it takes the first's."""
    persona = game("ruins").bots.personas_for(1)[0]
    late = Digsite(Settings(database=database, api_key="k"))
    try:
        real_get = late.app.repository.get
        calls = []

        def not_yet_then_real(aggregate_id: object, *args: object, **kwargs: object) -> object:
            calls.append(aggregate_id)
            if len(calls) == 1:
                raise AggregateNotFoundError(aggregate_id)  # it looked before the other run saved
            return real_get(aggregate_id, *args, **kwargs)  # type: ignore[arg-type]

        made = service.bot_player(persona.name, persona.record)
        late.app.repository.get = not_yet_then_real  # type: ignore[method-assign]
        assert late.bot_player(persona.name, persona.record) == made
        assert len(calls) == 2
    finally:
        late.close()


def test_simulate_store_refuses_a_name_held_by_another_bot_in_one_line(
    service: Digsite, database: Database, tmp_path: Path
) -> None:
    persona = game("ruins").bots.personas_for(1)[0]
    service.bot_player(persona.name, {"kind": "random", "tendencies": {"craft_rate": 0.9}})
    before = service.app.recorder.max_notification_id()
    env = {"DIGSITE_DATABASE_URL": database.url, "DIGSITE_HOME": str(tmp_path)}
    args = ["simulate", "--game", "ruins", "--store", "--players", "2", "--games", "1", "--pool", "2"]
    result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == 1 and "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1 and f"a bot player named {persona.name!r} already plays with other settings" in errors[0]
    assert service.app.recorder.max_notification_id() == before  # no tournament, no game
