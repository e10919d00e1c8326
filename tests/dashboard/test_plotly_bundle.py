"""The graphs' plotly.js is the small ``basic`` bundle the dashboard serves (``dashboard.plotly_bundle``): the same
version as the ``plotly`` package's, served under the dashboard's prefix, named in every page, and able to draw
every chart the pages build (bar and scatter traces only). In the browser:
``test_browser_tendencies.py::test_the_charts_are_drawn_by_the_basic_bundle_alone``."""

from __future__ import annotations

from typing import Any

import pytest

from dashboard import plotly_bundle
from domain.games import GAMES
from tests.dashboard.client import Browser, graphs, organiser
from tests.dashboard.conftest import Demo

BASIC_TRACES = {"bar", "pie", "scatter"}  # what plotly.js's basic bundle draws (its README)


@pytest.fixture(scope="module")
def org(dashboard_app: Any) -> Browser:
    return organiser(dashboard_app)


def test_the_bundle_is_the_basic_one_of_the_plotly_package_s_version() -> None:
    from plotly.offline import get_plotlyjs_version

    head = plotly_bundle.FILE.read_text(encoding="utf-8")[:200]
    assert get_plotlyjs_version() == plotly_bundle.VERSION  # an upgrade of plotly needs the bundle fetched again
    assert f"plotly.js (basic - minified) v{plotly_bundle.VERSION}" in head


def test_the_dashboard_serves_it_and_every_page_loads_it_from_there(org: Browser) -> None:
    served = org.get(plotly_bundle.ROUTE)
    assert served.status_code == 200
    assert served.mimetype == "text/javascript"
    assert served.get_data() == plotly_bundle.FILE.read_bytes()
    assert served.cache_control.max_age == plotly_bundle.YEAR
    served.close()
    shell = org.get("/").get_data(as_text=True)
    assert f'"{org.prefix}{plotly_bundle.ROUTE}"' in shell.split("</head>", 1)[0]


def test_the_bundle_is_served_from_memory_and_revalidated_by_its_etag(
    org: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A file opened per request is left to the garbage collector when the browser drops the connection
    # mid-download (a page closed while loading): CI saw it as an unclosed file. No request may open one.
    import builtins
    import io

    def no_open(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"a file opened while serving the bundle: {args[:1]}")

    monkeypatch.setattr(builtins, "open", no_open)
    monkeypatch.setattr(io, "open", no_open)
    served = org.get(plotly_bundle.ROUTE)
    monkeypatch.undo()
    assert served.status_code == 200 and served.headers["ETag"]
    body = served.get_data()
    served.close()
    again = org.get(plotly_bundle.ROUTE, headers={"If-None-Match": served.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""
    again.close()
    assert body == plotly_bundle.FILE.read_bytes()


def test_every_chart_of_the_players_and_aggregates_pages_is_one_the_basic_bundle_draws(
    org: Browser, demo: Demo
) -> None:
    for kind in GAMES:
        player = next(
            str(p["player_id"])
            for p in demo.queries.lists.players()
            if demo.queries.analytics.tendencies(kind, str(p["player_id"]))["games"]
        )
        pages = [
            org.call(
                [("players-content", "children")],
                [
                    ("players-player", "value", player),
                    ("players-other", "value", None),
                    ("players-kind", "value", kind),
                    ("players-size", "value", None),
                ],
            )["players-content"]["children"],
            org.call([("agg-content", "children")], [("agg-kind", "value", kind), ("agg-tournament", "value", None)])[
                "agg-content"
            ]["children"],
        ]
        figures = {name: figure for page in pages for name, figure in graphs(page).items()}
        assert figures, kind
        for name, figure in figures.items():
            assert {t.get("type", "scatter") for t in figure["data"]} <= BASIC_TRACES, name
