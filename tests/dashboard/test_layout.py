"""The dashboard without a browser: the app builds, mounts in a Flask app, and its callbacks (called
through Dash's own HTTP endpoint, as the browser calls them) produce pages, tables and figures from a
demo store. Expectations come from the read side (``ReadPort``), not from numbers written here."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from dashboard import create_dashboard, figures, lazy_charts, tendency_bars
from dashboard.format import log_line
from dashboard.games import renderer
from dashboard.pages import aggregates
from dashboard.pages.players import slug
from dashboard.replay_frames import CHUNK
from service.commands.application import Digsite
from service.reading.catalogue import breakdowns, dimensions_of, groups, metrics, per_player_breakdowns, stacked
from service.reading.read_port import ReadPort
from service.reading.results import Count
from service.settings import Database, Settings
from service.store import backends
from tests.dashboard.client import (
    Browser,
    by_id,
    column_counts,
    components,
    graphs,
    hands,
    listed,
    organiser,
    replay_root,
    store_texts,
    tendency_groups,
    text,
)
from tests.dashboard.conftest import Demo, access_settings

# -- calling callbacks the way the browser does ----------------------------------------------------------------


@pytest.fixture(scope="module")
def org(dashboard_app: Any) -> Browser:
    """A signed-in organiser: sees everything, so these tests see every game."""
    return organiser(dashboard_app)


def route(browser: Browser, path: str, search: str = "") -> Any:
    return browser.route(path, search)


# -- the app ---------------------------------------------------------------------------------------------------


def test_the_app_builds_with_every_page_callback(dashboard_app: Any) -> None:
    import dash

    assert isinstance(dashboard_app, dash.Dash)
    outputs = " ".join(dashboard_app.callback_map)
    for wanted in (
        "page.children",
        "games-results.children",
        "replay-verify.children",
        "players-content.children",
        "agg-content.children",
        "agg-trend.children",
    ):
        assert wanted in outputs
    page = dashboard_app.server.test_client().get("/")
    assert page.status_code == 200 and "Digsite" in page.get_data(as_text=True)


def test_the_shell_loads_each_browser_script_from_the_assets_under_its_prefix(demo: Demo) -> None:
    """The browser scripts are Dash assets (dashboard/assets/*.js): the page shell names each one under the app's
    prefix, and the server answers each with the file."""
    from pathlib import Path

    from flask import Flask

    import dashboard

    assets = Path(dashboard.__file__).parent / "assets"
    names = sorted(p.name for p in assets.glob("*.js"))
    assert {"replay.js", "live.js", "callbacks.js"} <= set(names)
    host = Flask("host")
    create_dashboard(demo.queries, demo.service, server=host, url_base_pathname="/dashboard/", access=access_settings())
    client = host.test_client()
    shell = client.get("/dashboard/").get_data(as_text=True)
    sources = re.findall(r'<script src="(/dashboard/assets/([^"?]+))', shell)
    assert sorted(name for _, name in sources) == names
    for src, name in sources:
        answer = client.get(src)
        assert answer.status_code == 200 and answer.get_data() == (assets / name).read_bytes()
        answer.close()


def test_it_mounts_inside_a_flask_app_under_a_prefix(demo: Demo) -> None:
    from flask import Flask

    host = Flask("host")

    @host.get("/health")
    def health() -> str:
        return "ok"

    app = create_dashboard(
        demo.queries, demo.service, server=host, url_base_pathname="/dashboard/", access=access_settings()
    )
    client = host.test_client()
    assert client.get("/health").get_data(as_text=True) == "ok"
    index = client.get("/dashboard/")
    assert index.status_code == 200 and "Digsite" in index.get_data(as_text=True)
    assert client.post("/health").status_code == 405  # the host's own routes are not the dashboard's business
    browser = organiser(app)  # the sign-in page, its cookie and its redirect live under the prefix too
    assert browser.session_cookie()
    assert by_id(route(browser, "games"), "games-results")
    table = browser.games()["games-results"]["children"]
    links = [c["props"]["href"] for c in components(table, "Link") if "open-replay" in c["props"].get("className", "")]
    assert links and all(link.startswith("/dashboard/replay/") for link in links)
    assert len(links) == len(demo.every_finished) + 1  # the organiser sees the game in play too


def test_every_games_demo_games_are_listed_and_a_winner_no_player_holds_is_named_by_seat(
    org: Browser, demo: Demo
) -> None:
    for kind, games in demo.others.items():
        assert sorted(listed(org.games(kind=kind))) == sorted(games)
    rows = [demo.queries.lists.game_row(g) for games in demo.others.values() for g in games]
    engine_wins = [r for r in rows if r and r["winner_seat"] is not None and r["winner_seat"] >= len(r["players"])]
    assert engine_wins, "the demo's solo game is won by the seat the game plays (seeded)"
    for row in engine_wins:  # a solo game the game's own seat won: the list names that seat
        table = next(
            c
            for c in components(org.games()["games-results"]["children"], "Tr")
            if c["props"].get("data-game") == row["game_id"]
        )
        assert f"Seat {row['winner_seat'] + 1}, played by the game" in text(table)


def test_the_router_answers_every_page_and_a_sentence_otherwise(org: Browser, demo: Demo) -> None:
    assert by_id(route(org, "/"), "games-results")
    assert by_id(route(org, "/players"), "players-content")
    assert by_id(route(org, "/aggregates"), "agg-content")
    assert "no page here" in text(route(org, "/nowhere"))
    assert "no game with id" in text(route(org, "/replay/not-a-game"))
    missing = "00000000-0000-4000-8000-000000000000"
    assert "Not found" in text(route(org, f"/replay/{missing}"))
    assert "no game with id" in text(route(org, f"/replay/{missing}"))  # twice: nothing cached badly


# -- games -----------------------------------------------------------------------------------------------------


def test_the_games_browser_filters(org: Browser, demo: Demo) -> None:
    everything = org.games()
    assert sorted(listed(everything)) == sorted([*demo.every_finished, demo.live])
    assert listed(org.games(status="playing")) == [demo.live]
    assert sorted(listed(org.games(tournament=demo.tournament))) == sorted(demo.finished)
    second = {r["game_id"] for r in demo.queries.lists.games(round_label=2)["rows"]}
    assert set(listed(org.games(round=2))) == second
    winner = demo.queries.lists.game_row(demo.finished[0])["winner_player"]
    won = {r["game_id"] for r in demo.queries.lists.games(winner=winner)["rows"]}
    assert set(listed(org.games(winner=winner))) == won
    future = org.games(start="2999-01-01")
    assert listed(future) == []
    assert "No game matches these filters" in text(future["games-results"]["children"])


# -- replay ----------------------------------------------------------------------------------------------------


def demo_latest(demo: Demo, game_id: str) -> int:
    return int(demo.queries.replays.replay(game_id, 1)["latest_version"])


def test_the_replay_counts_moves_as_the_games_list_does(org: Browser, demo: Demo) -> None:
    """The games list's moves are the players' moves; the replay steps through every record (the setup first,
    a finished game's seed reveal last) but says the same number of moves under its title."""
    for game_id in (demo.finished[0], demo.live):
        listed_moves = demo.queries.lists.game_row(game_id)["moves"]
        records = len(demo.queries.replays.records(game_id))
        assert records != listed_moves  # (what the page said before: its records)
        head = text(route(org, f"/replay/{game_id}"))
        assert f"· {listed_moves} moves" in head and f"· {records} moves" not in head


def test_the_replay_page_draws_the_vp_chart_with_one_line_per_seat(org: Browser, demo: Demo) -> None:
    game_id = demo.finished[0]
    page = route(org, f"/replay/{game_id}", "?v=7&seat=1")
    assert "replay-vp-graph" not in graphs(page)  # drawn once the first table shows, asked for by the page's script
    latest = len(demo.queries.replays.records(game_id))
    answer = org.chart_response(game_id, 7, latest)
    assert answer.status_code == 200
    chart = graphs(json.loads(answer.get_data(as_text=True))["response"]["replay-vp"]["children"])["replay-vp-graph"]
    timeline = demo.queries.replays.vp_timeline(game_id)
    assert [t["name"] for t in chart["data"]] == timeline["names"]
    for seat, trace in enumerate(chart["data"]):
        assert list(trace["y"]) == [row[seat] for row in timeline["vp"]]
    assert chart["layout"]["shapes"][0]["x0"] == 7  # the cursor
    root = replay_root(page)
    assert (root["data-move"], root["data-seat"], root["data-game"]) == ("7", "1", game_id)
    # The rounds to jump to come with the chart (finding them evolves the game: the first table does not wait).
    assert not [c for c in components(page) if "replay-round" in c["props"].get("className", "")]
    starts = demo.queries.replays.round_starts(game_id)
    buttons = json.loads(answer.get_data(as_text=True))["response"]["replay-rounds"]["children"]
    assert [b["props"]["data-move"] for b in buttons] == [str(v) for _, v in sorted(starts.items())]


def test_a_replay_frame_shows_what_the_perspective_may_see(org: Browser, demo: Demo) -> None:
    game_id = demo.finished[1]
    latest = demo_latest(demo, game_id)
    version = demo.queries.replays.round_starts(game_id)[2] + 2
    referee = org.frame(game_id, version)
    assert hands(referee) == ["shown"] * 3
    assert referee["document"]["latest"] == latest and referee["document"]["perspective"] == "referee"

    seat = org.frame(game_id, version, "2")
    seen = demo.queries.replays.replay(game_id, version, 2)["view"]["hands"]
    assert hands(seat) == ["hidden", "hidden", "shown"]
    counts = [int(c) for c in re.findall(r'data-count="(\d+)"', seat["replay-table"])]
    assert counts == [h["count"] for h in seen]
    mine = seat["replay-table"].split('data-seat="2"', 1)[1].split('id="table-crafted"', 1)[0]  # the last hand
    assert mine.count('class="chip ') == len(seen[2]["ruins"])

    last = org.frame(game_id, latest)
    assert "Game over" in last["replay-table"]
    assert last["replay-log"][-1]["v"] == latest


def test_every_frame_is_the_table_the_store_holds_then(org: Browser, demo: Demo) -> None:
    """The frames drawn in one pass are the views ``Replays.replay`` reads from snapshots, move by move and
    event by event, for the referee and a seat; the log is the same, line for line."""
    game_id = demo.finished[0]
    for perspective, seat in (("referee", None), ("1", 1)):
        doc = org.frames(game_id, perspective, 1)
        within = org.frames(game_id, perspective, 1, by_event=True)
        assert all(f["k"] is None for f in doc["frames"]) and all(0 < f["k"] < f["n"] for f in within["frames"])
        assert [f["v"] for f in doc["frames"]] == list(range(CHUNK + 1, 2 * CHUNK + 1))
        for frame in doc["frames"][::4] + within["frames"][::4]:
            pieces = doc["pieces"] if frame["k"] is None else within["pieces"]
            table = "".join(pieces[i] for i in frame["t"])
            expected = demo.queries.replays.replay(game_id, frame["v"], seat, events=frame["k"])
            counts = [int(c) for c in re.findall(r'data-count="(\d+)"', table)]
            assert counts == [h["count"] for h in expected["view"]["hands"]], frame
            assert f'data-pile="{len(expected["view"].get("pile", []))}"' in table, frame
        told = demo.queries.replays.replay(game_id, doc["latest"], seat)["log"]
        assert [m["v"] for m in doc["moves"]] == [e["version"] for e in told]
        assert [[x for x in m["lines"] if x is not None] for m in doc["moves"]] == [
            [log_line(x) for x in e["lines"]] for e in told
        ]


def test_verification_runs_once_per_game_not_per_step(demo: Demo) -> None:
    app = create_dashboard(demo.queries, demo.service, access=access_settings())  # a fresh app: nothing verified yet
    browser = Browser(app)  # a finished game: a spectator may check it
    game_id = demo.finished[2]
    meta = {"game": game_id, "latest": demo_latest(demo, game_id), "names": [], "starts": {}}
    first = browser.call([("replay-verify", "children")], [("replay-meta", "data", meta)])
    assert "Verified" in text(first["replay-verify"]["children"])
    assert "What was checked" in text(first["replay-verify"]["children"])
    assert app.digsite.data.verifications.runs == 1
    for version in (2, 3, 4):
        browser.frame(game_id, version)
    browser.frames(game_id, "0", 1)
    route(browser, f"/replay/{game_id}")
    again = browser.call([("replay-verify", "children")], [("replay-meta", "data", meta)])
    assert again == first
    assert app.digsite.data.verifications.runs == 1


def test_a_replay_folds_each_record_once_whatever_its_parts_and_perspectives(demo: Demo) -> None:
    """Every part of a replay starts from the state kept at its boundary (``Data.states``): a whole game's parts,
    for two perspectives, the last part first (a link to the end opens there), fold each record once in all."""
    app = create_dashboard(demo.queries, demo.service, access=access_settings())  # a fresh app: nothing kept yet
    browser = Browser(app)
    game_id = demo.finished[0]
    latest = demo_latest(demo, game_id)
    parts = (latest + CHUNK - 1) // CHUNK
    assert parts >= 3
    for perspective in ("referee", "1"):
        for part in reversed(range(parts)):
            browser.frames(game_id, perspective, part, moves=part == 0)
    assert 0 < app.digsite.data.states.evolved <= latest


# -- players and aggregates ------------------------------------------------------------------------------------


def test_the_player_callback_draws_charts_with_data(org: Browser, demo: Demo) -> None:
    player, other = demo.players[0], demo.players[3]
    out = org.call(
        [("players-content", "children")],
        [
            ("players-player", "value", player["id"]),
            ("players-other", "value", None),
            ("players-kind", "value", "ruins"),
            ("players-size", "value", None),
        ],
    )["players-content"]["children"]
    charts = graphs(out)
    bars = tendency_groups(out)
    # Every chart the catalogue offers per player: a group of bars per group of its tendencies (HTML), a chart for
    # each per-round metric and each breakdown of a table with a seat; and the player's rating (dashboard/ratings.py).
    sections = {f"players-group-{slug(g)}" for g in groups("ruins")}
    rounds = {f"players-round-{m}" for m in metrics("ruins", ("round",))}
    parts = {f"players-breakdown-{b}" for b in per_player_breakdowns("ruins")}
    assert rounds and parts and set(bars) == sections and set(charts) == {*rounds, *parts, "players-rating-chart"}
    charts.pop("players-rating-chart")  # (one series and its band: tests/dashboard/test_ratings.py)
    mine = demo.queries.analytics.tendencies("ruins", player["id"])
    field = demo.queries.analytics.tendencies(
        "ruins", None, n_players=demo.queries.analytics.table_sizes("ruins", player["id"])
    )
    for name, tendencies in bars.items():  # one bar per series for each tendency of the group, each named
        group = next(g for g in groups("ruins") if f"players-group-{slug(g)}" == name)
        assert len(tendencies) == len(groups("ruins")[group]), name
        for rows, metric in zip(tendencies, groups("ruins")[group], strict=True):
            assert [r["who"] for r in rows] == [player["name"], "the field"], name
            assert [r["value"] for r in rows] == pytest.approx(
                [d["metrics"][metric.name]["value"] for d in (mine, field)]
            ), (name, metric.name)
            assert [r["n"] for r in rows] == [d["metrics"][metric.name]["n"] for d in (mine, field)]
    for name, figure in charts.items():
        assert [t["name"].split(" (n=")[0] for t in figure["data"]] == [player["name"], "the field"], name
        assert any(len(t["x"]) for t in figure["data"]), name
    assert f"{mine['games']} finished Ruins game" in text(by_id(out, "players-summary"))
    table = text(by_id(out, "players-table"))
    assert str(mine["metrics"]["pass_rate"]["n"]) in table
    vp = charts["players-round-vp_by_round"]["data"][1]  # the field's
    assert list(vp["y"]) == pytest.approx(
        [r["value"] for r in demo.queries.analytics.per_round("ruins", "vp_by_round")]
    )

    versus = org.call(
        [("players-content", "children")],
        [
            ("players-player", "value", player["id"]),
            ("players-other", "value", other["id"]),
            ("players-kind", "value", "ruins"),
            ("players-size", "value", None),
        ],
    )["players-content"]["children"]
    rates = tendency_groups(versus)["players-group-results"]
    assert rates and all([r["who"] for r in rows] == [player["name"], other["name"]] for rows in rates)

    # At one table size, the field is the games of that size only.
    sizes = {r["n_players"] for r in demo.queries.analytics.by_dimension("ruins", "win_rate", "seat")}
    size = min(sizes)
    sized = org.call(
        [("players-content", "children")],
        [
            ("players-player", "value", player["id"]),
            ("players-other", "value", None),
            ("players-kind", "value", "ruins"),
            ("players-size", "value", size),
        ],
    )["players-content"]["children"]
    field = demo.queries.analytics.tendencies("ruins", None, n_players=size)
    assert f"{field['games']} player-game" in text(by_id(sized, "players-summary"))


def test_the_rounds_per_game_chart_names_each_last_round_as_the_per_round_charts_do() -> None:
    """Not "5" beside charts that call that round the Showdown."""
    lazy = lazy_charts.Lazy("agg-charts")
    named = renderer("ruins").round_name
    rows: list[Count] = [{"value": 4, "n": 1}, {"value": 5, "n": 5}]
    aggregates._counted_chart(lazy, "agg-rounds", "Rounds per game", rows, "last round", named)
    assert lazy.figures["agg-rounds"]["data"][0]["x"] == [named(4), named(5)] and named(5) == "Showdown"


def test_the_aggregates_callbacks_draw_every_chart(org: Browser, demo: Demo) -> None:
    out = org.call(
        [("agg-content", "children")],
        [("agg-kind", "value", "ruins"), ("agg-tournament", "value", None)],
    )
    charts = graphs(out["agg-content"]["children"])
    drawn = tendency_groups(out["agg-content"]["children"], "agg-bars")  # the first screen: HTML, no Plotly
    assert set(drawn) == {"agg-seats", "agg-by-led_round1", "agg-score", "agg-length"}
    rates = {gid: rows for gid, rows in drawn.items() if gid not in ("agg-score", "agg-length")}
    expected = {"agg-rounds"}
    expected |= {f"agg-round-{m}" for m in metrics("ruins", ("round",))}
    expected |= {f"agg-breakdown-{b}" for b in breakdowns("ruins")}
    # A chart of one value compares nothing: it is not drawn, and a sentence says why (the demo's four games
    # all went to the Showdown, so "how games were won" is one bar).
    single = {
        f"agg-breakdown-{b}"
        for b, spec in breakdowns("ruins").items()
        if len(
            {
                tuple(r[c] for c in spec.by)
                for r in demo.queries.analytics.breakdown("ruins", b)
                if r[spec.by[0]] is not None
            }
        )
        == 1
    }
    if len({r["value"] for r in demo.queries.analytics.distributions("ruins")["rounds"]}) == 1:
        single.add("agg-rounds")
    assert "agg-breakdown-win_how" in single
    assert set(charts) == expected - single
    for name in single:
        assert "not drawn" in text(by_id(out["agg-content"]["children"], name)), name
    for name, figure in charts.items():
        assert figure["data"] and any(len(t.get("x") or []) for t in figure["data"]), name
    seats = demo.queries.analytics.by_dimension("ruins", "win_rate", "seat")
    sizes = sorted({int(r["n_players"]) for r in seats})  # a group of bars per table size, the smallest first
    shown = [(r["size"], r["who"], r["value"], r["n"]) for rows in rates["agg-seats"] for r in rows]
    assert shown == [
        (n, f"Seat {r['grp'] + 1}", pytest.approx(r["value"]), r["n"])
        for n in sizes
        for r in seats
        if r["n_players"] == n
    ]
    # the final scores and lengths as HTML columns: every score counted as the read side counts it, a score
    # nobody made an empty column; the lengths in the bins the Plotly histogram drew, every finished game once
    columns = store_texts(out["agg-content"]["children"], "agg-bars")
    spread = demo.queries.analytics.distributions("ruins")
    scores = column_counts(columns["agg-score"])
    assert {label: n for label, n in scores if n} == {str(r["value"]): int(r["n"]) for r in spread["score"]}
    values = [int(r["value"]) for r in spread["score"]]
    assert [label for label, _ in scores] == [str(v) for v in range(min(values), max(values) + 1)]
    lengths = column_counts(columns["agg-length"])
    histogram = figures.histogram(spread["moves"], "Game length", "moves")
    assert lengths == list(zip(histogram.data[0].x, histogram.data[0].y, strict=True))
    assert sum(n for _, n in lengths) == len(demo.finished)
    assert f"(n={len(demo.finished)} games)" in columns["agg-length"]
    how = text(by_id(out["agg-content"]["children"], "agg-breakdown-win_how"))  # the game in play is left out
    assert f"All {len(demo.finished)} counted" in how
    assert (
        sum(r["n"] for r in demo.queries.analytics.breakdown("ruins", "win_how", finished_only=False))
        == len(demo.finished) + 1
    )

    trend = org.call(
        [("agg-trend", "children")],
        [("agg-metric", "value", "final_vp"), ("agg-trend-tournament", "value", demo.tournament)],
    )
    figure = graphs(trend["agg-trend"]["children"])["agg-trend-graph"]
    assert list(figure["data"][0]["y"]) == pytest.approx(
        [r["value"] for r in demo.queries.analytics.trend("final_vp", demo.tournament)]
    )
    nothing = org.call(
        [("agg-trend", "children")],
        [("agg-metric", "value", "final_vp"), ("agg-trend-tournament", "value", None)],
    )
    assert "Choose a tournament" in text(nothing["agg-trend"]["children"])

    # The trend's metrics are one game's: it offers that game's tournaments, and says so for another's.
    others = {demo.queries.lists.game_row(g)["tournament_id"] for games in demo.others.values() for g in games}
    assert others
    offered = by_id(route(org, "/aggregates"), "agg-trend-tournament")["props"]["options"]
    assert demo.tournament in {o["value"] for o in offered} and not others & {o["value"] for o in offered}
    for other in sorted(others):
        answer = org.call(
            [("agg-trend", "children")],
            [("agg-metric", "value", "final_vp"), ("agg-trend-tournament", "value", other)],
        )
        assert "choose one of" in text(answer["agg-trend"]["children"])


def test_every_game_s_pages_draw_its_catalogue_a_game_without_analytics_the_core_figures(
    org: Browser, demo: Demo
) -> None:
    for kind, games in demo.others.items():
        out = org.call([("agg-content", "children")], [("agg-kind", "value", kind), ("agg-tournament", "value", None)])
        charts = graphs(out["agg-content"]["children"])
        charts |= {gid: {} for gid in tendency_groups(out["agg-content"]["children"], "agg-bars")}  # the win rates
        # a chart of one value is a sentence instead (every demo game ran its five rounds)
        charts |= {c["props"]["id"]: {} for c in components(out["agg-content"]["children"], "Div")
                   if c["props"].get("id") and "not drawn" in text(c)}  # fmt: skip
        core = {"agg-seats", "agg-score", "agg-length", "agg-rounds"}
        own = {f"agg-breakdown-{b}" for b in breakdowns(kind)}
        for group, members in groups(kind, ("round",)).items():  # the parts of one whole stacked, else a line each
            own |= {f"agg-stack-{slug(group)}"} if stacked(members) else {f"agg-round-{m.name}" for m in members}
        assert core <= set(charts) and {c for c in set(charts) - core if not c.startswith("agg-by-")} == own
        # the win rates in the catalogue's order, the seat first, drawn or said not drawn
        rated = [i for i in (c["props"].get("id") for c in components(out["agg-content"]["children"], "Div"))
                 if i == "agg-seats" or str(i).startswith("agg-by-")]  # fmt: skip
        dims = [f"agg-by-{n}" for n, d in dimensions_of(kind).items() if d.grain == "seat" and n != "seat"]
        assert rated == ["agg-seats", *dims]
        lengths = column_counts(store_texts(out["agg-content"]["children"], "agg-bars")["agg-length"])  # HTML
        assert sum(n for _, n in lengths) == len(games)
        player = demo.queries.lists.game_row(games[0])["players"][0]["id"]
        page = org.call(
            [("players-content", "children")],
            [
                ("players-player", "value", player),
                ("players-other", "value", None),
                ("players-kind", "value", kind),
                ("players-size", "value", None),
            ],
        )["players-content"]["children"]
        table = text(by_id(page, "players-table"))
        mine = demo.queries.analytics.tendencies(kind, player)
        assert mine["games"] > 0 and "games won" in table and "think time per move" in table
        assert set(mine["metrics"]) >= {"win_rate", "place", "think_ms"}


# -- an empty store --------------------------------------------------------------------------------------------


@pytest.fixture
def empty_app(tmp_path: Any) -> Iterator[Any]:
    db = Database.from_url(f"sqlite:///{tmp_path / 'empty.sqlite'}")
    backends.upgrade(db)
    service = Digsite(Settings(database=db))
    queries = ReadPort.over(service.reader)
    try:
        yield create_dashboard(queries, service, access=access_settings())
    finally:
        queries.close()
        service.close()


def test_an_empty_store_says_so_in_sentences(empty_app: Any) -> None:
    browser = organiser(empty_app)
    assert "No games are in the read models yet" in text(browser.games()["games-results"]["children"])
    assert "No finished games yet" in text(Browser(empty_app).games()["games-results"]["children"])
    players = browser.call(
        [("players-content", "children")],
        [
            ("players-player", "value", None),
            ("players-other", "value", None),
            ("players-kind", "value", "ruins"),
            ("players-size", "value", None),
        ],
    )
    assert "No players yet" in text(players["players-content"]["children"])
    aggregates = browser.call(
        [("agg-content", "children")], [("agg-kind", "value", "ruins"), ("agg-tournament", "value", None)]
    )
    assert "No finished Ruins games" in text(aggregates["agg-content"]["children"])


# -- figures ---------------------------------------------------------------------------------------------------


def test_the_length_histogram_counts_whole_games_in_round_bins() -> None:
    rows = [{"value": 131, "n": 1}, {"value": 139, "n": 2}, {"value": 160, "n": 1}, {"value": 240, "n": 1}]
    bars = figures.histogram(rows, "Game length", "moves").data[0]
    assert sum(bars.y) == 5
    assert bars.x[0].startswith("130")
    assert len(bars.x) <= 12


def test_a_breakdown_leaves_out_groups_without_a_value() -> None:
    """A round the game ended before the seat went out has no place: it is no finishing place."""
    rows = [{"round": 1, "place": 1, "n": 2}, {"round": 1, "place": None, "n": 5}, {"round": 2, "place": 2, "n": 2}]
    fig = figures.breakdown([("Ana", rows)], "finishing place in a round", ("round", "place"), figures.plain_round_name)
    assert list(fig.data[0].x) == ["Round 1, 1st", "Round 2, 2nd"] and list(fig.data[0].y) == [50.0, 50.0]
    counted = figures.counts(rows, "finishing place in a round", ("round", "place"))
    assert list(counted.data[0].x) == ["Round 1, 1st", "Round 2, 2nd"] and list(counted.data[0].y) == [2, 2]


def test_the_trend_opens_on_the_newest_tournament_with_finished_games_and_follows_the_filter() -> None:
    from dashboard.pages.aggregates import trend_tournaments

    newest_first = [
        {"tournament_id": "t3", "name": "Just begun", "game": "ruins", "games": 2, "finished": 0, "rounds": 3},
        {"tournament_id": "t2", "name": "Other game", "game": "arnak", "games": 2, "finished": 2, "rounds": 3},
        {"tournament_id": "t1", "name": "Spring Cup", "game": "ruins", "games": 4, "finished": 4, "rounds": 2},
    ]
    options, opened = trend_tournaments(newest_first, "ruins", None)
    assert [o["value"] for o in options] == ["t3", "t1"] and opened == "t1"
    options, opened = trend_tournaments(newest_first, "ruins", "t3")  # the page's filter: that tournament only
    assert [o["value"] for o in options] == ["t3"] and opened == "t3"
    assert trend_tournaments(newest_first, "ruins", "t2") == ([], None)  # another game's tournament


def test_the_trend_offers_no_metric_the_table_size_fixes(org: Browser, demo: Demo) -> None:
    """Every seat's won (or place) averages 1/N (or (N+1)/2) in every round: a constant line, not offered."""
    from service.reading.catalogue import trend_metrics

    for kind in ("ruins", "arnak"):
        offered = trend_metrics(kind)
        assert "win_rate" not in offered and "place" not in offered and offered
    nothing = org.call(
        [("agg-trend", "children")],
        [("agg-metric", "value", "showdown_rate"), ("agg-trend-tournament", "value", demo.tournament)],
    )
    rows = demo.queries.analytics.trend("showdown_rate", demo.tournament)
    figure = graphs(nothing["agg-trend"]["children"])["agg-trend-graph"]
    assert list(figure["data"][0]["text"]) == [f"n={r['n']:g}" for r in rows]  # each point's sample size shown
    assert all(0 <= y <= 100 for y in figure["data"][0]["y"])  # a share, in percent


def test_seat_win_rates_carry_the_fair_share_of_each_table_size(org: Browser, demo: Demo) -> None:
    out = org.call(
        [("agg-content", "children")],
        [("agg-kind", "value", "ruins"), ("agg-tournament", "value", demo.tournament)],
    )
    rates = tendency_groups(out["agg-content"]["children"], "agg-bars")
    seats = demo.queries.analytics.by_dimension("ruins", "win_rate", "seat", tournament=demo.tournament)
    sizes = {int(r["n_players"]) for r in seats}
    assert sizes and min(sizes) > 1
    for graph in ("agg-seats", "agg-by-led_round1"):  # leading round 1 too: per table size, in the tournament
        assert [rows[0]["size"] for rows in rates[graph]] == sorted(sizes), graph
        for rows in rates[graph]:
            # a dashed line at 1/N on every bar's track (0-100% is 100/SHARE_TOP of it)
            fair = 100 * (100 / rows[0]["size"]) / tendency_bars.SHARE_TOP
            assert [r["fair"] for r in rows] == pytest.approx([fair] * len(rows), abs=0.01), graph
    led = demo.queries.analytics.by_dimension("ruins", "win_rate", "led_round1", tournament=demo.tournament)
    shown = [(r["size"], round(r["value"], 9), r["n"]) for rows in rates["agg-by-led_round1"] for r in rows]
    assert sorted(shown) == sorted((int(r["n_players"]), round(r["value"], 9), r["n"]) for r in led)


def test_a_tendency_reads_as_a_share_or_a_number_never_rounded_to_nothing() -> None:
    assert figures.tendency_text(0.25, share=True) == "25%"
    assert figures.tendency_text(0.0042, share=False) == "0.0042"  # sub-millisecond think time
    assert figures.tendency_text(2.5, share=False) == "2.50"
    assert figures.tendency_text(None, share=True) == figures.tendency_text(None, share=False)
