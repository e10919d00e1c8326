"""``digsite fair-play --tournament T``: a tournament's fair-play report (docs/fair_play.md), the same the API gives
organisers (``service.reading.fair_play``). Like every command here it needs the store itself
(``DIGSITE_DATABASE_URL``): whoever holds that is an organiser.

Printed as a table per signal (rank, subject, score, flagged, games, and the top moves behind it; under a flagged
finding, its figures in words, as the dashboard's page gives them), players by name (with the start of their id
where two share a name) and seats numbered from 1, as on the dashboard; or with ``--json`` as the API's answer
(ids, seats from 0). Exit codes: 0 printed; 1 refused (no such tournament: ``Error: ... [code]``);
2 a usage error (click's)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping

import click

from service.analysis.fair_play.findings import by_chance
from service.analysis.fair_play.signals import figure_words, none_found
from service.cli.group import main
from service.cli.tournament import _service
from service.reading import fair_play as reading
from service.reading.read_port import ReadPort
from service.reading.results import FairPlay, FairPlayMove

ORDERED = ("gifts", "kingmaking")  # an ordered pair's subject: the giver (kingmaker), then who gained
TOP_MOVES = 3  # the weightiest moves shown beside each finding (--json gives them all)


def _move(move: FairPlayMove) -> str:
    return f"{move['game_id'][:8]} v{move['version']} seat {move['seat'] + 1} ({move['amount']:g})"


def labels(names: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Each player's label in the tables: the name, and where two players share one, the start of the id too."""
    pairs = list(names)
    shared = Counter(name for _, name in pairs)
    return {pid: name if shared[name] == 1 else f"{name} ({pid[:8]})" for pid, name in pairs}


def tables(shown: FairPlay, names: Mapping[str, str] | None = None, title: str | None = None) -> str:
    """The report as plain text: the games it covers, then per signal its findings in rank order (players by
    ``names``, else by id; the tournament by ``title``, else by id)."""
    names = names or {}
    lines = [
        f"Fair play in tournament {title or shown['tournament_id']}: {shown['judged_games']} of "
        f"{shown['finished_games']} finished games judged, {shown['decisions']} decisions read"
    ]
    if shown["unjudged_games"]:
        lines.append(f"  not judged yet: {len(shown['unjudged_games'])}: run `digsite analyse --tournament "
                     f"{shown['tournament_id']}`")  # fmt: skip
    lines.append("A score is a measure to look into, never a verdict (docs/fair_play.md). Moves: game, version, seat "
                 "(from 1, as on the dashboard) and the move's weight.")  # fmt: skip
    for signal, findings in shown["signals"].items():
        threshold = shown["thresholds"].get(signal)
        lines += ["", f"{signal} (flagged at {threshold:g} or more)" if threshold is not None else signal]
        if threshold is not None and findings:
            lines.append(f"  ({len(findings)} scored; with no cheat about {by_chance(threshold, len(findings)):.1f} "
                         f"would reach {threshold:g} by chance: a flag is a lead)")  # fmt: skip
        if not findings:
            lines.append(f"  ({none_found(shown['decisions'])})")
            continue
        lines.append(f"  {'rank':>4}  {'subject':<40} {'score':>8}  {'flag':<4} {'games':>5}  top moves")
        for rank, found in enumerate(findings, 1):
            subject = (" > " if signal in ORDERED else " & ").join(names.get(p, p) for p in found["subject"])
            moves = "; ".join(_move(m) for m in found["moves"][:TOP_MOVES])
            flag = "YES" if found["flagged"] else ""
            lines.append(f"  {rank:>4}  {subject:<40} {found['score']:>8.3f}  {flag:<4} {found['games']:>5}  {moves}")
            if found["flagged"] and found["figures"]:  # what a flag rests on, in words (the page's)
                lines.append(f"        {figure_words(signal, found['figures'])}")
    return "\n".join(lines)


@main.command(name="fair-play")
@click.option("--tournament", "tournament_id", required=True, help="The tournament (id).")
@click.option("--json", "as_json", is_flag=True, help="Print the API's JSON answer instead of the tables.")
def fair_play(tournament_id: str, as_json: bool) -> None:
    """A tournament's fair-play report: players and pairs ranked by each signal, with the moves behind each."""
    with _service() as service:
        port = ReadPort.over(service.reader)
        try:
            shown, _ = reading.fair_play(port, tournament_id)
        finally:
            port.close()
        if as_json:
            click.echo(json.dumps(shown, indent=2))
            return
        subjects = {p for findings in shown["signals"].values() for found in findings for p in found["subject"]}
        names = labels((p, service.player(p)["name"]) for p in sorted(subjects))
        title = f"{service.tournament(tournament_id)['name']} ({shown['tournament_id']})"
        click.echo(tables(shown, names, title))
