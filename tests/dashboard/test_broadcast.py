"""The broadcast page (``/broadcast/<game>``), called as the browser calls it (no browser): a spectator follows a
broadcast game's public view behind its delay, through the page, its callback and its waiting request; a game not
broadcast, and every broadcast with spectator mode off, is refused by each door alike (403, no data)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import pytest

from dashboard import create_dashboard
from domain.games import game as game_of
from service.commands.application import Digsite, Viewer
from service.commands.broadcasts import set_broadcast
from service.reading.read_port import ReadPort
from service.serving import push
from service.settings import Database, Settings
from service.store import backends
from tests.dashboard.client import Browser, components, text
from tests.dashboard.conftest import TEST_SECRET, access_settings

OUTPUTS = [("broadcast-table", "children"), ("broadcast-log", "children"), ("broadcast-status", "children")]
BEHIND = 2


@dataclass
class Store:
    service: Digsite
    queries: ReadPort
    broadcast: str  # a game of a tournament broadcast BEHIND moves behind
    hidden: str  # a game of a tournament that does not broadcast


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    db = Database.from_url(f"sqlite:///{tmp_path_factory.mktemp('broadcast') / 'broadcast.sqlite'}")
    backends.upgrade(db)
    service = Digsite(Settings(database=db, api_key="organiser-key", secret_key=TEST_SECRET))
    queries = ReadPort.over(service.reader)
    players = [service.create_player(name) for name in ("Ada", "Bea", "Cy")]
    shown, quiet = service.create_tournament("Open", 1, "ruins"), service.create_tournament("Closed", 1, "ruins")
    set_broadcast(service, shown, moves=BEHIND)
    made = [service.create_game("ruins", players, None, {"tournament": t})["id"] for t in (shown, quiet)]
    try:
        yield Store(service, queries, *made)
    finally:
        queries.close()
        service.close()


@pytest.fixture(scope="module")
def app(store: Store) -> Any:
    return create_dashboard(store.queries, store.service, access=access_settings(failures=1000))


def play(service: Digsite, game_id: str) -> None:
    game = service.live.current(UUID(game_id))
    rules = game_of(game.kind).rules
    seat = rules.to_act(game.state)[0]
    service.submit(game_id, Viewer(seat), game.version, rules.action_to_dict(rules.legal_actions(game.state, seat)[0]))


def draw(browser: Browser, game_id: str) -> Any:
    return browser.post_callback(
        OUTPUTS,
        [("broadcast-meta", "data", {"game": game_id}), ("broadcast-refresh", "n_clicks", 0)],
        [("broadcast-meta", "data", {"game": game_id})],
    )


def drawn(browser: Browser, game_id: str) -> dict[str, Any]:
    response = draw(browser, game_id)
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    return dict(json.loads(response.get_data(as_text=True))["response"])


def version_shown(out: dict[str, Any]) -> int:
    [now] = [c for c in components(out["broadcast-status"]["children"]) if c["props"].get("id") == "broadcast-now"]
    return int(now["props"]["data-version"])


def test_a_spectator_follows_a_broadcast_game_behind_its_delay(app: Any, store: Store) -> None:
    spectator = Browser(app)
    page = spectator.route(f"/broadcast/{store.broadcast}")
    assert any(c["props"].get("id") == "broadcast-root" for c in components(page))
    for _ in range(4):
        moves = store.service.live.current(UUID(store.broadcast)).moves
        out = drawn(spectator, store.broadcast)
        assert version_shown(out) == 1 + max(0, moves - BEHIND)
        assert f"{BEHIND} moves behind" in text(out["broadcast-status"]["children"])
        play(store.service, store.broadcast)
    # The table is the renderer's drawing of the public view: no seat's hand of cards is in it.
    referee = store.service.game(store.broadcast)["view"]
    assert all("ruins" not in h for h in drawn_view(store))
    assert any("ruins" in h for h in referee["hands"])


def drawn_view(store: Store) -> list[dict[str, Any]]:
    from service.serving.broadcast import broadcast

    hands: list[dict[str, Any]] = broadcast(store.service, store.broadcast)["game"]["view"]["hands"]  # type: ignore[index]
    return hands


def test_a_game_not_broadcast_is_refused_by_every_door(app: Any, store: Store) -> None:
    spectator = Browser(app)
    page = spectator.route(f"/broadcast/{store.hidden}")
    assert not any(c["props"].get("id") == "broadcast-root" for c in components(page))
    assert "not broadcast" in text(page)
    for game_id in (store.hidden, "00000000-0000-4000-8000-000000000000", "nonsense"):
        refused = draw(spectator, game_id)
        assert refused.status_code == 403 and '"response"' not in refused.get_data(as_text=True)
        assert spectator.get(f"broadcast-live/{game_id}?after=0&wait=0").status_code == 403


def test_with_spectator_mode_off_no_broadcast_is_shown(store: Store) -> None:
    closed = create_dashboard(store.queries, store.service, access=access_settings(failures=1000, spectators=False))
    visitor = Browser(closed)
    assert draw(visitor, store.broadcast).status_code == 403
    assert visitor.get(f"broadcast-live/{store.broadcast}?after=0&wait=0").status_code == 403
    page = visitor.route_response(f"/broadcast/{store.broadcast}")
    assert not any(c["props"].get("id") == "broadcast-root" for c in components(page["page"]["children"]))


def test_the_waiting_request_answers_when_a_new_version_becomes_visible(app: Any, store: Store) -> None:
    spectator = Browser(app)
    while store.service.live.current(UUID(store.broadcast)).moves < BEHIND:  # (so the next move shows one)
        play(store.service, store.broadcast)
    assert spectator.get(f"broadcast-live/{store.broadcast}?after=x").status_code == 400
    shown = json.loads(spectator.get(f"broadcast-live/{store.broadcast}?after=0&wait=0").get_data(as_text=True))
    assert set(shown) == {"version", "status"}
    answer: dict[str, Any] = {}

    def wait() -> None:
        response = spectator.get(f"broadcast-live/{store.broadcast}?after={shown['version']}&wait=20")
        answer.update(json.loads(response.get_data(as_text=True)))

    waiting = threading.Thread(target=wait)
    waiting.start()
    hub = push.hub_for(store.service)
    deadline = time.monotonic() + 30
    while hub.waiting < 1:  # (the move must land while the request waits)
        assert time.monotonic() < deadline, "the request never started waiting"
        time.sleep(0.005)
    play(store.service, store.broadcast)  # one more move: the oldest hidden one becomes visible
    waiting.join(30)
    assert answer == {"version": shown["version"] + 1, "status": "playing"}


def test_the_tournament_page_links_its_broadcast_games_only_while_it_broadcasts(app: Any, store: Store) -> None:
    from service.reading.projections.follower import Follower

    follower = Follower(store.service.settings)
    try:
        follower.catch_up()  # (the tournament page and its list read the read models)
    finally:
        follower.close()
    spectator = Browser(app)
    tournaments = {g: store.service.live.current(UUID(g)).labels["tournament"] for g in (store.broadcast, store.hidden)}
    shown = spectator.route(f"/tournaments/{tournaments[store.broadcast]}")
    links = [
        c["props"]["href"] for c in components(shown) if c["type"] == "Link" and "/broadcast/" in c["props"]["href"]
    ]
    assert [link.rsplit("/", 1)[-1] for link in links] == [store.broadcast]
    quiet = spectator.route(f"/tournaments/{tournaments[store.hidden]}")
    assert not any("/broadcast/" in str(c["props"].get("href")) for c in components(quiet))
