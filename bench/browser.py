"""What a person feels in the dashboard, measured in Chromium: a move from the seat page, opening a replay, the
players and aggregates pages, each as p50/p90 of several, beside the same figures for another source tree
(``--base``: the code before a change) served from a copy of the same store in the same run.

The store is the demo's (``digsite up``: 12 bot games shared between the registered games, ``demo_plan``), plus one
two-seat game in play per game for the moves. Each source tree is served as production serves it on one machine
(``digsite dashboard``: its own process, threaded werkzeug, over a fresh copy of the store), and driven by one
headless Chromium (Playwright, ``/usr/bin/chromium``):

- **move**: on the seat page (``/play/<game>``), from the click on *Play this move* to the page saying "Played."
  (the answer carries the table redrawn), timed in the page; both seats are browser pages, each move the bot's
  choice made through the picker;
- **replay first table** / **replay all**: from the start of the navigation to a signed-in organiser's
  ``/replay/<game>`` to the first table drawn, and to every perspective's frames loaded (``data-loaded=all``);
  each finished game once (``--replays`` per game, the demo's four-seat tables first), so each is cold; beside
  them the **server CPU** the dashboard's process spent until then (its user and system time, Linux only): on a
  shared machine the wall times follow the load, the CPU a page costs the server much less;
- **players** / **aggregates**: from the start of the navigation until the page stops changing (its last DOM
  change once no request is pending for a second), per player shown / per game; and **first shown**: until the
  page's content (the answer of its content callback, ``#players-loaded`` / ``#agg-summary``) is first in the
  document;
- with ``--judge BUDGET`` (the finished games judged first, as ``digsite analyse --budget BUDGET`` judges them):
  **replay judgement shown**, until the replay's judgement is in the page (its marks in the move list,
  ``data-judged``), in a tree whose replay shows it.

Timings are never asserted anywhere; these are figures to compare, beside the other tree's in the same run.

Run: ``.venv/bin/python -m bench.browser [--base DIR] [--moves 20] [--rounds 1]`` (``DIR``: a checkout of the code
to compare with, e.g. ``git archive <commit> | tar -x -C DIR``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from dashboard.pages.play import picker_of
from domain.games import GAMES, game
from entrypoints.up import demo_plan
from service.analysis import stored
from service.analysis.judging import judge_records
from service.bots.simulation import run_tournament
from service.commands.application import Digsite, Viewer
from service.reading.projections.follower import Follower
from service.settings import Database, Settings
from service.store import backends

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
KEY = "bench-organiser-key"
SECRET = "a bench secret that signs the dashboard's sessions"
VIEWPORT = {"width": 1440, "height": 900}
SLOW_MS = 900_000  # the slowest replay before: 43 s for every perspective on a quiet machine, minutes on a busy one
QUIET_MS = 1_000  # a page has settled when nothing changed and nothing was pending for this long
HERE = Path(__file__).resolve().parents[1]

# Every change to the document, timed: a page has settled at its last one (read once it is quiet). Also when the
# page's content first showed: the first change after which its content callback's answer is in the document.
WATCH_JS = """
window.__lastChange = 0;
window.__shown = {};
new MutationObserver(function () {
    var now = performance.now();
    window.__lastChange = now;
    ["players-loaded", "agg-summary"].forEach(function (id) {
        if (!window.__shown[id] && document.getElementById(id)) { window.__shown[id] = now; }
    });
    var root = document.getElementById("replay-root");  // (a replay's judgement in: its marks, dashboard/assets)
    if (!window.__judged && root && root.dataset.judged === "yes") { window.__judged = now; }
}).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
"""

# Click "Play this move" and time the answer in the page: until it shows the table after the move (a later
# version) and says how the move went (the same callback answers both).
MOVE_JS = """
(shown) => new Promise(function (done) {
    var root = document.getElementById("play-root");
    var started = performance.now();
    function answered() {
        var now = document.getElementById("play-now"), message = document.getElementById("play-message");
        var table = document.getElementById("play-table").dataset.version;  // (where the table says its version)
        return now && parseInt(now.dataset.version, 10) > shown && (!table || parseInt(table, 10) > shown) &&
            message.textContent;
    }
    var watch = new MutationObserver(function () {
        if (answered()) { watch.disconnect(); done([performance.now() - started, answered()]); }
    });
    watch.observe(root, {subtree: true, childList: true, characterData: true, attributes: true});
    document.getElementById("play-submit").click();
})
"""


# -- the store --------------------------------------------------------------------------------------------------


def build_store(folder: Path, demo_games: int, judge: int | None = None) -> dict[str, Any]:
    """The demo's store (``digsite up``'s plan) and one two-seat game in play per game, read models caught up; with
    ``judge``, every finished game judged at that budget. What the measurements open: finished games by kind,
    players by kind, the games in play with their tokens."""
    db = Database.from_url(f"sqlite:///{folder / 'demo.sqlite'}")
    backends.upgrade(db)
    settings = Settings(database=db, api_key=KEY, secret_key=SECRET)
    service = Digsite(settings)
    finished: dict[str, list[str]] = {}
    players: dict[str, list[str]] = {}
    live: dict[str, dict[str, Any]] = {}
    try:
        for kind, seated, count in demo_plan(demo_games, list(GAMES)):
            played = run_tournament(
                service, kind=kind, players=seated, games=count, seed=f"demo-{seated}", name=f"{kind} {seated}"
            )
            finished.setdefault(kind, []).extend(g.id for g in played.games)
            players.setdefault(kind, []).extend(str(p["id"]) for p in played.pool)
        for kind in GAMES:
            pair = [service.create_player(f"{kind} seat {s + 1}") for s in range(2)]
            made = service.create_game(kind, pair, seed=f"bench-{kind}")
            live[kind] = {"id": made["id"], "tokens": [t["token"] for t in made["tokens"]]}
        if judge is not None:
            for game_id in (g for games in finished.values() for g in games):
                stored.write(db, judge_records(service.stored_records(game_id), judge))
    finally:
        service.close()
    follower = Follower(settings)
    try:
        follower.catch_up()
    finally:
        follower.close()
    return {"path": str(folder / "demo.sqlite"), "finished": finished, "players": players, "live": live}


# -- one source tree, served -------------------------------------------------------------------------------------


@contextmanager
def served(tree: Path, database: Path) -> Iterator[tuple[str, int]]:
    """``digsite dashboard`` from ``tree`` over ``database`` on a free port, in a process of its own: its address and
    its process id."""
    env = {
        **os.environ,
        "PYTHONPATH": str(tree),
        "DIGSITE_DATABASE_URL": f"sqlite:///{database}",
        "DIGSITE_API_KEY": KEY,
        "DIGSITE_SECRET_KEY": SECRET,
        "DIGSITE_HOME": str(database.parent),
    }
    log = database.parent / "dashboard.log"  # a file, not a pipe: the server logs every request
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "entrypoints", "dashboard", "--port", "0"],
            cwd=tree,
            env={**env, "PYTHONUNBUFFERED": "1"},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        url = None
        deadline = time.monotonic() + 120
        while url is None and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
            url = next(
                (ln.split()[1].rstrip("/") for ln in log.read_text().splitlines() if ln.startswith("open http")), None
            )
        if url is None:
            raise RuntimeError(f"the dashboard from {tree} did not start: {log.read_text()[-2000:]}")
        yield url, process.pid
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def sign_in(context: Any) -> None:
    page = context.new_page()
    page.goto("/login")
    page.fill("#signin-key", KEY)
    page.click("#signin-submit")
    page.wait_for_selector("#who")
    page.close()


def settled(page: Any, pending: set[Any]) -> float:
    """When the page last changed, once nothing changed and nothing was pending for ``QUIET_MS``."""
    deadline = time.monotonic() + SLOW_MS / 1000
    while time.monotonic() < deadline:
        page.wait_for_timeout(250)
        if pending:
            continue
        quiet = page.evaluate("() => performance.now() - window.__lastChange")
        if quiet >= QUIET_MS:
            return float(page.evaluate("() => window.__lastChange"))
    raise TimeoutError("the page never settled")


def watched(context: Any) -> tuple[Any, set[Any]]:
    page = context.new_page()
    pending: set[Any] = set()
    page.on("request", lambda r: pending.add(r))
    page.on("requestfinished", lambda r: pending.discard(r))
    page.on("requestfailed", lambda r: pending.discard(r))
    return page, pending


# -- the interactions -------------------------------------------------------------------------------------------


def cpu_ms(pid: int) -> float | None:
    """The user and system CPU time process ``pid`` has spent, in ms (None where /proc is not there)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def measure_replays(
    browser: Any, url: str, found: dict[str, Any], replays: int, server: int | None = None
) -> dict[str, list[float]]:
    """Each replay's first table and every perspective (wall, in the page), and with ``server`` (the dashboard's
    process id) the server's CPU until each."""
    out: dict[str, list[float]] = {}
    context = browser.new_context(viewport=VIEWPORT, base_url=url)
    context.set_default_timeout(SLOW_MS)
    context.add_init_script(WATCH_JS)
    try:
        sign_in(context)
        for kind, games in found["finished"].items():
            for game_id in games[:replays]:
                page = context.new_page()
                cpu_before = cpu_ms(server) if server else None
                page.goto(f"/replay/{game_id}")
                page.wait_for_function(
                    "() => { var t = document.getElementById('replay-table');"
                    " var f = t && t.firstElementChild; if (f && !f.classList.contains('quiet')) {"
                    " window.__first = window.__first || performance.now(); return true; } return false; }",
                    polling="raf",
                )
                cpu_first = cpu_ms(server) if server else None
                page.wait_for_function(
                    "() => { if (document.getElementById('replay-root').dataset.loaded === 'all') {"
                    " window.__all = window.__all || performance.now(); return true; } return false; }",
                    polling=50,
                )
                if found.get("judged"):  # a tree whose replay shows the judgement (its card's box): until it is in
                    page.wait_for_function(
                        "() => !document.getElementById('replay-judge') || window.__judged !== undefined", polling=50
                    )
                first, every, judged = page.evaluate("() => [window.__first, window.__all, window.__judged]")
                if judged is not None:
                    out.setdefault(f"replay judgement shown, {kind}", []).append(judged)
                out.setdefault(f"replay first table, {kind}", []).append(first)
                out.setdefault(f"replay all perspectives, {kind}", []).append(every)
                cpu_all = cpu_ms(server) if server else None
                if cpu_before is not None and cpu_first is not None and cpu_all is not None:
                    out.setdefault(f"replay server CPU to the first table, {kind}", []).append(cpu_first - cpu_before)
                    out.setdefault(f"replay server CPU to every perspective, {kind}", []).append(cpu_all - cpu_before)
                page.close()
    finally:
        context.close()
    return out


