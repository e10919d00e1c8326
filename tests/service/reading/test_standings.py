"""Standings: points by place, the tie breaks in their stated order, rounds counted cumulatively, games in play
counted for nothing."""

from __future__ import annotations

import pytest

from service.reading.standings import PointsTable, PointsTableError, Seat, rounds_of, standings


def seat(game: str, rnd: int, player: str, place: int | None, score: int, n: int = 4, status: str = "over") -> Seat:
    return Seat(game, rnd, 1, status, player, n, place if status == "over" else None, score)


NAMES = {"a": "Ada", "b": "Bo", "c": "Cy", "d": "Di"}


def test_the_default_table_gives_n_minus_place_points() -> None:
    table = PointsTable()
    assert [table.points(p, 4) for p in (1, 2, 3, 4)] == [3, 2, 1, 0]
    assert [table.points(p, 3) for p in (1, 2, 3)] == [2, 1, 0]


def test_a_set_table_gives_its_points_and_zero_past_its_end() -> None:
    table = PointsTable.parse("5, 3,1")
    assert [table.points(p, 4) for p in (1, 2, 3, 4)] == [5, 3, 1, 0]


@pytest.mark.parametrize("text", ["3,two", "-1,0", "1," * 11, "3;2"])
def test_a_malformed_points_table_is_refused_with_a_sentence(text: str) -> None:
    with pytest.raises(PointsTableError, match=r"\w+ \w+"):
        PointsTable.parse(text)


def test_points_rank_first_then_wins_then_game_points_then_average_place() -> None:
    seats = [
        # round 1: a wins, b second...
        seat("g1", 1, "a", 1, 30),
        seat("g1", 1, "b", 2, 25),
        seat("g1", 1, "c", 3, 20),
        seat("g1", 1, "d", 4, 10),
        # round 2: b wins, a second: a and b tie on points (5) and wins (1); a scored more
        seat("g2", 2, "b", 1, 28),
        seat("g2", 2, "a", 2, 27),
        seat("g2", 2, "d", 3, 5),
        seat("g2", 2, "c", 4, 4),
    ]
    lines = standings(seats, NAMES)
    assert [(line.name, line.points, line.wins, line.score) for line in lines] == [
        ("Ada", 5, 1, 57),
        ("Bo", 5, 1, 53),
        ("Cy", 1, 0, 24),
        ("Di", 1, 0, 15),
    ]
    assert [line.rank for line in lines] == [1, 2, 3, 4]


def test_players_equal_on_every_tie_break_share_their_rank() -> None:
    seats = [seat("g1", 1, "a", 1, 10, n=2), seat("g1", 1, "b", 2, 5, n=2)]
    seats += [seat("g2", 2, "b", 1, 10, n=2), seat("g2", 2, "a", 2, 5, n=2)]
    lines = standings(seats, NAMES)
    assert [(line.name, line.rank) for line in lines] == [("Ada", 1), ("Bo", 1)]


def test_standings_after_a_round_count_only_the_rounds_up_to_it() -> None:
    seats = [seat("g1", 1, "a", 1, 10, n=2), seat("g1", 1, "b", 2, 5, n=2)]
    seats += [seat("g2", 2, "b", 1, 10, n=2), seat("g2", 2, "a", 2, 5, n=2)]
    after_one = standings(seats, NAMES, through_round=1)
    assert [(line.name, line.points, line.games) for line in after_one] == [("Ada", 1, 1), ("Bo", 0, 1)]
    assert rounds_of(seats) == [1, 2]


def test_a_game_in_play_counts_for_nothing_but_shows_in_the_cross_table() -> None:
    seats = [seat("g1", 1, "a", None, 0, n=2, status="playing"), seat("g1", 1, "b", None, 0, n=2, status="playing")]
    lines = standings(seats, NAMES)
    assert all(line.games == 0 and line.points == 0 for line in lines)
    (cell,) = lines[0].cells[1]
    assert cell.game_id == "g1" and not cell.finished


