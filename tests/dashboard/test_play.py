"""Playing from a seat link, called as the browser calls it (no browser): the play page's callback draws the
seat's own table and offers the engine's legal actions through the game's picker; a move is played for the
session's seat only; a stale move changes nothing and says so; every other visitor is refused with 403 and
no data. The live route answers when the game moves on, to those who may see the game only."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from dashboard import create_dashboard
from dashboard.pages.play import moved_since, refusal_text, still_picked
from dashboard.picker import matching
from domain.errors import NotYourTurn
from domain.games import game
from service.commands.application import Digsite, Viewer
from service.errors import RuleRejected, from_domain
from service.reading.projections.follower import Follower
from service.reading.read_port import ReadPort
from service.reading.replays import Entry
from service.settings import Database, Settings
from service.store import backends
from tests.dashboard.client import Browser, components, organiser, text
from tests.dashboard.conftest import TEST_SECRET, access_settings

RULES = game("ruins").rules
OUTPUTS = [
    ("play-table-html", "data"),
    ("play-log", "children"),
    ("play-status", "children"),
    ("play-picker", "data"),
    ("play-version", "data"),
    ("play-group", "options"),
    ("play-group", "value"),
    ("play-cards", "options"),
    ("play-cards", "value"),
    ("play-message", "children"),
    ("play-form", "hidden"),
    ("play-changed", "children"),
]


@dataclass
class Table:
    service: Digsite
    queries: ReadPort
    game_id: str
    tokens: list[str]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    db = Database.from_url(f"sqlite:///{tmp_path_factory.mktemp('play') / 'play.sqlite'}")
    backends.upgrade(db)
    service = Digsite(Settings(database=db, api_key="organiser-key", secret_key=TEST_SECRET))
    queries = ReadPort.over(service.reader)
    players = [service.create_player(name) for name in ("Ada", "Bea", "Cy")]
    made = service.create_game("ruins", players, seed="play")
    follower = Follower(service.settings)
    try:
        follower.catch_up()  # the games list reads the read models
    finally:
        follower.close()
    try:
        yield Table(service, queries, made["id"], [t["token"] for t in made["tokens"]])
    finally:
        queries.close()
        service.close()


@pytest.fixture(scope="module")
def app(table: Table) -> Any:
    return create_dashboard(table.queries, table.service, access=access_settings(failures=1000))


def seated(app: Any, table: Table, seat: int) -> Browser:
    return seated_in(app, table.tokens[seat], table.game_id)


def seated_in(app: Any, token: str, game_id: str) -> Browser:
    """A browser whose session holds the seat of ``token`` (its seat link opened)."""
    player = Browser(app)
    assert player.get(f"/replay/{game_id}?token={token}").status_code == 200
    return player


def draw(
    browser: Browser,
    table: Table,
    trigger: str = "play-meta",
    chosen: str | None = None,
    shown: Any = None,
    cards: list[Any] | None = None,
    group: str | None = None,
    game_id: str | None = None,
) -> Any:
    """The play page's callback as the browser posts it, fired by ``trigger``."""
    inputs = [
        ("play-meta", "data", {"game": game_id or table.game_id}),
        ("play-refresh", "n_clicks", 1 if trigger == "play-refresh" else 0),
        ("play-submit", "n_clicks", 1 if trigger == "play-submit" else 0),
        ("play-send", "n_clicks", 1 if trigger == "play-send" else 0),
    ]
    body = {
        "output": ".." + "...".join(f"{i}.{p}" for i, p in OUTPUTS) + "..",
        "outputs": [{"id": i, "property": p} for i, p in OUTPUTS],
        "inputs": [{"id": i, "property": p, "value": v} for i, p, v in inputs],
        "state": [
            {"id": "play-option", "property": "value", "value": chosen},
            {"id": "play-craft", "property": "value", "value": None},
            {"id": "play-version", "property": "data", "value": shown},
            {"id": "play-cards", "property": "value", "value": cards or []},
            {"id": "play-group", "property": "value", "value": group},
        ],
        "changedPropIds": [f"{trigger}.{'data' if trigger == 'play-meta' else 'n_clicks'}"],
    }
    return browser.post("_dash-update-component", json=body)


