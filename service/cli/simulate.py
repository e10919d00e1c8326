"""``digsite simulate``: bot games in-process (and, with ``--store``, through the service into the store)."""

from __future__ import annotations

import json
import sys
import time

import click

from domain.ruins.bots import make_bot
from domain.ruins.describe import describe
from domain.ruins.simulate import play_game
from service.cli import main
from service.errors import ServiceError

PLAYER_NAMES = ["Ana", "Beto", "Carla", "Diego", "Elif"]


@main.command()
@click.option("--game", type=click.Choice(["ruins"]), default="ruins", show_default=True)
@click.option("--players", type=click.IntRange(2, 5), default=4, show_default=True)
@click.option("--games", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--seed", default="0", show_default=True, help="Game i uses seed '<seed>-<i>'.")
@click.option("--bot", type=click.Choice(["random", "heuristic"]), default="heuristic", show_default=True)
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
    type=click.IntRange(min=2),
    default=None,
    help="With --store: how many bot players take turns at the tables [default: the largest multiple of "
    "--players up to 12, so every style plays].",
)
def simulate(
    game: str,
    players: int,
    games: int,
    seed: str,
    bot: str,
    as_json: bool,
    narrate: bool,
    store: bool,
    tournament_name: str | None,
    pool: int | None,
) -> None:
    """Play bot games in-process and print per-game results and totals.

    With --store, the games are played move by move through the service into the store, as a
    tournament: a pool of named bot players with distinct tendencies, seated round by round in tables
    of --players (seatings, game seeds and bot choices all follow from --seed)."""
    if store:
        if narrate:
            raise click.UsageError("--narrate plays in memory; it cannot be combined with --store")
        _simulate_stored(game, players, games, seed, as_json, tournament_name, pool)
        return
    if tournament_name is not None or pool is not None:
        raise click.UsageError("--tournament-name and --pool only apply with --store")
    names = PLAYER_NAMES[:players]
    bots = [make_bot(bot) for _ in names]
    wins = [0] * players
    totals = {"rounds": 0, "showdowns": 0, "events": 0, "actions": 0}
    started = time.perf_counter()
    for i in range(games):
        played = play_game(names, bots, f"{seed}-{i}")
        outcome = played.state.outcome
        assert outcome is not None
        wins[outcome.winner] += 1
        totals["rounds"] += min(played.rounds, 4)
        totals["showdowns"] += played.showdown
        totals["events"] += len(played.events)
        totals["actions"] += len(played.actions)
        if narrate:
            for event in played.events:
                click.echo(f"  {describe(event, names)}")
        record = {
            "game": game,
            "seed": played.seed,
            "winner": names[outcome.winner],
            "how": outcome.how,
            "rounds": min(played.rounds, 4),
            "showdown": played.showdown,
            "vp": list(played.state.vp),
            "actions": len(played.actions),
            "events": len(played.events),
        }
        if as_json:
            click.echo(json.dumps(record))
        else:
            click.echo(
                f"game {i + 1}/{games} seed {played.seed}: {record['winner']} wins ({outcome.how}) after "
                f"{record['rounds']} round(s){' and a Showdown' if played.showdown else ''}; VP {record['vp']}; "
                f"{record['actions']} moves, {record['events']} events"
            )
    elapsed = time.perf_counter() - started
    summary = {
        "summary": True,
        "games": games,
        "players": players,
        "bot": bot,
        "wins": dict(zip(names, wins, strict=True)),
        **totals,
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 2),
    }
    if as_json:
        click.echo(json.dumps(summary))
    else:
        click.echo(
            f"{games} game(s): wins {summary['wins']}; {totals['showdowns']} Showdown(s); "
            f"{totals['events']} events; {summary['games_per_second']} games/s"
        )


def _simulate_stored(
    game: str, players: int, games: int, seed: str, as_json: bool, name: str | None, pool: int | None
) -> None:
    from service.bootstrap import build
    from service.simulation import default_pool, run_tournament

    if pool is not None and pool < players:
        raise click.BadParameter(f"a pool of {pool} cannot fill a table of {players}", param_hint="--pool")
    try:
        service = build()
    except ServiceError as error:
        raise click.ClickException(error.message) from None
    try:
        click.echo(
            f"Playing {games} game(s) of {players} from a pool of {pool or default_pool(players)} bots into "
            f"{service.settings.database.display()}",
            err=True,
        )
        with click.progressbar(length=games, label="games", file=sys.stderr) as bar:
            tournament = run_tournament(
                service,
                game=game,
                players=players,
                games=games,
                seed=seed,
                pool=pool,
                name=name,
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
                        "winner": played.winner_name,
                        "how": played.how,
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
