"""``digsite bot``: play one seat of a game over HTTP against the play API."""

from __future__ import annotations

import os
import random

import click

from domain.games import GAMES
from domain.policies import UnknownPolicy
from domain.search import SEARCH, parse_choice
from service.bots.seat_client import ApiError, BadAddress, BotChoice, BotClient, Move, Unreachable, parse_tendencies
from service.cli import main

TOKEN_ENV = "DIGSITE_SEAT_TOKEN"
BOT_NAMES = sorted({name for g in GAMES.values() for name in g.bots.policies})


def seat_token(token: str | None, token_file: str | None) -> str:
    """The seat's token from ``--token-file`` (``-``: standard input), else ``DIGSITE_SEAT_TOKEN``, else the
    discouraged ``--token`` (which every local user can read in the process list: a warning says so)."""
    if token is not None and token_file is not None:
        raise click.UsageError("give the seat token one way: --token-file or DIGSITE_SEAT_TOKEN (not also --token)")
    if token_file is not None:
        if token_file != "-" and os.stat(token_file).st_mode & 0o077:
            click.echo(f"warning: other users may read the token file {token_file}; chmod 600 it", err=True)
        with click.open_file(token_file) as source:
            found = str(source.read()).strip()
        if not found:
            raise click.UsageError(f"the token file {token_file} is empty")
        return found
    if token is not None:
        click.echo(
            f"warning: --token shows the seat token to every user of this machine (process list); "
            f"set {TOKEN_ENV} or use --token-file instead",
            err=True,
        )
        return token
    found = os.environ.get(TOKEN_ENV, "").strip()
    if not found:
        raise click.UsageError(f"no seat token: set {TOKEN_ENV}, or pass --token-file FILE")
    return found


def _check_some_game_takes(choice: BotChoice) -> None:
    """Refuse at once (before connecting: the game, and so its bots, are known only then) a bot that no registered
    game's bot of that name takes with these tendencies."""
    if choice.policy not in BOT_NAMES:
        raise click.BadParameter(
            f"unknown bot {choice.policy!r}; choose from {', '.join(BOT_NAMES)}", param_hint="--bot"
        )
    refusals = []
    for g in GAMES.values():
        if choice.policy in g.bots.policies:
            try:
                g.bots.make(choice.policy, **choice.tendencies)
                return
            except UnknownPolicy as error:
                refusals.append(f"{g.title}: {error}")
    raise click.BadParameter("; ".join(refusals), param_hint="--tendency")


@main.command()
@click.option("--url", required=True, help="The service's base URL, like http://localhost:8000.")
@click.option("--game", "game_id", required=True, help="The game's id.")
@click.option(
    "--token-file",
    type=click.Path(exists=True, dir_okay=False, allow_dash=True),
    default=None,
    help=f"A file holding the seat's token ('-': standard input). Default: the {TOKEN_ENV} environment variable.",
)
@click.option(
    "--token",
    default=None,
    help=f"The seat's token on the command line: discouraged, other local users can read it; use {TOKEN_ENV}.",
)
@click.option(
    "--bot",
    "kind",
    default="heuristic",
    show_default=True,
    help=f"Which of the game's bots plays the seat: {', '.join(BOT_NAMES)}; the search bot with its budget "
    f"(playouts a move) as {SEARCH}:BUDGET.",
)
@click.option(
    "--tendency",
    "tendencies",
    multiple=True,
    metavar="KEY=VALUE",
    help="A bot tendency, repeatable, as the game's bot takes it: "
    + "; ".join(
        f"{kind} {name}: {', '.join(f'{k}={v}' for k, v in maker().tendencies().items())}"
        for kind, g in sorted(GAMES.items())
        for name, maker in sorted(g.bots.policies.items())
    )
    + ".",
)
@click.option(
    "--poll",
    type=click.FloatRange(min=0.01),
    default=0.2,
    show_default=True,
    help="Seconds between looks, on a server without the push channel (else the server says when it is our turn).",
)
@click.option("--max-poll", type=click.FloatRange(min=0.01), default=2.0, show_default=True, help="Backoff ceiling.")
@click.option(
    "--give-up-after",
    type=click.FloatRange(min=0),
    default=300.0,
    show_default=True,
    help="Seconds of failed requests in a row (server down, 503, timeouts) after which the bot stops.",
)
@click.option("--seed", default=None, help="Seed the bot's choices (default: unseeded).")
def bot(
    url: str,
    game_id: str,
    token_file: str | None,
    token: str | None,
    kind: str,
    tendencies: tuple[str, ...],
    poll: float,
    max_poll: float,
    give_up_after: float,
    seed: str | None,
) -> None:
    """Play one seat of a game over HTTP until the game is over, printing a line per move.

    The seat's token is read from DIGSITE_SEAT_TOKEN or --token-file. A server that is down or busy is
    retried with backoff for up to --give-up-after seconds; a bad URL, an unknown host or a refused token
    stops the bot at once."""
    try:
        policy, budget = parse_choice(kind)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--bot") from None
    try:
        choice = BotChoice(policy, {**budget, **parse_tendencies(tendencies)})
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--tendency") from None
    _check_some_game_takes(choice)
    secret = seat_token(token, token_file)
    try:
        client = BotClient(url, game_id, secret, choice, random.Random(seed))
    except BadAddress as error:
        raise click.ClickException(str(error)) from None

    def show(move: Move) -> None:
        click.echo(f"move {move.number}: v{move.version} -> v{move.new_version} seat {move.seat}: {move.text}")

    def trouble(line: str) -> None:
        click.echo(line, err=True)

    try:
        final = client.run(poll=poll, max_poll=max_poll, on_move=show, give_up_after=give_up_after, on_trouble=trouble)
    except ApiError as error:
        raise click.ClickException(f"the server refused: {error.message} ({error.status} {error.code})") from None
    except (Unreachable, BadAddress) as error:
        raise click.ClickException(str(error)) from None
    except UnknownPolicy as error:
        raise click.BadParameter(str(error), param_hint="--tendency") from None
    result = final.get("result") or {}
    names = final["view"].get("players", [])
    winners = [str(names[s]) if isinstance(s, int) and s < len(names) else str(s) for s in result.get("winners", [])]
    who = " and ".join(winners) + (" win" if len(winners) > 1 else " wins")
    click.echo(
        f"game over at v{final['version']}: {who}, scores {result.get('scores')}; "
        f"seat {client.seat_of(final)} made {client.moves} move(s), {client.conflicts} conflict(s), "
        f"{client.retries} retried request(s)"
    )
