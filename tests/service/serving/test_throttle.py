"""The throttle of wrong secrets on its own, on a clock the test moves (``service.serving.throttle``)."""

from __future__ import annotations

import pytest
from limits.storage import MemoryStorage

from service.serving.failure_memory import BoundedMemoryStorage
from service.serving.throttle import (
    ORGANISER_KEY,
    SEAT_TOKEN,
    Throttle,
    Throttled,
    storage_from_uri,
    storage_uri,
    trusted_proxies,
)

HERE, THERE = "203.0.113.7", "198.51.100.9"
GAME, OTHER, THIRD = "game-a", "game-b", "game-c"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_an_address_is_refused_after_its_failures_until_the_oldest_ages_out() -> None:
    clock = Clock()
    throttle = Throttle(failures=3, window=60, timer=clock)
    for step in range(3):
        throttle.check(ORGANISER_KEY, HERE)  # open: nothing raised
        throttle.failed(ORGANISER_KEY, HERE)
        clock.now += 10 if step < 2 else 0
    with pytest.raises(Throttled) as shut:
        throttle.check(ORGANISER_KEY, HERE)
    assert (shut.value.status, shut.value.code, shut.value.retry_after) == (429, "too_many_wrong_keys", 40)
    assert "wait 40 s" in shut.value.message
    throttle.check(ORGANISER_KEY, THERE)  # another address is not concerned
    clock.now += 39.5
    assert throttle.wait(ORGANISER_KEY, HERE) == pytest.approx(0.5)
    clock.now += 0.5  # the first failure is a minute old: one more try
    throttle.check(ORGANISER_KEY, HERE)
    throttle.failed(ORGANISER_KEY, HERE)
    assert throttle.wait(ORGANISER_KEY, HERE) == pytest.approx(10)  # until the second is a minute old


def test_the_kinds_of_secret_are_counted_apart() -> None:
    clock = Clock()
    throttle = Throttle(failures=2, window=60, timer=clock)
    for _ in range(2):
        throttle.failed(SEAT_TOKEN, HERE, GAME)
    assert throttle.wait(SEAT_TOKEN, HERE, GAME) > 0
    assert throttle.wait(ORGANISER_KEY, HERE) == 0  # wrong seat tokens never shut the organiser's door
    assert throttle.wait(SEAT_TOKEN, HERE, OTHER) == 0  # nor another game's
    throttle.failed(ORGANISER_KEY, HERE)
    throttle.failed(ORGANISER_KEY, HERE)
    assert throttle.wait(ORGANISER_KEY, HERE) > 0
    assert throttle.wait(SEAT_TOKEN, HERE, THIRD) == 0  # nor wrong organiser keys a game's


def test_seat_tokens_meet_a_ceiling_across_games() -> None:
    throttle = Throttle(failures=2, window=60, across_games=3, timer=Clock())
    throttle.failed(SEAT_TOKEN, HERE, GAME)
    throttle.failed(SEAT_TOKEN, HERE, OTHER)
    throttle.check(SEAT_TOKEN, HERE, THIRD)
    throttle.failed(SEAT_TOKEN, HERE, THIRD)  # the third failure, each in another game
    with pytest.raises(Throttled) as shut:
        throttle.check(SEAT_TOKEN, HERE, "game-d")
    assert shut.value.code == "too_many_wrong_tokens" and not shut.value.per_game
    assert "for this game" not in shut.value.message
    throttle.check(SEAT_TOKEN, THERE, "game-d")
    throttle.check(ORGANISER_KEY, HERE)


def test_a_shut_game_says_so() -> None:
    throttle = Throttle(failures=1, window=60, timer=Clock())
    throttle.failed(SEAT_TOKEN, HERE, GAME)
    with pytest.raises(Throttled) as shut:
        throttle.check(SEAT_TOKEN, HERE, GAME)
    assert shut.value.per_game and "for this game from your address: wait 60 s" in shut.value.message


