"""The tendencies pages in a real browser, for every game with analytics: Arnak's players page (its tendencies
by group against the field at the same table sizes, the action mix stacked per round) and aggregates page (the
seat win rates with their fair-share lines, solo results by difficulty), and the trend's choices following the
page. Expectations come from the read side (``ReadPort``), never written down here."""

from __future__ import annotations

import re
from typing import Any

import pytest

from dashboard import figures, plotly_bundle
from dashboard.format import player_labels, tournament_label
from dashboard.pages.players import slug
from service.reading.catalogue import groups, stacked, trend_metrics
from tests.dashboard.conftest import TIMEOUT_MS, Demo, Shots
from tests.dashboard.test_browser import choose, choose_player, plotted_points, shown_bars, shown_columns

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect
expect.set_options(timeout=TIMEOUT_MS)

ARNAK = "Lost Ruins of Arnak"


def _arnak_player(demo: Demo) -> dict[str, Any]:
    """The Arnak player with the most finished games (the one the page compares with the field)."""
    players = [
        p
        for p in demo.queries.lists.players()
        if demo.queries.analytics.tendencies("arnak", str(p["player_id"]))["games"]
    ]
    return max(players, key=lambda p: demo.queries.analytics.tendencies("arnak", str(p["player_id"]))["games"])


def test_the_arnak_players_page_compares_a_player_with_the_field_group_by_group(
    page: Any, demo: Demo, shots: Shots
) -> None:
    player = _arnak_player(demo)
    pid = str(player["player_id"])
    page.goto(f"/players?game=arnak&player={pid}")
    expect(page.locator("#players-kind")).to_contain_text(ARNAK)
    sizes = demo.queries.analytics.table_sizes("arnak", pid)
    mine = demo.queries.analytics.tendencies("arnak", pid)
    field = demo.queries.analytics.tendencies("arnak", None, n_players=sizes)
    expect(page.locator("#players-summary")).to_contain_text(f"{mine['games']} finished {ARNAK} game")
    expect(page.locator("#players-summary")).to_contain_text(f"the field: {field['games']} player-game")
    for group, members in groups("arnak").items():
        shown = shown_bars(page, f"players-group-{slug(group)}")
        # one bar for the player and one for the field per tendency, where each has a value (no idol taken: none)
        known = [sum(d["metrics"][m.name]["value"] is not None for d in (mine, field)) for m in members]
        assert [sum(r["value"] is not None for r in rows) for rows in shown] == known and any(known), group
        for rows, m in zip(shown, members, strict=True):
            assert [r["who"] for r in rows] == [player["name"], "the field"]
            assert [r["n"] for r in rows] == [d["metrics"][m.name]["n"] for d in (mine, field)]
            # a bar as long as its value on the tendency's scale: a share's 100% is 100/160 of its track
            for r in rows:
                if m.share and r["value"] is not None:
                    assert r["width"] == pytest.approx(r["value"] * r["track"] * 100 / 160, abs=1.5), (m.name, r)
                if not r["value"]:  # no value, or none: no bar to see
                    assert r["width"] == 0, (m.name, r)
    score = shown_bars(page, "players-group-score-sheet")
    names = [m.name for m in groups("arnak")["Score sheet"]]
    assert [[r["value"] for r in rows] for rows in score] == [
        pytest.approx([mine["metrics"][m]["value"], field["metrics"][m]["value"]]) for m in names
    ]  # the field at the player's own table sizes only
    mix = next(g for g, members in groups("arnak", ("round",)).items() if stacked(members))
    stack = plotted_points(page, f"players-stack-{slug(mix)}")
    assert stack and all(n > 0 for n in stack)
    shares = page.eval_on_selector(f"#players-stack-{slug(mix)} .js-plotly-plot", "g => g.data.map(t => t.y)")
    assert all(0 <= y <= 100 for ys in shares for y in ys if y is not None)
    shots.take(page, "wide")
    page.set_viewport_size({"width": 390, "height": 900})
    expect(page.locator(f"#players-group-{slug(mix.replace(' per round', ''))}")).to_be_visible()
    shots.take(page, "narrow")


def test_the_arnak_aggregates_page_draws_its_charts_with_fair_shares(page: Any, demo: Demo, shots: Shots) -> None:
    page.goto("/aggregates?game=arnak")
    expect(page.locator("#agg-kind")).to_contain_text(ARNAK)
    finished = sum(int(r["n"]) for r in demo.queries.analytics.distributions("arnak")["moves"])
    expect(page.locator("#agg-summary")).to_contain_text(f"Over {finished} finished {ARNAK} game")
    # the final scores and game lengths: HTML columns, the read side's counts, the lengths in the Plotly bins
    spread = demo.queries.analytics.distributions("arnak")
    scores = shown_columns(page, "agg-score")
    assert {label: n for label, n in scores if n} == {str(r["value"]): r["n"] for r in spread["score"]}
    histogram = figures.histogram(spread["moves"], "Game length", "moves")
    assert shown_columns(page, "agg-length") == list(zip(histogram.data[0].x, histogram.data[0].y, strict=True))
    expect(page.locator("#agg-length")).to_contain_text(f"(n={finished} games)")
    points = plotted_points(page, "agg-breakdown-cards_by_kind_cost")
    assert points and sum(points) > 0, points
    # the win rates by seat and by solo: HTML bars, a group per table size, each bar its rate and n
    for graph, dimension in (("agg-seats", "seat"), ("agg-by-solo", "solo")):
        rates = demo.queries.analytics.by_dimension("arnak", "win_rate", dimension)
        shown = [(r["value"], r["n"]) for rows in shown_bars(page, graph) for r in rows]
        expected = [
            (r["value"], r["n"]) for r in sorted(rates, key=lambda r: int(r["n_players"])) if r["grp"] is not None
        ]
        assert shown == [(pytest.approx(v) if v is not None else None, n) for v, n in expected], graph
    # the demo's solo games are all against a rival of one difficulty: a chart of that one value is a sentence
    expect(page.locator("#agg-by-difficulty")).to_contain_text("not drawn")
    # a dashed fair-share line for every multiplayer table size, at 1/N of the 0-100% scale, on each bar
    sizes = sorted({int(r["n_players"]) for r in demo.queries.analytics.by_dimension("arnak", "win_rate", "seat")})
    lines = page.eval_on_selector(
        "#agg-seats",
        """g => Array.from(g.querySelectorAll('.tbars-tendency')).map(t => {
            const fair = t.querySelector('.tbars-fair'), scale = t.querySelector('.tbars-scale');
            return fair ? 100 * (fair.getBoundingClientRect().left - scale.getBoundingClientRect().left)
                / scale.getBoundingClientRect().width : null; })""",
    )
    assert lines == pytest.approx([100 / n if n > 1 else None for n in sizes], abs=0.5)
    shots.take(page, "wide")
    page.set_viewport_size({"width": 390, "height": 900})
    expect(page.locator("#agg-seats")).to_be_visible()
    shots.take(page, "narrow")


