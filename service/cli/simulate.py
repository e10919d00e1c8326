"""``digsite simulate``: bot games of any registered game in-process (and, with ``--store``, through the service
into the store).

``--game`` is required: Digsite plays several games and none is the default. A game's rule options are
flags generated from its options schema (``--side``, ``--difficulty``...; an option may name its flag with
``x-flag``, like Arnak's board side ``--board``); a flag the chosen game does not have is refused.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import Any

import click

from domain.errors import DomainError
from domain.games import GAMES, Game, game
from domain.play import play_game
from domain.policies import UnknownPolicy
from domain.search import DEFAULT_BUDGET, SEARCH, parse_choice
from service.cli import main
from service.errors import ServiceError

PLAYER_NAMES = ["Ana", "Beto", "Carla", "Diego", "Elif"]
POLICIES = sorted({name for g in GAMES.values() for name in g.bots.policies})
MOST_SEATS = max(g.schemas.seats.high for g in GAMES.values())


def _option_flags() -> dict[str, tuple[str, dict[str, Any]]]:
    """Every game's rule options as CLI flags: flag -> (option name, its schema); one flag per option name."""
    flags: dict[str, tuple[str, dict[str, Any]]] = {}
    for g in GAMES.values():
        for option, schema in g.schemas.options.get("properties", {}).items():
            flags.setdefault(str(schema.get("x-flag", option)).replace("_", "-"), (option, schema))
    return flags


OPTION_FLAGS = _option_flags()


def _with_option_flags(command: Callable[..., Any]) -> Callable[..., Any]:
    for flag, (option, schema) in sorted(OPTION_FLAGS.items()):
        kinds = [k for k, g in GAMES.items() if option in g.schemas.options.get("properties", {})]
        kind: Any = (
            click.Choice(schema["enum"]) if "enum" in schema else int if schema.get("type") == "integer" else str
        )
        help_text = f"{schema.get('description', option)} (rule option '{option}' of {', '.join(kinds)})"
        command = click.option(f"--{flag}", f"option_{option}", type=kind, default=None, help=help_text)(command)
    return command


def _options(found: Game[Any, Any, Any], given: dict[str, Any]) -> dict[str, Any]:
    chosen = {key.removeprefix("option_"): value for key, value in given.items() if value is not None}
    unknown = set(chosen) - set(found.schemas.options.get("properties", {}))
    if unknown:
        raise click.UsageError(f"{found.title} has no rule option(s) {', '.join(sorted(unknown))}")
    return chosen


