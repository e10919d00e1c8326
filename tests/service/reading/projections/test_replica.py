"""The projections reading the log from a hot standby (DIGSITE_LOG_DATABASE_URL) and writing the read models to
the primary: the same rows as a follower reading the primary, incrementally as games land, polling the standby
(which refuses LISTEN) instead of listening. On a private primary and a streaming standby of this module's own
(tests/service/pgcluster.py), games played through the service on the primary."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from domain.games import GAMES
from service import bootstrap
from service.bots.simulation import run_tournament
from service.cli import main
from service.cluster import dask_jobs
from service.commands.application import Digsite
from service.reading.projections.follower import Follower, _Waiter
from service.reading.projections.tables import ReadModels
from service.settings import Database, Settings
from service.store import backends
from service.store.backends import StoreUnavailable
from tests.service.integrity.test_audit import new_game, play
from tests.service.pgcluster import Cluster, _free_port
from tests.service.reading.projections.test_follower import snapshot

pytestmark = pytest.mark.postgres

SCHEMA = "replica_test"
WAIT = 20.0  # seconds: the bound on waiting for a condition (each is met in well under one on a healthy run)


def wait_until(done: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not done():
        assert time.monotonic() < deadline, f"not within {WAIT} s: {what}"
        time.sleep(0.02)


@pytest.fixture(scope="module")
def dbs(pg_replica: tuple[Cluster, Cluster]) -> tuple[Database, Database]:
    """The store's schema on the primary, upgraded there (the standby gets it by replaying), and on the standby."""
    primary, standby = pg_replica
    on_primary = Database.from_url(f"{primary.url}?schema={SCHEMA}")
    backends.upgrade(on_primary)
    standby.replayed(primary)
    return on_primary, Database.from_url(f"{standby.url}?schema={SCHEMA}")


@pytest.fixture(scope="module")
def service(dbs: tuple[Database, Database]) -> Iterator[Digsite]:
    """The service on the primary: where games are played."""
    found = Digsite(Settings(database=dbs[0], api_key="organiser-key", secret_key="replica-test"))
    try:
        yield found
    finally:
        found.close()


def play_some(service: Digsite, seed: str) -> list[str]:
    """A small tournament of every registered game, and a game left in play (its next moves come later)."""
    for kind in GAMES:
        run_tournament(service, kind=kind, players=2, games=1, seed=seed)
    in_play = new_game(service, f"{seed}-in-play")
    play(service, in_play, moves=10)
    return [in_play]


def test_the_standby_really_is_one_and_refuses_a_write_through_the_service(
    pg_replica: tuple[Cluster, Cluster], dbs: tuple[Database, Database]
) -> None:
    on_standby = Digsite(Settings(database=dbs[1], secret_key="replica-test"))  # starts: checks the schema, reads
    try:
        assert on_standby.store_health().state == "read_only"
        with pytest.raises(StoreUnavailable) as refused:
            on_standby.create_player("nobody")
        assert refused.value.read_only
    finally:
        on_standby.close()


def test_a_follower_reading_the_standby_writes_the_rows_of_one_reading_the_primary_and_goes_on_as_games_land(
    pg_replica: tuple[Cluster, Cluster],
    dbs: tuple[Database, Database],
    service: Digsite,
    caplog: pytest.LogCaptureFixture,
) -> None:
    primary, standby = pg_replica
    on_primary, on_standby = dbs
    settings = Settings(database=on_primary, log_database=on_standby, secret_key="replica-test")
    in_play = play_some(service, "first")
    standby.replayed(primary)
    follower = bootstrap.follower(settings, batch_size=53)  # what `digsite projections run` builds
    probe = ReadModels(on_primary)
    stop = threading.Event()
    # Longer than any wait below: only polling the standby (no NOTIFY comes from it) finds new records in time.
    idle_wait = 3 * WAIT
    runner = threading.Thread(target=follower.run_forever, args=(stop,), kwargs={"idle_wait": idle_wait}, daemon=True)
    caplog.set_level(logging.WARNING, logger="digsite.projections")
    try:
        # The log is read from the standby: while it replays nothing, records on the primary are not seen.
        standby.pause_replay()
        try:
            replayed = follower.app.recorder.max_notification_id()
            play(service, in_play[0], moves=4, seed=3)
            assert service.app.recorder.max_notification_id() > replayed
            assert follower.catch_up() == replayed and probe.position() == replayed
        finally:
            standby.resume_replay()
        standby.replayed(primary)

        runner.start()
        head = service.app.recorder.max_notification_id()
        wait_until(lambda: probe.position() == head, f"the read models reach record {head}")
        assert len(snapshot(follower)["rm_games"]) == len(GAMES) + 1

        for game_id in in_play:  # games that land while it follows: one it projected in part, and new ones
            play(service, game_id, moves=8, seed=2)
        play_some(service, "second")
        standby.replayed(primary)
        head = service.app.recorder.max_notification_id()
        wait_until(lambda: probe.position() == head, f"the read models reach record {head}")
        stop.set()
        runner.join(timeout=WAIT)
        assert not runner.is_alive()
        assert not [r for r in caplog.records if r.name == "digsite.projections"], "a step failed (LISTEN?)"
        followed = snapshot(follower)
        assert len(followed["rm_games"]) == 2 * len(GAMES) + 2
    finally:
        stop.set()
        if runner.is_alive():
            runner.join(timeout=WAIT)
        probe.close()
        follower.close()

    on_the_primary = Follower(Settings(database=on_primary, secret_key="replica-test"), batch_size=53)
    try:
        on_the_primary.rebuild()
        assert snapshot(on_the_primary) == followed
    finally:
        on_the_primary.close()


