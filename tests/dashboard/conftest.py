"""Dashboard fixtures: one small demo store per session (bot games of every registered game played through
the service, read models caught up), the dashboard served in-process, and ONE headless Chromium per session with a
fresh browser context per test. Every browser test leaves its screenshots under
``artifacts/screenshots/`` at the repository root (named by test), and fails on any browser console
error (a Dash callback that raised shows up there)."""

from __future__ import annotations

import contextlib
import os
import random
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from dashboard.data import MAX_WAIT_SECONDS
from dashboard.pages import aggregates, players
from domain.games import GAMES
from domain.games import game as _game
from service.bots.simulation import run_tournament
from service.commands.application import Digsite, Viewer
from service.reading.projections.follower import Follower
from service.reading.read_port import ReadPort
from service.settings import Database, Settings
from service.store import backends
from tests.stores import Shelf

RUINS_BOTS = _game("ruins").bots

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = os.environ.get("DIGSITE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT_MS = 15_000
# How long a served dashboard's requests may still run after the last test (a live page's waiting request answers
# within MAX_WAIT_SECONDS; a replay's frames take seconds on a loaded machine).
REQUESTS_END_S = 2 * MAX_WAIT_SECONDS + 10
TEST_SECRET = "a test secret that signs the dashboard's sessions"


@dataclass
class Demo:
    service: Digsite
    queries: ReadPort
    tournament: str
    finished: list[str]  # game ids, in play order
    live: str  # a game still in play
    players: list[dict[str, Any]] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)  # the live game's seat tokens, by seat
    # Every other registered game: kind -> its finished demo games (two at a table of 3, one at its smallest).
    others: dict[str, list[str]] = field(default_factory=dict)

    @property
    def every_finished(self) -> list[str]:
        """Every finished game in the store, of every game (the games browser lists them all)."""
        return [*self.finished, *(g for games in self.others.values() for g in games)]


def _play_some(service: Digsite, game_id: str, bots: list[Any], moves: int) -> None:
    """A few moves of a game, leaving it in play."""
    from domain.games import game as game_of

    rules, rng, guess = game_of("ruins").rules, random.Random("live"), 0
    for _ in range(moves):
        seen = service.game(game_id, Viewer(guess))
        if guess not in seen["to_act"]:
            guess = seen["to_act"][0]
            seen = service.game(game_id, Viewer(guess))
        legal = [rules.action_from_dict(a) for a in seen["legal_actions"]]
        action = bots[guess].choose(seen["view"], legal, rng)
        result = service.submit(game_id, Viewer(guess), seen["version"], rules.action_to_dict(action))
        guess = result["to_act"][0] if result["to_act"] else guess


def _demo_settings(db: Database) -> Settings:
    return Settings(database=db, api_key="organiser-key", secret_key=TEST_SECRET)


def _play_the_demo(db: Database) -> dict[str, Any]:
    """A Ruins tournament of 4 three-player bot games over 2 rounds (a pool of 6), plus one game still in
    play; for every other registered game, a small tournament of two games at a table of up to 3 and one
    at its smallest table (a solo game where it has one); read models caught up. Returns the ids ``Demo`` holds."""
    settings = _demo_settings(db)
    service = Digsite(settings)
    try:
        tournament = run_tournament(service, kind="ruins", players=3, games=4, pool=6, seed="dash", name="Spring Cup")
        pool = tournament.pool
        live = service.create_game("ruins", [pool[0]["id"], pool[1]["id"]], labels={"table": 9}, seed="live")
        seated = [RUINS_BOTS.from_record(pool[0]["bot"]), RUINS_BOTS.from_record(pool[1]["bot"])]
        _play_some(service, live["id"], seated, 6)
        others: dict[str, list[str]] = {}
        for kind, found in GAMES.items():
            if kind == tournament.kind:
                continue
            seats = found.schemas.seats
            table = min(max(3, seats.low), seats.high)
            cup = run_tournament(service, kind=kind, players=table, games=2, seed="dash", name=f"{found.title} Cup")
            others[kind] = [g.id for g in cup.games]
            if seats.low < table:
                small = run_tournament(
                    service,
                    kind=kind,
                    players=seats.low,
                    games=1,
                    seed="dash",
                    name=f"{found.title} Cup, {seats.low} seat(s)",
                )
                others[kind].extend(g.id for g in small.games)
    finally:
        service.close()
    follower = Follower(settings)
    try:
        follower.catch_up()
    finally:
        follower.close()
    return {
        "tournament": tournament.id,
        "finished": [g.id for g in tournament.games],
        "live": live["id"],
        "players": pool,
        "tokens": [t["token"] for t in live["tokens"]],
        "others": others,
    }


@pytest.fixture(scope="session")
def demo(tmp_path_factory: pytest.TempPathFactory, stores: Shelf) -> Iterator[Demo]:
    """The demo store (``_play_the_demo``), played once per run and copied for this worker: its tests only read it."""
    built = stores.sqlite("dashboard-demo", _play_the_demo)
    service = Digsite(_demo_settings(built.copy(tmp_path_factory.mktemp("dashboard"), "demo.sqlite")))
    queries = ReadPort.over(service.reader)
    try:
        yield Demo(service=service, queries=queries, **built.facts)
    finally:
        queries.close()
        service.close()