@main.command()
@click.option("--game", "kind", type=click.Choice(sorted(GAMES)), required=True, help="Which game to play.")
@click.option("--players", type=click.IntRange(1, MOST_SEATS), default=4, show_default=True)
@click.option("--games", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--seed", default="0", show_default=True, help="Game i uses seed '<seed>-<i>'.")
@click.option(
    "--bot",
    default="heuristic",
    show_default=True,
    help=f"The bot in every seat: {', '.join(POLICIES)}; the search bot with its budget (playouts a move) as "
    f"{SEARCH}:BUDGET (default {DEFAULT_BUDGET}).",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON line per game, then a summary line.")
@click.option("--narrate", is_flag=True, help="Print every event of every game, turn by turn.")
@click.option(
    "--store",
    is_flag=True,
    help="Play through the service into the store (DIGSITE_DATABASE_URL), as one tournament of a bot pool.",
)
@click.option("--tournament-name", default=None, help="With --store: the tournament's name.")
@click.option(
    "--pool",
    type=click.IntRange(min=1),
    default=None,
    help="With --store: how many bot players take turns at the tables [default: the largest multiple of "
    "--players the game's personas fill, so every style plays].",
)
@_with_option_flags
def simulate(
    kind: str,
    players: int,
    games: int,
    seed: str,
    bot: str,
    as_json: bool,
    narrate: bool,
    store: bool,
    tournament_name: str | None,
    pool: int | None,
    **option_flags: Any,
) -> None:
    """Play bot games in-process and print per-game results, totals and games per second.

    With --store, the games are played move by move through the service into the store, as a
    tournament: a pool of named bot players with distinct tendencies, seated round by round in tables
    of --players (seatings, game seeds and bot choices all follow from --seed)."""
    found = game(kind)
    options = _options(found, option_flags)
    seats = found.schemas.seats
    if players not in seats:
        raise click.BadParameter(f"{found.title} seats {seats.low} to {seats.high} players", param_hint="--players")
    if store:
        if narrate:
            raise click.UsageError("--narrate plays in memory; it cannot be combined with --store")
        _simulate_stored(kind, players, games, seed, as_json, tournament_name, pool, options)
        return
    if tournament_name is not None or pool is not None:
        raise click.UsageError("--tournament-name and --pool only apply with --store")
    names = PLAYER_NAMES[:players]
    try:
        policy, tendencies = parse_choice(bot)
        policies = [found.bots.make(policy, **tendencies) for _ in names]
    except (UnknownPolicy, ValueError) as error:
        raise click.BadParameter(str(error), param_hint="--bot") from None
    rules = found.rules
    wins: dict[str, int] = {}
    totals = {"events": 0, "actions": 0}
    started = time.perf_counter()
    for i in range(games):
        try:
            played = play_game(rules, names, policies, f"{seed}-{i}", options)
        except DomainError as error:  # options the game refuses
            raise click.UsageError(str(error)) from None
        everyone = list(rules.view(played.state, None)["players"])  # with any seat the engine plays
        result = played.result
        winners = [everyone[s] for s in result.winners]
        for name in everyone:
            wins.setdefault(name, 0)
        for name in winners:
            wins[name] += 1
        totals["events"] += len(played.events)
        totals["actions"] += len(played.actions)
        if narrate:
            for event in played.events:
                click.echo(f"  {rules.describe(event, everyone)}")
        record: dict[str, Any] = {
            "game": kind,
            "seed": played.seed,
            "winners": winners,
            "scores": dict(zip(everyone, result.scores, strict=True)),
            "detail": _plain_detail(result.detail),
            "actions": len(played.actions),
            "events": len(played.events),
        }
        if as_json:
            click.echo(json.dumps(record))
        else:
            detail = ", ".join(f"{k} {v}" for k, v in record["detail"].items())
            detail = f" ({detail})" if detail else ""
            who = " and ".join(winners) + (" win" if len(winners) > 1 else " wins")
            click.echo(
                f"game {i + 1}/{games} seed {played.seed}: {who}{detail}; "
                f"scores {record['scores']}; {record['actions']} moves, {record['events']} events"
            )
    elapsed = time.perf_counter() - started
    summary = {
        "summary": True,
        "game": kind,
        "games": games,
        "players": players,
        "bot": bot,
        "options": options,
        "wins": wins,
        **totals,
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 2),
    }
    if as_json:
        click.echo(json.dumps(summary))
    else:
        click.echo(
            f"{games} game(s) of {found.title}: wins {wins}; {totals['events']} events; "
            f"{summary['games_per_second']} games/s"
        )


def _plain_detail(detail: Any) -> dict[str, Any]:
    """The scalar parts of a result's game-specific detail (a one-line summary; --json has them too)."""
    return {k: v for k, v in dict(detail).items() if isinstance(v, (str, int, float, bool)) or v is None}


def _simulate_stored(
    kind: str,
    players: int,
    games: int,
    seed: str,
    as_json: bool,
    name: str | None,
    pool: int | None,
    options: dict[str, Any],
) -> None:
    from service.bootstrap import build
    from service.bots.simulation import default_pool, run_tournament
    from service.cli.problems import ready, settings

    if pool is not None and pool < players:
        raise click.BadParameter(f"a pool of {pool} cannot fill a table of {players}", param_hint="--pool")
    found = settings()
    ready(found.database)  # unreachable, missing or not upgraded: one line saying which, and what to do
    try:
        service = build(found)
    except ServiceError as error:
        raise click.ClickException(error.message) from None
    try:
        click.echo(
            f"Playing {games} game(s) of {players} from a pool of {pool or default_pool(kind, players)} bots into "
            f"{service.settings.database.display()}",
            err=True,
        )
        with click.progressbar(length=games, label="games", file=sys.stderr) as bar:
            tournament = run_tournament(
                service,
                kind=kind,
                players=players,
                games=games,
                seed=seed,
                pool=pool,
                name=name,
                options=options or None,
                progress=lambda _played: bar.update(1),
            )
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    except ServiceError as error:
        raise click.ClickException(error.message) from None
    finally:
        service.close()
    summary = tournament.summary()
    if as_json:
        for played in tournament.games:
            click.echo(
                json.dumps(
                    {
                        "game": played.id,
                        "round": played.round,
                        "table": played.table,
                        "seed": played.seed,
                        "players": list(played.names),
                        "winners": list(played.winner_names),
                        "scores": played.result["scores"],
                        "moves": played.moves,
                    }
                )
            )
        click.echo(json.dumps({"summary": True, **summary}))
        return
    click.echo(
        f"tournament {summary['tournament']} ({summary['name']}): {summary['games']} game(s) in "
        f"{summary['rounds']} round(s), {summary['moves']} moves in {summary['seconds']} s = "
        f"{summary['moves_per_second']} moves/s"
    )
    click.echo("wins: " + ", ".join(f"{who} {n}" for who, n in summary["wins"].items()))
