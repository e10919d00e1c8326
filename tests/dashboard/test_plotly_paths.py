"""Plotly's property paths parsed once (``dashboard.plotly_paths``): the figures are the ones Plotly builds
without the cache."""

from __future__ import annotations

from typing import Any

import pytest
from plotly import basedatatypes

from dashboard import figures, plotly_paths


def _tendencies(value: float) -> dict[str, Any]:
    return {
        "games": 3,
        "metrics": {
            "win_rate": {"label": "win rate", "value": value, "n": 3, "share": True},
            "moves": {"label": "moves a game", "value": 40 * value, "n": 3, "share": False},
        },
    }


def _figures() -> list[dict[str, object]]:
    series = (("Ana", _tendencies(0.5)), ("the field", _tendencies(0.25)))
    parts = [(who, [("win rate", [{"round": 1, "value": t["metrics"]["win_rate"]["value"], "n": 3}])])
             for who, t in series]  # fmt: skip
    return [
        figures.stacked_by_round(parts, "Results", figures.plain_round_name).to_plotly_json(),
        figures.vp_timeline({"names": ["A", "B"], "vp": [[0, 1], [2, 3]], "round": [1, 2]}, 1).to_plotly_json(),
    ]


def test_figures_are_the_same_with_the_paths_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    assert plotly_paths.install()  # (installed already by dashboard.figures: installing again changes nothing)
    parser = basedatatypes._str_to_dict_path_full
    assert getattr(parser, "digsite_kept", False)
    kept = _figures()
    assert parser("xaxis2.range[1]") == (("xaxis2", "range", 1), [0, 7, 13]) == parser.__wrapped__("xaxis2.range[1]")
    monkeypatch.setattr(basedatatypes, "_str_to_dict_path_full", parser.__wrapped__)  # Plotly's own, every time
    assert kept == _figures()
