"""The figure-building functions on plain rows (no store, no browser): rates carry their uncertainty and n,
counts sit on whole-number ticks, numbers on a numeric axis, and a game's values in its own words."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from dashboard import figures, uncertainty
from dashboard.games import value_text


def _bars(fig: Any) -> list[Any]:
    return [t for t in fig.data if t.type == "bar"]


def test_the_wilson_interval_matches_the_published_values_and_stays_inside_0_to_1() -> None:
    # Newcombe (1998), table I: 0 of 10 -> 0.0000-0.2775; 15 of 148 -> 0.0624-0.1605 (95 %)
    assert uncertainty.wilson(0.0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert uncertainty.wilson(15 / 148, 148) == pytest.approx((0.0624, 0.1605), abs=1e-4)
    low, high = uncertainty.wilson(1.0, 2) or (0, 0)
    assert 0 < low < 1 and high == 1.0  # "100 %" of 2 games: anything from a third up
    assert uncertainty.wilson(None, 5) is None and uncertainty.wilson(0.5, 0) is None


def test_student_s_t_quantile_matches_the_tables_and_falls_towards_the_normal() -> None:
    # The published two-sided 95 % values: 12.706 (1 df), 2.571 (5), 2.042 (30), 1.984 (100), 1.962 (1,000)
    assert [uncertainty.t_quantile(df) for df in (1, 5, 30)] == [12.706, 2.571, 2.042]
    assert uncertainty.t_quantile(100) == pytest.approx(1.984, abs=2e-3)
    assert uncertainty.t_quantile(1000) == pytest.approx(1.962, abs=1e-3)
    quantiles = [uncertainty.t_quantile(df) for df in range(1, 200)]
    assert all(a > b for a, b in itertools.pairwise(quantiles)) and quantiles[-1] > uncertainty.Z
    with pytest.raises(ValueError):
        uncertainty.t_quantile(0)


def test_final_scores_sit_on_a_numeric_axis_so_a_gap_shows() -> None:
    rows = [{"value": 3, "n": 1}, {"value": 4, "n": 2}, {"value": 10, "n": 3}]
    fig = figures.counts_bar(rows, "Final score", "score")
    assert fig.layout.xaxis.type == "linear" and list(fig.data[0].x) == [3, 4, 10]


def test_counts_are_on_whole_number_ticks() -> None:
    rows = [{"round": 1, "n": 1}, {"round": 2, "n": 2}]
    for fig in (figures.counts(rows, "claims, by round", ("round",)), figures.counts_bar(
        [{"value": 4, "n": 1}, {"value": 5, "n": 2}], "Rounds", "round"
    )):  # fmt: skip
        assert fig.layout.yaxis.dtick == 1 and fig.layout.yaxis.tickformat == ",d"


def test_a_chart_of_one_value_is_recognised() -> None:
    assert figures.one_value(["bird temple side", "bird temple side"]) == "bird temple side"
    assert figures.one_value(["bird", "snake"]) is None and figures.one_value([]) is None


def test_each_per_round_point_carries_its_n() -> None:
    rows = [{"round": 1, "value": 0.5, "n": 12}, {"round": 2, "value": 0.25, "n": 8}]
    fig = figures.by_round([("the field", rows)], "Went out first", "went out first", figures.plain_round_name, True)
    assert list(fig.data[0].text) == ["n=12", "n=8"]
    assert fig.data[0].error_y.array[0] > 0  # a share per round: with its interval
    parts = [("dig", rows), ("buy", [{**r, "value": 1 - r["value"]} for r in rows])]
    stacked = figures.stacked_by_round([("the field", parts)], "Action mix", figures.plain_round_name)
    assert list(stacked.data[0].x) == ["Round 1<br>n=12", "Round 2<br>n=8"]


def test_breakdown_groups_read_in_the_game_s_words() -> None:
    rows = [
        {"effect": "plus2", "effect_kind": "extra_rank", "position": "top", "n": 3},
        {"effect": "dig", "effect_kind": "draw", "position": "bottom", "n": 1},
    ]
    fig = figures.counts(rows, "discoveries bought", ("effect", "effect_kind", "position"), words=value_text("ruins"))
    assert list(fig.data[0].x) == ["+2, top sleeve", "dig, bottom sleeve"]
    lengths = [{"rounds": 4, "showdown": 1, "n": 2}, {"rounds": 4, "showdown": 0, "n": 1}]
    shown = figures.counts(lengths, "rounds played per game", ("rounds", "showdown"), words=value_text("ruins"))
    assert list(shown.data[0].x) == ["4 rounds, no Showdown", "4 rounds, then the Showdown"]
    said = figures.dimension_labels([{"grp": 0}], "difficulty", "rival's difficulty (solo)", words=value_text("arnak"))
    assert said == ["rival: no red tiles"]


def test_a_count_by_round_shows_a_round_nobody_reached_as_zero() -> None:
    rows = [{"round": 1, "n": 2}, {"round": 3, "n": 1}]
    fig = figures.counts(rows, "guardians overcome, by round", ("round",))
    assert list(fig.data[0].x) == ["Round 1", "Round 2", "Round 3"] and list(fig.data[0].y) == [2, 0, 1]


def test_a_player_s_win_rate_is_written_with_its_interval_n_and_caveat() -> None:
    from dashboard.pages.players import rate_text

    assert rate_text(1.0, 2, "games") == f"100% ({uncertainty.interval_text(1.0, 2)}, n=2, too few games)"
    many = uncertainty.TOO_FEW * 3
    assert rate_text(0.5, many, "games") == f"50% ({uncertainty.interval_text(0.5, many)}, n={many})"
    assert uncertainty.interval_text(1.0, 2).startswith("34")  # "100 %" over 2 games: anything from a third up
