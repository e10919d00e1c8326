"""A whole tournament runs unattended: bot players entered like people, the first round seated, and every game of
every round played to its end by the bots through the service, the later rounds seated as the last table of each
round ends; then the standings."""

from __future__ import annotations

import pytest

from service.bots.seated_rounds import enter_bots, play_bot_turns, play_rounds
from service.commands.application import Digsite
from service.reading.read_port import ReadPort
from service.reading.standings import report
from tests.service.projecting import catch_up


# At tables of 2: Ruins seats 2 to 5, so of 5 entries one sits out each round; Arnak seats 1 to 4 (solo against
# its rival), so of 3 entries the third plays alone and nobody sits out.
@pytest.mark.parametrize(
    ("kind", "fmt", "rounds", "entries", "tables", "byes"),
    [("ruins", "swiss", 3, 5, [2, 2], 1), ("arnak", "round_robin", 2, 3, [2, 1], 0)],
)
def test_bots_play_a_seated_tournament_to_its_end_with_nobody_seating_the_later_rounds(
    service: Digsite, queries: ReadPort, kind: str, fmt: str, rounds: int, entries: int, tables: list[int], byes: int
) -> None:
    cup = service.create_tournament("Bots' cup", rounds, kind)
    bots = enter_bots(service, cup, entries)
    first = service.rounds.seat_round(cup, fmt, 2)
    assert [len(t["players"]) for t in first["tables"]] == tables and len(first["byes"]) == byes

    played = play_rounds(service, cup, seed="cup")

    status = service.rounds.status(cup)
    assert played == rounds * len(tables) and status["complete"] and status["next_round"] is None
    assert [r["round"] for r in status["seated_rounds"]] == list(range(1, rounds + 1))
    assert all(r["format"] == fmt and r["status"] == "over" for r in status["seated_rounds"])
    resting = [b["id"] for r in status["seated_rounds"] for b in r["byes"]]
    assert len(resting) == len(set(resting)) == rounds * byes  # a different player sits out each round
    for r in status["seated_rounds"]:
        seated = [p["id"] for t in r["tables"] for p in t["players"]]
        assert sorted(seated + [b["id"] for b in r["byes"]]) == sorted(bots)
    catch_up(service)
    table = report(queries.lists.tournament(cup) or {}, queries.lists.tournament_seats(cup))
    lines = table["standings"]  # type: ignore[index]
    assert sorted(line["player_id"] for line in lines) == sorted(bots)
    assert sum(line["games"] for line in lines) == rounds * sum(tables)  # every seat of every round's tables


def test_bot_turns_leave_a_persons_seat_to_them_and_play_every_bots_seat(service: Digsite) -> None:
    cup = service.create_tournament("Mixed cup", 1, "ruins")
    person = service.create_player("Ines")
    service.rounds.enter(cup, [person])
    enter_bots(service, cup, 3)
    first = service.rounds.seat_round(cup, "round_robin", 2)
    (theirs,) = [t for t in first["tables"] if person in [p["id"] for p in t["players"]]]
    seat = [p["id"] for p in theirs["players"]].index(person)

    passes = 0
    while play_bot_turns(service, cup, seed="mixed"):
        passes += 1
        assert passes < 1000, "the bots' table never ended"
    tables = service.rounds.status(cup)["seated_rounds"][0]["tables"]
    assert [t["status"] for t in tables if t["game"] != theirs["game"]] == ["over"]  # the bots' own table, played
    now = service.game(theirs["game"])
    assert now["status"] == "playing" and now["to_act"] == [seat]  # the person's turn: nobody played it for them
    records = service.log(theirs["game"], after=1)
    assert all(r["body"].get("seat") != seat for r in records if r["type"] == "move")
