"""A seat sees only what its seat may see, in views and in logs; an organiser sees everything."""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient

from tests.service.api.support import act, look, new_game, ok, organiser, seat_headers, strong_seed

SEED = strong_seed("hidden-seed-7c1e")


def log(client: FlaskClient, game_id: str, headers: dict[str, str]) -> list[dict[str, Any]]:
    return ok(client.get(f"/api/v1/games/{game_id}/log", headers=headers))["records"]  # type: ignore[no-any-return]


def events(records: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    found = [e for r in records if r["type"] == "created" for e in r["body"]["opening"] if e["type"] == kind]
    return found + [e for r in records if r["type"] == "move" for e in r["body"]["events"] if e["type"] == kind]


def test_a_seat_sees_only_its_own_hand_and_choices_while_the_organiser_sees_everything(client: FlaskClient) -> None:
    created = new_game(client, players=3, seed=SEED)
    game_id = created["id"]
    referee = look(client, game_id, organiser())
    # Seat 1 secretly flips a ruin of its hand to night; seat 0 has not chosen yet.
    flipped = referee["view"]["hands"][1]["ruins"][0]
    ok(act(client, game_id, seat_headers(created, 1), 1, {"type": "flip", "seat": 1, "ruin": flipped}))

    for version in (None, 2):  # now, and read back at a version
        query = {} if version is None else {"version": version}
        mine = look(client, game_id, seat_headers(created, 0), **query)
        view = mine["view"]
        assert mine["seed"] is None and "seed" not in view and "last_hash" not in mine
        assert view["hands"][0]["ruins"] == referee["view"]["hands"][0]["ruins"]
        for other in (1, 2):
            assert view["hands"][other] == {"seat": other, "count": 9}
        assert view["draw_pile"] == {"count": referee["view"]["draw_pile"]["count"]}
        assert view["discovery_deck"] == {"count": referee["view"]["discovery_deck"]["count"]}
        assert {"seat": 1, "chosen": True} in view["flips"]  # that seat 1 chose is public; what it chose is not
        assert SEED not in json.dumps(mine)

    records = log(client, game_id, seat_headers(created, 0))
    assert [r["type"] for r in records] == ["created", "move"]
    assert all("hash" not in r and "prev_hash" not in r for r in records)
    assert "token_hashes" not in records[0]["body"]
    assert SEED not in json.dumps(records)
    (started,) = events(records, "GameStarted")
    assert started["seed"] is None and set(started["discovery_deck"]) == {"count"}
    (dealt,) = events(records, "RoundDealt")
    assert dealt["hands"][0] == referee["view"]["hands"][0]["ruins"]
    assert dealt["hands"][1] == {"count": 9} and dealt["hands"][2] == {"count": 9}
    assert set(dealt["draw_pile"]) == {"count"}
    (chosen,) = events(records, "NightFlipChosen")
    assert chosen["ruin"] == "hidden" and records[1]["body"]["action"]["ruin"] == "hidden"

    # Seat 1 sees its own choice; the organiser sees everything.
    assert events(log(client, game_id, seat_headers(created, 1)), "NightFlipChosen")[0]["ruin"] == flipped
    referee = look(client, game_id, organiser())
    assert all("ruins" in hand for hand in referee["view"]["hands"])
    assert "order" in referee["view"]["draw_pile"] and "order" in referee["view"]["discovery_deck"]
    assert {"seat": 1, "chosen": True, "ruin": flipped} in referee["view"]["flips"]
    assert referee["view"]["seed"] == SEED and referee["last_hash"]
    full = log(client, game_id, organiser())
    assert all(r["hash"] and r["prev_hash"] for r in full) and full[0]["body"]["token_hashes"]
    assert events(full, "NightFlipChosen")[0]["ruin"] == flipped
    assert events(full, "GameStarted")[0]["seed"] == SEED


def test_when_every_seat_has_chosen_the_flips_are_revealed_together(client: FlaskClient) -> None:
    created = new_game(client, players=2, seed=SEED)
    game_id = created["id"]
    hands = look(client, game_id, organiser())["view"]["hands"]
    first = ok(
        act(client, game_id, seat_headers(created, 0), 1, {"type": "flip", "seat": 0, "ruin": hands[0]["ruins"][0]})
    )
    assert [e["type"] for e in first["events"]] == ["NightFlipChosen"]
    second = ok(act(client, game_id, seat_headers(created, 1), 2, {"type": "flip", "seat": 1, "ruin": None}))
    assert [e["type"] for e in second["events"]] == ["NightFlipChosen", "NightFlipsRevealed"]
    assert second["events"][1]["flips"] == [hands[0]["ruins"][0], None]
    view = look(client, game_id, seat_headers(created, 1))["view"]
    assert view["phase"] == "play" and view["ruins"][hands[0]["ruins"][0]]["side"] == "night"
