"""``digsite tournament``: a tournament's entries and rounds from the command line, through the same service
function as the API and the dashboard (``service.commands.rounds``).

Exit codes: 0 done; 1 refused (bad input: an unknown tournament, player or entry, a format that cannot seat the
entries; or the store not ready), with one line ``Error: ... [code]``; 3 refused for the tournament's state (a round
still in play, a round seated already, every round seated): wait, or ``--force``; 2 a usage error (click's)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import quote

import click

from domain.games import GAMES
from service.bots.seated_rounds import enter_bots, play_alongside_people, play_rounds
from service.cli.group import main
from service.cli.problems import service_or_exit
from service.commands.application import Digsite
from service.commands.broadcasts import set_broadcast
from service.commands.tournament_setup import clock_from_text, delay_from_text, register_people, set_up_tournament
from service.errors import Conflict, ServiceError
from service.seating import formats, sheet
from service.store import clocks

STATE_REFUSED = 3
DEFAULT_BASE_URL = "http://127.0.0.1:8050"  # the dashboard of `digsite up`


@contextmanager
def _service() -> Iterator[Digsite]:
    with service_or_exit(1) as service:
        try:
            yield service
        except Conflict as error:
            click.echo(f"Error: {error.message} [{error.code}]", err=True)
            raise SystemExit(STATE_REFUSED) from None
        except ServiceError as error:
            click.echo(f"Error: {error.message} [{error.code}]", err=True)
            raise SystemExit(1) from None


@main.group()
def tournament() -> None:
    """A tournament's entries and rounds: enter players, seat and start rounds, print seat links, void one."""


@tournament.command()
@click.argument("name")
@click.option("--game", "kind", type=click.Choice(sorted(GAMES)), required=True, help="The game every table plays.")
@click.option("--rounds", type=click.IntRange(1, 1000), required=True, help="How many rounds.")
@click.option(
    "--clock",
    help="The time control, in seconds: bank=600,increment=10 (a time bank per player per game, plus an increment "
    "per move) or per_move=60 (a limit per move). Default: untimed.",
)
@click.option(
    "--on-timeout",
    type=click.Choice(clocks.ON_TIMEOUT),
    help="What a seat out of time costs: the game's default move for it (move, the default) or the game (forfeit).",
)
@click.option(
    "--broadcast-delay",
    help="Spectators follow its games in play moves=N or minutes=M behind. Default: no broadcast.",
)
def create(
    name: str, kind: str, rounds: int, clock: str | None, on_timeout: str | None, broadcast_delay: str | None
) -> None:
    """Create a tournament (the game's default rule options) with its time control and broadcast; prints its id.
    A bad clock or delay is refused with the API's sentence (exit 1, invalid_clock or invalid_broadcast), and
    nothing is created."""
    with _service() as service:
        click.echo(
            set_up_tournament(
                service, name, rounds, kind, clock_from_text(clock, on_timeout), delay_from_text(broadcast_delay)
            )
        )


@tournament.command()
@click.argument("tournament_id")
@click.argument("players", nargs=-1)
@click.option("--bots", type=click.IntRange(1, 1000), help="Also enter this many of the game's named bot players.")
@click.option(
    "--new",
    "new_names",
    multiple=True,
    help="Register a person by this name and enter them (repeat it for each); prints 'id<TAB>name' for each.",
)
def enter(tournament_id: str, players: tuple[str, ...], bots: int | None, new_names: tuple[str, ...]) -> None:
    """Enter PLAYERS (player ids) in the tournament; with --new NAME, people registered now; with --bots N, N named
    bot players."""
    if not players and not bots and not new_names:
        raise click.UsageError("name the players to enter, or give --new NAME or --bots N")
    with _service() as service:
        service.tournament(tournament_id)  # (an unknown tournament is refused before anyone is registered)
        made = register_people(service, list(new_names))
        for player_id, person in zip(made, new_names, strict=True):
            click.echo(f"{player_id}\t{person.strip()}")
        if players or made:
            service.rounds.enter(tournament_id, [*players, *made])
        if bots:
            enter_bots(service, tournament_id, bots)
        _echo_status(service.rounds.status(tournament_id))


@tournament.command()
@click.argument("tournament_id")
@click.argument("player")
def withdraw(tournament_id: str, player: str) -> None:
    """Withdraw PLAYER (an id: `digsite tournament status` lists the entries' ids): seated in no later round (their
    games so far count)."""
    with _service() as service:
        service.rounds.withdraw(tournament_id, player)
        _echo_status(service.rounds.status(tournament_id))


