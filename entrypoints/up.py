"""``digsite up``: the whole of Digsite on one machine: API, projections and dashboard, with demo data.

Each part runs in its own process (as in production, where they scale apart); this command starts them,
restarts one that dies, and stops them all on Ctrl-C. On an empty store it first plays a small bot
tournament so there is something to look at.
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
from service import store
from service.cli import main
from service.cli.projections import EXIT_UNPROJECTABLE
from service.settings import Settings, default_database_url


def _api_key(settings: Settings) -> str:
    """DIGSITE_API_KEY, or one kept beside the embedded store (created once, readable by you only)."""
    if settings.api_key:
        return settings.api_key
    folder = Path(settings.database.path).parent if settings.database.backend == "sqlite" else Path.cwd()
    path = folder / "api-key"
    if path.exists():
        return path.read_text().strip()
    folder.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(24)
    path.write_text(key + "\n")
    path.chmod(0o600)
    return key


def _seed_demo(settings: Settings, games: int, kind: str) -> None:
    from service import bootstrap
    from service.simulation import run_tournament

    service = bootstrap.build(settings)
    try:
        if next(iter(service.game_ids()), None) is not None:
            return
        click.echo(f"The store is empty: playing a demo tournament of {games} bot games...")
        with click.progressbar(length=games, label="demo games") as bar:
            seats = game(kind).schemas.seats
            played = run_tournament(
                service,
                kind=kind,
                players=min(max(4, seats.low), seats.high),
                games=games,
                seed="demo",
                name="Demo cup",
                progress=lambda _: bar.update(1),
            )
        click.echo(f"demo tournament {played.id}: {played.moves} moves")
    finally:
        service.close()
    follower = bootstrap.follower(settings)
    try:
        follower.catch_up()
    finally:
        follower.close()


# The demo shows the dashboard's analytics: the first registered game that has them.
DEMO_KIND = next((kind for kind, g in GAMES.items() if g.analytics is not None), next(iter(GAMES)))


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8050, show_default=True, help="The dashboard's port.")
@click.option("--api-port", default=8000, show_default=True, help="The play API's port.")
@click.option(
    "--demo-games", default=12, show_default=True, help="Bot games to play when the store is empty (0: none)."
)
@click.option(
    "--demo-game",
    "demo_kind",
    type=click.Choice(sorted(GAMES)),
    default=DEMO_KIND,
    show_default=True,
    help="Which game the demo tournament plays (default: the first registered game the read models analyse).",
)
def up(host: str, port: int, api_port: int, demo_games: int, demo_kind: str) -> None:
    """Run the API, the projections and the dashboard together (embedded SQLite unless DIGSITE_DATABASE_URL)."""
    url = os.environ.get("DIGSITE_DATABASE_URL") or default_database_url()
    os.environ["DIGSITE_DATABASE_URL"] = url
    settings = Settings.from_env()
    click.echo(f"Digsite on {settings.database.display()}")
    applied = store.upgrade(settings.database, report=click.echo)
    click.echo("schema: " + (f"applied {', '.join(applied)}" if applied else "up to date"))
    key = _api_key(settings)
    if demo_games:
        _seed_demo(settings, demo_games, demo_kind)
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
    click.echo(f"dashboard  http://{host}:{port}/ (finished games; games in play once you sign in)")
    click.echo(f"sign in    http://{host}:{port}/login with the organiser key below")
    click.echo(f"play API   http://{host}:{api_port}/api/v1 (organiser key: {key})")
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
                    click.echo(f"{name} keeps failing (exit code {process.returncode}); stopping Digsite", err=True)
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
