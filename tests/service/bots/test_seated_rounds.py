"""A whole tournament runs unattended: bot players entered like people, the first round seated, and every game of
every round played to its end by the bots through the service, the later rounds seated as the last table of each
round ends; then the standings."""

from __future__ import annotations

import pytest

from service.bots.seated_rounds import enter_bots, play_rounds
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
