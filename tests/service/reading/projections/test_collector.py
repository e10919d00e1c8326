"""The cyclic garbage collector is paused for a whole projection step and run between steps, within a budget."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from service.reading.projections.follower import Follower, _Collector


@pytest.fixture
def collector_enabled() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    try:
        yield
    finally:
        (gc.enable if was else gc.disable)()


def test_the_collector_is_off_during_a_step_and_back_on_after_it(
    service: Digsite, collector_enabled: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_tournament(service, kind="ruins", players=3, games=1, seed="gc")
    follower = Follower(service.settings, batch_size=25)
    seen: list[bool] = []
    try:
        real_select = follower.log.select
        real_write = follower.read_models.write

        def select(*args: Any, **kwargs: Any) -> Any:
            seen.append(gc.isenabled())
            return real_select(*args, **kwargs)

        def write(batch: Any) -> None:
            seen.append(gc.isenabled())
            real_write(batch)

        monkeypatch.setattr(follower.log, "select", select)
        monkeypatch.setattr(follower.read_models, "write", write)
        assert follower.step() == 25
        assert seen == [False, False]  # reading and writing, not only projecting
        assert gc.isenabled()
        monkeypatch.setattr(follower.read_models, "write", lambda batch: (_ for _ in ()).throw(RuntimeError("boom")))
        with pytest.raises(RuntimeError):
            follower.step()
        assert gc.isenabled()  # also after a failed batch
    finally:
        follower.close()


def test_a_full_collection_runs_between_steps_once_enough_step_time_has_passed(
    collector_enabled: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    collections: list[int] = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: collections.append(generation) or 0)
    collector = _Collector(share=0.5)
    with collector.paused():
        assert not gc.isenabled()
    assert collections == [2] and gc.isenabled()  # the first step: nothing known about the cost, so collect
    collector.cost = 10.0  # the last collection took 10 s: wait for 20 s of steps
    collector.worked = 0.0
    with collector.paused():
        pass
    assert collections == [2]
    collector.worked = 19.0
    with collector.paused():
        pass
    assert collections == [2]
    collector.worked = 20.0
    with collector.paused():
        pass
    assert collections == [2, 2] and collector.worked == 0.0


def test_a_collector_disabled_by_the_process_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    collections: list[int] = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: collections.append(generation) or 0)
    was = gc.isenabled()
    gc.disable()
    try:
        collector = _Collector()
        with collector.paused():
            pass
        assert not gc.isenabled() and collections == []
    finally:
        (gc.enable if was else gc.disable)()