def test_the_charts_are_drawn_by_the_basic_bundle_alone(page: Any, demo: Demo) -> None:
    """The dashboard's small plotly.js draws the charts (``dashboard.plotly_bundle``): Dash's full bundle is
    neither fetched nor run, and the page's Plotly is the basic one."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto("/aggregates?game=arnak")
    points = plotted_points(page, "agg-breakdown-cards_by_kind_cost")
    assert points and sum(points) > 0
    scripts = [url.rsplit("/", 1)[-1].split("?", 1)[0] for url in asked if "plotly" in url.rsplit("/", 1)[-1]]
    assert scripts == [plotly_bundle.ROUTE.rsplit("/", 1)[-1]]
    assert page.evaluate("() => window.Plotly.version") == plotly_bundle.VERSION
    assert page.evaluate("() => Object.keys(window.Plotly.PlotSchema.get().traces).sort()") == ["bar", "pie", "scatter"]


def test_the_trend_follows_the_page_s_game_and_tournament(page: Any, demo: Demo, shots: Shots) -> None:
    page.goto("/aggregates")
    expect(page.locator("#agg-summary")).to_be_visible()  # the charts above in: the trend at its place, below them
    assert plotted_points(page, "agg-trend-graph")  # the newest Ruins tournament with finished games, drawn
    offered = page.eval_on_selector("#agg-trend-graph .js-plotly-plot", "g => g.layout.title.text")
    first = next(iter(trend_metrics("ruins").values()))
    assert offered.startswith(first[:1].upper() + first[1:])
    choose(page, "agg-kind", ARNAK)
    cup = next(t for t in demo.queries.lists.tournaments() if t["game"] == "arnak" and t["finished"])
    choose(page, "agg-tournament", tournament_label(cup))
    expect(page.locator("#agg-trend-tournament")).to_contain_text(tournament_label(cup))
    page.click("#agg-metric")
    options = page.get_by_role("option").all_inner_texts()
    assert set(options) == set(trend_metrics("arnak").values())  # no "games won": constant for the field
    page.keyboard.press("Escape")
    metric = next(iter(trend_metrics("arnak")))
    rows = demo.queries.analytics.trend(metric, str(cup["tournament_id"]))
    assert plotted_points(page, "agg-trend-graph") == [len(rows)]
    plotted = page.eval_on_selector("#agg-trend-graph .js-plotly-plot", "g => Array.from(g.data[0].text)")
    assert plotted == [f"n={r['n']:g}" for r in rows]
    shots.take(page)


def test_the_ruins_players_page_compares_at_the_player_s_table_sizes(page: Any, demo: Demo, shots: Shots) -> None:
    player = demo.players[0]
    label = next(o for o in player_labels(demo.queries.lists.players()) if o["value"] == player["id"])["label"]
    page.goto("/players")
    choose_player(page, "players-player", player["name"], label)
    sizes = demo.queries.analytics.table_sizes("ruins", player["id"])
    expect(page.locator("#players-like")).to_contain_text(" and ".join(str(n) for n in sizes) + " players")
    results = shown_bars(page, "players-group-results")
    assert results and all(len(rows) == 2 for rows in results)
    rates = [r for rows in shown_bars(page, "players-group-following-and-passing") for r in rows]
    assert rates and all(0 <= r["value"] <= 1 for r in rates if r["value"] is not None)  # shares
    assert all(r["width"] <= r["track"] * 100 / 160 + 1 for r in rates)  # within their 0-100% scale
    shots.take(page, "wide")
    page.set_viewport_size({"width": 390, "height": 900})
    shots.take(page, "narrow")


def test_the_players_page_keeps_its_choices_in_the_address(page: Any, demo: Demo, shots: Shots) -> None:
    from dashboard.format import player_labels

    labels = {o["value"]: o["label"] for o in player_labels(demo.queries.lists.players())}
    player, other = demo.players[2], demo.players[3]
    page.goto("/players")
    choose_player(page, "players-player", player["name"], labels[player["id"]])
    choose_player(page, "players-other", other["name"], labels[other["id"]])
    expect(page).to_have_url(re.compile(rf".*player={player['id']}.*other={other['id']}"))
    page.reload()
    expect(page.locator("#players-player")).to_contain_text(player["name"])
    expect(page.locator("#players-other")).to_contain_text(other["name"])