def drawn(browser: Browser, table: Table, **kw: Any) -> dict[str, Any]:
    response = draw(browser, table, **kw)
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    return dict(json.loads(response.get_data(as_text=True))["response"])


def to_act(table: Table) -> int:
    return int(table.service.game(table.game_id)["to_act"][0])


def test_the_seat_sees_its_own_table_and_the_engines_options(app: Any, table: Table) -> None:
    seat = to_act(table)
    player = seated(app, table, seat)
    page = player.route(f"/play/{table.game_id}")
    assert any(c["props"].get("id") == "play-root" for c in components(page))
    out = drawn(player, table)
    now = table.service.game(table.game_id, Viewer(seat))
    picker = out["play-picker"]["data"]
    assert out["play-version"]["data"] == now["version"]
    # Every option is one of the engine's legal actions for this seat, and every legal action is offered once.
    offered = sorted(json.loads(c["value"]) == a for c in picker["choices"] for a in now["legal_actions"])
    assert offered.count(True) == len(now["legal_actions"]) == len(picker["choices"])
    # The cards to pick are this seat's hand only.
    hand = next(h for h in now["view"]["hands"] if h["seat"] == seat)["ruins"]
    assert {int(c["value"]) for c in out["play-cards"]["options"]} <= set(hand)
    assert "Your move" in text(out["play-status"]["children"])
    # moves counted as the games list counts them (the first record sets the game up: no move)
    assert f"{table.queries.lists.game_row(table.game_id)['moves']} moves played" in text(
        out["play-status"]["children"]
    )
    # The other seats' ruins are nowhere in the table drawn for this seat.
    referee = table.service.game(table.game_id)["view"]
    others = [r for h in referee["hands"] if h["seat"] != seat for r in h["ruins"]]
    table_text = out["play-table-html"]["data"]["html"]
    assert others and not any(f"Ruin #{r}:" in table_text for r in others)


def test_a_move_plays_for_the_sessions_seat_and_a_stale_one_changes_nothing(app: Any, table: Table) -> None:
    seat = to_act(table)
    player = seated(app, table, seat)
    out = drawn(player, table)
    version = out["play-version"]["data"]
    choice = matching(out["play-picker"]["data"], None, [])[0]  # a move needing no card (pass, keep day)
    stale = drawn(player, table, trigger="play-submit", chosen=choice["value"], shown=version - 1)
    assert "moved on" in text(stale["play-message"]["children"])
    assert table.service.game(table.game_id)["version"] == version  # nothing was played
    played = drawn(player, table, trigger="play-submit", chosen=choice["value"], shown=version)
    assert "Played" in text(played["play-message"]["children"])
    assert table.service.game(table.game_id)["version"] == version + 1
    assert played["play-version"]["data"] == version + 1
    # Garbage and an action for another seat: one sentence each, nothing played.
    for bad in ("{not json", json.dumps({"type": "pass", "seat": (seat + 1) % 3})):
        refused = drawn(player, table, trigger="play-submit", chosen=bad, shown=version + 1)
        assert text(refused["play-message"]["children"]).endswith(".")
        assert table.service.game(table.game_id)["version"] == version + 1
    # The refusal numbers seats as the page does (from 1: "Playing: seat 1"), not as the engine does (from 0).
    other = (seat + 1) % 3
    refused = drawn(
        player, table, trigger="play-submit", chosen=json.dumps({"type": "pass", "seat": other}), shown=version + 1
    )
    said = text(refused["play-message"]["children"])
    assert f"seat {seat + 1}, not seat {other + 1}" in said and f"seat {seat}," not in said


def test_a_refusal_numbers_the_seats_it_names_as_data_and_nothing_else() -> None:
    """The engine's refusal carries its seats as data: the API's text numbers them from 0, the page from 1; a word
    that only looks like a seat (a name, a card) is left as it is."""
    refused = from_domain(NotYourTurn("it is {turn}'s turn, not {seat}'s", turn=2, seat=0))
    assert (refused.message, refused.code) == ("it is seat 2's turn, not seat 0's", "not_your_turn")
    assert refusal_text(refused) == "It is seat 3's turn, not seat 1's."
    assert refusal_text(RuleRejected("the player named seat 4 has left")) == "The player named seat 4 has left."


