"""Standings read from the store: a bot tournament of each game, projected, ranks its players by the engine's own
places (not recomputed here) and agrees with itself in every form (the table, after each round, CSV)."""

from __future__ import annotations

import csv
import io
from collections import defaultdict

import pytest

from domain.games import GAMES
from domain.protocol import Result
from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from service.reading.read_port import ReadPort
from service.reading.standings import TIE_BREAKS, PointsTable, report, to_csv
from tests.service.projecting import catch_up


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_tournament_s_standings_follow_the_engine_s_places(service: Digsite, queries: ReadPort, kind: str) -> None:
    played = run_tournament(service, kind=kind, players=2, games=6, seed="standings", pool=4)
    catch_up(service)
    rows = queries.lists.tournament_seats(played.id)
    assert len(rows) == 12
    answer = report(queries.lists.tournament(played.id) or {}, rows)
    # every player's points are the default table's points for the places the engine gave them
    expected: dict[str, int] = defaultdict(int)
    for game in played.games:
        found = game.result
        result = Result(tuple(found["ranking"]), tuple(found["winners"]), tuple(found["scores"]))
        for seat, player in enumerate(game.seats):
            expected[player] += 2 - result.place(seat)
    table = answer["standings"]
    assert isinstance(table, list)
    assert {line["player_id"]: line["points"] for line in table} == dict(expected)
    assert [line["points"] for line in table] == sorted((line["points"] for line in table), reverse=True)
    assert table[0]["rank"] == 1 and answer["tie_breaks"] == list(TIE_BREAKS)
    # after the last round, the standings are the final ones; the cross table holds every game once per seat
    rounds = answer["rounds"]
    assert isinstance(rounds, list) and rounds == list(range(1, played.rounds + 1))
    assert answer["after_round"][str(rounds[-1])] == table  # type: ignore[index]
    cells = [c for line in answer["cross_table"] for cs in line["rounds"].values() for c in cs]  # type: ignore[attr-defined]
    assert sorted(c["game_id"] for c in cells) == sorted(g.id for g in played.games for _ in range(2))


def test_the_csv_has_the_same_order_and_points_and_a_custom_table_changes_them(
    service: Digsite, queries: ReadPort
) -> None:
    kind = sorted(GAMES)[0]
    played = run_tournament(service, kind=kind, players=2, games=4, seed="csv", pool=4)
    catch_up(service)
    rows = queries.lists.tournament_seats(played.id)
    answer = report(queries.lists.tournament(played.id) or {}, rows)
    lines = list(csv.DictReader(io.StringIO(to_csv(rows))))
    assert [(r["player_id"], int(r["points"])) for r in lines] == [
        (line["player_id"], line["points"])
        for line in answer["standings"]  # type: ignore[attr-defined]
    ]
    assert all(r["round 1"] for r in lines)
    tripled = report({}, rows, PointsTable.parse("3,0"))
    by_player = {line["player_id"]: line["points"] for line in tripled["standings"]}  # type: ignore[attr-defined]
    assert by_player == {line["player_id"]: 3 * line["points"] for line in answer["standings"]}  # type: ignore[attr-defined]


def test_a_name_that_looks_like_a_formula_is_quoted_in_the_csv() -> None:
    rows = [
        {"game_id": "g", "round_label": 1, "table_label": 1, "status": "over", "n_players": 2, "seat": s,
         "player_id": p, "place": s + 1, "score": 10 - s, "name": n}
        for s, (p, n) in enumerate((("a", "=HYPERLINK(1)"), ("b", "Bo")))
    ]  # fmt: skip
    lines = list(csv.reader(io.StringIO(to_csv(rows))))
    assert lines[1][1] == "'=HYPERLINK(1)"