def test_counts_age_out_of_memory_and_memory_is_bounded() -> None:
    clock = Clock()
    throttle = Throttle(failures=1, window=60, timer=clock, size=100)
    for n in range(1000):
        throttle.failed(ORGANISER_KEY, f"10.0.{n // 256}.{n % 256}")
    assert len(throttle.storage) <= 100
    assert throttle.wait(ORGANISER_KEY, "10.0.3.231") > 0  # the latest are kept
    clock.now += 61
    throttle.failed(ORGANISER_KEY, HERE)  # (a write expires what has aged out)
    assert len(throttle.storage) == 1


def test_impossible_limits_are_refused() -> None:
    with pytest.raises(ValueError):
        Throttle(failures=0)
    with pytest.raises(ValueError):
        Throttle(failures=5, across_games=4)
    with pytest.raises(ValueError):
        Throttle().wait(SEAT_TOKEN, HERE)  # a seat token is tried on a game


def test_behind_trusted_proxies_the_client_they_name_is_counted() -> None:
    plain, proxied, twice = Throttle(), Throttle(proxies=1), Throttle(proxies=2)
    assert plain.who("10.0.0.1", "203.0.113.7") == "10.0.0.1"  # no proxy trusted: anyone may write the header
    assert proxied.who("10.0.0.1", "203.0.113.7") == "203.0.113.7"
    assert proxied.who("10.0.0.1", "1.2.3.4, 203.0.113.7") == "203.0.113.7"  # what the client wrote is ignored
    assert twice.who("10.0.0.1", "1.2.3.4, 203.0.113.7, 10.0.0.2") == "203.0.113.7"
    assert twice.who("10.0.0.1", "203.0.113.7") == "10.0.0.1"  # not through both proxies: the peer
    assert proxied.who("10.0.0.1", None) == "10.0.0.1" and proxied.who(None, None) == "?"


def test_the_number_of_trusted_proxies_is_read_strictly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DIGSITE_TRUSTED_PROXIES", raising=False)
    assert trusted_proxies() == 0
    monkeypatch.setenv("DIGSITE_TRUSTED_PROXIES", "2")
    assert trusted_proxies() == 2
    for wrong in ("-1", "one", "1.5", "99"):
        monkeypatch.setenv("DIGSITE_TRUSTED_PROXIES", wrong)
        with pytest.raises(ValueError, match="DIGSITE_TRUSTED_PROXIES"):
            trusted_proxies()


def test_the_memory_counts_no_more_than_its_limit_and_ages_out() -> None:
    clock = Clock()
    memory = BoundedMemoryStorage(size=10, timer=clock)
    assert [memory.acquire_entry("k", 2, 60) for _ in range(3)] == [True, True, False]  # full: not counted
    clock.now += 10
    assert memory.get_moving_window("k", 2, 60) == (1000.0, 2)  # (the oldest's time, how many)
    clock.now += 50  # the first two are a minute old
    assert memory.get_moving_window("k", 2, 60) == (1060.0, 0)
    assert memory.acquire_entry("k", 2, 60)


def test_the_counts_may_live_in_another_limits_storage(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DIGSITE_THROTTLE_STORAGE", raising=False)
    assert storage_uri() == "" and storage_from_uri("") is None  # this process's bounded memory
    monkeypatch.setenv("DIGSITE_THROTTLE_STORAGE", " memory:// ")
    storage = storage_from_uri(storage_uri())
    assert isinstance(storage, MemoryStorage)  # `limits`' own (a redis:// URI is read the same way)
    throttle = Throttle(failures=1, window=60, storage=storage)
    throttle.failed(SEAT_TOKEN, HERE, GAME)
    with pytest.raises(Throttled) as shut:
        throttle.check(SEAT_TOKEN, HERE, GAME)
    assert 59 <= shut.value.retry_after <= 60  # on the wall clock, as `limits`' storages count
    throttle.check(SEAT_TOKEN, HERE, OTHER)
    for wrong in ("nonsense://x", "async+memory://"):
        with pytest.raises(ValueError, match="DIGSITE_THROTTLE_STORAGE"):
            storage_from_uri(wrong)
    with pytest.raises(ValueError, match="whole seconds"):
        Throttle(window=0.5)
