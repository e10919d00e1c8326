"""``digsite bot``: play one seat of a game over HTTP against the play API."""

from __future__ import annotations

import random

import click

from domain.ruins.bots import make_bot
from service.botclient import ApiError, BotClient, Move, Unreachable, parse_tendencies
from service.cli import main


@main.command()
@click.option("--url", required=True, help="The service's base URL, like http://localhost:8000.")
@click.option("--game", "game_id", required=True, help="The game's id.")
@click.option("--token", required=True, envvar="DIGSITE_SEAT_TOKEN", help="The seat's token [env DIGSITE_SEAT_TOKEN].")
@click.option("--bot", "kind", type=click.Choice(["random", "heuristic"]), default="heuristic", show_default=True)
@click.option(
    "--tendency",
    "tendencies",
    multiple=True,
    metavar="KEY=VALUE",
    help="A bot tendency, repeatable: pass_rate=0.6, torch_rate=0, claim_rate=1, lead=big|high|low, flip_rate=0.7 "
    "(heuristic); craft_rate=0.25 (random).",
)
@click.option("--poll", type=click.FloatRange(min=0.01), default=0.2, show_default=True, help="Seconds between looks.")
@click.option("--max-poll", type=click.FloatRange(min=0.01), default=2.0, show_default=True, help="Backoff ceiling.")
@click.option("--seed", default=None, help="Seed the bot's choices (default: unseeded).")
def bot(
    url: str,
    game_id: str,
    token: str,
    kind: str,
    tendencies: tuple[str, ...],
    poll: float,
    max_poll: float,
    seed: str | None,
) -> None:
    """Play one seat of a game over HTTP until the game is over, printing a line per move."""
    try:
        player = make_bot(kind, **parse_tendencies(tendencies))
    except (TypeError, ValueError) as error:
        raise click.BadParameter(str(error), param_hint="--tendency") from None
    client = BotClient(url, game_id, token, player, random.Random(seed))

    def show(move: Move) -> None:
        click.echo(f"move {move.number}: v{move.version} -> v{move.new_version} seat {move.seat}: {move.text}")

    try:
        final = client.run(poll=poll, max_poll=max_poll, on_move=show)
    except ApiError as error:
        raise click.ClickException(f"the server refused: {error.message} ({error.status} {error.code})") from None
    except Unreachable as error:
        raise click.ClickException(str(error)) from None
    outcome = final["view"].get("outcome") or {}
    names = [p["name"] for p in final.get("players", [])] or final["view"].get("players", [])
    winner = outcome.get("winner")
    who = names[winner] if isinstance(winner, int) and winner < len(names) else winner
    click.echo(
        f"game over at v{final['version']}: {who} wins ({outcome.get('how')}); "
        f"seat {client.seat_of(final)} made {client.moves} move(s), {client.conflicts} conflict(s)"
    )
