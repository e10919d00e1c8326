"""``digsite verify``, ``export``, ``import``, ``checkpoint`` and ``ledger``: the organisers' audit tools.

Exit codes: 0 when everything holds (every check of every game; every game imported), 1 when a game fails
a check or is refused (or a checkpoint is refused), 2 when the command could not run (no such game, store
not reachable or not upgraded, a file that cannot be read).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import IO, Any, NoReturn
from uuid import UUID

import click

from service.cli.group import main
from service.cli.problems import StoreProblem, service_or_exit
from service.cluster import dask_jobs
from service.commands.application import Digsite
from service.errors import ServiceError
from service.integrity import checkpoint as checkpoints
from service.integrity.audit import (
    GamesVerifier,
    Report,
    StoreAudit,
    games_to_verify,
    stored_game_ids,
    verify,
    verify_store,
)
from service.integrity.backfill import backfill
from service.integrity.ledger import Ledger
from service.integrity.tournament_chain import stored_tournament_ids
from service.integrity.transfer import import_lines, write_export


def _service() -> AbstractContextManager[Digsite]:
    return service_or_exit(2)


def _stop(message: str) -> NoReturn:
    click.echo(f"Error: {message}", err=True)
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


def _load_checkpoint(path: str | None, public_key: str | None) -> tuple[checkpoints.Checkpoint | None, str]:
    """The checkpoint, its signature and entries checked (exit 1 if refused, 2 if a file cannot be read)."""
    if path is None:  # a public key (perhaps from the environment) has nothing to check
        return None, ""
    try:
        checkpoint = checkpoints.load(path)
        trusted = checkpoints.load_public_key(public_key) if public_key else None
    except checkpoints.CheckpointError as error:
        _stop(str(error))
    try:
        vouched = checkpoints.check(checkpoint, trusted)
    except checkpoints.CheckpointError as error:
        click.echo(f"checkpoint refused: {error}")
        click.echo("NOT VERIFIED: nothing was checked against this checkpoint")
        raise SystemExit(1) from None
    return checkpoint, vouched


def _checkpoint_line(checkpoint: checkpoints.Checkpoint, vouched: str) -> str:
    return (
        f"checkpoint of ledger entries 1 to {checkpoint.ledger_size} (head {checkpoint.head[:12]}...), issued "
        f"{checkpoint.issued_at}; signature checked with {vouched}"
    )


@main.command("verify")
@click.argument("game", required=False)
@click.option("--all", "every", is_flag=True, help="Verify every game in the store (and every game its ledger names).")
@click.option("--tournament", metavar="T", help="Verify every game of tournament T.")
@click.option("--json", "as_json", is_flag=True, help="Machine output: one JSON object per game (then a summary).")
@click.option(
    "--checkpoint",
    "checkpoint_path",
    metavar="FILE",
    help="Also prove the games and the ledger against this signed checkpoint (`digsite checkpoint`).",
)
@click.option(
    "--public-key",
    metavar="FILE",
    envvar=checkpoints.PUBLIC_KEY_ENV,
    help="The organisers' public key the checkpoint must be signed with (default: $DIGSITE_CHECKPOINT_PUBLIC_KEY; "
    "without it only the key inside the checkpoint is checked).",
)
@click.option(
    "--cluster",
    metavar="ADDRESS",
    help="With --all or --tournament: verify the games on the workers of the Dask scheduler at ADDRESS "
    "(tcp://HOST:8786; PostgreSQL stores only; docs/deploy.md). Same report, same exit codes.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    metavar="N",
    help="With --all or --tournament: verify the games on a local Dask cluster of N processes (PostgreSQL only).",
)
def verify_command(
    game: str | None,
    every: bool,
    tournament: str | None,
    as_json: bool,
    checkpoint_path: str | None,
    public_key: str | None,
    cluster: str | None,
    workers: int | None,
) -> None:
    """Recheck stored games: record order, hash chain, seed commitment, every move re-decided by the rules, every
    snapshot against the records, and each game against the store's ledger (and a signed checkpoint, if given).

    Exit code 0 when every check holds, 1 when one fails (naming the first bad record) or the checkpoint is
    refused, 2 when it cannot run."""
    _pick(game, tournament, every)
    split = cluster is not None or workers is not None
    if split and game is not None:
        _stop("--cluster and --workers split many games: use them with --all or --tournament")
    if cluster is not None and workers is not None:
        _stop("give --cluster ADDRESS (its workers are used) or --workers N, not both")
    checkpoint, vouched = _load_checkpoint(checkpoint_path, public_key)
    with _service() as service:
        if game is not None:
            signed = checkpoint.entries_of(_canonical_id(game)) if checkpoint is not None else None
            report = verify(service, game, checkpoint_entries=signed)
            if as_json:
                click.echo(json.dumps(report.to_dict()))
            else:
                if checkpoint is not None:
                    click.echo(_checkpoint_line(checkpoint, vouched))
                _print_report(report)
            raise SystemExit(0 if report.ok else 1)
        ids = _ids(service, None, tournament) if tournament is not None else games_to_verify(service, None, checkpoint)
        tournaments = (
            [service.tournament(tournament)["id"]]
            if tournament is not None
            else stored_tournament_ids(service, Ledger(service).entries())
        )
        with (
            _games_verifier(service, cluster, workers) as verify_games,
            click.progressbar(length=len(ids), label="verifying", file=sys.stderr) as bar,
        ):
            audit = verify_store(
                service,
                progress=lambda _: bar.update(1),
                game_ids=ids,
                checkpoint=checkpoint,
                verify_games=verify_games,
                tournament_ids=tournaments,
            )
    _print_store(audit, as_json, checkpoint, vouched)
    raise SystemExit(0 if audit.ok else 1)


@contextmanager
def _games_verifier(service: Digsite, cluster: str | None, workers: int | None) -> Iterator[GamesVerifier | None]:
    """None (the games verified here, one by one) unless --cluster or --workers split them
    (service/cluster/dask_jobs.py)."""
    if cluster is None and workers is None:
        yield None
        return

    try:
        dask_jobs.require_dask(f"digsite verify {'--cluster' if cluster is not None else '--workers'}")
        dask_jobs.require_postgresql(service.settings)
        with dask_jobs.engine(cluster, workers) as client:
            yield dask_jobs.games_verifier(client, service.settings)
    except dask_jobs.ClusterProblem as error:
        _stop(str(error))
    except (ServiceError, StoreProblem):
        raise
    except Exception as error:  # a worker lost too often, the store gone away...: one line, exit 2
        _stop(f"the distributed verify could not finish ({type(error).__name__}: {error}): run it again")


def _canonical_id(game: str) -> str:
    try:
        return str(UUID(game))
    except ValueError:
        return game


def _print_store(audit: StoreAudit, as_json: bool, checkpoint: checkpoints.Checkpoint | None, vouched: str) -> None:
    reports = audit.reports
    failed = [r for r in reports if not r.ok]
    summary: dict[str, Any] = {"summary": True, "games": len(reports), "ok": len(reports) - len(failed)}
    summary["failed"] = len(failed)
    summary["ledger_ok"] = audit.ledger.ok
    summary["tournaments_failed"] = sum(not t.ok for t in audit.tournaments)
    if checkpoint is not None:
        summary["checkpoint_ok"] = audit.checkpoint is not None and audit.checkpoint.ok
        summary["covered"] = {
            "whole": sum(r.coverage == "whole" for r in reports),
            "created": sum(r.coverage == "created" for r in reports),
            "not": sum(r.coverage is None for r in reports),
        }
    if as_json:
        for report in reports:
            click.echo(json.dumps(report.to_dict()))
        click.echo(json.dumps({**summary, **audit.to_dict()}))
        return
    for report in failed:
        where = (
            f"first bad record {report.first_bad.version}: {report.first_bad.reason}"
            if report.first_bad
            else next(f"{c.name}: {c.detail}" for c in report.checks if not c.ok)
        )
        click.echo(f"FAIL game {report.game}: {where}")
        if report.bad_snapshots and not (report.first_bad and report.first_bad.reason.startswith("snapshots")):
            snapshots = next(c for c in report.checks if c.name == "snapshots")
            click.echo(f"  snapshots: {snapshots.detail}")
    for found in audit.tournaments:
        bad = next((c for c in found.checks if not c.ok), None)
        if bad is not None:
            at = f"first bad record {bad.version}: " if bad.version is not None else ""
            click.echo(f"FAIL tournament {found.tournament}: {at}{bad.name}: {bad.detail}")
        elif found.uncovered:
            click.echo(f"not covered: tournament {found.tournament}: {found.checks[-1].detail}")
    click.echo(f"{'ok  ' if audit.ledger.ok else 'FAIL'} ledger: {audit.ledger.detail}")
    if checkpoint is not None and audit.checkpoint is not None:
        click.echo(_checkpoint_line(checkpoint, vouched))
        click.echo(f"{'ok  ' if audit.checkpoint.ok else 'FAIL'} checkpoint: {audit.checkpoint.detail}")
        covered = summary["covered"]
        click.echo(
            f"covered by the checkpoint: {covered['whole']} game(s) whole, {covered['created']} from creation only "
            f"(ended after it, or in play); {covered['not']} not covered"
        )
    if audit.tournaments:
        verified = sum(t.ok for t in audit.tournaments)
        uncovered = sum(t.ok and t.coverage != "whole" for t in audit.tournaments)
        click.echo(
            f"{len(audit.tournaments)} tournament(s) checked: {verified} verified ({uncovered} of them stored before "
            f"tournaments were chained, not covered by the ledger: `digsite ledger backfill`), "
            f"{len(audit.tournaments) - verified} failed"
        )
    over = sum(r.status == "over" for r in reports)
    click.echo(
        f"{len(reports)} game(s) checked ({over} over, {len(reports) - over} in play or unreadable): "
        f"{summary['ok']} verified, {len(failed)} failed"
    )


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


# -- the ledger and its checkpoints ---------------------------------------------------------------------------


@main.group("checkpoint", invoke_without_command=True)
@click.option(
    "--key",
    metavar="FILE",
    envvar=checkpoints.KEY_ENV,
    help="The Ed25519 private key to sign with (default: $DIGSITE_CHECKPOINT_KEY). Keep it outside the store.",
)
@click.option("-o", "--output", default="-", metavar="FILE", help="Write to FILE (default: standard output).")
@click.pass_context
def checkpoint_command(ctx: click.Context, key: str | None, output: str) -> None:
    """Sign the store's ledger as it is now: a checkpoint to publish or hand to players.

    `digsite verify --all --checkpoint FILE --public-key KEY.pub` then proves every game it covers is present,
    whole, unaltered and ends where it ended. Refuses to sign a ledger whose chain does not hold or whose
    entries do not name stored records. The store keeps a copy of each checkpoint issued."""
    if ctx.invoked_subcommand is not None:
        return
    if key is None:
        raise click.UsageError("name the private key with --key FILE or DIGSITE_CHECKPOINT_KEY")
    try:
        private = checkpoints.load_private_key(key)
    except checkpoints.CheckpointError as error:
        _stop(str(error))
    with _service() as service:
        try:
            issued = checkpoints.issue(service, private)
        except checkpoints.CheckpointError as error:
            click.echo(f"refused: {error}", err=True)
            raise SystemExit(1) from None
    with _output(output) as out:
        out.write(json.dumps(issued.to_dict(), separators=(",", ":")) + "\n")
    target = "standard output" if output == "-" else output
    click.echo(
        f"checkpoint of ledger entries 1 to {issued.ledger_size} (head {issued.head}) signed with key "
        f"{issued.key_id}, written to {target}",
        err=True,
    )


@checkpoint_command.command("keygen")
@click.argument("private_key", metavar="FILE", type=click.Path(dir_okay=False))
def keygen_command(private_key: str) -> None:
    """Write a new Ed25519 key pair: the private key to FILE (readable by you only; never overwritten) and the
    public key to FILE.pub, the one to publish. Keep FILE off the database server."""
    try:
        public, key_id = checkpoints.keygen(Path(private_key))
    except (checkpoints.CheckpointError, OSError) as error:
        _stop(str(error))
    click.echo(f"private key: {private_key} (keep it secret, outside the store)")
    click.echo(f"public key:  {public} (publish it with the checkpoints; key id {key_id})")


@main.group("ledger")
def ledger_group() -> None:
    """The store's ledger: each game's first and final record hash, chained (see docs/audit.md)."""


@ledger_group.command("backfill")
def backfill_command() -> None:
    """Enter games stored before the ledger existed: each is verified first, and only a game whose every check
    holds is entered (its creation, and its end if it is over). Run it once after `digsite db upgrade`; safe
    to run again. Exit code 1 if some game was not entered (each is named, with the reason)."""
    with _service() as service:
        result = backfill(service)
    for game_id, why in result.refused:
        what = "tournament" if why.startswith("tournament: ") else "game"
        click.echo(f"NOT ENTERED {what} {game_id}: {why.removeprefix('tournament: ')}")
    click.echo(
        f"entered {len(result.entered)} ledger entr{'y' if len(result.entered) == 1 else 'ies'}; "
        f"{result.already} game(s) and {result.tournaments_already} tournament(s) were in the ledger already; "
        f"{len(result.refused)} not entered"
    )
    raise SystemExit(1 if result.refused else 0)