@tournament.command()
@click.argument("tournament_id")
@click.option("--moves", type=int, help="Spectators follow its games in play this many moves behind (0: none).")
@click.option("--minutes", type=float, help="Spectators follow its games in play this many minutes behind.")
@click.option("--off", is_flag=True, help="Stop broadcasting its games in play (the default).")
def broadcast(tournament_id: str, moves: int | None, minutes: float | None, off: bool) -> None:
    """Broadcast the games in play of TOURNAMENT_ID to spectators, --moves or --minutes behind, or --off. Bad values
    are refused (exit 1, code invalid_broadcast)."""
    if off == (moves is not None or minutes is not None):
        raise click.UsageError("give --moves N or --minutes M, or --off")
    with _service() as service:
        setting = set_broadcast(service, tournament_id, moves, minutes)
    delay = setting["delay"]
    if delay is None:
        click.echo("broadcast: off")
    else:
        click.echo("broadcast: " + ", ".join(f"{value:g} {name} behind" for name, value in delay.items()))


@tournament.command("clock")
@click.argument("game_id")
@click.argument("change", type=click.Choice(("pause", "resume", "add")))
@click.option("--reason", required=True, help="Why (recorded with the change).")
@click.option("--seconds", type=float, help="With add: the seconds given.")
@click.option(
    "--seat", type=int, help="With add: the seat given them, counted from 1 as on the seat sheet (default: all)."
)
def clock(game_id: str, change: str, reason: str, seconds: float | None, seat: int | None) -> None:
    """Pause a table's clock, resume it, or add time (a recorded clock event, as POST /games/{id}/clock makes it).
    Refusals exit 1 (a bad seat or number of seconds) or 3 (an untimed game, a pause while paused, a game over),
    with their code."""
    number = int(seconds) if seconds is not None and seconds == int(seconds) else seconds
    with _service() as service:
        changed = service.change_clock(game_id, change, reason, number, None if seat is None else seat - 1)
    state = "paused" if changed["clock"]["paused"] else "running"
    click.echo(f"version {changed['version']}: the clock is {state}")
    for one in changed["clock"]["seats"]:
        click.echo(f"seat {one['seat'] + 1}: {one['left']:.0f} s left" + (" (running)" if one["running"] else ""))


def _seating_options(command: Any) -> Any:
    for option in reversed(
        [
            click.option("--format", "fmt", type=click.Choice(formats.FORMATS), help="Default: the round before's."),
            click.option("--table-size", type=int, help="The largest table. Default: the round before's."),
            click.option(
                "--csv",
                "csv_file",
                type=click.File("r"),
                help="With --format csv: the seating, a 'table,player' line per seat (player ids).",
            ),
        ]
    ):
        command = option(command)
    return command


def _tables(fmt: str | None, csv_file: Any) -> list[list[str]] | None:
    if csv_file is None:
        return None
    if fmt not in (None, "csv"):
        raise click.UsageError("--csv is the seating of --format csv")
    try:
        return formats.csv_tables(csv_file.read())
    except formats.SeatingError as error:
        click.echo(f"Error: {error} [{error.code}]", err=True)
        raise SystemExit(1) from None


@tournament.command()
@click.argument("tournament_id")
@_seating_options
def seat(tournament_id: str, fmt: str | None, table_size: int | None, csv_file: Any) -> None:
    """Show how the next round would be seated (nothing is stored)."""
    tables = _tables(fmt, csv_file)
    with _service() as service:
        found = service.rounds.seat_round(
            tournament_id, "csv" if tables else fmt, table_size, tables, force=True, dry_run=True
        )
        _echo_round(found)


@tournament.command("start-round")
@click.argument("tournament_id")
@_seating_options
@click.option("--force", is_flag=True, help="Seat it though games of the round before are in play (they go on).")
@click.option("--round", "round_no", type=int, help="The round you mean to start: refused if it is seated already.")
@click.option("--links", "links_file", type=click.File("w"), help="Write the seats' links to this CSV file.")
@click.option("--sheet", "sheet_file", type=click.File("w"), help="Write a printable sheet (a QR code a seat).")
@click.option("--base-url", default=DEFAULT_BASE_URL, show_default=True, help="Where players open the dashboard.")
def start_round(
    tournament_id: str,
    fmt: str | None,
    table_size: int | None,
    csv_file: Any,
    force: bool,
    round_no: int | None,
    links_file: Any,
    sheet_file: Any,
    base_url: str,
) -> None:
    """Seat the next round and start it: every table's game is created at once."""
    tables = _tables(fmt, csv_file)
    with _service() as service:
        found = service.rounds.seat_round(
            tournament_id, "csv" if tables else fmt, table_size, tables, force=force, round_no=round_no
        )
        _echo_round(found)
        _write_links(service, tournament_id, found["round"], base_url, links_file, sheet_file)


