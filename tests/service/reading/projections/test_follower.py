"""Projections: exactly once, restartable, rebuildable, and the analytics they compute are right."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from typing import Any

import pytest
from eventsourcing.persistence import IntegrityError

from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from service.reading.projections.follower import Follower, UnprojectableRecord
from service.reading.projections.tables import TABLES
from service.reading.read_port import ReadPort
from service.settings import Database, Settings


def snapshot(follower: Follower) -> dict[str, list[tuple[Any, ...]]]:
    """Every read-model row, sorted, for comparing two projections of the same log."""
    view = follower.read_models
    out = {}
    with view.tracker.datastore.transaction(commit=False) as curs:
        for table in TABLES:
            curs.execute(view._q(f"SELECT * FROM {{p}}{table}"))
            rows = [tuple(r.values()) if isinstance(r, dict) else tuple(r) for r in curs.fetchall()]
            out[table] = sorted(rows, key=repr)
    return out


def test_a_follower_projects_every_record_once_and_a_rebuild_gives_the_same_rows(service: Digsite) -> None:
    run_tournament(service, kind="ruins", players=3, games=3, seed="once")
    follower = Follower(service.settings, batch_size=37)
    try:
        projected = follower.catch_up()
        assert projected == follower.app.recorder.max_notification_id()
        assert follower.step() == 0  # caught up: nothing is projected twice
        first = snapshot(follower)
        assert len(first["rm_games"]) == 3
        assert sum(row[0] is not None for row in first["rm_moves"]) > 100
        assert follower.rebuild() == projected
        assert snapshot(follower) == first
    finally:
        follower.close()


def test_a_stale_follower_cannot_apply_a_batch_twice(service: Digsite) -> None:
    run_tournament(service, kind="ruins", players=3, games=1, seed="stale")
    first, second = Follower(service.settings, batch_size=50), Follower(service.settings, batch_size=50)
    try:
        second.position()  # both start from position 0
        first.catch_up()
        before = snapshot(first)
        with pytest.raises(IntegrityError):  # the tracking row refuses an old position
            second.step()
        assert snapshot(first) == before
    finally:
        first.close()
        second.close()


def test_a_failed_batch_writes_nothing_and_is_read_again(service: Digsite, monkeypatch: pytest.MonkeyPatch) -> None:
    run_tournament(service, kind="ruins", players=3, games=2, seed="fail")
    follower = Follower(service.settings, batch_size=40)
    try:
        follower.step()
        good = follower.position()
        real_insert = follower.read_models.tracker._insert_tracking

        def crash(*args: Any, **kwargs: Any) -> None:
            raise RuntimeError("power cut before commit")

        monkeypatch.setattr(follower.read_models.tracker, "_insert_tracking", crash)
        rows_before = snapshot(follower)
        with pytest.raises(RuntimeError):
            follower.step()
        assert snapshot(follower) == rows_before and follower.read_models.position() == good
        monkeypatch.setattr(follower.read_models.tracker, "_insert_tracking", real_insert)
        follower.catch_up()
        caught_up = snapshot(follower)
        follower.rebuild()
        assert snapshot(follower) == caught_up
    finally:
        follower.close()


def test_a_record_that_fails_to_project_is_named_and_the_records_before_it_are_written_whole(
    service: Digsite, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_tournament(service, kind="ruins", players=3, games=2, seed="half")
    follower = Follower(service.settings, batch_size=60)
    try:
        follower.step()
        real_move, real_facts = follower.projection._move, follower.projection._facts
        failing: list[Any] = []

        def fail_halfway(batch: Any, tables: Any, game_id: str, version: int, rows: Any) -> None:
            rows = list(rows)
            won = any(name == "games" and values[3] is not None for name, values in rows)  # Ruins' win_how
            if not failing and won:  # the first game's last move: its move row is made, its facts not
                failing.append((game_id, version))
                raise RuntimeError("a bug in the rules code")
            real_facts(batch, tables, game_id, version, rows)

        monkeypatch.setattr(follower.projection, "_facts", fail_halfway)
        with pytest.raises(UnprojectableRecord) as caught:
            follower.catch_up()
        [(game_id, version)] = failing
        error = caught.value
        assert (error.originator_id, error.version) == (game_id, version) and error.topic.endswith("MoveRecorded")
        assert "RuntimeError: a bug in the rules code" in str(error) and f"--skip {error.notification_id}" in str(error)
        assert follower.read_models.position() == error.position == error.notification_id - 1  # all before it, whole
        moves = {row[:2] for row in snapshot(follower)["rm_moves"]}
        assert (game_id, version - 1) in moves and (game_id, version) not in moves  # nothing of the bad one
        monkeypatch.setattr(follower.projection, "_facts", real_facts)
        assert follower.projection._move == real_move
        follower.catch_up()  # the code is fixed: the follower goes on from the bad record
        caught_up = snapshot(follower)
        follower.rebuild()
        assert snapshot(follower) == caught_up
    finally:
        follower.close()


def _setting(curs: Any, sqlite: bool) -> Any:
    curs.execute("PRAGMA synchronous" if sqlite else "SHOW synchronous_commit")
    row = curs.fetchone()
    return next(iter(row.values())) if isinstance(row, dict) else row[0]


def test_read_model_commits_do_not_wait_for_the_disk_but_the_event_store_s_do(service: Digsite) -> None:
    """Read models and their position are lost or kept together, so only the event store waits for the disk."""
    sqlite = service.settings.database.backend == "sqlite"
    follower = Follower(service.settings)
    try:
        with follower.read_models._transaction() as curs:
            assert _setting(curs, sqlite) == (1 if sqlite else "off")  # NORMAL: no sync at commit
        with follower.app.recorder.datastore.transaction(commit=False) as curs:  # type: ignore[attr-defined]
            assert _setting(curs, sqlite) == (2 if sqlite else "on")  # FULL
    finally:
        follower.close()


def test_a_rebuild_leaves_the_planner_statistics_of_the_full_tables(service: Digsite) -> None:
    run_tournament(service, kind="ruins", players=3, games=1, seed="stats")
    follower = Follower(service.settings)
    try:
        follower.rebuild()
        db = service.settings.database
        with follower.read_models.tracker.datastore.transaction(commit=False) as curs:
            if db.backend == "sqlite":
                curs.execute("SELECT stat FROM sqlite_stat1 WHERE tbl = 'rm_moves' AND idx IS NOT NULL")
                rows = int(curs.fetchone()[0].split()[0])  # "rows per-column..." for the primary key's index
            else:
                curs.execute(
                    "SELECT n_live_tup, last_vacuum IS NOT NULL AS vacuumed FROM pg_stat_user_tables "
                    "WHERE schemaname = %s AND relname = 'rm_moves'",
                    (db.schema,),
                )
                row = curs.fetchone()
                rows, vacuumed = (row["n_live_tup"], row["vacuumed"]) if isinstance(row, dict) else row
                assert vacuumed
        moves = len(snapshot(follower)["rm_moves"])
        assert moves > 50 and rows == moves
    finally:
        follower.close()


def _wait_for(condition: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


@pytest.mark.slow
def test_killing_the_projection_process_mid_catch_up_then_restarting_equals_a_fresh_rebuild(
    service: Digsite, database: Database
) -> None:
    run_tournament(service, kind="ruins", players=4, games=4, seed="kill")
    total = service.app.recorder.max_notification_id()
    env = {**os.environ, "DIGSITE_DATABASE_URL": database.url}
    command = [sys.executable, "-m", "service.cli", "projections", "run", "--batch-size", "5"]
    watcher = Follower(Settings(database=database))
    try:
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait_for(lambda: watcher.read_models.position() > 0, 60, "the first batches")
            os.kill(process.pid, signal.SIGKILL)  # no chance to finish a batch cleanly
            process.wait(10)
        finally:
            if process.poll() is None:
                process.kill()
        stopped_at = watcher.read_models.position()
        assert 0 < stopped_at < total, "the kill should land mid-catch-up"
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait_for(lambda: watcher.read_models.position() == total, 120, "the restarted process to catch up")
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(20)
        restarted = snapshot(watcher)
        watcher.rebuild()
        assert snapshot(watcher) == restarted
    finally:
        watcher.close()


@pytest.mark.slow
def test_tendencies_tell_a_cautious_passer_and_a_torch_hoarder_from_the_field(service: Digsite) -> None:
    """Cautious Cora passes 60% of the time she could follow; Hoarding Hugo never spends a torch."""
    tournament = run_tournament(service, kind="ruins", players=4, games=12, seed="styles", pool=8)
    follower = Follower(service.settings)
    queries = ReadPort.over(service.reader)
    try:
        follower.catch_up()
        ids = {p["name"]: p["id"] for p in tournament.pool}
        cora = queries.analytics.tendencies("ruins", ids["Cautious Cora"])["metrics"]
        hugo = queries.analytics.tendencies("ruins", ids["Hoarding Hugo"])["metrics"]
        others = [
            queries.analytics.tendencies("ruins", ids[n])["metrics"]
            for n in ("Spending Sofia", "Big Bruno", "High Hana")
        ]
        assert cora["pass_rate_when_able"]["n"] > 30
        assert cora["pass_rate_when_able"]["value"] > 0.45
        assert all(o["pass_rate_when_able"]["value"] < 0.3 for o in others)
        assert hugo["torches_per_round"]["value"] == 0 and hugo["torches_per_round"]["n"] > 0
        assert all(o["torches_per_round"]["value"] > 0.5 for o in others)
        field = queries.analytics.tendencies("ruins")
        assert field["games"] == sum(
            t["games"] for t in (queries.analytics.tendencies("ruins", i) for i in ids.values())
        )
    finally:
        follower.close()
        queries.close()


def test_game_contexts_rebuilt_from_the_store_give_the_same_rows_as_contexts_kept_in_memory(service: Digsite) -> None:
    """With no room for game contexts, every move rebuilds its game from the store (snapshot + evolve)."""
    run_tournament(service, kind="ruins", players=4, games=2, seed="contexts")
    follower = Follower(service.settings, batch_size=64)
    try:
        follower.catch_up()
        kept = snapshot(follower)
        follower.read_models.clear()
        follower.projection.forget()
        follower.projection.cache_size = 0
        follower._position = None
        follower.catch_up()
        assert snapshot(follower) == kept
    finally:
        follower.close()
