"""``digsite ruling``: an organiser's corrections from the command line, each a recorded ruling with its reason,
through the same service function as the API (``service.commands.rulings``). Like every command here, it needs the
store itself (``DIGSITE_DATABASE_URL``): whoever holds that is an organiser.

Exit codes: 0 recorded; 1 refused for bad input (an empty reason, an unknown game, version or player), with one line
``Error: ... [code]`` and nothing written; 3 refused for the game's state (annulled or restarted already, a result
adjusted while in play, a substitute after the end); 2 a usage error (click's)."""

from __future__ import annotations

import json
from typing import Any

import click

from service.cli.group import main
from service.cli.tournament import _service

REASON = click.option("--reason", required=True, help="Why: required, shown in the replay and the standings.")


def _rule(game_id: str, body: dict[str, Any]) -> None:
    with _service() as service:
        click.echo(json.dumps(service.rulings.rule_on_game(game_id, body), indent=2))


def _seats(text: str | None, what: str) -> list[int] | None:
    if text is None:
        return None
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise click.BadParameter(f"{what} is a list of whole numbers separated by commas, like 2,0,1") from None


@main.group()
def ruling() -> None:
    """An organiser's rulings: annul, restart, adjust a result, substitute a player, give a penalty; list them."""


@ruling.command()
@click.argument("game_id")
@REASON
def annul(game_id: str, reason: str) -> None:
    """Annul GAME_ID: it no longer counts (its records stay; a game in play takes no more moves)."""
    _rule(game_id, {"ruling": "annul", "reason": reason})


@ruling.command()
@click.argument("game_id")
@click.option("--from-version", "version", type=int, required=True, help="The version the game goes on from.")
@REASON
def restart(game_id: str, version: int, reason: str) -> None:
    """Restart GAME_ID (in play) from a version: a new game of the same deal and moves up to it; prints its tokens."""
    _rule(game_id, {"ruling": "restart", "reason": reason, "version": version})


@ruling.command()
@click.argument("game_id")
@click.option("--ranking", required=True, help="Every seat, best first, e.g. 2,0,1.")
@click.option("--winners", help="The seats sharing first place (default: the first of the ranking).")
@click.option("--scores", help="One score per seat, in seat order (default: the engine's).")
@REASON
def adjust(game_id: str, ranking: str, winners: str | None, scores: str | None, reason: str) -> None:
    """Adjust the result of GAME_ID (over): the engine's own result stays in the record beside it."""
    result: dict[str, Any] = {"ranking": _seats(ranking, "--ranking")}
    for name, text in (("winners", winners), ("scores", scores)):
        if text is not None:
            result[name] = _seats(text, f"--{name}")
    _rule(game_id, {"ruling": "adjust_result", "reason": reason, "result": result})


@ruling.command()
@click.argument("game_id")
@click.option("--seat", type=int, required=True, help="The seat whose player changes.")
@click.option("--player", required=True, help="The player (id) who takes it; prints their new seat token.")
@REASON
def substitute(game_id: str, seat: int, player: str, reason: str) -> None:
    """Substitute the player of a seat of GAME_ID (in play) from the next move on."""
    _rule(game_id, {"ruling": "substitute", "reason": reason, "seat": seat, "player": player})


@ruling.command()
@click.argument("tournament_id")
@click.option(
    "--player",
    required=True,
    help="The player (id), entered in or seated at the tournament (`digsite tournament status` lists the ids).",
)
@click.option("--points", type=int, required=True, help="Tournament points off their standing (1 to 1000).")
@REASON
def penalty(tournament_id: str, player: str, points: int, reason: str) -> None:
    """Give a penalty: POINTS off the player's standing in TOURNAMENT_ID."""
    body = {"ruling": "penalty", "reason": reason, "player": player, "points": points}
    with _service() as service:
        click.echo(json.dumps(service.rulings.rule_on_tournament(tournament_id, body), indent=2))


@ruling.command(name="list")
@click.argument("subject_id")
@click.option("--tournament", is_flag=True, help="SUBJECT_ID is a tournament: list its penalties.")
def list_rulings(subject_id: str, tournament: bool) -> None:
    """The rulings on a game (or with --tournament, a tournament's penalties), oldest first, as JSON."""
    with _service() as service:
        found = service.rulings.of_tournament(subject_id) if tournament else service.rulings.of_game(subject_id)
        click.echo(json.dumps(found, indent=2))
