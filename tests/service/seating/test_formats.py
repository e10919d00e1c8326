"""The seating formats, for any entries, table size and history (hypothesis): every entry seated once a round or
sitting out, tables legal for the game and as even as the numbers allow, byes and first seats spread, Swiss
tables cut from the standings, the same seed the same seating."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.seating import formats
from service.seating.formats import History, Round, SeatingError, evenness, parse_csv, seat, table_sizes

GAMES = st.sampled_from([(2, 5), (1, 4), (2, 2), (3, 4)])  # (low, high) seats of a table


@st.composite
def setups(draw: st.DrawFn) -> tuple[list[str], int, int, int, int]:
    low, high = draw(GAMES)
    size = draw(st.integers(low, high))
    entries = [f"p{i:02d}" for i in range(draw(st.integers(low, 14)))]
    rounds = draw(st.integers(1, 5))
    return entries, size, low, high, rounds


def _schedule(fmt: str, entries: list[str], size: int, low: int, high: int, rounds: int, seed: str) -> list[Round]:
    done: list[Round] = []
    for n in range(rounds):
        history = History.of([(r.tables, r.byes) for r in done])
        standings = sorted(entries, reverse=True) if fmt == "swiss" and done else None
        done.append(seat(fmt, entries, size, low, high, f"{seed}/{n}", history, standings))
    return done


@settings(max_examples=60, deadline=None)
@given(setups(), st.sampled_from(["round_robin", "swiss"]), st.text(max_size=5))
def test_every_entry_sits_once_a_round_at_legal_even_tables_with_byes_and_first_seats_spread(
    setup: tuple[list[str], int, int, int, int], fmt: str, seed: str
) -> None:
    entries, size, low, high, rounds = setup
    schedule = _schedule(fmt, entries, size, low, high, rounds, seed)
    for r in schedule:
        seated = [p for t in r.tables for p in t]
        assert sorted(seated + list(r.byes)) == entries  # once each: at a table or sitting out
        sizes = [len(t) for t in r.tables]
        assert all(low <= n <= size for n in sizes) and max(sizes) - min(sizes) <= 1
        assert len(r.byes) < size  # nobody sits out who could fill a legal table... of the size asked for
    history = History.of([(r.tables, r.byes) for r in schedule])
    byes = [history.byes.get(p, 0) for p in entries]
    assert max(byes) - min(byes) <= 1  # sitting out rotates
    if fmt == "round_robin":
        assert evenness(entries, schedule)["first_seat_spread"] <= 2
    assert schedule == _schedule(fmt, entries, size, low, high, rounds, seed)  # seeded: the same again


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 12), st.integers(2, 4), st.text(max_size=5))
def test_a_round_robin_second_round_meets_nobody_again_when_the_numbers_allow(
    entries: int, size: int, seed: str
) -> None:
    """When there are at least as many tables as seats at one (so each new table can take one player of each
    table before), round 2 repeats no meeting of round 1."""
    players = [f"p{i:02d}" for i in range(entries)]
    first, second = _schedule("round_robin", players, size, 2, 5, 2, seed)
    if len(first.tables) >= size and not first.byes:
        assert evenness(players, [first, second])["most_meetings"] <= 1


@pytest.mark.parametrize("seed", [f"s{i}" for i in range(12)])
def test_a_round_robin_keeps_two_players_due_the_first_seat_apart_when_meetings_allow(seed: str) -> None:
    """a sat first twice beside c, b twice beside d: a third round that puts a beside b gives one of them a third
    first seat while c or d has none (spread 3); a beside d and b beside c (new meetings too) keep both at two.
    Meetings alone cannot tell these seatings apart (neither repeats a meeting)."""
    history = History.of([((("a", "c"), ("b", "d")), ())] * 2)
    third = seat("round_robin", ["a", "b", "c", "d"], 2, 2, 5, seed, history)
    assert {"a", "b"} not in [set(t) for t in third.tables]
    firsts = [history.seats.get((p, 0), 0) + (p in [t[0] for t in third.tables]) for p in "abcd"]
    assert max(firsts) == 2


def test_swiss_cuts_tables_from_the_standings_and_swaps_the_nearest_ranked_player_to_avoid_a_repeat() -> None:
    ranked = [f"p{i}" for i in range(8)]
    first = seat("swiss", ranked, 4, 2, 5, "s", History(), ranked)
    assert [set(t) for t in first.tables] == [set(ranked[:4]), set(ranked[4:])]
    # p0..p3 met: two of them must meet again (two tables of 4), and only two: the top table keeps the top two
    # of the standings and takes the best two of the next table.
    history = History.of([((("p0", "p1", "p2", "p3"),), ())])
    again = seat("swiss", ranked, 4, 2, 5, "s", history, ranked)
    assert [set(t) for t in again.tables] == [{"p0", "p1", "p4", "p5"}, {"p2", "p3", "p6", "p7"}]


@pytest.mark.parametrize(
    ("entries", "size", "low", "high", "code"),
    [(1, 2, 2, 5, "too_few_entries"), (6, 6, 2, 5, "table_size_not_allowed"), (6, 1, 2, 5, "table_size_not_allowed")],
)
def test_a_format_that_cannot_seat_the_entries_is_refused_with_a_code(
    entries: int, size: int, low: int, high: int, code: str
) -> None:
    with pytest.raises(SeatingError) as refused:
        seat("round_robin", [f"p{i}" for i in range(entries)], size, low, high, "s")
    assert refused.value.code == code
    with pytest.raises(SeatingError) as unknown:
        seat("knockout", ["a", "b"], 2, 2, 5, "s")
    assert unknown.value.code == "unknown_format"


def test_table_sizes_are_as_even_as_the_game_allows_else_some_sit_out() -> None:
    assert table_sizes(9, 4, 2, 5) == [3, 3, 3]
    assert table_sizes(7, 4, 2, 5) == [4, 3]
    assert table_sizes(5, 2, 2, 5) == [2, 2]  # a table of 1 is not Ruins': one sits out
    assert table_sizes(5, 2, 1, 4) == [2, 2, 1]  # Arnak plays solo


def test_a_csv_seating_seats_entries_once_at_legal_tables() -> None:
    entries = ["a", "b", "c", "d", "e"]
    made = parse_csv("table,player\n1,a\n1,b\n2,c\n2,d\n", entries, 2, 5)
    assert made.tables == (("a", "b"), ("c", "d")) and made.byes == ("e",)
    for text, code in [
        ("1,a\n1,z\n", "unknown_entry"),
        ("1,a\n1,a\n", "player_seated_twice"),
        ("1,a\n2,b\n2,c\n", "table_size_not_allowed"),
        ("x,a\n", "invalid_csv"),
        ("", "invalid_csv"),
    ]:
        with pytest.raises(SeatingError) as refused:
            parse_csv(text, entries, 2, 5)
        assert refused.value.code == code, text


def test_evenness_counts_meetings_and_first_seats() -> None:
    rounds = [Round((("a", "b"), ("c", "d")), ()), Round((("a", "b"), ("d", "c")), ())]
    measured = evenness(["a", "b", "c", "d"], rounds)
    assert measured == {"most_meetings": 2, "fewest_meetings": 0, "repeat_meetings": 2, "first_seat_spread": 2}
    assert formats.FORMATS == ("round_robin", "swiss", "csv")
    assert list(itertools.chain(*rounds[0].tables)) == ["a", "b", "c", "d"]