def test_the_play_callback_refuses_anyone_without_the_seat(app: Any, table: Table) -> None:
    seat = to_act(table)
    before = table.service.game(table.game_id)["version"]
    action = json.dumps(RULES.action_to_dict(RULES.legal_actions(_state(table), seat)[0]))
    for visitor in (Browser(app), organiser(app), seated(app, table, (seat + 1) % 3)):
        if visitor.session_cookie() and "Player" in text(visitor.route_response("/games")["account"]["children"]):
            # Another seat's player: it sees its own table, but a move for this seat is the engine's refusal.
            out = drawn(visitor, table, trigger="play-submit", chosen=action, shown=before)
            assert "seat" in text(out["play-message"]["children"])
            continue
        for trigger in ("play-meta", "play-submit", "play-send"):  # (the form's button and the table's)
            response = draw(visitor, table, trigger=trigger, chosen=action, shown=before)
            assert response.status_code == 403
            assert '"response"' not in response.get_data(as_text=True)
    # Without the dashboard's Origin (another site posting), refused before any callback runs.
    player = seated(app, table, seat)
    player.origin = "http://evil.example"
    assert draw(player, table, trigger="play-submit", chosen=action, shown=before).status_code == 403
    assert table.service.game(table.game_id)["version"] == before


def test_the_live_route_answers_when_the_game_moves_on(app: Any, table: Table) -> None:
    seat = to_act(table)
    watcher = seated(app, table, (seat + 1) % 3)
    version = table.service.game(table.game_id)["version"]
    assert Browser(app).get(f"live/{table.game_id}?after={version}&wait=0").status_code == 403
    assert watcher.get(f"live/{table.game_id}?after=x").status_code == 400
    quiet = json.loads(watcher.get(f"live/{table.game_id}?after={version}&wait=0").get_data(as_text=True))
    assert quiet["version"] == version and set(quiet) <= {"version", "status", "to_act", "retry_after"}
    answer: dict[str, Any] = {}

    def wait() -> None:
        response = watcher.get(f"live/{table.game_id}?after={version}&wait=20")
        answer.update(json.loads(response.get_data(as_text=True)))

    waiting = threading.Thread(target=wait)
    started = time.monotonic()
    waiting.start()
    legal = RULES.legal_actions(_state(table), seat)
    table.service.submit(table.game_id, Viewer(seat), version, RULES.action_to_dict(legal[0]))
    waiting.join(30)
    assert answer["version"] == version + 1
    assert time.monotonic() - started < 20, "the waiting request answered when the move landed, not at its end"
    org = organiser(app)
    assert org.get(f"live/{table.game_id}?after=0&wait=0").status_code == 200


def test_the_organisers_list_says_who_is_to_act_and_since_when(app: Any, table: Table) -> None:
    found = organiser(app).games(status="playing")
    body = json.dumps(found["games-results"]["children"])
    now = table.service.game(table.game_id)
    assert f"to act: {now['players'][now['to_act'][0]]['name']}" in body
    assert now["updated_at"] in body
    assert "to act:" not in json.dumps(Browser(app).games()["games-results"]["children"])


def _state(table: Table) -> Any:
    return table.service.live.current(__import__("uuid").UUID(table.game_id)).state


