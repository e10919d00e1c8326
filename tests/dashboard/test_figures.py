"""The figure-building functions on plain rows (no store, no browser): rates carry their uncertainty and n,
counts sit on whole-number ticks, numbers on a numeric axis, and a game's values in its own words."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import plotly.graph_objects as go
import pytest
from plotly.io.json import to_json_plotly
from plotly.subplots import make_subplots

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


def test_a_win_rate_chart_shows_each_rate_s_interval_and_n_and_pales_too_few() -> None:
    few, many = uncertainty.TOO_FEW - 1, uncertainty.TOO_FEW * 4
    rows = [
        {"grp": 0, "n_players": 3, "value": 1.0, "n": few},
        {"grp": 1, "n_players": 3, "value": 0.25, "n": many},
    ]
    fig = figures.by_dimension(rows, "Win rate by seat", "seat", fair_share=True)
    (bar,) = _bars(fig)
    assert list(bar.y) == pytest.approx([100.0, 25.0])
    for i, row in enumerate(rows):
        low, high = uncertainty.wilson(row["value"], row["n"]) or (0, 0)
        assert bar.y[i] + bar.error_y.array[i] == pytest.approx(100 * high)
        assert bar.y[i] - bar.error_y.arrayminus[i] == pytest.approx(100 * low)
    assert list(bar.marker.opacity) == [0.35, 1.0]  # the rate over too few games is pale
    labels = next(t for t in fig.data if t.type == "scatter" and t.mode == "text")
    assert list(labels.text) == [f"n={few}, too few games", f"n={many}"]
    # the n sits above the whisker, not on it; the fair share is named in the legend, not clipped beside its line
    assert labels.y[0] == pytest.approx(100 * (uncertainty.wilson(1.0, few) or (0, 0))[1])
    assert not fig.layout.annotations
    assert [t.name for t in fig.data if t.type == "scatter" and t.mode == "lines"] == ["fair share 1/3"]


def test_a_tendency_share_carries_its_interval_a_count_does_not() -> None:
    def answer(value: float, n: int, share: bool) -> dict[str, Any]:
        return {"games": n, "metrics": {"m": {"label": "a tendency", "value": value, "n": n, "share": share}}}

    fig = go.Figure(
        figures.tendency_group("Group", ["m"], [("Ana", answer(0.5, 4, True)), ("the field", answer(0.5, 400, True))])
    )
    (bar,) = _bars(fig)
    assert bar.error_x.array[0] > bar.error_x.array[1] > 0  # 4 tries: a wide interval; 400: a narrow one
    text = next(t for t in fig.data if t.type == "scatter").text
    assert "too few" in text[0] and "too few" not in text[1]
    counted = go.Figure(
        figures.tendency_group("Group", ["m"], [("Ana", answer(2.5, 4, False)), ("the field", answer(2, 9, False))])
    )
    assert _bars(counted)[0].error_x.array is None
    assert not any("too few" in t for t in next(t for t in counted.data if t.type == "scatter").text)


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


# The tendency groups as they were built with ``plotly.graph_objects`` before they became plain dictionaries
# (the reference the fast way must equal: the same JSON reaches the browser).
def _graph_objects_tendency_group(
    title: str, names: Sequence[str], series: Sequence[tuple[str, Mapping[str, Any]]], chart_id: str = ""
) -> go.Figure:
    """One group of a game's tendencies (``Queries.tendencies`` answers, one per series: the player, then the
    field or another player), as small multiples: each tendency on its own scale (a share from 0 to 100%, a
    count from 0), one bar per series, labelled with its value and sample size; a share with its Wilson
    interval (whiskers), pale and "too few" under ``uncertainty.TOO_FEW``."""
    first = series[0][1]["metrics"]
    labels = [first[m]["label"] for m in names]
    fig = make_subplots(
        rows=len(names), cols=1, subplot_titles=[f"{x[:1].upper()}{x[1:]}" for x in labels], vertical_spacing=0.0
    )
    for row, metric in enumerate(names, start=1):
        share = bool(first[metric].get("share"))
        whos = [who for who, _ in series]
        values = [data["metrics"][metric]["value"] for _, data in series]
        ns = [data["metrics"][metric]["n"] for _, data in series]
        shown = [None if v is None else (100 * v if share else v) for v in values]
        intervals = [uncertainty.wilson(v, n) if share else None for v, n in zip(values, ns, strict=True)]
        texts = [
            f"{figures.tendency_text(v, share)} ({figures._n_text(n, '' if share else None)})"
            for v, n in zip(values, ns, strict=True)
        ]
        fig.add_trace(
            go.Bar(
                y=whos,
                x=shown,
                orientation="h",
                marker={
                    "color": [figures._colour(i, who) for i, (who, _) in enumerate(series)],
                    "opacity": [0.35 if share and uncertainty.too_few(n) else 1.0 for n in ns],
                },
                error_x=figures._whiskers(shown, intervals) if share else None,
                customdata=texts,
                showlegend=False,
                hovertemplate="%{y}: %{customdata}<extra>" + labels[row - 1] + "</extra>",
            ),
            row=row,
            col=1,
        )
        # each bar's value and n just past its whisker (beside the bar, the whisker would cross it)
        ends = [(100 * w[1] if w else v or 0) if share else (v or 0) for v, w in zip(shown, intervals, strict=True)]
        fig.add_trace(
            go.Scatter(
                y=whos,
                x=ends,
                mode="text",
                text=[f" {t}" for t in texts],
                textposition="middle right",
                textfont={"size": 11},
                cliponaxis=False,
                showlegend=False,
                hoverinfo="skip",
            ),
            row=row,
            col=1,
        )
        known = [v for v in ends if v is not None]
        # room for the label past the longest bar or whisker; a share's ticks stop at 100%
        top = 160.0 if share else max([*known, 0.0]) * 1.7 or 1.0
        fig.update_xaxes(
            range=[0, top],
            ticksuffix="%" if share else "",
            row=row,
            col=1,
            showgrid=True,
            gridcolor="#eef",
            **(figures.PERCENT_TICKS if share else {}),
        )
        fig.update_yaxes(autorange="reversed", row=row, col=1)
    per = 52 + 16 * len(series)
    figures._layout(fig, title, height=70 + per * len(names), bargap=0.25)
    fig.update_layout(margin={"l": 110, "r": 30, "t": 60, "b": 20}, showlegend=False)
    fig.update_annotations(font={"size": 12}, xanchor="left", x=0)
    # each subplot's title sits just above its bars: spread the rows so a title never covers the row above
    gap = 1 / len(names)
    for i in range(len(names)):
        top_edge = 1 - i * gap
        fig.layout[f"yaxis{'' if i == 0 else i + 1}"].domain = [top_edge - gap + 0.35 * gap, top_edge - 0.12 * gap]
        fig.layout.annotations[i].y = top_edge - 0.12 * gap
        fig.layout.annotations[i].yanchor = "bottom"
    return fig


def _tendency_answer(rows: dict[str, tuple[float | None, int]], shares: set[str]) -> dict[str, Any]:
    metrics = {m: {"label": f"{m} label", "value": v, "n": n, "share": m in shares} for m, (v, n) in rows.items()}
    return {"games": max(n for _, n in rows.values()), "metrics": metrics}


@pytest.mark.parametrize("other", ["the field", "Bo"])
def test_a_tendency_group_built_as_a_dictionary_is_the_figure_graph_objects_built(other: str) -> None:
    shares = {"win", "first", "never"}
    mine = _tendency_answer(
        {"win": (0.5, 4), "first": (1.0, 40), "never": (None, 0), "moves": (41.5, 4), "think": (0.004, 4)}, shares
    )
    theirs = _tendency_answer(
        {"win": (0.25, 400), "first": (0.0, 12), "never": (0.5, 2), "moves": (None, 0), "think": (0.0, 9)}, shares
    )
    for names in (["win"], ["moves"], ["win", "moves", "first", "never", "think"]):
        series = (("Ana", mine), (other, theirs))
        fast = figures.tendency_group("Results", names, series)
        before = _graph_objects_tendency_group("Results", names, series)
        assert json.loads(to_json_plotly(fast)) == json.loads(to_json_plotly(before))