def test_a_distributed_rebuild_reads_the_standby_to_its_head_and_the_follower_goes_on_from_there(
    pg_replica: tuple[Cluster, Cluster],
    dbs: tuple[Database, Database],
    service: Digsite,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    primary, standby = pg_replica
    on_primary, on_standby = dbs
    settings = Settings(database=on_primary, log_database=on_standby, secret_key="replica-test")
    play_some(service, "distributed")
    standby.replayed(primary)
    follower = bootstrap.follower(settings, batch_size=53)
    try:
        standby.pause_replay()
        try:
            head = follower.app.recorder.max_notification_id() or 0  # what the standby holds, and keeps
            play_some(service, "while-paused")
            assert (service.app.recorder.max_notification_id() or 0) > head
            with dask_jobs.engine(None, 1) as client:
                assert dask_jobs.rebuild(client, settings, batch_size=150) == head
            assert follower.read_models.position() == head  # the standby's head, not the primary's
            # A worker whose replica does not reach the head stops rather than read a log missing records.
            monkeypatch.setattr(dask_jobs, "REPLICA_WAIT_SECONDS", 0.2)
            with pytest.raises(RuntimeError, match=f"holds records up to {head}, not the rebuild's head {head + 1}"):
                dask_jobs._replayed_to(follower.app, head + 1)
        finally:
            standby.resume_replay()
        standby.replayed(primary)
        assert follower.catch_up() == (service.app.recorder.max_notification_id() or 0) - head
        continued = snapshot(follower)
    finally:
        follower.close()
    on_the_primary = Follower(Settings(database=on_primary, secret_key="replica-test"), batch_size=53)
    try:
        on_the_primary.rebuild()
        assert snapshot(on_the_primary) == continued
    finally:
        on_the_primary.close()


def test_the_follower_polls_a_standby_and_listens_to_a_primary(dbs: tuple[Database, Database]) -> None:
    on_primary, on_standby = dbs
    stop = threading.Event()
    for log_database, polls in ((on_standby, True), (None, False)):
        follower = bootstrap.follower(Settings(database=on_primary, log_database=log_database, secret_key="x"))
        waiter = _Waiter(follower)
        try:
            waiter.wait(stop, 0.01)
            assert waiter.polling is polls
            assert (waiter.conn is None) is polls  # a LISTEN connection only where LISTEN is served
        finally:
            waiter.close()
            follower.close()


def test_projections_run_follows_the_standby_into_the_primary_until_stopped(
    pg_replica: tuple[Cluster, Cluster], dbs: tuple[Database, Database], service: Digsite
) -> None:
    primary, standby = pg_replica
    on_primary, on_standby = dbs
    env = {**os.environ, "DIGSITE_DATABASE_URL": on_primary.url, "DIGSITE_LOG_DATABASE_URL": on_standby.url}
    env["DIGSITE_SECRET_KEY"] = "replica-test"
    in_play = play_some(service, "cli")
    probe = ReadModels(on_primary)
    command = [sys.executable, "-m", "service.cli", "projections", "run"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        standby.replayed(primary)
        head = service.app.recorder.max_notification_id()
        wait_until(lambda: probe.position() == head, f"the read models reach record {head} (there at start)")
        play(service, in_play[0], moves=3, seed=5)  # moves made while it follows
        standby.replayed(primary)
        later = service.app.recorder.max_notification_id()
        wait_until(lambda: probe.position() == later, f"the read models reach record {later} (made later)")
    finally:
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=WAIT)
        probe.close()
    assert process.returncode == 0, output
    assert f"following the log of {on_standby.display()} into {on_primary.display()}" in output
    assert "projections: stopped" in output
    assert "failed" not in output  # no step failed (a LISTEN on the standby would)


def run_cli(env: dict[str, str], *args: str) -> Any:
    return CliRunner().invoke(main, list(args), env=env)


def test_an_unusable_log_url_is_one_line(dbs: tuple[Database, Database], pg_replica: tuple[Cluster, Cluster]) -> None:
    on_primary, on_standby = dbs
    env = {"DIGSITE_DATABASE_URL": on_primary.url}
    unreachable = on_standby.url.replace(f":{pg_replica[1].port}/", f":{_free_port()}/")  # nothing listens there
    for log_url, says in (
        (unreachable, "the log's database (DIGSITE_LOG_DATABASE_URL): cannot reach the database"),
        ("sqlite:///elsewhere.sqlite", "is for PostgreSQL stores only"),
        (f"{pg_replica[1].url}?schema=other", "give the replica's URL the same ?schema=replica_test"),
        (f"{pg_replica[1].url.rsplit('/', 1)[0]}/nothing?schema={SCHEMA}", "there is no database nothing"),
    ):
        done = run_cli({**env, "DIGSITE_LOG_DATABASE_URL": log_url}, "projections", "status")
        assert done.exit_code == 1, done.output
        (line,) = done.output.strip().splitlines()
        assert line.startswith("Error: ") and says in line, line
    done = run_cli({**env, "DIGSITE_LOG_DATABASE_URL": on_standby.url}, "projections", "status")
    assert done.exit_code == 0, done.output
    assert "record(s) behind" in done.output
