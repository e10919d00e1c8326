"""``digsite up``: the whole of Digsite on one machine: API, projections and dashboard, with demo data.

Each part runs in its own process (as in production, where they scale apart); this command starts them,
restarts one that dies, and stops them all on Ctrl-C. On an empty store it first plays a few bot games
of every registered game (``demo_plan``) so there is something to look at: each table size's games are a tournament
of bots seated round by round as an organiser would (``play_bot_cup``), so its rounds page has its rounds and links.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import click

from domain.games import GAMES, game
from service import bootstrap
from service.bots.seated_rounds import play_bot_cup
from service.cli import main, problems
from service.cli.ports import check_free
from service.cli.projections import EXIT_UNPROJECTABLE
from service.settings import Settings, data_dir, default_database_url
from service.store import backends


def api_key_file() -> Path:
    """Where ``digsite up`` keeps the organiser key it makes: Digsite's data directory (DIGSITE_HOME), whichever
    directory the command runs from."""
    return data_dir() / "api-key"


def _api_key(settings: Settings) -> tuple[str, str]:
    """The organiser key and where it comes from: DIGSITE_API_KEY, or the key file (created once, readable by its
    owner only)."""
    if settings.api_key:
        return settings.api_key, "DIGSITE_API_KEY"
    path = api_key_file()
    try:
        found = path.read_text().strip()
    except FileNotFoundError:
        found = ""
    if not found:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
                out.write(secrets.token_urlsafe(24) + "\n")
        except FileExistsError:  # another `digsite up` made it first: use theirs
            pass
        found = path.read_text().strip()
    return found, f"kept in {path}; set DIGSITE_API_KEY to use your own"


def demo_plan(total: int, kinds: list[str]) -> list[tuple[str, int, int]]:
    """How ``digsite up`` splits ``total`` demo games between ``kinds``: (kind, players, games) per table size.

    The total is shared evenly between the games (the first ones get the remainder). Within a game's share,
    most games seat its usual table (4 players, within its seat range); one game each goes to the smaller
    table sizes its seat range allows, down to its smallest (a solo game where it has one), as long as
    at least half the share keeps the usual table."""
    plan: list[tuple[str, int, int]] = []
    for index, kind in enumerate(kinds):
        share = total // len(kinds) + (1 if index < total % len(kinds) else 0)
        if share < 1:
            continue
        seats = game(kind).schemas.seats
        usual = min(max(4, seats.low), seats.high)
        smaller = list(range(usual - 1, seats.low - 1, -1))[: share - (share + 1) // 2]
        plan.append((kind, usual, share - len(smaller)))
        plan.extend((kind, players, 1) for players in smaller)
    return plan


def _seed_demo(settings: Settings, games: int, kinds: list[str]) -> None:
    service = bootstrap.build(settings)
    try:
        if next(iter(service.game_ids()), None) is not None:
            return
        plan = demo_plan(games, kinds)
        click.echo(f"The store is empty: playing {games} demo bot games ({', '.join(kinds)})...")
        with click.progressbar(length=games, label="demo games") as bar:
            for kind, players, count in plan:
                title = game(kind).title
                cup = play_bot_cup(
                    service,
                    kind,
                    f"Demo cup: {title}, " + ("solo" if players == 1 else f"{players} players"),
                    players,
                    count,
                    seed=f"demo-{players}",
                    progress=lambda _: bar.update(1),
                )
                rounds = service.rounds.status(cup)["rounds"]
                played = f"{count} game{'s' * (count != 1)} in {rounds} round{'s' * (rounds != 1)}"
                click.echo(f"  demo tournament {cup} ({kind}, {players} at a table): {played}")
    finally:
        service.close()
    follower = bootstrap.follower(settings)
    try:
        follower.catch_up()
    finally:
        follower.close()


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8050, show_default=True, help="The dashboard's port.")
@click.option("--api-port", default=8000, show_default=True, help="The play API's port.")
@click.option(
    "--demo-games",
    default=12,
    show_default=True,
    help="Bot games to play in all when the store is empty, shared evenly between the demo's games (0: none).",
)
@click.option(
    "--demo-game",
    "demo_kinds",
    type=click.Choice(sorted(GAMES)),
    multiple=True,
    help="A game the demo plays (repeat for more; default: every registered game).",
)
def up(host: str, port: int, api_port: int, demo_games: int, demo_kinds: tuple[str, ...]) -> None:
    """Run the API, the projections and the dashboard together (embedded SQLite unless DIGSITE_DATABASE_URL)."""
    url = os.environ.get("DIGSITE_DATABASE_URL") or default_database_url()
    os.environ["DIGSITE_DATABASE_URL"] = url
    settings = problems.settings()
    # Before any work: a busy port would only show once the demo games are played, as a part that keeps failing.
    check_free(host, api_port, "--api-port")
    check_free(host, port, "--port")
    click.echo(f"Digsite on {settings.database.display()}")
    applied = backends.upgrade(settings.database, report=click.echo)  # unreachable or missing: one line (problems)
    click.echo("schema: " + (f"applied {', '.join(applied)}" if applied else "up to date"))
    key, key_source = _api_key(settings)
    if demo_games:
        _seed_demo(settings, demo_games, [k for k in GAMES if not demo_kinds or k in demo_kinds])
    env = {**os.environ, "DIGSITE_DATABASE_URL": url, "DIGSITE_API_KEY": key}
    base = [sys.executable, "-m", "entrypoints"]
    parts = {
        "api": [*base, "serve", "--host", host, "--port", str(api_port)],
        "projections": [*base, "projections", "run"],
        "dashboard": [*base, "dashboard", "--host", host, "--port", str(port)],
    }
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    running = {name: subprocess.Popen(cmd, env=env) for name, cmd in parts.items()}
    restarts: dict[str, list[float]] = {name: [] for name in parts}
    failed: str | None = None
    click.echo(f"dashboard  http://{host}:{port}/ (finished games; games in play once you sign in)")
    click.echo(f"sign in    http://{host}:{port}/login with the organiser key below")
    click.echo(f"play API   http://{host}:{api_port}/api/v1")
    click.echo(f"organiser key: {key} ({key_source})")
    click.echo("Ctrl-C stops everything.")
    try:
        while not stop.wait(0.5):
            for name, process in running.items():
                if process.poll() is None:
                    continue
                if name == "projections" and process.returncode == EXIT_UNPROJECTABLE:
                    click.echo(
                        "projections stopped at a record they cannot project (named above); the API and the "
                        "dashboard go on, the read models wait. Once you have looked at it: "
                        "`digsite projections run --skip ID` (docs/projections.md)",
                        err=True,
                    )
                    del running[name]
                    break
                recent = [t for t in restarts[name] if time.monotonic() - t < 60]
                if len(recent) >= 5:
                    failed = f"the {name} keeps failing (exit code {process.returncode}; its own lines say why)"
                    click.echo(f"{failed}: stopping Digsite", err=True)
                    stop.set()
                    break
                click.echo(f"{name} exited with code {process.returncode}; restarting it", err=True)
                restarts[name] = [*recent, time.monotonic()]
                running[name] = subprocess.Popen(parts[name], env=env)
    finally:
        for process in running.values():
            if process.poll() is None:
                process.terminate()
        deadline = time.monotonic() + 10
        for process in running.values():
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
        click.echo("Digsite stopped")
    if failed:
        raise click.ClickException(failed)
