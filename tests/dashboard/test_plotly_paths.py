"""Plotly's property paths parsed once (``dashboard.plotly_paths``): the figures are the ones Plotly builds
without the cache."""

from __future__ import annotations

import pytest
from plotly import basedatatypes

from dashboard import figures, plotly_paths


def _tendencies(value: float) -> dict[str, object]:
    return {
        "games": 3,
        "metrics": {
            "win_rate": {"label": "win rate", "value": value, "n": 3, "share": True},
            "moves": {"label": "moves a game", "value": 40 * value, "n": 3, "share": False},
        },
    }


def _figures() -> list[dict[str, object]]:
    series = (("Ana", _tendencies(0.5)), ("the field", _tendencies(0.25)))
    group = figures.tendency_group("Results", ["win_rate", "moves"], series)
    return [
        group.to_plotly_json(),
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
