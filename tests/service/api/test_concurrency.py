"""Two moves on the same version at the same moment: of one seat's (two devices), exactly one lands, the other gets
409, and the game's stream grows by exactly one record; two seats' secret choices made at once (the night flip)
both land, one after the other. Run within one process (one service) and across two (two services on the same
store, as two gunicorn workers would be)."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from domain import ruins
from domain.ruins.bots import RandomBot, Seen
from service.api import create_app
from service.commands.application import Digsite
from service.settings import Settings
from tests.service.api.support import ORGANISER_KEY, act, look, new_game, ok, organiser, seat_headers, strong_seed

RUNS = 5
TIMEOUT = 30  # seconds; only a hang would reach it
MOVES_WHILE_READING = 60


@pytest.fixture(params=["one service", "two services"])
def apps(request: pytest.FixtureRequest, app: Flask, service: Digsite) -> Iterator[tuple[Flask, Flask]]:
    if request.param == "one service":
        yield app, app
        return
    other = Digsite(Settings(database=service.settings.database, api_key=ORGANISER_KEY))
    try:
        yield app, create_app(service=other)
    finally:
        other.close()


def flip_at_once(apps: tuple[Flask, Flask], created: dict[str, Any], seats: tuple[int, int]) -> list[Any]:
    """``seats[i]`` flips (no ruin) through ``apps[i]``, both on the game's first version, at once."""
    barrier = threading.Barrier(len(apps), timeout=TIMEOUT)
    answers: list[Any] = [None] * len(apps)

    def flip(i: int) -> None:
        client = apps[i].test_client()
        barrier.wait()
        answers[i] = client.post(
            f"/api/v1/games/{created['id']}/actions",
            json={"version": created["version"], "action": {"type": "flip", "seat": seats[i], "ruin": None}},
            headers=seat_headers(created, seats[i]),
        )

    threads = [threading.Thread(target=flip, args=(i,)) for i in range(len(apps))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
        assert not thread.is_alive()
    return answers


def test_two_moves_of_one_seat_on_one_version_land_exactly_once(apps: tuple[Flask, Flask], service: Digsite) -> None:
    """The same seat from two devices (or a move sent again when its answer was lost): one lands, never both."""
    for _ in range(RUNS):
        created = new_game(apps[0].test_client(), players=3)
        before = service.stored_records(created["id"])
        answers = flip_at_once(apps, created, (0, 0))
        statuses = sorted(answer.status_code for answer in answers)
        assert statuses == [200, 409], [a.get_json() for a in answers]
        (loser,) = [answer for answer in answers if answer.status_code == 409]
        assert loser.get_json()["error"]["code"] in {"stale_version", "conflict"}
        after = service.stored_records(created["id"])
        assert after[: len(before)] == before and len(after) == len(before) + 1
        assert after[-1]["body"]["seat"] == 0


def test_two_seats_secret_choices_made_at_once_both_land(apps: tuple[Flask, Flask], service: Digsite) -> None:
    """Two seats choose their night flip on the same version at once: each choice is secret and changes nothing
    the other could see or choose, so neither is stale; both land, one version after the other."""
    for _ in range(RUNS):
        created = new_game(apps[0].test_client(), players=3)
        before = service.stored_records(created["id"])
        answers = flip_at_once(apps, created, (0, 1))
        assert [a.status_code for a in answers] == [200, 200], [a.get_json() for a in answers]
        assert sorted(a.get_json()["version"] for a in answers) == [created["version"] + 1, created["version"] + 2]
        after = service.stored_records(created["id"])
        assert after[: len(before)] == before and len(after) == len(before) + 2
        assert sorted(r["body"]["seat"] for r in after[-2:]) == [0, 1]


def test_a_worker_reads_the_moves_another_worker_recorded(service: Digsite) -> None:
    """Two workers (two services on one store), each caching live games: reads are never stale."""
    other = Digsite(Settings(database=service.settings.database, api_key=ORGANISER_KEY))
    try:
        first, second = create_app(service=service).test_client(), create_app(service=other).test_client()
        created = new_game(first, players=2)
        assert look(second, created["id"], seat_headers(created, 1))["version"] == 1  # now cached by the second
        ok(act(first, created["id"], seat_headers(created, 0), 1, {"type": "flip", "seat": 0, "ruin": None}))
        seen = look(second, created["id"], seat_headers(created, 1))
        assert seen["version"] == seen["latest_version"] == 2 and {"seat": 0, "chosen": True} in seen["view"]["flips"]
        assert ok(act(second, created["id"], seat_headers(created, 1), 2, {"type": "flip", "seat": 1, "ruin": None}))
        assert look(first, created["id"], organiser())["view"]["phase"] == "play"
    finally:
        other.close()


def test_reads_during_moves_are_whole_and_never_go_back(app: Flask, service: Digsite) -> None:
    """Seats and the organiser polling a game while it is played: every answer is 200 and shows the game
    exactly as it was stored at the version it names, and a reader never sees the version go back."""
    created = new_game(app.test_client(), players=2, seed=strong_seed("busy"))
    done = threading.Event()
    seen: list[tuple[int, dict[str, Any]]] = []
    failures: list[Any] = []

    def read() -> None:
        client, last = app.test_client(), 0
        while not done.is_set():
            answer = client.get(f"/api/v1/games/{created['id']}", headers=organiser())
            if answer.status_code != 200 or answer.get_json()["version"] < last:
                failures.append((answer.status_code, answer.get_json()))
                return
            last = answer.get_json()["version"]
            seen.append((last, answer.get_json()["view"]))

    readers = [threading.Thread(target=read) for _ in range(2)]
    for reader in readers:
        reader.start()
    try:
        client, rng, bot = app.test_client(), random.Random(3), RandomBot()
        for _ in range(MOVES_WHILE_READING):
            game = look(client, created["id"], organiser())
            if game["status"] == "over":
                break
            seat = game["to_act"][0]
            mine = look(client, created["id"], seat_headers(created, seat))
            legal = [ruins.action_from_dict(a) for a in mine["legal_actions"]]
            choice = ruins.action_to_dict(bot.choose(Seen.from_view(mine["view"]), legal, rng))
            ok(act(client, created["id"], seat_headers(created, seat), mine["version"], choice))
    finally:
        done.set()
        for reader in readers:
            reader.join(TIMEOUT)
    assert not failures and seen
    for version, view in seen[:: max(1, len(seen) // 50)]:
        assert view == service.game(created["id"], version=version)["view"]