def test_crafting_is_offered_for_the_move_chosen_and_plays(app: Any, table: Table) -> None:
    """Play on until the seat to act has a play that can be crafted (the engine's ``craft_options``); the
    crafting callback offers exactly its crafted forms, and one of them is played through the page's callback."""
    from service.reading.crafting import crafted

    service, rng = table.service, __import__("random").Random("craft")
    for _ in range(300):
        now = service.game(table.game_id)
        assert now["status"] == "playing", "no craftable play came up"
        seat = now["to_act"][0]
        seen = service.game(table.game_id, Viewer(seat))
        plays = [a for a in seen["legal_actions"] if a["type"] == "play"]
        forms = next(
            ((a, f) for a in plays if (f := crafted(service, table.game_id, Viewer(seat), seen["version"], a))), None
        )
        if forms:
            break
        service.submit(table.game_id, Viewer(seat), seen["version"], rng.choice(seen["legal_actions"]))
    assert forms
    base, found = forms
    chosen = json.dumps(base, sort_keys=True, separators=(",", ":"))
    outputs = [
        ("play-craft", "options"),
        ("play-craft", "value"),
        ("play-craft-box", "hidden"),
        ("play-craft-picker", "data"),
    ]
    inputs = [("play-option", "value", chosen)]
    state = [("play-version", "data", seen["version"]), ("play-meta", "data", {"game": table.game_id})]
    for stranger in (Browser(app), organiser(app)):
        assert stranger.post_callback(outputs, inputs, state).status_code == 403
    player = seated(app, table, seat)
    out = player.call(outputs, inputs, state)
    offered = [json.loads(o["value"]) for o in out["play-craft"]["options"] if o["value"]]
    assert offered == found and out["play-craft-box"]["hidden"] is False
    assert all(o["label"] for o in out["play-craft"]["options"])
    # The same forms for the table, each marked with what its crafting adds (a market's discovery, a claim).
    named = out["play-craft-picker"]["data"]
    assert [json.loads(c["value"]) for c in named] == found
    for form in named:
        action = json.loads(form["value"])
        bought = {f"discovery:{p['discovery']}" for p in action.get("purchases") or []}
        claimed = {f"claim:{seat}"} if action.get("claims") else set()
        assert set(form["marks"]) == bought | claimed and form["marks"]
    # Each is drawn pickable on the seat's own table (a market's discovery, the seat's claims in the scoreboard).
    from dashboard.games import renderer
    from dashboard.html_text import to_html

    players = [{"seat": s, "name": p["name"]} for s, p in enumerate(seen["players"])]
    frame = {"view": seen["view"], "players": players, "to_act": [seat], "version": seen["version"], "last": None}
    drawn = to_html(renderer("ruins").draw_table(frame))
    for mark in {m for form in named for m in form["marks"]}:
        assert f'data-pick="{mark}"' in drawn, mark
    # A stale version offers no crafting (the move itself would be refused as stale).
    stale = player.call(outputs, inputs, [("play-version", "data", seen["version"] - 1), state[1]])
    assert stale["play-craft-box"]["hidden"] is True
    # Played with its crafting: the engine records the crafted play.
    body = {
        "output": ".." + "...".join(f"{i}.{p}" for i, p in OUTPUTS) + "..",
        "outputs": [{"id": i, "property": p} for i, p in OUTPUTS],
        "inputs": [
            {"id": "play-meta", "property": "data", "value": {"game": table.game_id}},
            {"id": "play-refresh", "property": "n_clicks", "value": 0},
            {"id": "play-submit", "property": "n_clicks", "value": 1},
            {"id": "play-send", "property": "n_clicks", "value": 0},
        ],
        "state": [
            {"id": "play-option", "property": "value", "value": chosen},
            {"id": "play-craft", "property": "value", "value": out["play-craft"]["options"][1]["value"]},
            {"id": "play-version", "property": "data", "value": seen["version"]},
            {"id": "play-cards", "property": "value", "value": []},
            {"id": "play-group", "property": "value", "value": None},
        ],
        "changedPropIds": ["play-submit.n_clicks"],
    }
    response = player.post("_dash-update-component", json=body)
    assert response.status_code == 200
    last = service.log(table.game_id, after=seen["version"])[0]
    played = json.loads(out["play-craft"]["options"][1]["value"])
    assert last["body"]["action"] == played and (played.get("purchases") or played.get("claims"))


def test_a_move_that_is_never_crafted_has_no_crafting(app: Any, table: Table) -> None:
    from service.reading.crafting import crafted

    now = table.service.game(table.game_id)
    seat = now["to_act"][0]
    seen = table.service.game(table.game_id, Viewer(seat))
    for action in seen["legal_actions"]:
        if action["type"] != "play":
            assert crafted(table.service, table.game_id, Viewer(seat), seen["version"], action) == []


