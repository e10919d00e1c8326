"""Stored bot tournaments of every registered game, played through the service into both stores, and
``digsite simulate`` (in-process and ``--store``)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from domain.games import GAMES
from domain.games import game as game_of
from service.bots.simulation import Tournament, default_pool, run_tournament, seatings
from service.cli import main
from service.commands.application import Digsite
from service.settings import Database, Settings
from tests.service.conftest import another_store

KINDS = sorted(GAMES)


@contextmanager
def fresh_store_like(database: Database, request: pytest.FixtureRequest) -> Iterator[Digsite]:
    """Another empty, migrated store on the same backend as ``database``."""
    with another_store(database, request) as other:
        service = Digsite(Settings(database=other))
        try:
            yield service
        finally:
            service.close()


def outline(tournament: Tournament) -> list[tuple[object, ...]]:
    """What a tournament played, without ids or seeds: seatings, winners, how, and game lengths."""
    return [(g.round, g.table, g.names, g.winner_names, tuple(g.result["scores"]), g.moves) for g in tournament.games]


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_a_stored_tournament_plays_every_game_to_the_end_with_a_reused_pool(service: Digsite, kind: str) -> None:
    finished: list[str] = []
    tournament = run_tournament(
        service,
        kind=kind,
        players=3,
        games=6,
        seed="cup",
        pool=6,
        name="Test cup",
        progress=lambda g: finished.append(g.id),
    )
    ids = [g.id for g in tournament.games]
    assert list(service.game_ids(tournament=tournament.id)) == ids
    assert finished == ids  # the progress callback saw every game, in order
    stored = service.tournament(tournament.id)
    assert (stored["name"], stored["rounds"], stored["game"]) == ("Test cup", 3, kind)

    pool_ids = [p["id"] for p in tournament.pool]
    seats_taken: Counter[str] = Counter()
    for played in tournament.games:
        game = service.game(played.id)
        assert game["status"] == "over"
        assert game["seed"] == played.seed  # revealed at the end
        assert game["labels"] == {"tournament": tournament.id, "round": played.round, "table": played.table}
        assert [p["id"] for p in game["players"]] == list(played.seats)
        assert game["result"] == played.result and played.result["winners"]
        assert sorted(played.result["ranking"]) == list(range(len(played.names)))
        assert set(played.winners) <= set(played.seats)
        assert game["version"] == played.moves + 2  # created, one record per move, seed revealed
        seats_taken.update(played.seats)
    # Six players, three rounds of two tables of three: everyone plays every round, in the same records.
    assert set(seats_taken) == set(pool_ids)
    assert set(seats_taken.values()) == {3}
    # Seatings rotate between rounds.
    tables = {r: {frozenset(g.seats) for g in tournament.games if g.round == r} for r in (1, 2, 3)}
    assert len({frozenset(t) for t in tables.values()}) > 1

    # Each player was created once, as a bot, its kind and tendencies recorded; no two alike.
    for record, persona in zip(tournament.pool, game_of(kind).bots.personas_for(6), strict=True):
        player = service.player(record["id"])
        assert player["name"] == persona.name and player["kind"] == "bot"
        assert player["bot"] == {"kind": persona.policy, "tendencies": dict(persona.tendencies)}
    recorded = [json.dumps(p["bot"], sort_keys=True) for p in tournament.pool]
    assert len(set(recorded)) == len(recorded)

    # One read of the acting seat's view per move (plus one referee read per finished game).
    assert tournament.moves == sum(g.moves for g in tournament.games) > 0
    assert tournament.reads == tournament.moves + len(tournament.games)


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_the_same_seed_plays_the_same_tournament_in_a_fresh_store(
    service: Digsite, request: pytest.FixtureRequest, kind: str
) -> None:
    first = run_tournament(service, kind=kind, players=2, games=4, seed="replay", pool=4)
    with fresh_store_like(service.settings.database, request) as other:
        second = run_tournament(other, kind=kind, players=2, games=4, seed="replay", pool=4)
        # Same seatings, seeds, winners and moves; and the same moves in the records.
        assert outline(second) == outline(first)
        assert [g.seed for g in second.games] == [g.seed for g in first.games]
        moves_first = [r["body"]["action"] for r in service.stored_records(first.games[0].id) if r["type"] == "move"]
        moves_second = [r["body"]["action"] for r in other.stored_records(second.games[0].id) if r["type"] == "move"]
        assert moves_second == moves_first
        assert {g.id for g in second.games}.isdisjoint(g.id for g in first.games)
        # Another seed is another tournament.
        different = run_tournament(other, kind=kind, players=2, games=4, seed="another", pool=4)
        assert outline(different) != outline(first)


def test_seatings_rotate_who_sits_out_and_follow_the_seed() -> None:
    plan = seatings(pool=7, players=3, rounds=7, seed="s")
    sat_out: Counter[int] = Counter()
    for tables in plan:
        assert len(tables) == 2 and all(len(t) == 3 for t in tables)
        seated = [p for t in tables for p in t]
        assert len(set(seated)) == 6
        sat_out.update(set(range(7)) - set(seated))
    assert sat_out == Counter(range(7))  # over seven rounds, each of the seven sits out exactly once
    assert seatings(7, 3, 7, "s") == plan
    assert seatings(7, 3, 7, "t") != plan


@pytest.mark.parametrize("kind", KINDS)
def test_the_default_pool_fills_whole_tables_with_distinct_styles(kind: str) -> None:
    bots = game_of(kind).bots
    seats = game_of(kind).schemas.seats
    for players in range(seats.low, seats.high + 1):
        pool = default_pool(kind, players)
        assert pool % players == 0 and players <= pool <= max(players, len(bots.personas))
    names = [p.name for p in bots.personas_for(len(bots.personas) + 2)]
    assert len(set(names)) == len(names)  # beyond the list, styles repeat under new names
    styles = [(p.policy, sorted(p.tendencies.items())) for p in bots.personas]
    assert len(set(map(str, styles))) == len(styles), "no two personas play alike"


def test_impossible_tournaments_are_refused_before_anything_is_stored(service: Digsite) -> None:
    with pytest.raises(ValueError, match="cannot fill a table"):
        run_tournament(service, kind="ruins", players=4, games=2, pool=3)
    with pytest.raises(ValueError, match="at most 1000"):
        run_tournament(service, kind="ruins", players=5, games=1001, pool=5)
    with pytest.raises(ValueError, match="seats 2 to 5 players, not 1"):
        run_tournament(service, kind="ruins", players=1, games=1)
    assert list(service.game_ids()) == []


def test_a_solo_arnak_tournament_seats_one_player_against_the_rival_the_engine_plays(service: Digsite) -> None:
    """Arnak's solo mode (docs/rules/arnak.md, design 20): one seated player; the rival's seat is never to act,
    so the service and the bots never play it, and its win counts for no player of the pool."""
    tournament = run_tournament(
        service, kind="arnak", players=1, games=2, seed="solo", pool=2, options={"side": "snake", "difficulty": 2}
    )
    for played in tournament.games:
        final = service.game(played.id)
        assert final["options"] == {"side": "snake", "difficulty": 2}
        assert len(played.seats) == 1 and played.names[1] == "Rival" and len(played.result["scores"]) == 2
        seats_moved = {r["body"]["seat"] for r in service.stored_records(played.id) if r["type"] == "move"}
        assert seats_moved == {0}
    rival_wins = sum(1 for g in tournament.games if 1 in g.result["winners"])
    assert sum(tournament.wins().values()) == len(tournament.games) - rival_wins


def test_cli_simulate_store_plays_a_tournament_into_the_configured_store(service: Digsite) -> None:
    runner = CliRunner()
    env = {"DIGSITE_DATABASE_URL": service.settings.database.url}
    args = ["simulate", "--game", "ruins", "--store", "--players", "2", "--games", "3", "--seed", "cli", "--pool", "4"]
    result = runner.invoke(main, [*args, "--tournament-name", "CLI cup", "--json"], env=env)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    summary = lines[-1]
    assert summary["summary"] is True and summary["games"] == 3
    assert summary["moves"] == sum(line["moves"] for line in lines[:-1]) > 0
    assert summary["moves_per_second"] > 0
    assert service.tournament(summary["tournament"])["name"] == "CLI cup"
    assert list(service.game_ids(tournament=summary["tournament"])) == [line["game"] for line in lines[:-1]]
    assert all(service.game(line["game"])["status"] == "over" for line in lines[:-1])

    text = runner.invoke(main, [*args, "--games", "1"], env=env)
    assert text.exit_code == 0, text.output
    assert "1 game(s)" in text.stdout and "moves/s" in text.stdout


def test_cli_simulate_store_refuses_an_unmigrated_store(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/empty.sqlite"
    args = ["simulate", "--game", "arnak", "--store", "--games", "1"]
    result = CliRunner().invoke(main, args, env={"DIGSITE_DATABASE_URL": url})
    assert result.exit_code == 1
    assert "digsite db upgrade" in result.output
    assert "Traceback" not in result.output


def test_cli_simulate_store_only_options_need_store() -> None:
    result = CliRunner().invoke(main, ["simulate", "--game", "ruins", "--games", "1", "--pool", "6"])
    assert result.exit_code == 2 and "--store" in result.output


def test_cli_simulate_needs_the_game_and_refuses_options_the_game_does_not_have() -> None:
    runner = CliRunner()
    missing = runner.invoke(main, ["simulate", "--games", "1"])
    assert missing.exit_code == 2 and "--game" in missing.output
    assert runner.invoke(main, ["simulate", "--game", "ruins", "--board", "snake"]).exit_code == 2
    too_few = runner.invoke(main, ["simulate", "--game", "ruins", "--players", "1"])
    assert too_few.exit_code == 2 and "2 to 5" in too_few.output


@pytest.mark.parametrize(
    ("args", "players"),
    [
        (["--game", "arnak", "--players", "1", "--difficulty", "3"], ["Ana", "Rival"]),
        (["--game", "arnak", "--players", "4", "--board", "snake"], ["Ana", "Beto", "Carla", "Diego"]),
        (["--game", "arnak", "--players", "2", "--bot", "random"], ["Ana", "Beto"]),
        (["--game", "ruins", "--players", "3"], ["Ana", "Beto", "Carla"]),
    ],
)
def test_cli_simulate_plays_any_registered_game_in_process(args: list[str], players: list[str]) -> None:
    result = CliRunner().invoke(main, ["simulate", *args, "--games", "3", "--seed", "cli", "--json"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    games, summary = lines[:-1], lines[-1]
    assert len(games) == 3 and summary["games"] == 3 and summary["games_per_second"] > 0
    assert all(list(g["scores"]) == players and set(g["winners"]) <= set(players) for g in games)
    assert sum(summary["wins"].values()) >= 3
    assert summary["actions"] == sum(g["actions"] for g in games)
    again = CliRunner().invoke(main, ["simulate", *args, "--games", "3", "--seed", "cli", "--json"])
    assert [json.loads(x) for x in again.stdout.splitlines()][:-1] == games, "the same seed plays the same games"


def test_cli_simulate_seats_the_search_bot_with_its_budget() -> None:
    args = ["simulate", "--game", "ruins", "--players", "2", "--games", "1", "--seed", "cli", "--json"]
    result = CliRunner().invoke(main, [*args, "--bot", "search:2"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[-1]["bot"] == "search:2" and sum(lines[-1]["wins"].values()) >= 1
    again = CliRunner().invoke(main, [*args, "--bot", "search:2"])
    assert [json.loads(x) for x in again.stdout.splitlines()][:-1] == lines[:-1], "the same seeds, the same games"
    for bad in ("search:0", "search:lots", "heuristic:5", "no_such_bot"):
        refused = CliRunner().invoke(main, [*args, "--bot", bad])
        assert refused.exit_code == 2 and "--bot" in refused.output, bad


def test_cli_bot_refuses_a_bot_no_game_has_before_connecting() -> None:
    for bad in ("no_such_bot", "search:0"):
        refused = CliRunner().invoke(main, ["bot", "--url", "http://127.0.0.1:9", "--game", "g", "--bot", bad])
        assert refused.exit_code == 2 and "--bot" in refused.output, bad
    budget = CliRunner().invoke(main, ["bot", "--url", "http://127.0.0.1:9", "--game", "g", "--bot", "search:x"])
    assert budget.exit_code == 2 and "NAME:BUDGET" in budget.output
