"""The ``digsite`` command line."""

from __future__ import annotations

import json
import sys
import time

import click

from domain.ruins.bots import make_bot
from domain.ruins.describe import describe
from domain.ruins.simulate import play_game

PLAYER_NAMES = ["Ana", "Beto", "Carla", "Diego", "Elif"]


@click.group()
@click.version_option(package_name="digsite")
def main() -> None:
    """Digsite: event-sourced Ruins and Lost Ruins of Arnak, with replay analytics."""


@main.command()
@click.option("--game", type=click.Choice(["ruins"]), default="ruins", show_default=True)
@click.option("--players", type=click.IntRange(2, 5), default=4, show_default=True)
@click.option("--games", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--seed", default="0", show_default=True, help="Game i uses seed '<seed>-<i>'.")
@click.option("--bot", type=click.Choice(["random", "heuristic"]), default="heuristic", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON line per game, then a summary line.")
@click.option("--narrate", is_flag=True, help="Print every event of every game, turn by turn.")
def simulate(game: str, players: int, games: int, seed: str, bot: str, as_json: bool, narrate: bool) -> None:
    """Play bot games in-process and print per-game results and totals."""
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


if __name__ == "__main__":
    sys.exit(main())