def test_a_custom_table_changes_the_order() -> None:
    # a wins once and comes last once; b comes second twice. 3-2-1-0 ties them; 10-1-0-0 makes a lead.
    seats = [
        seat("g1", 1, "a", 1, 10),
        seat("g1", 1, "b", 2, 9),
        seat("g2", 2, "b", 2, 9),
        seat("g2", 2, "a", 4, 1),
    ]
    default = standings(seats, NAMES)
    assert {line.name: line.points for line in default} == {"Ada": 3, "Bo": 4}
    custom = standings(seats, NAMES, PointsTable.parse("10,1"))
    assert [(line.name, line.points) for line in custom] == [("Ada", 10), ("Bo", 2)]


def _ruling(subject: str, ruling: str, reason: str, **details: object) -> dict[str, object]:
    import json

    return {"subject_id": subject, "ruling": ruling, "reason": reason, "details": json.dumps(details), "at": "t"}


def test_rulings_void_adjust_substitute_and_penalise_each_with_a_note() -> None:
    from dataclasses import replace

    from service.reading.standings import Rulings

    two = [seat("g1", 1, "a", 1, 30, n=2), seat("g1", 1, "b", 2, 20, n=2)]
    two = [replace(s, seat=i) for i, s in enumerate(two)]
    other = [replace(seat("g2", 2, "c", 1, 9, n=2), seat=0), replace(seat("g2", 2, "d", 2, 8, n=2), seat=1)]
    plain = {line.player_id: line.points for line in standings([*two, *other], NAMES)}
    assert plain == {"a": 1, "b": 0, "c": 1, "d": 0}

    annulled = Rulings.from_rows([_ruling("g1", "annul", "a misdeal", in_play=False)])
    lines = {line.player_id: line for line in standings([*two, *other], NAMES, rulings=annulled)}
    assert lines["a"].points == 0 and lines["a"].games == 0 and lines["a"].notes == ["game annulled: a misdeal"]
    assert lines["c"].points == 1 and not lines["c"].notes

    result = {"ranking": [1, 0], "winners": [1], "scores": [30, 31]}
    adjusted = Rulings.from_rows([_ruling("g1", "adjust_result", "miscounted", result=result, engine_result={})])
    lines = {line.player_id: line for line in standings(two, NAMES, rulings=adjusted)}
    assert (lines["b"].points, lines["b"].wins, lines["b"].score) == (1, 1, 31) and lines["a"].points == 0
    assert lines["b"].notes == ["result adjusted: miscounted"]

    sub = dict(seat=0, player="e", name="Eve", replaced="a", from_version=5, token_hash="h")
    substituted = Rulings.from_rows([_ruling("g1", "substitute", "Ada left", **sub)])
    lines = {line.player_id: line for line in standings(two, NAMES, rulings=substituted)}
    assert "a" not in lines and lines["e"].name == "Eve" and lines["e"].points == 1

    penalised = Rulings.from_rows([_ruling("cup", "penalty", "late", player="c", points=3)])
    lines = {line.player_id: line for line in standings([*two, *other], NAMES, rulings=penalised)}
    assert (lines["c"].points, lines["c"].penalty) == (-2, 3) and lines["c"].notes == ["penalty of 3 point(s): late"]
    assert [line.player_id for line in standings([*two, *other], NAMES, rulings=penalised)][-1] == "c"


def test_a_penalty_s_note_names_its_player_when_the_names_are_known() -> None:
    """The tournament's list of rulings is read apart from the standings: "penalty of 1 point(s)" alone does not
    say whose. A substitute (who took a seat by an earlier ruling) is named too; an unknown player is not guessed."""
    from service.reading.standings import Rulings

    sub = dict(seat=0, player="e", name="Eve", replaced="a", from_version=5, token_hash="h")
    rows = [
        _ruling("cup", "penalty", "late", player="c", points=1),
        _ruling("g1", "substitute", "Ada left", **sub),
        _ruling("cup", "penalty", "rude", player="e", points=2),
        _ruling("cup", "penalty", "absent", player="z", points=3),
    ]
    notes = [note for _, _, note in Rulings.from_rows(rows, NAMES).penalties]
    assert notes == ["penalty of 1 point(s) for Cy: late", "penalty of 2 point(s) for Eve: rude",
                     "penalty of 3 point(s): absent"]  # fmt: skip
    assert Rulings.from_rows(rows).penalties[0][2] == "penalty of 1 point(s): late"  # (no names given)