def access_settings(**overrides: Any) -> Any:
    """The dashboard's access settings for tests: the demo's organiser key and secret, no delay after a wrong key."""
    from dashboard.access import AccessSettings

    values: dict[str, Any] = {"api_key": "organiser-key", "secret": TEST_SECRET.encode(), "delay": 0.0}
    values.update(overrides)
    return AccessSettings(**values)


@pytest.fixture(scope="session")
def dashboard_app(demo: Demo) -> Any:
    from dashboard import create_dashboard

    return create_dashboard(demo.queries, demo.service, access=access_settings())


@pytest.fixture(scope="session")
def base_url(dashboard_app: Any) -> Iterator[str]:
    """The dashboard on a free port, served by werkzeug in a daemon thread for the session."""
    with served(dashboard_app, "dashboard-server") as url:
        yield url


@contextlib.contextmanager
def served(dashboard_app: Any, name: str) -> Iterator[str]:
    """``dashboard_app`` on a free port, served by werkzeug in a daemon thread while the block runs: its address.
    After the block, every request under way is let finish before the caller closes the store: a request thread
    still reading a SQLite store that another thread closes crashes the process (a worker of a full run was lost
    so, a replay's frames still being built under load when its module closed the store)."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, dashboard_app.server, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name=name, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.port}"
    finally:
        server.shutdown()  # serve_forever returns and closes the server, which joins the request threads
        thread.join(timeout=REQUESTS_END_S)
        server.server_close()
        if thread.is_alive():
            raise AssertionError(f"a request to {name} was still running {REQUESTS_END_S:g} s after the last test")


@dataclass
class OwnStore:
    """A store of a browser test's own (the demo's lists must not change), its dashboard served on a free port."""

    service: Any
    queries: Any
    base_url: str


@contextlib.contextmanager
def own_store(
    tmp_path_factory: pytest.TempPathFactory, name: str, prepare: Any = None, clock: Any = None
) -> Iterator[OwnStore]:
    """An upgraded SQLite store named ``name``, its service and read port, ``prepare(service)`` run before the
    dashboard is made (what its first pages must list), and the dashboard served; all closed after the block.
    ``clock``: the time the service records moves and timeouts at (``Digsite``'s; none: the real time)."""
    from dashboard import create_dashboard

    db = Database.from_url(f"sqlite:///{tmp_path_factory.mktemp(name) / f'{name}.sqlite'}")
    backends.upgrade(db)
    timed = {"clock": clock} if clock is not None else {}
    service = Digsite(Settings(database=db, api_key="organiser-key", secret_key=TEST_SECRET), **timed)
    queries = ReadPort.over(service.reader)
    try:
        if prepare is not None:
            prepare(service)
        app = create_dashboard(queries, service, access=access_settings())
        with served(app, f"{name}-dashboard") as url:
            yield OwnStore(service, queries, url)
    finally:
        queries.close()
        service.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("DIGSITE_REQUIRE_BROWSER"):
            pytest.fail(f"a browser is required here but {CHROMIUM} does not exist")
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


class Shots:
    """Screenshots for one test: ``shots.take(page, "step")`` -> artifacts/screenshots/<test>[-step].png."""

    def __init__(self, test_name: str) -> None:
        self.name = re.sub(r"[^A-Za-z0-9_.-]+", "_", test_name)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        for old in SCREENSHOTS.glob(f"{self.name}*.png"):
            old.unlink()
        self.paths: list[Path] = []

    def take(self, page: Any, step: str | None = None) -> Path:
        path = SCREENSHOTS / (f"{self.name}-{step}.png" if step else f"{self.name}.png")
        page.screenshot(path=str(path), full_page=True)
        self.paths.append(path)
        return path


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Shots:
    return Shots(request.node.name)


@contextlib.contextmanager
def watched_tab(
    browser: Any, base_url: str, shots: Shots | None = None, viewport: dict[str, int] | None = None, **context: Any
) -> Iterator[Any]:
    """A fresh browser context and page on ``base_url`` for the block; with ``shots`` a final screenshot is always
    kept, and any console error (a failed callback, a script error) fails the test when the block ends, except a
    refused page load whose status the test expects (``tab.expected_statuses = (401,)``). ``context``: more of
    playwright's context options (``accept_downloads``)."""
    made = browser.new_context(viewport=viewport or {"width": 1440, "height": 1000}, base_url=base_url, **context)
    made.set_default_timeout(TIMEOUT_MS)
    tab = made.new_page()
    errors: list[str] = []
    tab.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    tab.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield tab
    finally:
        try:
            if shots is not None:
                shots.take(tab, "final")
        finally:
            made.close()
    # A test that provokes a refusal on purpose (a wrong key, a page it may not see) names the statuses it expects.
    expected = getattr(tab, "expected_statuses", ())
    errors = [e for e in errors if not any(f"status of {status} " in e for status in expected)]
    assert not errors, f"the browser reported errors: {errors}"


@pytest.fixture
def page(browser: Any, base_url: str, shots: Shots) -> Iterator[Any]:
    """A fresh browser context and page per test (``watched_tab``): a final screenshot is kept, console errors fail
    the test at teardown."""
    with watched_tab(browser, base_url, shots) as tab:
        yield tab


@pytest.fixture
def computed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The threads the players and aggregates pages' figures were computed on, in order."""
    threads: list[str] = []
    for module, name in ((players, "player_page"), (aggregates, "aggregate_charts")):
        real = getattr(module, name)

        def spy(*args: Any, _real: Any = real, **kwargs: Any) -> Any:
            threads.append(threading.current_thread().name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(module, name, spy)
    yield threads