@tournament.command()
@click.argument("tournament_id")
@click.argument("round_no", type=int)
@click.option("--links", "links_file", type=click.File("w"), help="Write the seats' links to this CSV file.")
@click.option("--sheet", "sheet_file", type=click.File("w"), help="Write a printable sheet (a QR code a seat).")
@click.option("--base-url", default=DEFAULT_BASE_URL, show_default=True, help="Where players open the dashboard.")
def links(tournament_id: str, round_no: int, links_file: Any, sheet_file: Any, base_url: str) -> None:
    """The seats' links of ROUND_NO again (the same links: they follow from the server secret)."""
    with _service() as service:
        if links_file is None and sheet_file is None:
            click.echo(sheet.links_csv(service.rounds.links(tournament_id, round_no, base_url)), nl=False)
        _write_links(service, tournament_id, round_no, base_url, links_file, sheet_file)


@tournament.command("void-link")
@click.argument("tournament_id")
@click.argument("round_no", type=int)
@click.option("--table", type=click.IntRange(min=1), required=True, help="The table, as on the sheet (from 1).")
@click.option("--seat", type=click.IntRange(min=1), required=True, help="The seat, as on the sheet (from 1).")
@click.option("--reason", required=True, help="Why (a lost or leaked sheet): recorded with the ruling.")
@click.option("--base-url", default=DEFAULT_BASE_URL, show_default=True, help="Where players open the dashboard.")
def void_link(tournament_id: str, round_no: int, table: int, seat: int, reason: str, base_url: str) -> None:
    """Void one seat's link of ROUND_NO (a lost or leaked printed sheet), leaving the others as they are: the old
    link is refused from now on; the new one is printed here, once (`links` prints it again later)."""
    with _service() as service:
        voided = service.rounds.void_link(tournament_id, round_no, table, seat - 1, reason)
        click.echo(
            f"the link of table {table}, seat {seat} ({voided['name']}) is void; its new link (keep it private):"
        )
        click.echo(f"{base_url.rstrip('/')}/replay/{voided['game']}?token={quote(voided['token'])}")


@tournament.command()
@click.argument("tournament_id")
@click.option("--json", "as_json", is_flag=True, help="The status as JSON (what the API answers).")
def status(tournament_id: str, as_json: bool) -> None:
    """Entries (each player's id, what withdraw and the rulings take, and name), seated rounds and their tables, and
    the round to seat next."""
    with _service() as service:
        found = service.rounds.status(tournament_id)
        if as_json:
            click.echo(json.dumps(found, indent=2))
        else:
            _echo_status(found)
            for entry in found["entries"]:
                click.echo(f"  entry {entry['id']}\t{entry['name']}")
            for r in found["seated_rounds"]:
                _echo_round(r)


@tournament.command("play-bots")
@click.argument("tournament_id")
@click.option("--seed", default="0", show_default=True, help="The bots' choices follow from it.")
@click.option(
    "--alongside-people",
    is_flag=True,
    help="Play only the bots' seats, waiting for the people's moves at their tables, until the tournament is "
    "complete (run it through the evening, beside the API server).",
)
def play_bots(tournament_id: str, seed: str, alongside_people: bool) -> None:
    """Play every table in play with the bots in its seats, round after round, until the tournament is complete
    (every seat must be a bot player, unless --alongside-people; the rounds after the first are seated as each
    one ends)."""
    with _service() as service:
        if alongside_people:
            click.echo(f"{play_alongside_people(service, tournament_id, seed=seed)} bot move(s) played")
        else:
            click.echo(f"{play_rounds(service, tournament_id, seed=seed)} game(s) played")
        _echo_status(service.rounds.status(tournament_id))


def _write_links(
    service: Digsite, tournament_id: str, round_no: int, base_url: str, links_file: Any, sheet_file: Any
) -> None:
    if links_file is None and sheet_file is None:
        return
    found = service.rounds.links(tournament_id, round_no, base_url)
    if links_file is not None:
        links_file.write(sheet.links_csv(found))
        click.echo(f"links of {len(found)} seat(s) written to {links_file.name} (keep it private: they are the keys)")
    if sheet_file is not None:
        title = f"{service.tournament(tournament_id)['name']}: round {round_no}"
        sheet_file.write(sheet.links_sheet(title, found))
        click.echo(f"printable sheet written to {sheet_file.name}")


def _echo_status(found: Any) -> None:
    complete = " (complete)" if found["complete"] else ""
    click.echo(f"{found['name']}: {len(found['entries'])} entries, {len(found['seated_rounds'])} of "
               f"{found['rounds']} round(s) seated{complete}")  # fmt: skip
    if found["next_round"] is not None:
        click.echo(f"next round: {found['next_round']}")


def _echo_round(found: Any) -> None:
    state = "dry run" if not found["seated"] else found["status"]
    click.echo(f"round {found['round']} ({found['format']}, tables of up to {found['table_size']}): {state}")
    for table in found["tables"]:
        names = ", ".join(p["name"] for p in table["players"])
        game = f" game {table['game']} {table['status']}" if table["game"] else ""
        click.echo(f"  table {table['table']}:{game}: {names}")
    if found["byes"]:
        click.echo(f"  sitting out: {', '.join(b['name'] for b in found['byes'])}")
