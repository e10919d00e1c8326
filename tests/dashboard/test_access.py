"""Who may see what on the dashboard, proven without a browser: Dash's own endpoints (``/_dash-layout``,
``/_dash-update-component``) and the sign-in endpoints called with Flask's test client, each refusal checked
by what comes back. The lists and statistics are SQL on either backend, so every test runs on SQLite and on
PostgreSQL.

The store: a finished tournament (two games), then two games still in play (one far enough into its second
round to have statistics of its own, with a player who plays no other game), with the read models caught up.
"""

from __future__ import annotations

import gzip
import json
import random
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from itsdangerous import TimestampSigner, URLSafeTimedSerializer

from dashboard import create_dashboard
from dashboard.access import HIDDEN_GAME, ORGANISER, SPECTATOR, AccessSettings, Visitor, perspectives
from domain.games import game as _game
from service.bots.simulation import run_tournament
from service.commands.application import Digsite, Viewer
from service.reading.projections.follower import Follower
from service.reading.read_port import ReadPort
from service.serving.throttle import Throttle
from service.settings import Database, Settings
from service.store import backends
from tests.dashboard.client import (
    ORIGIN,
    Browser,
    by_id,
    graphs,
    hands,
    ids,
    listed,
    organiser,
    replay_root,
    text,
)
from tests.dashboard.client import perspectives as offered
from tests.dashboard.conftest import TEST_SECRET, access_settings
from tests.service.serving.test_throttle import Clock

RUINS_BOTS = _game("ruins").bots


@dataclass
class Venue:
    service: Digsite
    queries: ReadPort
    tournament: str
    finished: list[str]
    live: str  # in play, into its second round; seat 1 is the lurker
    other: str  # another game in play
    tokens: dict[str, list[str]]  # game id -> its seat tokens
    lurker: str  # a player seated only in the live game
    before: dict[str, Any]  # the statistics when only the finished games existed


def _play(service: Digsite, game_id: str, bots: list[Any], done: Callable[[list[dict[str, Any]]], bool]) -> None:
    """Bots play the game's moves until ``done(records)`` (never to its end)."""
    from domain.games import game as game_of

    rules, rng, guess = game_of("ruins").rules, random.Random(game_id), 0
    for _ in range(400):
        if done(service.stored_records(game_id)):
            return
        seen = service.game(game_id, Viewer(guess))
        if guess not in seen["to_act"]:
            guess = seen["to_act"][0]
            seen = service.game(game_id, Viewer(guess))
        legal = [rules.action_from_dict(a) for a in seen["legal_actions"]]
        action = bots[guess].choose(seen["view"], legal, rng)
        result = service.submit(game_id, Viewer(guess), seen["version"], rules.action_to_dict(action))
        assert result["status"] == "playing", "the game ended before the test had what it needed"
        guess = result["to_act"][0] if result["to_act"] else guess
    raise AssertionError("the game never reached the wanted point")


def _in_round_2(records: list[dict[str, Any]]) -> bool:
    return any(
        e["type"] == "RoundDealt" and e["round"] == 2
        for r in records
        if r["type"] == "move"
        for e in r["body"]["events"]
    )


def _statistics(queries: ReadPort, finished_only: bool) -> dict[str, Any]:
    return {
        "players": sorted(str(p["player_id"]) for p in queries.lists.players(finished_only)),
        "tournaments": [(t["tournament_id"], t["games"]) for t in queries.lists.tournaments(finished_only)],
        "places": queries.analytics.breakdown("ruins", "places", finished_only=finished_only),
        "vp": queries.analytics.per_round("ruins", "vp_by_round", finished_only=finished_only),
        "torches": queries.analytics.per_round("ruins", "torches_by_round", finished_only=finished_only),
        "purchases": sorted(
            (r["effect"], r["position"], r["n"])
            for r in queries.analytics.breakdown("ruins", "discoveries", finished_only=finished_only)
        ),
    }


