"""A tournament's entries and rounds through the one service function (``Digsite.rounds``), on SQLite and
PostgreSQL: entries as recorded events, a round's tables created at once, refusals that change nothing, the store
refusing a second seating of the same round, forced rounds, CSV seatings, and seat links made again from the
server secret."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any
from uuid import uuid4

import pytest

from domain.games import game as game_of
from service.bots.simulation import play_stored_game
from service.commands.application import Digsite, Viewer
from service.commands.rounds import seat_token
from service.errors import BadRequest, Conflict, NotFound, ServiceError
from service.seating.formats import csv_tables
from service.store.aggregates import Tournament


def _cup(service: Digsite, entries: int, rounds: int = 3, kind: str = "ruins") -> tuple[str, list[str]]:
    cup = service.create_tournament("Cup", rounds, kind)
    players = [service.create_player(f"P{i}") for i in range(entries)]
    service.rounds.enter(cup, players)
    return cup, players


def _games(service: Digsite, cup: str) -> list[str]:
    return list(service.game_ids(tournament=cup))


def _refused(call: Any, kind: type[ServiceError], code: str) -> None:
    with pytest.raises(kind) as refused:
        call()
    assert refused.value.code == code, refused.value.message


def test_entries_are_recorded_events_and_bad_entries_change_nothing(service: Digsite) -> None:
    cup, players = _cup(service, 3)
    status = service.rounds.status(cup)
    assert [e["id"] for e in status["entries"]] == players and [e["name"] for e in status["entries"]] == [
        "P0",
        "P1",
        "P2",
    ]
    late = service.create_player("Late")
    _refused(lambda: service.rounds.enter(cup, [late, players[0]]), Conflict, "already_entered")
    _refused(lambda: service.rounds.enter(cup, [str(uuid4())]), NotFound, "unknown_player")
    _refused(lambda: service.rounds.enter(cup, []), BadRequest, "invalid_entries")
    _refused(lambda: service.rounds.withdraw(cup, late), NotFound, "unknown_entry")
    assert [e["id"] for e in service.rounds.status(cup)["entries"]] == players  # (``late`` not entered either)
    service.rounds.withdraw(cup, players[1])
    stored = service.rounds._tournament(cup)
    assert list(stored.entries) == [players[0], players[2]]
    assert [type(e).__name__ for e in service.app.events.get(stored.id)] == [
        "Created",
        "EntryAdded",
        "EntryAdded",
        "EntryAdded",
        "EntryWithdrawn",
    ]


def test_a_tournament_stored_before_entries_reads_with_none_and_takes_them(service: Digsite) -> None:
    made = Tournament.create(name="Old cup", rounds=2, game="ruins", at="2026-01-01T00:00:00+00:00", options={})
    stored = service.app.mapper.to_stored_event(made.collect_events()[0])
    old = replace(stored, originator_id=uuid4())
    service.app.recorder.insert_events([old])
    cup = str(old.originator_id)
    assert service.rounds.status(cup)["entries"] == [] and service.rounds.status(cup)["seated_rounds"] == []
    players = [service.create_player(f"P{i}") for i in range(2)]
    service.rounds.enter(cup, players)
    assert service.rounds.seat_round(cup, "round_robin", 2)["tables"][0]["game"]


def test_a_round_s_tables_are_created_at_once_with_their_labels_and_links(service: Digsite) -> None:
    cup, _ = _cup(service, 7)
    first = service.rounds.seat_round(cup, "round_robin", 4)
    assert [len(t["players"]) for t in first["tables"]] == [4, 3] and first["status"] == "playing"
    assert sorted(_games(service, cup)) == sorted(t["game"] for t in first["tables"])
    for table in first["tables"]:
        game = service.game(table["game"])
        assert game["labels"] == {"tournament": cup, "round": 1, "table": table["table"]}
        assert [p["id"] for p in game["players"]] == [p["id"] for p in table["players"]]
    links = service.rounds.links(cup, 1, "https://event.example/")
    assert len(links) == 7
    for link in links:  # each link opens its own seat, and only that one
        assert link["url"].startswith(f"https://event.example/replay/{link['game']}?token=")
        token = link["url"].split("token=")[1]
        assert service.seat_for_token(link["game"], token) == link["seat"]
    assert service.rounds.links(cup, 1, "https://event.example") == links  # made again, the same


def test_links_are_not_made_with_another_server_secret(service: Digsite) -> None:
    cup, _ = _cup(service, 2)
    service.rounds.seat_round(cup, "round_robin", 2)
    other = Digsite(replace(service.settings, secret_key="another secret"))
    try:
        _refused(lambda: other.rounds.links(cup, 1, "http://x"), Conflict, "links_unavailable")
    finally:
        other.close()


@pytest.mark.parametrize(
    ("fmt", "size", "entries", "kind", "code"),
    [
        ("round_robin", 2, 1, BadRequest, "too_few_entries"),
        ("round_robin", 6, 6, BadRequest, "table_size_not_allowed"),
        ("knockout", 2, 4, BadRequest, "unknown_format"),
        ("csv", 2, 4, BadRequest, "invalid_csv"),
    ],
)
def test_a_format_that_cannot_seat_the_entries_changes_nothing(
    service: Digsite, fmt: str, size: int, entries: int, kind: type[ServiceError], code: str
) -> None:
    cup, _ = _cup(service, entries)
    _refused(lambda: service.rounds.seat_round(cup, fmt, size), kind, code)
    assert _games(service, cup) == [] and service.rounds.status(cup)["seated_rounds"] == []


def test_only_a_tournament_whose_games_were_created_directly_refuses_its_first_round(service: Digsite) -> None:
    """A game created with a tournament's labels counts in its standings under its round: a round seated there
    would be numbered 1 again, so the first seating is refused; another tournament's games do not count."""
    direct, players = _cup(service, 4)
    made = service.create_game("ruins", players[:2], labels={"tournament": direct, "round": 1, "table": 1})
    clean, _ = _cup(service, 4)
    _refused(lambda: service.rounds.seat_round(direct, "round_robin", 2), Conflict, "games_created_directly")
    _refused(lambda: service.rounds.seat_round(direct, dry_run=True), Conflict, "games_created_directly")
    assert _games(service, direct) == [made["id"]] and service.rounds.status(direct)["seated_rounds"] == []
    assert service.rounds.seat_round(clean, "round_robin", 2)["round"] == 1


