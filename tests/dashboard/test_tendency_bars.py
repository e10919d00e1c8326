"""A player's tendency groups as HTML bars (``dashboard.tendency_bars``), on plain answers (no store, no browser):
each share carries its Wilson interval as whiskers and in words, its n, and is pale and "too few" under
``uncertainty.TOO_FEW``; a count has neither; every bar is on its tendency's own scale; a missing value draws no
bar. In the browser: ``test_browser_tendencies.py``."""

from __future__ import annotations

import re
from typing import Any

import pytest

from dashboard import tendency_bars, uncertainty
from tests.dashboard.client import bar_rows


def answer(rows: dict[str, tuple[float | None, int]], shares: set[str]) -> dict[str, Any]:
    metrics = {m: {"label": f"{m} label", "value": v, "n": n, "share": m in shares} for m, (v, n) in rows.items()}
    return {"games": max(n for _, n in rows.values()), "metrics": metrics}


FEW, MANY = uncertainty.TOO_FEW - 1, uncertainty.TOO_FEW * 40
MINE = answer({"win": (0.5, FEW), "moves": (41.5, 4), "never": (None, 0)}, {"win", "never"})
THEIRS = answer({"win": (0.25, MANY), "moves": (83.0, 9), "never": (0.5, 2)}, {"win", "never"})
SERIES = (("Ana", MINE), ("the field", THEIRS))


def test_a_share_carries_its_interval_its_n_and_too_few_a_count_does_not() -> None:
    win, moves = tendency_bars.tendencies(["win", "moves"], SERIES)
    assert [b.who for b in win.bars] == ["Ana", "the field"] and win.label == "Win label"
    for bar, (value, n) in zip(win.bars, [(0.5, FEW), (0.25, MANY)], strict=True):
        low, high = uncertainty.wilson(value, n) or (0, 0)
        scale = tendency_bars.SHARE_TOP
        assert bar.length == pytest.approx(100 * value * 100 / scale, abs=0.01)
        assert bar.whisker == pytest.approx((100 * low * 100 / scale, 100 * high * 100 / scale), abs=0.01)
        assert bar.interval == uncertainty.interval_text(value, n) and bar.end == bar.whisker[1]
    ana, field = win.bars
    assert ana.pale and ana.text == f"50% (n={FEW}, too few)"
    assert not field.pale and field.text == f"25% (n={MANY})"
    assert ana.whisker[1] - ana.whisker[0] > field.whisker[1] - field.whisker[0]  # few tries: a wide interval
    # a count: no interval, never "too few", on a scale from 0 with room for its label past the longest bar
    assert all(b.whisker is None and not b.pale and not b.interval for b in moves.bars)
    assert [b.text for b in moves.bars] == ["41.50 (n=4)", "83 (n=9)"]
    assert moves.scale == pytest.approx(83.0 * 1.7) and moves.bars[1].length == pytest.approx(100 / 1.7, abs=0.01)


def test_a_missing_value_draws_no_bar_and_says_so() -> None:
    (never,) = tendency_bars.tendencies(["never"], SERIES)
    ana = never.bars[0]
    assert ana.value is None and ana.length == 0 and ana.whisker is None and ana.text.startswith("\u2013 (n=0")
    _, texts = _drawn({"g": ("Group", ["never"], SERIES)})
    assert texts["g"].count('class="tbars-fill"') == 1  # the field's bar only
    assert [[r["value"] for r in rows] for rows in bar_rows(texts["g"])] == [[None, 0.5]]


def _drawn(groups: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    store, boxes = tendency_bars.drawn("bars", groups)
    data = store.data
    assert set(boxes) == set(groups) and all(box.id == gid for gid, box in boxes.items())
    assert all(getattr(box, "data-key") == data["key"] for box in boxes.values())  # what digsite.tendencyBars fills
    return boxes, data["html"]


def test_the_groups_are_sent_as_escaped_html_that_says_every_number_in_text() -> None:
    sly = (("<b>Ana</b>", MINE), ("the field", THEIRS))
    boxes, texts = _drawn({"players-group-results": ("Results & more", ["win", "moves"], sly)})
    shown = texts["players-group-results"]
    assert "<b>" not in shown and "&lt;b&gt;Ana&lt;/b&gt;" in shown and "Results &amp; more" in shown
    assert getattr(boxes["players-group-results"], "aria-label") == "Results & more"
    words = re.sub(r"<[^>]+>", "", shown)
    for value, n in ((0.5, FEW), (0.25, MANY)):
        assert f"95% interval {uncertainty.interval_text(value, n)}" in words
    assert f"50% (n={FEW}, too few)" in words and "83 (n=9)" in words and "Win label" in words
    rows = bar_rows(shown)
    assert [[r["who"] for r in t] for t in rows] == [["<b>Ana</b>", "the field"]] * 2
    assert [[r["n"] for r in t] for t in rows] == [[FEW, MANY], [4, 9]]
    # another answer, another key: the page's boxes of another player are not filled with these
    other, _ = _drawn({"players-group-results": ("Results & more", ["win"], sly)})
    assert getattr(other["players-group-results"], "data-key") != getattr(boxes["players-group-results"], "data-key")


def test_win_rates_are_grouped_by_table_size_each_with_its_fair_share_interval_and_n() -> None:
    from dashboard import html_text

    rows = [
        {"n_players": 3, "grp": 0, "value": 0.5, "n": FEW},
        {"n_players": 2, "grp": 0, "value": 0.25, "n": MANY},
        {"n_players": 3, "grp": 1, "value": None, "n": 0},
        {"n_players": 2, "grp": 1, "value": 0.75, "n": MANY},
    ]
    labels = ["Seat 1", "Seat 1", "Seat 2", "a value named at some length, cut"]
    drawn = html_text.to_html(tendency_bars.rates_by_size("Win rate by seat", rows, labels))
    groups = bar_rows(drawn)
    # the smallest table first, each group's values in the rows' order
    assert [[(r["size"], r["who"], r["value"], r["n"]) for r in g] for g in groups] == [
        [(2, "Seat 1", 0.25, MANY), (2, labels[3], 0.75, MANY)],
        [(3, "Seat 1", 0.5, FEW), (3, "Seat 2", None, 0)],
    ]
    scale = tendency_bars.SHARE_TOP
    assert [g[0]["fair"] for g in groups] == pytest.approx([100 * 50 / scale, 100 * (100 / 3) / scale], abs=0.01)
    assert "2 players, dashed: fair share 1/2 (50%)" in drawn and "3 players, dashed: fair share 1/3 (33%)" in drawn
    few = tendency_bars._rate("Seat 1", "#000", rows[0], 1 / 3)
    low, high = uncertainty.wilson(0.5, FEW) or (0, 0)
    assert few.pale and few.text == f"50% (n={FEW}, too few games)"
    assert few.whisker == pytest.approx((100 * low * 100 / scale, 100 * high * 100 / scale), abs=0.01)
    many = tendency_bars._rate("Seat 1", "#000", rows[1], 1 / 2)
    assert not many.pale and many.text == f"25% (n={MANY})" and many.interval == uncertainty.interval_text(0.25, MANY)
    none = tendency_bars._rate("Seat 2", "#000", rows[2], 1 / 3)
    assert none.whisker is None and "tbars-fill" not in html_text.to_html(tendency_bars._row(none))
    # the names' column as wide as the longest name, up to WHO_MOST characters
    assert f"--tbars-who: max(104px, {tendency_bars.WHO_MOST}ch)" in drawn
