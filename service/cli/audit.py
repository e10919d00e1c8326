"""``digsite verify``, ``digsite export`` and ``digsite import``: the organisers' audit tools.

Exit codes: 0 when everything holds (every check of every game; every game imported), 1 when a game fails
a check or is refused, 2 when the command could not run (no such game, store not reachable or not upgraded).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, NoReturn

import click

from service.application import Digsite
from service.audit import Report, stored_game_ids, verify, verify_all
from service.bootstrap import build
from service.cli import main
from service.errors import ServiceError
from service.transfer import import_lines, write_export


@contextmanager
def _service() -> Iterator[Digsite]:
    try:
        service = build()
    except (ServiceError, ValueError) as error:
        _stop(getattr(error, "message", str(error)))
    try:
        yield service
    except ServiceError as error:
        _stop(error.message)
    finally:
        service.close()


def _stop(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    raise SystemExit(2)


@contextmanager
def _output(path: str) -> Iterator[IO[str]]:
    """Standard output for "-"; else a file that appears only once the whole export is written."""
    if path == "-":
        yield sys.stdout
        return
    target = Path(path)
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        with partial.open("w", encoding="utf-8") as out:
            yield out
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)


def _pick(game: str | None, tournament: str | None, every: bool) -> None:
    if sum([game is not None, tournament is not None, every]) != 1:
        raise click.UsageError("name one GAME, or use --tournament T, or --all")


def _ids(service: Digsite, game: str | None, tournament: str | None) -> list[str]:
    if game is not None:
        return [game]
    if tournament is not None:
        return list(service.game_ids(tournament=service.tournament(tournament)["id"]))
    return list(stored_game_ids(service))


def _print_report(report: Report) -> None:
    click.echo(f"game {report.game} ({report.kind or '?'}, {report.status}, {report.records} records)")
    for check in report.checks:
        mark = "ok  " if check.ok else "FAIL"
        click.echo(f"  {mark} {check.name:<13} {check.detail}")
    if report.ok:
        click.echo(f"verified: every check holds; last hash {report.last_hash}")
    elif report.first_bad is not None:
        click.echo(f"NOT VERIFIED: first bad record is version {report.first_bad.version} ({report.first_bad.reason})")
    else:
        failed = next(c for c in report.checks if not c.ok)
        click.echo(f"NOT VERIFIED: {failed.name}: {failed.detail}")


@main.command("verify")
@click.argument("game", required=False)
@click.option("--all", "every", is_flag=True, help="Verify every game in the store.")
@click.option("--tournament", metavar="T", help="Verify every game of tournament T.")
@click.option("--json", "as_json", is_flag=True, help="Machine output: one JSON object per game (then a summary).")
def verify_command(game: str | None, every: bool, tournament: str | None, as_json: bool) -> None:
    """Recheck stored games: record order, hash chain, seed commitment, and every move re-decided by the rules.

    Exit code 0 when every check holds, 1 when one fails (naming the first bad record), 2 when it cannot run."""
    _pick(game, tournament, every)
    with _service() as service:
        if game is not None:
            report = verify(service, game)
            if as_json:
                click.echo(json.dumps(report.to_dict()))
            else:
                _print_report(report)
            raise SystemExit(0 if report.ok else 1)
        ids = _ids(service, None, tournament)
        with click.progressbar(length=len(ids), label="verifying", file=sys.stderr) as bar:
            reports = verify_all(service, progress=lambda _: bar.update(1), game_ids=ids)
    failed = [r for r in reports if not r.ok]
    summary = {"summary": True, "games": len(reports), "ok": len(reports) - len(failed), "failed": len(failed)}
    if as_json:
        for report in reports:
            click.echo(json.dumps(report.to_dict()))
        click.echo(json.dumps(summary))
    else:
        for report in failed:
            where = (
                f"first bad record {report.first_bad.version}: {report.first_bad.reason}"
                if report.first_bad
                else next(f"{c.name}: {c.detail}" for c in report.checks if not c.ok)
            )
            click.echo(f"FAIL game {report.game}: {where}")
        over = sum(r.status == "over" for r in reports)
        click.echo(
            f"{len(reports)} game(s) checked ({over} over, {len(reports) - over} in play or unreadable): "
            f"{summary['ok']} verified, {len(failed)} failed"
        )
    raise SystemExit(1 if failed else 0)


@main.command("export")
@click.argument("game", required=False)
@click.option("--tournament", metavar="T", help="Export every game of tournament T.")
@click.option("--all", "every", is_flag=True, help="Export every game in the store.")
@click.option("-o", "--output", default="-", metavar="FILE", help="Write to FILE (default: standard output).")
def export_command(game: str | None, tournament: str | None, every: bool, output: str) -> None:
    """Write stored games as JSON Lines: players and tournament, then per game a header and every record.

    The export holds each record's hashes and full content, and so the secret seed and hands of a game still
    in play: keep such a file private until the game is over."""
    _pick(game, tournament, every)
    with _service() as service:
        ids = _ids(service, game, tournament)
        with _output(output) as out:
            summary = write_export(service, ids, out)
    target = "standard output" if output == "-" else output
    click.echo(f"exported {summary.games} game(s), {summary.records} record(s) to {target}", err=True)
    for game_id in summary.in_play:
        click.echo(f"warning: game {game_id} is still in play: this export holds its secret seed", err=True)


@main.command("import")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.option("--dry-run", is_flag=True, help="Verify the file and report, without writing anything.")
@click.option("--json", "as_json", is_flag=True, help="Machine output: one JSON object per game, then a summary.")
def import_command(file: IO[str], dry_run: bool, as_json: bool) -> None:
    """Import games from an export (FILE, or - for standard input) into the store of DIGSITE_DATABASE_URL.

    Every game is verified on the way in (hash chain, seed, every move re-decided); a game that fails, or whose
    id the store already has, is refused and nothing of it is written. Exit code 1 if any game is refused."""
    with _service() as service:
        results = import_lines(service, file, dry_run=dry_run)
    imported = [r for r in results if r.imported]
    summary: dict[str, Any] = {
        "summary": True,
        "games": len(results),
        "imported": len(imported),
        "refused": len(results) - len(imported),
        "dry_run": dry_run,
    }
    if as_json:
        for result in results:
            click.echo(json.dumps(result.to_dict()))
        click.echo(json.dumps(summary))
    else:
        verb = "would import" if dry_run else "imported"
        for result in results:
            if result.imported:
                added = (
                    f"; added {len(result.added_players)} player(s), {len(result.added_tournaments)} tournament(s)"
                    if result.added_players or result.added_tournaments
                    else ""
                )
                click.echo(f"{verb} game {result.game} ({result.records} records, verified{added})")
            else:
                click.echo(f"REFUSED game {result.game}: {result.reason}")
            for warning in result.warnings:
                click.echo(f"  warning: {warning}")
        if not results:
            click.echo("the file holds no game")
        click.echo(f"{verb} {len(imported)} of {len(results)} game(s)")
    raise SystemExit(0 if results and len(imported) == len(results) else 1)
