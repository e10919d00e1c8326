"""Counts as HTML columns (``dashboard.count_columns``), on plain rows: a score nobody made is an empty column
(the gaps show), the histogram's bins are the Plotly histogram's, every count is written, the heading says n,
and every text is escaped. On the aggregates page: ``test_layout.py`` and ``test_browser_tendencies.py``."""

from __future__ import annotations

import re

from dashboard import count_columns, figures, html_text
from tests.dashboard.client import column_counts

SCORES = [{"value": 40, "n": 2}, {"value": 43, "n": 5}, {"value": 70, "n": 1}]


def test_scores_sit_on_a_number_line_with_their_gaps() -> None:
    columns = count_columns.score_columns(SCORES)
    assert [c.label for c in columns] == [str(v) for v in range(40, 71)]
    assert {c.label: c.n for c in columns if c.n} == {"40": 2, "43": 5, "70": 1}
    assert sum(c.n for c in columns) == 8
    # the tallest column is the largest count; the others in proportion
    assert max(columns, key=lambda c: c.height).label == "43"
    assert columns[0].height == count_columns.TALLEST * 2 / 5
    # the axis labels every few values, as the Plotly axis did (30 values: every 3rd)
    assert [c.label for c in columns if c.tick] == [str(v) for v in range(40, 71, figures.score_tick([40, 70]))]


def test_words_are_their_own_columns() -> None:
    columns = count_columns.score_columns([{"value": "bird", "n": 3}, {"value": "snake", "n": 1}])
    assert [(c.label, c.n, c.tick) for c in columns] == [("bird", 3, True), ("snake", 1, True)]


def test_lengths_are_counted_in_the_plotly_histogram_s_bins() -> None:
    rows = [{"value": v, "n": n} for v, n in [(101, 1), (117, 2), (160, 1), (230, 3)]]
    columns = count_columns.bin_columns(rows)
    plotly = figures.histogram(rows, "Game length", "moves")
    assert [(c.label, c.n) for c in columns] == list(zip(plotly.data[0].x, plotly.data[0].y, strict=True))
    assert sum(c.n for c in columns) == 7
    assert count_columns.bin_columns([]) == []


def test_the_drawn_columns_write_every_count_and_the_heading_says_n() -> None:
    text = html_text.to_html(
        count_columns.drawn("Final <score>", count_columns.score_columns(SCORES), "score", "seat results")
    )
    assert "Final &lt;score&gt; (n=8 seat results)" in text and "<score>" not in text
    assert [(label, n) for label, n in column_counts(text) if n] == [("40", 2), ("43", 5), ("70", 1)]
    assert [w for w in re.findall(r'class="ccols-count"[^>]*>([^<]*)<', text) if w] == ["2", "5", "1"]
    assert "ccols-many" in text  # 31 columns: the counts written upwards
