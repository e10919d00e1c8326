"""Whole-store jobs on Dask (service/cluster/dask_jobs.py), on PostgreSQL: the distributed rebuild writes exactly the
read models of the single-process one and the follower goes on from its head; a share run twice writes nothing
twice; a failed rebuild holds the read models until a rebuild succeeds; the distributed verify prints what the
single-process one prints; a bad cluster address or a SQLite store is one line.

The cluster is a real ``LocalCluster`` of 2 worker processes (each reads the store over its own connections),
started once for the module: about 4 s on the development machine."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner, Result

from service.analysis import stored
from service.analysis.judging import judge_records
from service.bots.simulation import run_tournament
from service.cli import main
from service.cluster import dask_jobs
from service.commands.application import Digsite
from service.reading.projections.follower import Follower
from service.settings import Database, Settings
from service.store import backends
from service.store.aggregates import Player
from service.store.read_models import JUDGED_SEATS
from tests.service.api.test_analysis import stored_rows
from tests.service.api.test_serve import Server
from tests.service.integrity.test_audit import bump_rank, edit_row, finished_game, first_play, new_game, play
from tests.service.reading.projections.test_bad_records import bad_move
from tests.service.reading.projections.test_follower import snapshot

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with dask_jobs.engine(None, 2) as found:
        yield found


@pytest.fixture
def service(pg: Database) -> Iterator[Digsite]:
    found = Digsite(Settings(database=pg, api_key="organiser-key", secret_key="distributed-test"))
    try:
        yield found
    finally:
        found.close()


@pytest.fixture
def follower(service: Digsite) -> Iterator[Follower]:
    found = Follower(service.settings, batch_size=97)
    try:
        yield found
    finally:
        found.close()


def a_store(service: Digsite) -> list[str]:
    """Finished games of two kinds, an organiser's rulings on one (a result adjusted, a penalty), and two games in
    play (their next moves come after the rebuild)."""
    ruins = run_tournament(service, kind="ruins", players=3, games=4, seed="distributed")
    run_tournament(service, kind="arnak", players=2, games=1, seed="distributed")
    adjusted = ruins.games[0]
    ranking = list(reversed(adjusted.result["ranking"]))
    service.rulings.rule_on_game(
        adjusted.id, {"ruling": "adjust_result", "reason": "a scoring error", "result": {"ranking": ranking}}
    )
    service.rulings.rule_on_tournament(
        ruins.id, {"ruling": "penalty", "player": adjusted.seats[0], "points": 1, "reason": "late to the table"}
    )
    in_play = [new_game(service, "in-play-1"), new_game(service, "in-play-2")]
    for game_id in in_play:
        play(service, game_id, moves=12)
    return in_play


def test_a_distributed_rebuild_writes_the_single_process_read_models_and_the_follower_goes_on_from_its_head(
    service: Digsite, follower: Follower, client: Any
) -> None:
    in_play = a_store(service)
    head = service.app.recorder.max_notification_id()
    follower.rebuild()
    single = snapshot(follower)
    assert len(single["rm_games"]) == 7 and single["rm_arnak_seats"] and single["rm_ruins_seats"]
    assert len(single["rm_rating_changes"]) == 4 * 3 + 2  # (ratings depend on the order: the same from shares)
    assert len(single["rm_rulings"]) == 2  # (a game's ruling and a tournament's penalty: the same from shares)

    done = dask_jobs.rebuild(client, service.settings, batch_size=150)  # many shares: most games alone
    assert done == head and follower.read_models.position() == head
    assert snapshot(follower) == single

    for game_id in in_play:  # records after the rebuild's head: games it projected in part, and a new one
        play(service, game_id, moves=7, seed=2)
    finished_game(service, "after")
    continued = Follower(service.settings, batch_size=97)  # a `projections run` started afterwards
    try:
        assert continued.catch_up() == service.app.recorder.max_notification_id() - head
        caught_up = snapshot(continued)
    finally:
        continued.close()
    follower.rebuild()
    assert caught_up == snapshot(follower)


def test_a_share_run_again_after_its_commit_writes_nothing_twice(service: Digsite, follower: Follower) -> None:
    """What the scheduler does when a worker dies after committing, before saying so: it runs the task again."""
    run_tournament(service, kind="ruins", players=3, games=2, seed="twice")
    follower.rebuild()
    single = snapshot(follower)
    head = service.app.recorder.max_notification_id() or 0
    dask_jobs._take_and_clear(follower.read_models, 7)
    dask_jobs._project_other_records(service.app, follower.read_models, head, 7, frozenset())
    (share,) = dask_jobs.shares(dask_jobs._games(service.app, head), 10**6)
    options: dict[str, Any] = {"settings": service.settings, "head": head, "run": 7, "skip": frozenset()}
    try:
        assert dask_jobs.project_share(share, **options) == share.records
        assert dask_jobs.project_share(share, **options) == share.records  # found its marker: wrote nothing
    finally:
        assert dask_jobs.release() == 2  # what the "worker" (here, this process) kept: application, read models
    dask_jobs._release(follower.read_models, head, 7)
    assert snapshot(follower) == single and follower.read_models.position() == head


def test_a_rebuild_whose_read_models_another_rebuild_took_over_writes_nothing_more(
    service: Digsite, follower: Follower
) -> None:
    run_tournament(service, kind="ruins", players=3, games=1, seed="over")
    head = service.app.recorder.max_notification_id() or 0
    (share,) = dask_jobs.shares(dask_jobs._games(service.app, head), 10**6)
    dask_jobs._take_and_clear(follower.read_models, 1)
    dask_jobs._take_and_clear(follower.read_models, 2)  # a second rebuild starts while the first runs
    try:
        with pytest.raises(dask_jobs.Superseded):
            dask_jobs.project_share(share, settings=service.settings, head=head, run=1, skip=frozenset())
    finally:
        dask_jobs.release()
    with pytest.raises(dask_jobs.Superseded):
        dask_jobs._release(follower.read_models, head, 1)
    assert all(not rows for rows in snapshot(follower).values())
    assert follower.read_models.position() == dask_jobs.HELD + 2  # still the second run's


def test_a_failed_rebuild_holds_the_read_models_until_a_rebuild_succeeds(
    service: Digsite, follower: Follower, client: Any
) -> None:
    run_tournament(service, kind="ruins", players=3, games=2, seed="held")
    game_id, bad = bad_move(service)
    with pytest.raises(dask_jobs.ShareFailed) as caught:
        dask_jobs.rebuild(client, service.settings, batch_size=100)
    assert caught.value.where["notification_id"] == bad and caught.value.where["originator_id"] == game_id
    assert f"--skip {bad}" in str(caught.value)
    assert dask_jobs.held(follower.read_models.position())
    assert follower.step() == 0 and follower.behind() == 0  # a follower meanwhile writes nothing

    dask_jobs.rebuild(client, service.settings, batch_size=100, skip=frozenset({bad}))
    held = snapshot(follower)
    follower.skip = frozenset({bad})
    follower.rebuild()
    assert snapshot(follower) == held and follower.read_models.position() == bad


def test_a_value_the_store_refuses_is_named_and_skipped_as_told(
    service: Digsite, follower: Follower, client: Any
) -> None:
    """PostgreSQL text cannot hold NUL: the record holding one is named, as the follower names it."""
    run_tournament(service, kind="ruins", players=3, games=1, seed="nul")
    player = Player.create(name="A\x00na", kind="human", bot=None, at="2026-01-01T00:00:00+00:00")
    service.app.save(player)  # around the service, which refuses such a name
    bad = service.app.recorder.max_notification_id()
    with pytest.raises(dask_jobs.ShareFailed) as caught:
        dask_jobs.rebuild(client, service.settings, batch_size=100)
    assert caught.value.where["notification_id"] == bad and caught.value.where["originator_id"] == str(player.id)
    assert "NUL" in caught.value.reason and dask_jobs.held(follower.read_models.position())
    dask_jobs.rebuild(client, service.settings, batch_size=100, skip=frozenset({bad}))
    held = snapshot(follower)
    follower.skip = frozenset({bad})
    follower.rebuild()
    assert snapshot(follower) == held


def cli(database: Database, *args: str) -> Result:
    return CliRunner().invoke(main, list(args), env={"DIGSITE_DATABASE_URL": database.url})


def test_verify_on_workers_prints_what_the_single_process_verify_prints(service: Digsite, pg: Database) -> None:
    games = [finished_game(service, f"v{i}") for i in range(3)]
    play(service, new_game(service, "v-in-play"), moves=5)
    tampered = games[1]
    edit_row(pg, tampered, first_play(service, tampered), bump_rank)
    single = cli(pg, "verify", "--all")
    assert single.exit_code == 1 and f"FAIL game {tampered}: first bad record" in single.stdout
    split = cli(pg, "verify", "--all", "--workers", "2")
    assert split.exit_code == 1 and split.stdout == single.stdout
    assert cli(pg, "verify", "--all", "--json", "--workers", "2").stdout == cli(pg, "verify", "--all", "--json").stdout


def test_a_rebuild_on_local_workers_through_the_command(service: Digsite, pg: Database, follower: Follower) -> None:
    run_tournament(service, kind="ruins", players=3, games=2, seed="command")
    follower.rebuild()
    single = snapshot(follower)
    result = cli(pg, "projections", "rebuild", "--workers", "2", "--batch-size", "200")
    assert result.exit_code == 0, result.output
    assert f"rebuilt from {service.app.recorder.max_notification_id()} record(s)" in result.stdout
    assert snapshot(follower) == single


def one_error_line(result: Result, code: int, starts: str) -> None:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == code and len(lines) == 1, result.output
    assert lines[0].startswith(f"Error: {starts}"), lines


def test_a_bad_cluster_address_is_one_line(pg: Database) -> None:
    refused = cli(pg, "projections", "rebuild", "--cluster", "tcp://127.0.0.1:1")
    one_error_line(refused, 1, "cannot reach the Dask scheduler at tcp://127.0.0.1:1")
    one_error_line(cli(pg, "verify", "--all", "--cluster", "nonsense::"), 2, "cannot use the Dask scheduler address")
    one_error_line(cli(pg, "verify", "--all", "--cluster", "tcp://x:1", "--workers", "2"), 2, "give --cluster")


def test_the_options_need_postgresql(tmp_path: Any) -> None:
    db = Database.from_url(f"sqlite:///{tmp_path / 'digsite.sqlite'}")
    backends.upgrade(db)
    for args, code in ((["projections", "rebuild", "--workers", "2"], 1), (["verify", "--all", "--workers", "2"], 2)):
        one_error_line(cli(db, *args), code, "--cluster and --workers need a PostgreSQL store")


def test_a_rebuild_and_a_verify_on_a_scheduler_and_a_worker_started_by_hand(
    service: Digsite, pg: Database, follower: Follower, tmp_path: Any
) -> None:
    """`dask scheduler` and `dask worker ADDRESS` as docs/deploy.md starts them (here on loopback), then
    `--cluster ADDRESS`: the worker imports the tasks from the package installed beside it."""
    run_tournament(service, kind="ruins", players=3, games=2, seed="by-hand")
    follower.rebuild()
    single = snapshot(follower)
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "HOME": str(tmp_path)}
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    scheduler = Server([*dask, "--host", "127.0.0.1", "--port", "0", "--dashboard-address", "127.0.0.1:0"], env)
    worker = None
    try:
        address = scheduler.wait_for(r"Scheduler at:\s+(tcp://127\.0\.0\.1:\d+)").group(1)
        worker_cli = [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nworkers", "1"]
        worker = Server([*worker_cli, "--nthreads", "1", "--host", "127.0.0.1"], env)
        worker.wait_for(r"Registered to:")
        result = cli(pg, "projections", "rebuild", "--cluster", address, "--batch-size", "200")
        assert result.exit_code == 0, result.output
        assert f"rebuilding on {address}: 1 worker(s)" in result.stdout
        assert snapshot(follower) == single
        assert cli(pg, "verify", "--all", "--cluster", address).stdout == cli(pg, "verify", "--all").stdout
    finally:
        if worker is not None:
            worker.stop(signal.SIGTERM)
        scheduler.stop(signal.SIGTERM)


def test_analyse_on_the_cluster_stores_what_one_process_does(client: Any, service: Digsite, pg: Database) -> None:
    games = [finished_game(service, seed) for seed in ("judge-a", "judge-b")]
    result = CliRunner().invoke(
        main, ["analyse", "--all", "--budget", "8", "--cluster", client.scheduler.address],
        env={"DIGSITE_DATABASE_URL": pg.url},
    )  # fmt: skip
    assert result.exit_code == 0 and "judged 2 game(s)" in result.output, result.output
    on_the_cluster = stored_rows(pg)
    assert len(on_the_cluster[JUDGED_SEATS.name]) == 6  # two games of three seats
    for game_id in games:  # each game's rows replaced whole by the single process's
        stored.write(pg, judge_records(service.stored_records(game_id), 8))
    assert stored_rows(pg) == on_the_cluster