def test_every_card_the_picker_offers_is_pickable_on_the_table_and_no_other_seats_card(app: Any, table: Table) -> None:
    """The table marks each ruin in the seat's hand with the picker's value for it (``data-pick``), so a pick on
    the table ticks the very box the form offers: every offered card is on the table exactly once, and another
    seat's ruins, which it may not see, are not there to pick."""
    seat = to_act(table)
    out = drawn(seated(app, table, seat), table)
    html_text = out["play-table-html"]["data"]["html"]
    offered = [c["value"] for c in out["play-cards"]["options"]]
    assert offered, "a position where the seat has ruins to pick"
    for value in offered:
        assert html_text.count(f'data-pick="{value}"') == 1, value
    referee = table.service.game(table.game_id)["view"]
    others = [r for h in referee["hands"] if h["seat"] != seat for r in h["ruins"]]
    assert others and not any(f'data-pick="{r}"' in html_text for r in others)


def test_the_last_move_is_said_as_this_seat_may_read_it(app: Any, table: Table) -> None:
    """After a move sent from under the table, a line says who made it and what it did (the log's last record,
    told for this reader)."""
    seat = to_act(table)
    player = seated(app, table, seat)
    out = drawn(player, table)
    choice = matching(out["play-picker"]["data"], None, [])[0]
    played = drawn(player, table, trigger="play-send", chosen=choice["value"], shown=out["play-version"]["data"])
    assert "Played" in text(played["play-message"]["children"])
    names = [p["name"] for p in table.service.game(table.game_id)["players"]]
    said = text(played["play-changed"]["children"])
    assert said.startswith(f"Last move ({played['play-version']['data'] - 1}), {names[seat]}: "), said
    assert table.service.game(table.game_id)["version"] == played["play-version"]["data"]


def test_a_refresh_on_the_table_shown_keeps_what_the_player_picked(app: Any, table: Table) -> None:
    """The page looks again when the live channel says so (and after its own move): when the game has not moved
    on from the table shown, the table, the picker and the picks are left as they are (nothing of them is sent
    back), so a ruin picked on the table does not vanish; when it has moved on, they are drawn anew."""
    seat = to_act(table)
    player = seated(app, table, seat)
    version = drawn(player, table)["play-version"]["data"]
    same = drawn(player, table, trigger="play-refresh", shown=version)
    assert "play-status" in same
    assert not {"play-cards", "play-picker", "play-table-html", "play-message"} & set(same)
    moved_on = drawn(player, table, trigger="play-refresh", shown=version - 1)
    assert {"play-cards", "play-picker", "play-table-html"} <= set(moved_on)
    assert "play-message" not in moved_on  # (the last send's "Played." stays until the next send)


def test_a_pick_stands_when_another_seat_s_night_flip_lands(app: Any, table: Table) -> None:
    """The night flip is chosen by every seat at once: another seat's flip landing while this seat is picking its
    own moves the game on without changing what this seat may choose. The page draws the new table, but the ruin
    picked and the move chosen stand (the move named to the page's script as the picker's ``kept``); a pick the
    new table no longer offers goes; after the seat's own move nothing is kept."""
    players = [table.service.create_player(name) for name in ("Ivy", "Jo", "Kit")]
    made = table.service.create_game("ruins", players, seed="kept-pick")
    game_id = made["id"]
    assert set(table.service.game(game_id)["to_act"]) == {0, 1, 2}
    player = seated_in(app, made["tokens"][0]["token"], game_id)
    first = drawn(player, table, game_id=game_id)
    version, picker = first["play-version"]["data"], first["play-picker"]["data"]
    ruin = next(c["value"] for c in picker["cards"])
    chosen = matching(picker, None, [ruin])[-1]["value"]
    assert json.loads(chosen)["ruin"] is not None
    table.service.submit(game_id, Viewer(1), version, {"type": "flip", "seat": 1, "ruin": None})
    moved_on = drawn(
        player, table, trigger="play-refresh", shown=version, cards=[ruin, "gone"], chosen=chosen, game_id=game_id
    )
    assert moved_on["play-version"]["data"] == version + 1
    assert moved_on["play-cards"]["value"] == [ruin]
    assert moved_on["play-picker"]["data"]["kept"] == chosen
    assert moved_on["play-picker"]["data"]["stands"] is True  # (the script keeps a move chosen since, too)
    # The seat's own move: the next table starts with nothing picked.
    played = drawn(
        player, table, trigger="play-submit", shown=version + 1, cards=[ruin], chosen=chosen, game_id=game_id
    )
    assert played["play-version"]["data"] == version + 2
    assert played["play-cards"]["value"] == [] and not {"kept", "stands"} & set(played["play-picker"]["data"] or {})


