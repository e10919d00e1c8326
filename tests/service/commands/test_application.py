"""The service layer on both stores: create, play to the end, reload, read at a version."""

from __future__ import annotations

import random

import pytest

from domain import ruins
from domain.ruins.bots import RandomBot, Seen
from service.commands.application import Digsite, Viewer
from service.errors import Conflict
from service.settings import Settings


def play_out(service: Digsite, game_id: str, seed: int = 1) -> int:
    rng, bot, moves = random.Random(seed), RandomBot(), 0
    while (game := service.game(game_id))["status"] == "playing":
        seat = game["to_act"][0]
        seen = service.game(game_id, Viewer(seat))
        legal = [ruins.action_from_dict(a) for a in seen["legal_actions"]]
        action = bot.choose(Seen.from_view(seen["view"]), legal, rng)
        service.submit(game_id, Viewer(seat), seen["version"], ruins.action_to_dict(action))
        moves += 1
    return moves


def test_a_stored_game_plays_to_the_end_and_reloads_identically(service: Digsite) -> None:
    players = [service.create_player(name) for name in ("Ana", "Beto", "Carla")]
    created = service.create_game("ruins", players, seed="story")
    moves = play_out(service, created["id"])
    final = service.game(created["id"])
    assert final["status"] == "over" and final["version"] == moves + 2  # created + moves + seed revealed
    assert final["seed"] == "story"
    fresh = Digsite(Settings(database=service.settings.database))
    try:
        assert fresh.game(created["id"])["view"] == final["view"]
        # State at an early version comes back from the store (snapshot or not) as it was then.
        assert fresh.game(created["id"], version=2)["view"]["phase"] == "flip"
    finally:
        fresh.close()


def test_a_scripted_game_is_stored_in_one_go_and_verifies_like_a_played_one(service: Digsite) -> None:
    from domain.ruins.bots import HeuristicBot
    from domain.ruins.simulate import play_game
    from service.integrity.audit import verify

    names = ["Ana", "Beto", "Carla"]
    players = [service.create_player(name) for name in names]
    played = play_game(names, [HeuristicBot()] * 3, seed="scripted")
    game_id = service.store_scripted_game(
        "ruins", players, [ruins.action_to_dict(a) for a in played.actions], seed="scripted"
    )
    stored = service.game(game_id)
    assert stored["view"] == ruins.view(played.state)
    assert stored["version"] == len(played.actions) + 2
    assert verify(service, game_id).ok
    # The snapshots written along the way serve states at earlier versions.
    assert service.game(game_id, version=60)["view"]["round"] >= 1


def test_settings_the_store_could_not_read_back_are_refused(service: Digsite) -> None:
    """The store's transcoder reserves objects with '_'-keys for its own types: refuse them up front."""
    import pytest

    from service.errors import BadRequest

    with pytest.raises(BadRequest, match="may not start with '_'"):
        service.create_player("Bot", kind="bot", bot={"x": {"_type_": "nope", "_data_": 1}})
    players = [service.create_player(n) for n in ("Ana", "Beto")]
    with pytest.raises(BadRequest):
        service.create_game("ruins", players, labels={"table": {"_data_": 1}})
    assert service.player(players[0])["name"] == "Ana"


def test_a_version_further_back_than_a_choice_made_at_once_is_stale_without_reading_the_moves_since(
    service: Digsite, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = [service.create_player(name) for name in ("Ana", "Beto")]
    game = service.create_game("ruins", players, seed="far-back")["id"]
    for seat in (0, 1):  # both flip: the round's choices revealed, version 3
        service.submit(game, Viewer(seat), 1 + seat, {"type": "flip", "seat": seat, "ruin": None})
    store = service.app.repository.event_store
    reads: list[object] = []
    real = store.get
    monkeypatch.setattr(store, "get", lambda *a, **k: reads.append(a) or real(*a, **k))
    with pytest.raises(Conflict) as refused:
        service.submit(game, Viewer(1), 1, {"type": "flip", "seat": 1, "ruin": None})
    assert refused.value.code == "stale_version" and reads == []
    with pytest.raises(Conflict):  # one version back is within reach: the moves since are read (and it is stale)
        service.submit(game, Viewer(1), 2, {"type": "flip", "seat": 1, "ruin": None})
    assert reads