def test_a_game_created_directly_in_a_tournament_with_a_seated_round_is_refused(service: Digsite) -> None:
    """The other way round: once a round is seated here, a game created with the tournament's labels (any round,
    a seated table's players or others) is refused and nothing is stored; before any seating, and in another
    tournament, a game created directly is accepted as before."""
    seated, players = _cup(service, 4)
    other, others = _cup(service, 4)
    before = service.create_game("ruins", others[:2], labels={"tournament": other})
    service.rounds.seat_round(seated, "round_robin", 2)
    made = _games(service, seated)
    for labels in ({"round": 1, "table": 3}, {"round": 2, "table": 1}, {}):
        _refused(
            lambda labels=labels: service.create_game("ruins", players[2:], labels={"tournament": seated, **labels}),
            Conflict,
            "tournament_seated_here",
        )
    assert _games(service, seated) == made and len(made) == 2
    again = service.create_game("ruins", others[2:], labels={"tournament": other, "round": 1, "table": 2})
    assert _games(service, other) == [before["id"], again["id"]]


def test_a_round_is_seated_once_and_the_next_waits_for_the_last_table_unless_forced(service: Digsite) -> None:
    cup, _ = _cup(service, 4, rounds=2)
    first = service.rounds.seat_round(cup, "swiss", 2)
    _refused(lambda: service.rounds.seat_round(cup), Conflict, "round_in_play")
    _refused(lambda: service.rounds.seat_round(cup, round_no=1), Conflict, "round_already_seated")
    _refused(lambda: service.rounds.seat_round(cup, round_no=3), Conflict, "round_not_next")
    assert len(_games(service, cup)) == 2
    second = service.rounds.seat_round(cup, force=True)
    assert second["round"] == 2 and sorted(second["forced_past"]) == sorted(t["game"] for t in first["tables"])
    assert service.rounds.status(cup)["seated_rounds"][0]["status"] == "playing"  # the forced-past games go on
    _refused(lambda: service.rounds.seat_round(cup, force=True), Conflict, "tournament_complete")
    assert len(_games(service, cup)) == 4