def test_a_refresh_sent_before_the_seat_s_own_move_landed_keeps_no_pick(app: Any, table: Table) -> None:
    """The page's refresh can be sent while the seat's own move is on its way (another seat's move lands meanwhile):
    it carries the pick that move was made with and the version before it, and its answer lands after the move's.
    The seat's own move is among the records since, so nothing is kept, even cards the next table still offers (a
    person's next turn began with the cards of their last one picked, in a tournament's browser run)."""
    players = [table.service.create_player(name) for name in ("Lee", "Mo")]
    made = table.service.create_game("ruins", players, seed="raced-pick")
    game_id = made["id"]
    player = seated_in(app, made["tokens"][0]["token"], game_id)
    first = drawn(player, table, game_id=game_id)
    version, picker = first["play-version"]["data"], first["play-picker"]["data"]
    ruin = next(c["value"] for c in picker["cards"])
    chosen = matching(picker, None, [ruin])[-1]["value"]
    table.service.submit(game_id, Viewer(0), version, json.loads(chosen))  # the seat's own flip
    table.service.submit(game_id, Viewer(1), version + 1, {"type": "flip", "seat": 1, "ruin": None})
    while 0 not in (now := table.service.game(game_id))["to_act"]:  # the other seat plays on to this seat's turn
        seen = table.service.game(game_id, Viewer(1))
        table.service.submit(game_id, Viewer(1), seen["version"], seen["legal_actions"][0])
    offered = drawn(player, table, game_id=game_id)["play-cards"]["options"]
    assert offered, "the next table offers this seat cards (else nothing could be kept)"
    everything = [o["value"] for o in offered]
    raced = drawn(
        player, table, trigger="play-refresh", shown=version, cards=everything, chosen=chosen, game_id=game_id
    )
    assert raced["play-version"]["data"] == now["version"] > version + 1
    assert raced["play-cards"]["value"] == [] and not {"kept", "stands"} & set(raced["play-picker"]["data"] or {})


def test_a_pick_is_kept_only_when_the_log_shows_no_own_move_since_the_version_shown() -> None:
    """``moved_since`` on a log of versions 5 to 7 (6: no seat's record, 7: seat 0's move)."""
    log = [Entry(5, 1, []), Entry(6, None, []), Entry(7, 0, [])]
    assert not moved_since(log, 2, 5)  # only others' records since: the pick may stand
    assert moved_since(log, 0, 5)  # the seat's own move since
    assert not moved_since(log, 0, 7) and not moved_since(log, 1, 5)  # (seat 1's move is version 5, shown)
    assert moved_since(log, 2, 3)  # version 4 is not in the log: it cannot be told, nothing is kept
    assert moved_since(log, 2, None)


def test_a_redraw_keeps_the_kind_of_move_picked_where_the_new_table_offers_it() -> None:
    """``still_picked`` alone, for a game whose picker has kinds of move (no game now has another seat move while
    this seat picks among several kinds, so no table reaches this yet): the kind picked stands when offered."""

    def out(groups: list[str]) -> tuple[Any, ...]:
        drawn = [None] * len(OUTPUTS)
        drawn[OUTPUTS.index(("play-group", "options"))] = [{"label": g, "value": g} for g in groups]
        drawn[OUTPUTS.index(("play-group", "value"))] = groups[0] if groups else None
        drawn[OUTPUTS.index(("play-cards", "options"))] = []
        return tuple(drawn)

    value = OUTPUTS.index(("play-group", "value"))
    assert still_picked(out(["Play", "Dig"]), [], "Dig", None)[value] == "Dig"
    assert still_picked(out(["Play", "Rest"]), [], "Dig", None)[value] == "Play"