def _catch_up(settings: Settings) -> None:
    follower = Follower(settings)
    try:
        follower.catch_up()
    finally:
        follower.close()


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def venue(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venue]:
    schema = None
    if request.param == "sqlite":
        db = Database.from_url(f"sqlite:///{tmp_path_factory.mktemp('access') / 'venue.sqlite'}")
    else:
        base = request.getfixturevalue("postgres_url")
        schema = f"digsite_dash_{secrets.token_hex(6)}"
        db = Database.from_url(f"{base}{'&' if '?' in base else '?'}schema={schema}")
    backends.upgrade(db)
    settings = Settings(database=db, api_key="organiser-key", secret_key=TEST_SECRET)
    service = Digsite(settings)
    queries = ReadPort.over(service.reader)
    try:
        cup = run_tournament(service, kind="ruins", players=3, games=2, pool=3, seed="door", name="Door Cup")
        _catch_up(settings)
        before = _statistics(queries, finished_only=False)  # nothing is in play yet: all of it is finished
        pool = cup.pool
        bots = [RUINS_BOTS.from_record(p["bot"]) for p in pool]
        lurker = service.create_player("Lurker", kind="bot", bot=pool[2]["bot"])
        labels = {"tournament": cup.id, "round": 2, "table": 7}
        live = service.create_game("ruins", [pool[0]["id"], lurker], labels=labels, seed="live")
        _play(service, live["id"], [bots[0], bots[2]], _in_round_2)
        other = service.create_game("ruins", [pool[1]["id"], pool[2]["id"]], seed="other")
        _play(service, other["id"], [bots[1], bots[2]], lambda records: len(records) >= 4)
        _catch_up(settings)
        yield Venue(
            service=service,
            queries=queries,
            tournament=cup.id,
            finished=[g.id for g in cup.games],
            live=live["id"],
            other=other["id"],
            tokens={g["id"]: [t["token"] for t in g["tokens"]] for g in (live, other)},
            lurker=lurker,
            before=before,
        )
    finally:
        queries.close()
        service.close()
        if schema is not None:
            import psycopg

            with psycopg.connect(db.psycopg_conninfo(), autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture(scope="module")
def app(venue: Venue) -> Any:
    """The dashboard as deployed by default: spectator mode on."""
    return create_dashboard(venue.queries, venue.service, access=access_settings(failures=1000))


@pytest.fixture
def closed(venue: Venue) -> Any:
    """The dashboard with spectator mode off (DIGSITE_DASHBOARD_SPECTATORS=0)."""
    return create_dashboard(venue.queries, venue.service, access=access_settings(spectators=False, failures=1000))


def _names(venue: Venue, game_id: str) -> list[str]:
    return [p["name"] for p in venue.service.game(game_id)["players"]]


def _refused(response: Any) -> None:
    """A refused callback or replay part: HTTP 403, and no data (no Dash response body, no frame)."""
    assert response.status_code == 403, response.get_data(as_text=True)[:500]
    body = response.get_data(as_text=True)
    assert '"response"' not in body and '"frames"' not in body and '"pieces"' not in body


def _found(browser: Browser, picker: str, typed: str) -> set[str] | None:
    """The players a player dropdown offers once ``typed`` is typed in it (None: the options stay as they were)."""
    response = browser.post_callback(
        [(picker, "options")], [(picker, "search_value", typed)], [(picker, "value", None)]
    )
    if response.status_code == 204:  # (Dash's answer to PreventUpdate)
        return None
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    options = json.loads(response.get_data(as_text=True))["response"][picker]["options"]
    return {o["value"] for o in options}


def _every_perspective(venue: Venue, game_id: str) -> list[str]:
    return ["referee", *(str(s) for s in range(len(_names(venue, game_id))))]


# -- the store is what the tests think it is --------------------------------------------------------------------


def test_the_venue_has_games_in_play_with_secrets(venue: Venue) -> None:
    for game_id in (venue.live, venue.other):
        assert venue.queries.lists.game_row(game_id)["status"] == "playing"
        referee = venue.service.game(game_id)
        assert referee["seed"] is None
    assert _statistics(venue.queries, finished_only=False) != venue.before  # the live game counts for organisers


# -- without signing in: finished games only --------------------------------------------------------------------


def test_the_shell_holds_no_data(app: Any, venue: Venue) -> None:
    anyone = Browser(app)
    for path in ("/", "/games", f"/replay/{venue.live}", "/_dash-layout", "/_dash-dependencies"):
        response = anyone.get(path)
        assert response.status_code == 200, path
        body = response.get_data(as_text=True)
        assert venue.live not in body.replace(f"/replay/{venue.live}", "") and "Lurker" not in body, path
    layout = json.loads(anyone.get("/_dash-layout").get_data(as_text=True))
    assert {"page", "nav", "account", "url", "go"} <= ids(layout)
    assert not by_id(layout, "page")["props"].get("children")


def test_a_spectators_games_list_has_no_game_in_play(app: Any, venue: Venue) -> None:
    anyone = Browser(app)
    out = anyone.games()
    assert sorted(listed(out)) == sorted(venue.finished)
    assert f"of {len(venue.finished)} games" in text(out["games-page"]["children"])
    assert listed(anyone.games(status="playing")) == []
    assert listed(anyone.games(player=venue.lurker)) == []
    assert sorted(listed(anyone.games(tournament=venue.tournament))) == sorted(venue.finished)
    assert listed(anyone.games(round=2)) == [g for g in venue.finished if g in listed(anyone.games(round=2))]
    page = anyone.route("/games")
    assert by_id(page, "games-results")
    status = by_id(page, "games-status")["props"]["options"]
    assert [o["value"] for o in status] == ["over"]
    tournaments = text(json.dumps(by_id(page, "games-tournament")["props"]["options"]))
    assert f"({len(venue.finished)} games)" in tournaments  # the games in play are not counted
    assert "Lurker" not in json.dumps(page)
    assert venue.live not in json.dumps(page) and venue.other not in json.dumps(page)


def test_the_route_to_a_live_game_shows_nothing_of_it(app: Any, venue: Venue) -> None:
    anyone = Browser(app)
    for game_id in (venue.live, venue.other):
        for search in ("", "?seat=referee", "?seat=0", "?seat=1&v=3"):
            page = anyone.route(f"/replay/{game_id}", search)
            assert HIDDEN_GAME in text(page)
            assert not {"replay-meta", "replay-table", "replay-seat", "replay-vp"} & ids(page)
            dumped = json.dumps(page)
            assert all(name not in dumped for name in _names(venue, game_id))
    # The same answer as for a game that does not exist: trying ids says nothing about games in play.
    missing = anyone.route("/replay/00000000-0000-4000-8000-000000000000")
    live = anyone.route(f"/replay/{venue.live}")
    assert text(missing) == text(live)


def test_the_replay_callbacks_refuse_a_live_game_without_a_session(app: Any, venue: Venue) -> None:
    anyone = Browser(app)
    for game_id in (venue.live, venue.other):
        for seat in _every_perspective(venue, game_id):
            _refused(anyone.frame_response(game_id, 2, seat))
            _refused(anyone.frame_response(game_id, 2, seat, events=1))
        _refused(anyone.verification_response(game_id))
        _refused(anyone.chart_response(game_id))
    # A finished game, though, is public, from every perspective.
    game_id = venue.finished[0]
    for seat in _every_perspective(venue, game_id):
        assert anyone.frame(game_id, 5, seat)["replay-table"]
    verified = anyone.call([("replay-verify", "children")], [("replay-meta", "data", {"game": game_id})])
    assert "Verified" in json.dumps(verified) and "What was checked" in json.dumps(verified)
    assert anyone.chart_response(game_id).status_code == 200


def test_spectator_statistics_come_from_finished_games_only(app: Any, venue: Venue) -> None:
    assert _statistics(venue.queries, finished_only=True) == venue.before
    anyone = Browser(app)
    players = anyone.route("/players")
    assert by_id(players, "players-player")["props"]["options"] == []  # (found as a name is typed)
    assert "Lurker" not in json.dumps(players)
    for picker in ("players-player", "players-other", "games-player", "games-winner"):
        assert venue.lurker not in _found(anyone, picker, "lurk")  # no finished game: not the spectators'
        assert _found(anyone, picker, " ") is None  # (nothing typed: the options stay)
    seated = venue.queries.lists.games(status="over")["rows"][0]["players"][0]
    player = seated["id"]
    assert player in (_found(anyone, "players-player", seated["name"].upper()) or ())
    out = anyone.call([("players-content", "children")], _player_inputs(player))["players-content"]["children"]
    with_live = organiser(app).call([("players-content", "children")], _player_inputs(player))["players-content"][
        "children"
    ]
    # The field's torches per round: the finished games' exactly, for a spectator and an organiser alike (the
    # summary counts finished games, and every chart counts what it says).
    field = _trace(out, "players-round-torches_by_round", "the field")
    assert list(field["y"]) == pytest.approx([float(r["value"]) for r in venue.before["torches"]])
    assert list(field["customdata"]) == [r["n"] for r in venue.before["torches"]]
    alike = _trace(with_live, "players-round-torches_by_round", "the field")
    assert list(alike["customdata"]) == list(field["customdata"])
    aggregates = anyone.call(
        [("agg-content", "children")], [("agg-kind", "value", "ruins"), ("agg-tournament", "value", None)]
    )["agg-content"]["children"]
    everything = organiser(app).call(
        [("agg-content", "children")], [("agg-kind", "value", "ruins"), ("agg-tournament", "value", None)]
    )["agg-content"]["children"]
    # The aggregates' heading counts finished games: an organiser's charts count those too, not the games in
    # play this store also holds (which the read models would add to every per-round figure and breakdown).
    with_play = venue.queries.analytics.per_round("ruins", "torches_by_round", finished_only=False)
    assert sum(r["n"] for r in with_play) > sum(r["n"] for r in venue.before["torches"])
    for seen in (aggregates, everything):
        assert f"Over {len(venue.finished)} finished Ruins games" in text(by_id(seen, "agg-summary"))
        torches = _trace(seen, "agg-round-torches_by_round", "the field")
        assert list(torches["customdata"]) == [r["n"] for r in venue.before["torches"]]
        bought = sum(sum(t["y"]) for t in _figure(seen, "agg-breakdown-discoveries")["data"])
        assert bought == sum(n for _, _, n in venue.before["purchases"])
        claims = sum(sum(t["y"]) for t in _figure(seen, "agg-breakdown-claim_rounds")["data"])
        assert claims == sum(
            r["n"] for r in venue.queries.analytics.breakdown("ruins", "claim_rounds", finished_only=True)
        )
    games = sum(int(r["n"]) for r in venue.queries.analytics.distributions("ruins")["moves"])
    assert games == len(venue.finished)


def _player_inputs(player: str | None) -> list[tuple[str, str, Any]]:
    return [
        ("players-player", "value", player),
        ("players-other", "value", None),
        ("players-kind", "value", "ruins"),
        ("players-size", "value", None),
    ]


def _trace(tree: Any, graph_id: str, name: str) -> dict[str, Any]:
    return next(t for t in _figure(tree, graph_id)["data"] if t["name"].split(" (n=")[0] == name)


def _figure(tree: Any, graph_id: str) -> dict[str, Any]:
    found = graphs(tree)
    assert graph_id in found, f"no graph {graph_id}"
    return dict(found[graph_id])


# -- a player's seat --------------------------------------------------------------------------------------------


def _open_seat(app: Any, game_id: str, token: str, seat: int) -> Browser:
    player = Browser(app)
    response = player.get(f"/replay/{game_id}?v=2&token={token}")
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert token not in body  # the page moving the browser on does not repeat the token
    assert f'href="/replay/{game_id}?v=2&amp;seat={seat}"' in body
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert "no-store" in response.headers["Cache-Control"]
    cookie = response.headers.getlist("Set-Cookie")
    session = next(c for c in cookie if c.startswith("digsite_session="))
    assert "HttpOnly" in session and "SameSite=Strict" in session and "Max-Age=" in session
    assert token not in session
    return player


def test_the_early_first_part_is_the_perspective_the_page_shows_and_nothing_more(app: Any, venue: Venue) -> None:
    """The page's head asks for the first part before the page is built (``early=1``): the server answers with the
    perspective the page will show this visitor (the one named if they may take it), and a visitor who may not
    see the game gets no frame at all (204, an empty body)."""
    game_id, seat = venue.live, 1
    player = _open_seat(app, game_id, venue.tokens[game_id][seat], seat)
    for wanted in ("referee", "0", "2", str(seat), None):
        response = player.frames_response(game_id, wanted, early="1")
        assert response.status_code == 200
        found = json.loads(response.get_data(as_text=True))
        assert found["perspective"] == str(seat)
        assert found == player.frames(game_id, str(seat))  # the seat's own first part, nothing else
        if wanted != str(seat):
            _refused(player.frames_response(game_id, wanted))  # (asked for without early=1: refused, as before)
    anyone = Browser(app)
    for game_id in (venue.live, venue.other, "not-a-game"):
        for wanted in ("referee", "0", None):
            response = anyone.frames_response(game_id, wanted, early="1")
            assert response.status_code == 204 and response.get_data() == b""
    assert player.frames_response(venue.live, str(seat), early="1", part_text="999").status_code == 204
    assert player.frames_response(venue.live, str(seat), early="1", part_text="x").status_code == 400


def test_a_seat_link_opens_that_seat_and_nothing_else(app: Any, venue: Venue) -> None:
    game_id, seat = venue.live, 1
    player = _open_seat(app, game_id, venue.tokens[game_id][seat], seat)
    page = player.route(f"/replay/{game_id}", "?v=2&seat=referee")  # asking for the referee gets the seat
    assert offered(page) == [str(seat)] and replay_root(page)["data-seat"] == str(seat)
    version = venue.queries.replays.round_starts(game_id)[2]  # the second round's deal: every hand is full
    mine = player.frame(game_id, version, str(seat))
    assert hands(mine) == ["hidden", "shown"]
    seen = venue.queries.replays.replay(game_id, version, seat)
    assert json.dumps(mine["replay-log"]).count("in secret") == json.dumps(seen["log"]).count("in secret")
    # Not the referee, not the other seat, of this game; nothing at all of the other game in play.
    for perspective in ("referee", "0", "2", "-1", "x", None):
        _refused(player.frame_response(game_id, version, perspective))
        _refused(player.frame_response(game_id, version, perspective, events=1))
    for perspective in _every_perspective(venue, venue.other):
        _refused(player.frame_response(venue.other, 2, perspective))
    assert HIDDEN_GAME in text(player.route(f"/replay/{venue.other}"))
    # The verification says whether each check holds, but not the details (they name the last hash).
    checks = player.call([("replay-verify", "children")], [("replay-meta", "data", {"game": game_id})])
    shown = json.dumps(checks)
    assert "Verified" in shown and "once the game is over" in shown
    last_hash = venue.service.game(game_id)["last_hash"]
    assert last_hash not in shown and "What was checked" not in shown
    # The games list is still a spectator's (finished games), with a way back to the seat.
    assert sorted(listed(player.games())) == sorted(venue.finished)
    games = player.route("/games")
    assert f"/replay/{game_id}?seat={seat}" in json.dumps(games)
    assert venue.other not in json.dumps(games)
    assert "Player (1 seat)" in text(player.route_response("/games")["account"]["children"])


def test_a_seats_replay_document_never_holds_the_referees_frames(app: Any, venue: Venue) -> None:
    """The frames a player's page receives are their seat's, in every part: the other hand is hidden in every
    frame, its ruins are never named, and the log keeps the other seat's secrets as the seat's own log does."""
    game_id, seat = venue.live, 1
    player = _open_seat(app, game_id, venue.tokens[game_id][seat], seat)
    referee = organiser(app).frames(game_id, "referee")
    for part in range(referee["chunks"]):
        mine = player.frames(game_id, str(seat), part)
        assert mine["perspective"] == str(seat)
        for frame in mine["frames"]:
            table = "".join(mine["pieces"][i] for i in frame["t"])
            assert hands({"replay-table": table}) == ["hidden", "shown"], frame
        theirs = organiser(app).frames(game_id, "referee", part)
        assert any(
            "".join(theirs["pieces"][i] for i in f["t"]).count('data-visible="shown"') == 2 for f in theirs["frames"]
        ), "the referee's frames of the same part show both hands (what the seat's must not)"
    told = venue.queries.replays.replay(game_id, referee["latest"], seat)["log"]
    lines = [x for m in mine["moves"] for x in m["lines"] if x is not None]
    assert sum("in secret" in x for x in lines) == sum("in secret" in x for e in told for x in e["lines"]) > 0
    assert lines != [x for m in referee["moves"] for x in m["lines"] if x is not None]


def test_a_perspectives_log_asked_for_alone_is_the_one_its_part_sends_and_guarded_alike(app: Any, venue: Venue) -> None:
    """The page asks for a perspective's log apart from its frames (``log=1``, after the first table): it is the log
    the part sends with ``moves=1``, told for that reader (the other seat's secrets kept), and refused for any
    perspective the visitor may not take, with the same codes as a part."""
    game_id, seat = venue.live, 1
    player = _open_seat(app, game_id, venue.tokens[game_id][seat], seat)

    def log(browser: Browser, perspective: str | None, part: str = "0", **kw: Any) -> Any:
        query = {"part": part, "log": "1", **({"seat": perspective} if perspective is not None else {}), **kw}
        return browser.get(f"replay-frames/{game_id}", query_string=query)

    mine = log(player, str(seat)).get_json()
    assert mine["perspective"] == str(seat) and "frames" not in mine and "pieces" not in mine
    assert mine["moves"] == player.frames(game_id, str(seat), 0, moves=True)["moves"]
    referee = organiser(app).frames(game_id, "referee", 0, moves=True)
    assert log(organiser(app), "referee").get_json()["moves"] == referee["moves"]
    lines = [x for m in mine["moves"] for x in m["lines"] if x is not None]
    told = venue.queries.replays.replay(game_id, referee["latest"], seat)["log"]
    assert sum("in secret" in x for x in lines) == sum("in secret" in x for e in told for x in e["lines"]) > 0
    assert lines != [x for m in referee["moves"] for x in m["lines"] if x is not None]
    for perspective in ("referee", "0", "2", "x", None):
        refused = log(player, perspective)
        _refused(refused)
        assert '"moves"' not in refused.get_data(as_text=True)
    assert log(player, "referee", early="1").get_json() == mine  # (the page's own perspective, chosen as it does)
    assert log(Browser(app), "referee", early="1").status_code == 204
    assert log(Browser(app), "referee").status_code == 403
    assert log(player, str(seat), part="x").get_json()["error"]["code"] == "bad_part"
    assert log(player, str(seat), part="999").get_json()["error"]["code"] == "no_part"


def _tables(doc: dict[str, Any]) -> dict[tuple[int, int | None], tuple[str, int]]:
    """A replay document's frames as the page draws them: each one's table (HTML) and event count, by move, event."""
    return {(f["v"], f["k"]): ("".join(doc["pieces"][i] for i in f["t"]), f["n"]) for f in doc["frames"]}


def test_every_part_of_a_perspective_at_once_is_its_parts_and_guarded_alike(app: Any, venue: Venue) -> None:
    """The page loads a perspective it does not show in one request (``part=all``): every part's frames, each the
    table its part sends, with one table of pieces; refused for any perspective the visitor may not take, with the
    same codes as a part; never with the log or from the page's head."""

    def every(browser: Browser, game_id: str, perspective: str | None, events: int = 0, **kw: Any) -> Any:
        query = {
            "part": "all",
            "events": str(events),
            **({"seat": perspective} if perspective is not None else {}),
            **kw,
        }
        return browser.get(f"replay-frames/{game_id}", query_string=query)

    org = organiser(app)
    for game_id, browser, perspective in (
        (venue.finished[0], org, "referee"),
        (venue.finished[0], org, "1"),
        (venue.live, _open_seat(app, venue.live, venue.tokens[venue.live][1], 1), "1"),
    ):
        for events in (0, 1):
            doc = every(browser, game_id, perspective, events).get_json()
            parts = [browser.frames(game_id, perspective, c, False, bool(events)) for c in range(doc["chunks"])]
            assert doc["perspective"] == perspective and doc["parts"] == list(range(doc["chunks"]))
            assert _tables(doc) == {k: v for part in parts for k, v in _tables(part).items()}
            sent = sum(len(part["pieces"]) for part in parts)  # (a piece several parts share, once)
            assert len(doc["pieces"]) == len(set(doc["pieces"]))
            assert len(doc["pieces"]) < sent or len(parts) == 1
            assert [p["v"] for p in doc.get("points", [])] == [p["v"] for part in parts for p in part.get("points", [])]
    assert org.frames(venue.finished[0], "referee", 0, False)["chunks"] > 1  # (parts to put together)
    player = _open_seat(app, venue.live, venue.tokens[venue.live][1], 1)
    for perspective in ("referee", "0", "2", "x", None):
        _refused(every(player, venue.live, perspective))
    assert every(Browser(app), venue.live, "referee").status_code == 403
    for extra in ({"log": "1"}, {"early": "1"}):  # (the log and the page's head ask for one part)
        assert every(player, venue.live, "1", **extra).get_json()["error"]["code"] == "bad_part"


def test_only_a_game_in_plays_parts_carry_the_vp_charts_points(app: Any, venue: Venue) -> None:
    """A page following a game in play extends its VP chart from its parts' points; a finished game's page never
    does, so its parts do without them (every record evolved and scored before the first table)."""
    org = organiser(app)
    assert "points" not in org.frames(venue.finished[0], "referee", 0, moves=False)
    live = org.frames(venue.live, "referee", 0, moves=False)
    scores = venue.queries.replays.vp_timeline(venue.live)["vp"]
    assert [p["vp"] for p in live["points"]] == scores[: len(live["points"])] and live["points"]


def test_the_replay_document_answers_bad_requests_with_a_code_and_changes_nothing(app: Any, venue: Venue) -> None:
    org = organiser(app)
    game_id = venue.finished[0]
    for query, status, code in (
        ({"seat": "referee", "part": "x"}, 400, "bad_part"),
        ({"seat": "referee", "part": "-1"}, 400, "bad_part"),
        ({"seat": "referee", "part": "999"}, 404, "no_part"),
        ({"seat": "7", "part": "0"}, 403, "denied"),
        ({"seat": "<b>", "part": "0"}, 403, "denied"),
    ):
        response = org.get(f"replay-frames/{game_id}", query_string=query)
        assert response.status_code == status, query
        body = response.get_json()
        assert body["error"]["code"] == code and len(body["error"]["message"].split()) >= 4  # a sentence
        assert "frames" not in body
    assert org.get("replay-frames/not-a-game", query_string={"seat": "referee"}).status_code == 404
    # A spectator asking for a game in play hears what a stranger to any game hears.
    anyone = Browser(app)
    for game_id in (venue.live, "00000000-0000-4000-8000-000000000000"):
        response = anyone.frames_response(game_id, "referee")
        assert response.status_code == 403 and response.get_json()["error"]["message"] == HIDDEN_GAME


def test_a_replay_part_is_drawn_once_and_sent_gzipped(app: Any, venue: Venue) -> None:
    org = organiser(app)
    game_id = venue.finished[1]
    kept = app.digsite.data.documents
    before = kept.built
    plain = org.frames_response(game_id, "0", 0)
    zipped = org.frames_response(game_id, "0", 0, headers={"Accept-Encoding": "gzip"})
    assert kept.built == before + 1, "the second request is answered from what the first drew"
    assert zipped.headers["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain.headers
    assert json.loads(gzip.decompress(zipped.get_data())) == plain.get_json()
    assert len(zipped.get_data()) < len(plain.get_data()) / 4
    assert "no-cache" in plain.headers["Cache-Control"] and "private" in plain.headers["Cache-Control"]


def test_another_games_token_opens_nothing(app: Any, venue: Venue) -> None:
    anyone = Browser(app)
    wrong = anyone.get(f"/replay/{venue.live}?token={venue.tokens[venue.other][0]}")
    assert wrong.status_code == 403
    assert "digsite_session" not in " ".join(wrong.headers.getlist("Set-Cookie"))
    for perspective in _every_perspective(venue, venue.live):
        _refused(anyone.frame_response(venue.live, 2, perspective))
    for token in ("", "not-a-token", "x" * 600):
        assert anyone.get(f"/replay/{venue.live}?token={token}").status_code == 403
    assert anyone.get(f"/replay/not-a-game?token={venue.tokens[venue.live][0]}").status_code == 403
    # A seat of one game is no key to another: holding the other game's seat 0 opens nothing of this one.
    player = _open_seat(app, venue.other, venue.tokens[venue.other][0], 0)
    for perspective in _every_perspective(venue, venue.live):
        _refused(player.frame_response(venue.live, 2, perspective))
    _refused(player.verification_response(venue.live))


def test_the_seat_form_needs_its_csrf_token_and_a_real_token(app: Any, venue: Venue) -> None:
    player = Browser(app)
    csrf = player.csrf()
    token = venue.tokens[venue.live][0]
    assert player.post("seat", data={"game": venue.live, "token": token}).status_code == 403
    assert player.post("seat", data={"game": venue.live, "token": "nope", "csrf": csrf}).status_code == 403
    assert player.session_cookie() is None
    opened = player.post("seat", data={"game": venue.live, "token": token, "csrf": csrf})
    assert opened.status_code == 200 and f"/replay/{venue.live}?seat=0" in opened.get_data(as_text=True)
    assert hands(player.frame(venue.live, 3, "0")) == ["shown", "hidden"]
    _refused(player.frame_response(venue.live, 3, "referee"))


# -- the door itself --------------------------------------------------------------------------------------------


def test_cross_origin_posts_are_refused(app: Any, venue: Venue) -> None:
    org = organiser(app)
    for headers in (
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Origin": "http://localhost.evil.example"},
        {"Referer": "http://evil.example/page"},
    ):
        out = org.post_callback(
            [("replay-verify", "children")], [("replay-meta", "data", {"game": venue.live})], headers=headers
        )
        assert out.status_code == 403, headers
        assert org.post("login", data={"key": "organiser-key", "csrf": org.csrf()}, headers=headers).status_code == 403
        assert org.post("logout", data={"csrf": org.csrf()}, headers=headers).status_code == 403
    silent = Browser(app, origin=None)  # no Origin and no Referer: not trusted either
    silent.client.set_cookie("digsite_session", org.session_cookie() or "", path="/")
    assert silent.games_response().status_code == 403
    referred = silent.post_callback(
        [("replay-verify", "children")],
        [("replay-meta", "data", {"game": venue.live})],
        headers={"Referer": f"{ORIGIN}/replay/{venue.live}"},
    )
    assert referred.status_code == 200  # a Referer from the dashboard itself will do
    assert (
        org.post_callback([("replay-verify", "children")], [("replay-meta", "data", {"game": venue.live})]).status_code
        == 200
    )


def test_a_forged_or_tampered_cookie_counts_for_nothing(
    app: Any, venue: Venue, monkeypatch: pytest.MonkeyPatch
) -> None:
    org = organiser(app)
    real = org.session_cookie()
    assert real
    payload, _, signature = real.rpartition(".")
    ours = URLSafeTimedSerializer(TEST_SECRET.encode(), salt="digsite.dashboard.session")
    claims = ours.loads(real)
    forged = {
        "garbage": "not-a-cookie",
        "tampered signature": f"{payload}.{'A' * len(signature)}",
        "another secret": URLSafeTimedSerializer(b"someone else's secret!", salt="digsite.dashboard.session").dumps(
            claims
        ),
        "another salt": URLSafeTimedSerializer(TEST_SECRET.encode(), salt="other").dumps(claims),
        "expired claims": ours.dumps({**claims, "org_exp": time.time() - 1}),
        "no key fingerprint": ours.dumps({**claims, "org": "0" * 64}),
        "a seat of the live game, unsigned": json.dumps({"sid": "x", "seats": {venue.live: [0, 2e9]}}),
    }
    for what, value in forged.items():
        visitor = Browser(app)
        visitor.set_session_cookie(value)
        assert sorted(listed(visitor.games())) == sorted(venue.finished), what
        for perspective in _every_perspective(venue, venue.live):
            _refused(visitor.frame_response(venue.live, 2, perspective))
        assert "Spectator" in text(visitor.route_response("/")["account"]["children"]), what
    # An old cookie, signed long ago: the signature's own age is checked too.
    old = access_settings(session_hours=1)
    short = create_dashboard(venue.queries, venue.service, access=old)
    stale = Browser(short)
    with monkeypatch.context() as patch:
        patch.setattr(TimestampSigner, "get_timestamp", lambda self: int(time.time()) - 7200)
        old_cookie = ours.dumps({**claims, "org_exp": time.time() + 3600})
    stale.set_session_cookie(old_cookie)
    assert sorted(listed(stale.games())) == sorted(venue.finished)
    # The real cookie, for contrast, opens everything.
    assert venue.live in listed(org.games())


def test_a_signed_in_organiser_sees_everything(app: Any, venue: Venue) -> None:
    org = organiser(app)
    assert sorted(listed(org.games())) == sorted([*venue.finished, venue.live, venue.other])
    page = org.route(f"/replay/{venue.live}", "?seat=referee")
    assert offered(page) == ["referee", "0", "1"]
    version = venue.queries.replays.round_starts(venue.live)[2]
    assert hands(org.frame(venue.live, version)) == ["shown", "shown"]
    for seat in ("0", "1"):
        assert hands(org.frame(venue.live, version, seat)).count("hidden") == 1
    checks = json.dumps(org.call([("replay-verify", "children")], [("replay-meta", "data", {"game": venue.live})]))
    assert "What was checked" in checks
    for picker in ("players-player", "players-other", "games-player", "games-winner"):
        assert venue.lurker in _found(org, picker, "LURK")
    page = org.route("/players", f"?player={venue.lurker}")  # a player in the address is offered
    assert venue.lurker in {o["value"] for o in by_id(page, "players-player")["props"]["options"]}
    assert "Organiser" in text(org.route_response("/")["account"]["children"])


def _guarded(venue: Venue, clock: Clock) -> Any:
    """A dashboard allowing 3 wrong secrets of a kind in a minute, on a clock the test moves."""
    app = create_dashboard(venue.queries, venue.service, access=access_settings(failures=3, window=60))
    app.digsite.gate.throttle = Throttle(3, 60, timer=clock)
    return app


def test_a_wrong_key_is_refused_clearly_and_guessing_is_throttled(venue: Venue) -> None:
    clock = Clock()
    app = _guarded(venue, clock)
    guesser = Browser(app)
    wrong = guesser.sign_in("organiser-kez")
    assert wrong.status_code == 401 and "That is not the organiser key." in wrong.get_data(as_text=True)
    assert guesser.session_cookie() is None
    assert guesser.post("login", data={"key": "organiser-key"}).status_code == 403  # no CSRF token
    assert guesser.post("login", data={"key": "organiser-key", "csrf": "0" * 64}).status_code == 403
    assert guesser.session_cookie() is None
    guesser.sign_in("a")
    guesser.sign_in("b")
    locked = guesser.sign_in()  # the right key, but after three wrong ones in a minute
    assert locked.status_code == 429 and locked.headers["Retry-After"] == "60"
    assert "Too many tries with a wrong organiser key from your network: wait 60 s" in locked.get_data(as_text=True)
    assert guesser.session_cookie() is None
    clock.now += 60  # the minute has passed
    assert guesser.sign_in().status_code == 303


def test_wrong_seat_links_shut_only_their_game_and_say_wait_not_wrong(venue: Venue) -> None:
    """Behind a venue's NAT (one address), one player's wrong links shut neither organiser sign-in nor the other
    players' seat links; their own right link, meanwhile, says how long to wait rather than "does not open"."""
    clock = Clock()
    app = _guarded(venue, clock)
    player = Browser(app)
    for token in ("typo-1", "typo-2", venue.tokens[venue.other][0]):  # (a token of another game is wrong here)
        wrong = player.get(f"/replay/{venue.live}?token={token}")
        assert wrong.status_code == 403 and "does not open a seat" in wrong.get_data(as_text=True)
    right = venue.tokens[venue.live][0]
    shut = player.get(f"/replay/{venue.live}?token={right}")
    page = shut.get_data(as_text=True)
    assert shut.status_code == 429 and shut.headers["Retry-After"] == "60"
    assert "Too many tries with a wrong seat token for this game from your network: wait 60 s" in page
    assert "does not open" not in page and player.session_cookie() is None
    form = player.post("seat", data={"game": venue.live, "token": right, "csrf": player.csrf()})
    assert form.status_code == 429 and "wait 60 s" in form.get_data(as_text=True)
    _open_seat(app, venue.other, venue.tokens[venue.other][1], 1)  # the next player's link, same address
    assert Browser(app).sign_in().status_code == 303  # the organiser, same address
    neighbour = Browser(app)
    neighbour.client.environ_base["REMOTE_ADDR"] = "198.51.100.9"
    assert neighbour.get(f"/replay/{venue.live}?token={right}").status_code == 200
    clock.now += 60
    _open_seat(app, venue.live, right, 0)


def test_wrong_keys_do_not_shut_seat_links(venue: Venue) -> None:
    app = _guarded(venue, Clock())
    guesser = Browser(app)
    for n in range(3):
        guesser.sign_in(f"guess-{n}")
    assert guesser.sign_in().status_code == 429
    _open_seat(app, venue.live, venue.tokens[venue.live][1], 1)


def test_behind_a_trusted_proxy_the_client_it_names_is_counted(venue: Venue) -> None:
    app = create_dashboard(
        venue.queries, venue.service, access=access_settings(failures=3, window=60, trusted_proxies=1)
    )
    guesser, organiser_there = Browser(app), Browser(app)
    guesser.client.environ_base["HTTP_X_FORWARDED_FOR"] = "203.0.113.7"
    organiser_there.client.environ_base["HTTP_X_FORWARDED_FOR"] = "198.51.100.9"
    for n in range(3):
        guesser.sign_in(f"guess-{n}")
    assert guesser.sign_in().status_code == 429
    assert organiser_there.sign_in().status_code == 303  # same proxy, another client


def test_the_trusted_proxies_come_from_the_environment(venue: Venue, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIGSITE_TRUSTED_PROXIES", "1")
    assert AccessSettings.from_env(venue.service.settings).trusted_proxies == 1
    monkeypatch.setenv("DIGSITE_TRUSTED_PROXIES", "a few")
    with pytest.raises(ValueError, match="DIGSITE_TRUSTED_PROXIES"):
        AccessSettings.from_env(venue.service.settings)


def test_the_sign_in_page_and_its_cookie_flags(app: Any, venue: Venue) -> None:
    visitor = Browser(app)
    page = visitor.get("login")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert 'type="password"' in body and 'name="csrf"' in body and "finished games" in body
    assert page.headers["X-Frame-Options"] == "DENY"
    csrf = next(c for c in page.headers.getlist("Set-Cookie") if c.startswith("digsite_csrf="))
    assert "HttpOnly" in csrf and "Secure" not in csrf  # plain HTTP here
    signed = visitor.sign_in()
    assert signed.status_code == 303 and signed.headers["Location"] == "/"
    session = next(c for c in signed.headers.getlist("Set-Cookie") if c.startswith("digsite_session="))
    assert "HttpOnly" in session and "SameSite=Strict" in session and "Path=/" in session
    assert "Secure" not in session
    max_age = int(session.split("Max-Age=")[1].split(";")[0])
    assert 0 < max_age <= 12 * 3600
    # Over HTTPS (here: as a TLS-terminating proxy says), the cookies are Secure.
    https = Browser(app, origin="https://localhost")
    token = https.csrf()
    answer = https.post(
        "login",
        data={"key": "organiser-key", "csrf": token},
        headers={"X-Forwarded-Proto": "https"},
    )
    assert answer.status_code == 303
    assert "Secure" in next(c for c in answer.headers.getlist("Set-Cookie") if c.startswith("digsite_session="))
    always = create_dashboard(venue.queries, venue.service, access=access_settings(secure_cookie="always"))
    assert "Secure" in " ".join(Browser(always).get("login").headers.getlist("Set-Cookie"))
    # Only a path inside the dashboard is a place to go after signing in.
    for target in ("https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:alert(1)"):
        away = Browser(app)
        response = away.post("login", data={"key": "organiser-key", "csrf": away.csrf(), "next": target})
        assert response.headers["Location"] == "/", target
    back = Browser(app)
    there = f"/replay/{venue.live}?v=3"
    response = back.post("login", data={"key": "organiser-key", "csrf": back.csrf(), "next": there})
    assert response.headers["Location"] == there


def test_sign_out_ends_the_session_even_for_a_copied_cookie(app: Any, venue: Venue) -> None:
    org = organiser(app)
    copied = org.session_cookie()
    assert copied and venue.live in listed(org.games())
    assert org.post("logout", data={}).status_code == 403  # sign-out is a form with a CSRF token too
    out = org.post("logout", data={"csrf": org.csrf()})
    assert out.status_code == 303
    assert org.session_cookie() is None
    assert venue.live not in listed(org.games())
    thief = Browser(app)
    thief.set_session_cookie(copied)
    assert venue.live not in listed(thief.games())
    _refused(thief.frame_response(venue.live, 2))


def test_a_new_organiser_key_signs_every_organiser_out(app: Any, venue: Venue) -> None:
    cookie = organiser(app).session_cookie()
    rotated = create_dashboard(venue.queries, venue.service, access=access_settings(api_key="the new organiser key"))
    visitor = Browser(rotated)
    visitor.set_session_cookie(cookie or "")
    assert venue.live not in listed(visitor.games())
    off = create_dashboard(venue.queries, venue.service, access=access_settings(api_key=None))
    nobody = Browser(off)
    nobody.set_session_cookie(cookie or "")
    assert venue.live not in listed(nobody.games())
    page = nobody.get("login").get_data(as_text=True)
    assert "sign-in is off" in page and 'name="key"' not in page


# -- spectator mode off -----------------------------------------------------------------------------------------


def test_spectator_mode_off_refuses_finished_games_too(closed: Any, venue: Venue) -> None:
    anyone = Browser(closed)
    for path in ("/", "/games", "/players", "/aggregates"):
        out = anyone.route_response(path)
        assert out["go"]["href"] == f"/login?next={path.replace('/', '%2F')}"
        assert out["page"]["children"] == [] and out["nav"]["children"] == []
    for game_id in (venue.finished[0], venue.live):
        assert HIDDEN_GAME in text(anyone.route(f"/replay/{game_id}"))
        for perspective in _every_perspective(venue, game_id):
            _refused(anyone.frame_response(game_id, 2, perspective))
        _refused(anyone.verification_response(game_id))
    _refused(anyone.games_response())
    _refused(anyone.post_callback([("games-round", "options")], [("games-tournament", "value", None)]))
    _refused(anyone.post_callback([("players-content", "children")], _player_inputs(None)))
    for picker in ("players-player", "players-other", "games-player", "games-winner"):
        _refused(
            anyone.post_callback([(picker, "options")], [(picker, "search_value", "a")], [(picker, "value", None)])
        )
    _refused(
        anyone.post_callback(
            [("agg-content", "children")], [("agg-kind", "value", "ruins"), ("agg-tournament", "value", None)]
        )
    )
    _refused(
        anyone.post_callback(
            [("agg-trend", "children")], [("agg-metric", "value", "win_rate"), ("agg-trend-tournament", "value", None)]
        )
    )
    _refused(
        anyone.post_callback(
            [
                ("agg-metric", "options"),
                ("agg-metric", "value"),
                ("agg-trend-tournament", "options"),
                ("agg-trend-tournament", "value"),
            ],
            [("agg-kind", "value", "ruins"), ("agg-tournament", "value", None)],
            [("agg-metric", "value", None)],
        )
    )
    assert "organisers only" in anyone.get("login").get_data(as_text=True)
    # A player still reaches their own game, from their seat, and nothing else.
    player = _open_seat(closed, venue.live, venue.tokens[venue.live][0], 0)
    assert hands(player.frame(venue.live, 3, "0")) == ["shown", "hidden"]
    _refused(player.frame_response(venue.finished[0], 2))
    _refused(player.games_response())
    mine = player.route("/games")
    assert f"/replay/{venue.live}?seat=0" in json.dumps(mine) and by_id(mine, "my-games")
    # An organiser sees everything.
    org = organiser(closed)
    assert sorted(listed(org.games())) == sorted([*venue.finished, venue.live, venue.other])
    assert hands(org.frame(venue.finished[0], 5)) == ["shown"] * 3


# -- the decision itself ----------------------------------------------------------------------------------------


def test_the_access_rules_in_one_table() -> None:
    game = "00000000-0000-4000-8000-000000000001"
    player = Visitor(seats={game: 1})
    closed_player = Visitor(seats={game: 1}, spectators=False)
    closed = Visitor(spectators=False)
    everything = ("referee", "0", "1", "2")
    assert perspectives(ORGANISER, game, over=False, seats=3) == everything
    assert perspectives(SPECTATOR, game, over=False, seats=3) == ()
    assert perspectives(SPECTATOR, game, over=True, seats=3) == everything
    assert perspectives(player, game, over=False, seats=3) == ("1",)
    assert perspectives(player, "another game", over=False, seats=3) == ()
    assert perspectives(Visitor(seats={game: 5}), game, over=False, seats=3) == ()
    assert perspectives(closed, game, over=True, seats=3) == ()
    assert perspectives(closed_player, game, over=True, seats=3) == everything
    assert perspectives(closed_player, game, over=False, seats=3) == ("1",)


def test_no_page_reads_around_the_access_check() -> None:
    """The pages hold ``Data`` (every read takes the visitor), never the read port or the service."""
    from pathlib import Path

    pages = Path(__file__).resolve().parents[2] / "dashboard" / "pages"
    for source in pages.glob("*.py"):
        code = source.read_text()
        for reach in (
            "ReadPort",
            "read_port",
            "service.reading.lists",
            "service.reading.analytics",
            ".service",
            "stored_records",
            "._lists",
            "._replays",
            "._analytics",
        ):
            assert reach not in code, (source.name, reach)