def measure_pages(browser: Any, url: str, found: dict[str, Any], per_kind: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    context = browser.new_context(viewport=VIEWPORT, base_url=url)
    context.set_default_timeout(SLOW_MS)
    context.add_init_script(WATCH_JS)
    try:
        sign_in(context)
        for kind, ids in found["players"].items():
            for player in ids[:per_kind]:
                page, pending = watched(context)
                page.goto(f"/players?game={kind}&player={player}")
                page.wait_for_selector("#players-loaded")
                out.setdefault(f"players page, {kind}", []).append(settled(page, pending))
                shown = page.evaluate("() => window.__shown['players-loaded']")
                out.setdefault(f"players page first shown, {kind}", []).append(shown)
                page.close()
        for kind in found["players"]:
            for _ in range(per_kind):
                page, pending = watched(context)
                page.goto(f"/aggregates?game={kind}")
                page.wait_for_selector("#agg-summary")  # (its charts' answer in: a first screen may draw no Plotly)
                out.setdefault(f"aggregates page, {kind}", []).append(settled(page, pending))
                shown = page.evaluate("() => window.__shown['agg-summary']")
                out.setdefault(f"aggregates page first shown, {kind}", []).append(shown)
                page.close()
    finally:
        context.close()
    return out


def measure_moves(browser: Any, url: str, found: dict[str, Any], database: Path, moves: int) -> dict[str, list[float]]:
    """``moves`` moves of each game in play, both seats in the browser, each the bot's choice made through the
    page's picker (the cards, the kind of move, the option), the answer timed in the page."""
    service = Digsite(Settings(database=Database.from_url(f"sqlite:///{database}"), api_key=KEY, secret_key=SECRET))
    out: dict[str, list[float]] = {}
    try:
        for kind, live in found["live"].items():
            played = game(kind)
            rules, rng = played.rules, random.Random(f"bench-{kind}")
            bot = played.bots.make(next(iter(played.bots.policies)))
            pages = []
            for token in live["tokens"]:
                context = browser.new_context(viewport=VIEWPORT, base_url=url)
                context.set_default_timeout(SLOW_MS)
                context.request.get(f"/replay/{live['id']}?token={token}", max_redirects=0)
                page = context.new_page()
                page.goto(f"/play/{live['id']}")
                pages.append(page)
            try:
                for _ in range(moves):
                    now = service.game(live["id"])
                    if now["status"] != "playing":
                        break
                    seat = now["to_act"][0]
                    page = pages[seat]
                    page.wait_for_function(
                        "v => { var n = document.getElementById('play-now');"
                        " return n && parseInt(n.dataset.version, 10) === v && n.dataset.turn === '1'; }",
                        arg=now["version"],
                    )
                    seen = service.game(live["id"], Viewer(seat))
                    legal = seen["legal_actions"]
                    action = rules.action_to_dict(
                        bot.choose(seen["view"], [rules.action_from_dict(a) for a in legal], rng)
                    )
                    picker = picker_of(kind)(seen["view"], legal, seat).to_dict()
                    choice = _choice(picker, action, rng)
                    _pick(page, picker, choice)
                    took, said = page.evaluate(MOVE_JS, seen["version"])
                    if not said.startswith("Played"):
                        raise RuntimeError(f"a move was refused: {said}")
                    out.setdefault(f"move, {kind}", []).append(took)
            finally:
                for page in pages:
                    page.context.close()
    finally:
        service.close()
    return out


def _choice(picker: dict[str, Any], action: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The picker's choice for the bot's action (without crafting, which the page offers after the choice), or
    any choice."""
    base = {k: v for k, v in action.items() if k not in ("purchases", "claims")}
    for wanted in (action, base):
        value = json.dumps(wanted, sort_keys=True, separators=(",", ":"))
        for choice in picker["choices"]:
            if choice["value"] == value:
                return dict(choice)
    return dict(rng.choice(picker["choices"]))


def _pick(page: Any, picker: dict[str, Any], choice: dict[str, Any]) -> None:
    """The choice through the page, as a person makes it: its kind of move, its cards, then its option."""
    if len(picker["groups"]) > 1:
        page.locator("#play-group input").nth(picker["groups"].index(choice["group"])).check()
    for card in choice["cards"] or []:
        page.evaluate(
            "c => { var i = Array.from(document.querySelectorAll('#play-cards input')).find(x => x.value === c);"
            " if (i && !i.checked) { i.click(); } }",
            card,
        )
    page.wait_for_function(
        "w => Array.from(document.querySelectorAll('#play-option input')).some(i => i.value === w)",
        arg=choice["value"],
    )
    page.evaluate(
        "w => { var i = Array.from(document.querySelectorAll('#play-option input')).find(x => x.value === w);"
        " if (!i.checked) { i.click(); } }",
        choice["value"],
    )
    page.wait_for_function(
        "w => Array.from(document.querySelectorAll('#play-option input')).some(i => i.value === w && i.checked)",
        arg=choice["value"],
    )


# -- the run ----------------------------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def measure(
    tree: Path, found: dict[str, Any], folder: Path, args: argparse.Namespace, browser: Any
) -> dict[str, list[float]]:
    copy = folder / f"{tree.name}-{time.monotonic_ns()}" / "store.sqlite"
    copy.parent.mkdir()
    shutil.copyfile(found["path"], copy)
    out: dict[str, list[float]] = {}
    with served(tree, copy) as (url, pid):
        warm = browser.new_page(base_url=url)
        warm.goto("/games")  # the process's first page (imports, the first connection): not any interaction's
        warm.wait_for_selector("#nav a")
        warm.close()
        if "replay" in args.only:
            out.update(measure_replays(browser, url, found, args.replays, pid))
        if "pages" in args.only:
            out.update(measure_pages(browser, url, found, args.per_kind))
        if "move" in args.only:
            out.update(measure_moves(browser, url, found, copy, args.moves))
    shutil.rmtree(copy.parent, ignore_errors=True)
    return out


def report(results: dict[str, dict[str, list[float]]]) -> None:
    trees = list(results)
    names = list(dict.fromkeys(n for r in results.values() for n in r))
    head = "| interaction | " + " | ".join(f"{t}: p50 ms | p90 ms | n" for t in trees) + " |"
    print(head)
    print("| --- |" + " ---: | ---: | ---: |" * len(trees))
    for name in names:
        cells = []
        for tree in trees:
            values = results[tree].get(name, [])
            cells.append(
                f"{percentile(values, 0.5):,.0f} | {percentile(values, 0.9):,.0f} | {len(values)}"
                if values
                else "- | - | 0"
            )
        print(f"| {name} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, help="another source tree to measure beside this one (the code before)")
    parser.add_argument("--moves", type=int, default=20, help="moves per game in play")
    parser.add_argument("--per-kind", type=int, default=3, help="players (and aggregates loads) per game")
    parser.add_argument("--replays", type=int, default=6, help="finished games opened per game (the largest first)")
    parser.add_argument("--demo-games", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=1, help="times each tree is measured, alternating")
    parser.add_argument("--only", default="replay,pages,move", help="which of replay, pages, move")
    parser.add_argument("--after-first", action="store_true", help="measure this tree before the other in each round")
    parser.add_argument("--json", type=Path, help="also write every figure here")
    parser.add_argument("--judge", type=int, help="judge every finished game first, at this budget (at least 4)")
    args = parser.parse_args()

    trees = {"after": HERE} if args.base is None else {"before": args.base.resolve(), "after": HERE}
    if args.after_first:
        trees = dict(reversed(list(trees.items())))
    results: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
    with tempfile.TemporaryDirectory(prefix="digsite-bench-browser-") as temp:
        folder = Path(temp)
        started = time.monotonic()
        found = build_store(folder, args.demo_games, args.judge)
        found["judged"] = bool(args.judge)
        print(
            f"store: {sum(map(len, found['finished'].values()))} finished games, "
            f"built in {time.monotonic() - started:.0f} s; load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            try:
                for round_ in range(args.rounds):
                    for name, tree in trees.items():
                        began = time.monotonic()
                        for key, values in measure(tree, found, folder, args, browser).items():
                            results[name].setdefault(key, []).extend(values)
                        print(
                            f"round {round_ + 1}, {name}: {time.monotonic() - began:.0f} s, "
                            f"load average {os.getloadavg()[0]:.1f}",
                            flush=True,
                        )
            finally:
                browser.close()
    report(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
