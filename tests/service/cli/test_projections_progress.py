"""``digsite projections run`` reports progress as a periodic summary (records/s, position, lag), not a line per
batch, and says nothing while the store is idle."""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path
from types import SimpleNamespace

from service.bots.simulation import run_tournament
from service.cli.progress import ProgressReporter
from service.commands.application import Digsite
from service.settings import Database
from tests.service.api.test_serve import Server


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def fake_follower(head: int) -> SimpleNamespace:
    recorder = SimpleNamespace(max_notification_id=lambda: head)
    return SimpleNamespace(written=None, app=SimpleNamespace(recorder=recorder))


def test_a_period_of_batches_is_one_line_with_rate_position_and_lag() -> None:
    clock, said = Clock(), []
    follower = fake_follower(head=1000)
    progress = ProgressReporter(follower, 0, every=10, say=said.append, clock=clock)
    for position in range(1, 401):  # 400 batches of one record, as when following live
        follower.written = position
        progress.add(1)
    clock.now += 10
    line = progress.report()
    assert said == [line]
    assert line == "projections: 400 record(s) in 10.0 s (40/s); at position 400, 600 behind"


def test_an_idle_period_says_nothing_and_caught_up_is_said_once() -> None:
    clock, said = Clock(), []
    follower = fake_follower(head=5)
    progress = ProgressReporter(follower, 0, every=10, say=said.append, clock=clock)
    follower.written = 5
    progress.add(5)
    clock.now += 2
    assert progress.report() == "projections: 5 record(s) in 2.0 s (2/s); at position 5, caught up"
    for _ in range(3):  # nothing projected since
        clock.now += 10
        assert progress.report() is None
    assert len(said) == 1


def test_the_store_head_is_read_at_most_once_a_period() -> None:
    clock, reads = Clock(), []
    follower = fake_follower(head=0)
    follower.app.recorder.max_notification_id = lambda: reads.append(clock.now) or 50
    progress = ProgressReporter(follower, 0, every=10, say=lambda _: None, clock=clock)
    for n in range(1, 31):
        follower.written = n
        progress.add(1)
        clock.now += 1
    assert reads == [100.0, 110.0, 120.0]


def test_projections_run_prints_a_summary_not_a_line_per_batch(
    service: Digsite, database: Database, tmp_path: Path
) -> None:
    tournament = run_tournament(service, kind="ruins", players=2, games=2, seed="progress")
    records = service.app.recorder.max_notification_id() or 0
    assert records > 50 and tournament.moves > 20
    env = {**os.environ, "DIGSITE_DATABASE_URL": database.url, "DIGSITE_HOME": str(tmp_path), "PYTHONUNBUFFERED": "1"}
    argv = [sys.executable, "-c", "from service.cli import main; main()", "projections", "run"]
    server = Server([*argv, "--batch-size", "1", "--progress-every", "0.5"], env)
    try:
        server.wait_for(rf"from position 0, {records} record\(s\) behind")
        server.wait_for(rf"at position {records}, caught up")
    finally:
        assert server.stop(signal.SIGTERM) == 0
    while not server.lines.empty():  # the lines after the last one waited for
        server.seen.append(server.lines.get())
    output = "".join(server.seen)
    assert "projections: stopped" in output
    assert not re.search(r"projected \d+ record\(s\)", output)
    summaries = [line for line in server.seen if line.startswith("projections: ") and "record(s) in" in line]
    assert 1 <= len(summaries) < records // 10  # a line per batch would be one per record
    assert sum(int(line.split()[1]) for line in summaries) == records