def test_two_servers_seating_the_same_round_at_once_store_it_once(service: Digsite, monkeypatch: Any) -> None:
    """The second server read the tournament before the first seated the round: the store refuses its seating."""
    cup, _ = _cup(service, 4)
    other = Digsite(service.settings)
    try:
        before = other.rounds._tournament(cup)
        service.rounds.seat_round(cup, "round_robin", 2)
        monkeypatch.setattr(other.rounds, "_tournament", lambda tournament_id: before)
        _refused(lambda: other.rounds.seat_round(cup, "round_robin", 2), Conflict, "round_already_seated")
    finally:
        other.close()
    assert len(_games(service, cup)) == 2 and len(service.rounds.status(cup)["seated_rounds"]) == 1


def test_a_csv_seating_is_imported_as_given_and_the_next_round_waits_for_the_organiser(service: Digsite) -> None:
    cup, players = _cup(service, 5)
    text = "table,player\n" + "".join(f"{1 + i // 2},{p}\n" for i, p in enumerate(players[:4]))
    _refused(
        lambda: service.rounds.seat_round(cup, "csv", tables=csv_tables(text + f"3,{uuid4()}\n3,{players[4]}\n")),
        BadRequest,
        "unknown_entry",
    )
    seated = service.rounds.seat_round(cup, "csv", tables=csv_tables(text))
    assert [[p["id"] for p in t["players"]] for t in seated["tables"]] == [players[:2], players[2:4]]
    assert [b["id"] for b in seated["byes"]] == [players[4]]
    # Played to the end (by bots in these seats), a CSV round is not followed by a seating nobody asked for.
    for table in seated["tables"]:
        engine = game_of("ruins")
        bots = [engine.bots.from_record(p.record) for p in engine.bots.personas_for(2)]
        play_stored_game(service, str(table["game"]), bots, random.Random(table["table"]))
    status = service.rounds.status(cup)
    assert status["seated_rounds"][0]["status"] == "over" and status["next_round"] == 2
    assert len(status["seated_rounds"]) == 1


def test_a_dry_run_says_how_the_round_would_be_seated_and_stores_nothing(service: Digsite) -> None:
    cup, _ = _cup(service, 4)
    preview = service.rounds.seat_round(cup, "round_robin", 2, dry_run=True)
    assert not preview["seated"] and all(t["game"] is None for t in preview["tables"])
    assert _games(service, cup) == []
    assert json.dumps(service.rounds.seat_round(cup, "round_robin", 2)["tables"][0]["players"]) == json.dumps(
        preview["tables"][0]["players"]
    )  # seeded by the tournament and round: the same seating


def test_seat_tokens_follow_from_the_secret_the_game_and_the_seat() -> None:
    assert seat_token(b"s", "g", 0) == seat_token(b"s", "g", 0)
    assert len({seat_token(b"s", "g", 0), seat_token(b"s", "g", 1), seat_token(b"t", "g", 0)}) == 3


def test_a_seat_plays_its_seated_game_with_its_link_s_token(service: Digsite) -> None:
    cup, _ = _cup(service, 2)
    service.rounds.seat_round(cup, "round_robin", 2)
    [link, _] = service.rounds.links(cup, 1, "http://x")
    seat = service.seat_for_token(link["game"], link["url"].split("token=")[1])
    assert service.game(link["game"], Viewer(seat))["seat"] == link["seat"]


def test_a_next_round_that_cannot_be_seated_leaves_the_last_move_landed_and_waits(service: Digsite) -> None:
    """The last game of a round ends while too few entries are left to seat the next: the move still lands (the
    seating after it is refused quietly), and the organiser sees the round to seat next."""
    cup = service.create_tournament("Cup", 2, "ruins")
    engine = game_of("ruins")
    personas = engine.bots.personas_for(2)
    bots = [service.bot_player(p.name, p.record) for p in personas]
    service.rounds.enter(cup, bots)
    [table] = service.rounds.seat_round(cup, "round_robin", 2)["tables"]
    service.rounds.withdraw(cup, bots[0])  # one entry left: no table of Ruins seats one
    seats = [engine.bots.from_record(p.record) for p in personas]
    play_stored_game(service, str(table["game"]), seats, random.Random(1))
    status = service.rounds.status(cup)
    assert status["seated_rounds"][0]["status"] == "over" and status["next_round"] == 2
    assert len(status["seated_rounds"]) == 1
    _refused(lambda: service.rounds.seat_round(cup), BadRequest, "too_few_entries")
