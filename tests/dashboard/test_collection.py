"""``dashboard.collection.paused``: no cyclic collection while any of the server's threads draws a replay's frames, the
collector as it was once the last drawing ends (even one that failed), never turned on where it was off."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from dashboard import collection


@pytest.fixture(autouse=True)
def _collector_restored() -> Iterator[None]:
    was = gc.isenabled()
    yield
    if was:
        gc.enable()


def test_the_collector_resumes_only_when_the_last_drawing_ends() -> None:
    gc.enable()
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, bool] = {}

    def second() -> None:
        first_in.wait(10)
        with collection.paused():
            second_in.set()
            first_out.wait(10)
            seen["after the first ended"] = gc.isenabled()

    other = threading.Thread(target=second)
    other.start()
    with collection.paused():
        seen["within"] = gc.isenabled()
        first_in.set()
        second_in.wait(10)
    first_out.set()
    other.join(10)
    assert seen == {"within": False, "after the first ended": False}
    assert gc.isenabled()


def test_a_failed_drawing_resumes_it_and_a_collector_turned_off_stays_off() -> None:
    gc.enable()
    with pytest.raises(ValueError), collection.paused():
        raise ValueError("a drawing that failed")
    assert gc.isenabled()
    gc.disable()
    with collection.paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_drawings_that_overlap_without_a_break_still_collect_now_and_then(monkeypatch: pytest.MonkeyPatch) -> None:
    gc.enable()
    now = [100.0]
    collected: list[float] = []
    monkeypatch.setattr(collection, "_clock", lambda: now[0])
    monkeypatch.setattr(gc, "collect", lambda *args: collected.append(now[0]) or 0)
    with collection.paused():  # a drawing that lasts while others come and go
        with collection.paused():
            now[0] += collection.LONGEST_PAUSE_SECONDS / 2
        assert collected == []  # (not overdue yet)
        with collection.paused():
            now[0] += collection.LONGEST_PAUSE_SECONDS
        assert collected == [now[0]] and not gc.isenabled()  # overdue: collected, still paused
        with collection.paused():
            now[0] += 1.0
        assert collected == [now[0] - 1.0]  # (the pause counted afresh from the collection)
    assert gc.isenabled()
