"""``digsite analyse``: the judge's judgement of finished games, stored in the read models (docs/judge.md).

Each game is judged from its stored records by ``service.analysis.judging`` (in this process, or on worker
processes with ``--workers``) and written by this process in one transaction (``service.analysis.stored``): a run
stopped at any point leaves every game judged whole or not at all, and the next run judges the rest. Games already
judged at this judge version and budget are passed over.

Exit codes: 0 when every game asked for is judged (or already was); 1 when a game named is refused (not over);
2 when the command could not run (no such game or tournament, the store not there or not upgraded).
"""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import AbstractContextManager
from typing import Any, NoReturn

import click

from domain.judge import DEFAULT_BUDGET, JUDGE_VERSION
from service.analysis import stored
from service.analysis.judging import Judged, finished, judge_records
from service.cli.group import main
from service.cli.problems import service_or_exit
from service.cluster import dask_jobs
from service.commands.application import Digsite
from service.integrity.audit import stored_game_ids

EXIT_REFUSED, EXIT_CANNOT_RUN, EXIT_INTERRUPTED = 1, 2, 130
IN_FLIGHT = 2  # games handed to each worker ahead: enough to keep it busy, few records held in memory


def _stop(message: str, code: int = EXIT_CANNOT_RUN) -> NoReturn:
    click.echo(f"Error: {message}", err=True)
    raise SystemExit(code)


def _service() -> AbstractContextManager[Digsite]:
    return service_or_exit(EXIT_CANNOT_RUN)


def _records(service: Digsite, game_id: str) -> list[dict[str, Any]]:
    records = service.stored_records(game_id)
    if not records or records[0]["type"] != "created":
        _stop(f"no game with id {game_id}")
    return records


def _candidates(service: Digsite, game: str | None, tournament: str | None) -> list[str]:
    if game is not None:
        return [str(_records(service, game)[0]["game"])]  # (an unknown id stops here, exit 2)
    if tournament is not None:
        return list(service.game_ids(tournament=service.tournament(tournament)["id"]))
    return list(stored_game_ids(service))


def _finished_records(service: Digsite, ids: list[str]) -> Iterator[list[dict[str, Any]]]:
    """Each game's records, for the games that are over (the others are passed over: judged once over)."""
    for game_id in ids:
        records = service.stored_records(game_id)
        if records and finished(records):
            yield records


def _judged(service: Digsite, ids: list[str], budget: int, workers: int, cluster: str | None) -> Iterator[Judged]:
    """Each finished game of ``ids`` judged, here (one worker), on ``workers`` processes or on the workers of the
    Dask scheduler at ``cluster``, as each is done."""
    games = _finished_records(service, ids)
    if cluster is not None:
        with dask_jobs.engine(cluster, None) as client:
            yield from dask_jobs.judged_on(client, games, budget)
        return
    if workers == 1:
        for records in games:
            yield judge_records(records, budget)
        return
    # Fresh interpreters ("spawn"), not copies of this one: it holds the store's connections and threads.
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        running: set[Future[Judged]] = set()
        try:
            for records in games:
                running.add(pool.submit(judge_records, records, budget))
                while len(running) >= workers * IN_FLIGHT:
                    done, running = wait(running, return_when=FIRST_COMPLETED)
                    yield from (f.result() for f in done)
            while running:
                done, running = wait(running, return_when=FIRST_COMPLETED)
                yield from (f.result() for f in done)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


@main.command()
@click.argument("game", required=False)
@click.option("--game", "game_option", metavar="ID", help="The game to judge (or give it as the argument).")
@click.option("--tournament", metavar="T", help="Judge every finished game of tournament T (its id).")
@click.option("--all", "every", is_flag=True, help="Judge every finished game in the store.")
@click.option(
    "--budget",
    type=click.IntRange(min=4),
    default=DEFAULT_BUDGET,
    show_default=True,
    help="Playouts a decision (half to search, half to estimate): more is steadier and slower.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Processes judging games side by side (each game whole on one of them).",
)
@click.option(
    "--cluster",
    metavar="ADDRESS",
    help="Judge on the workers of the Dask scheduler at ADDRESS (tcp://HOST:8786; the `cluster` extra; "
    "docs/deploy.md): each worker gets whole games' records, this process writes the rows.",
)
def analyse(
    game: str | None,
    game_option: str | None,
    tournament: str | None,
    every: bool,
    budget: int,
    workers: int,
    cluster: str | None,
) -> None:
    """Judge every move of finished games (the judge, docs/judge.md) and store the judgements.

    Games already judged at this judge version and budget are passed over; games still in play are passed over
    with --tournament and --all, and refused when named (exit 1). Safe to interrupt: each game is stored whole
    or not at all. Exit code 0 when done, 1 when a game named is not over, 2 when it cannot run."""
    if game is not None and game_option is not None:
        raise click.UsageError("name the game once: as the argument or with --game")
    game = game if game is not None else game_option
    if sum([game is not None, tournament is not None, every]) != 1:
        raise click.UsageError("name one game (--game ID), or use --tournament T, or --all")
    if cluster is not None and workers != 1:
        raise click.UsageError("give --cluster ADDRESS (its workers are used) or --workers N, not both")
    if cluster is not None:
        try:
            dask_jobs.require_dask("digsite analyse --cluster")
        except dask_jobs.ClusterProblem as error:
            _stop(str(error))
    with _service() as service:
        database = service.settings.database
        ids = _candidates(service, game, tournament)
        if game is not None and not finished(_records(service, ids[0])):
            _stop(f"game {ids[0]} is not over: only finished games are judged", EXIT_REFUSED)
        done = stored.judged_games(database, JUDGE_VERSION, budget)
        todo = [i for i in ids if i not in done]
        where = f"judge version {JUDGE_VERSION}, budget {budget}"
        click.echo(f"{len(ids)} game(s) asked for; {len(ids) - len(todo)} already judged at {where}")
        count = 0
        try:
            with click.progressbar(length=len(todo), label="judging", file=sys.stderr) as bar:
                for judged in _judged(service, todo, budget, workers, cluster):
                    stored.write(database, judged)
                    count += 1
                    bar.update(1)
        except dask_jobs.ClusterProblem as error:
            _stop(f"{error} ({count} game(s) judged and stored whole before)")
        except KeyboardInterrupt:
            click.echo(f"\ninterrupted: {count} game(s) judged and stored whole; run again to judge the rest", err=True)
            raise SystemExit(EXIT_INTERRUPTED) from None
    passed = len(todo) - count
    click.echo(f"judged {count} game(s)" + (f"; {passed} not over, passed over" if passed else ""))
