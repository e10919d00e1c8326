"""``digsite fair-play --tournament T [--json]``: the report the API gives organisers, as tables per signal or as
the API's JSON; an unknown tournament refused with its code; and, like every organiser command, nothing without the
store itself. The reporter is a small hand-made one (tests/service/fair_play_support.py)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from service.analysis import stored
from service.analysis.fair_play.signals import figure_words, none_found
from service.analysis.judging import judge_records
from service.bots.simulation import run_tournament
from service.cli import main
from service.cli.fair_play import labels
from service.commands.application import Digsite
from service.reading import fair_play
from service.settings import Database
from tests.service import fair_play_support
from tests.service.api.support import project


def test_the_report_prints_as_tables_or_json_and_an_unknown_tournament_is_refused(
    service: Digsite, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fair_play, "default_reporter", fair_play_support.reporter)
    cup = run_tournament(service, kind="ruins", players=2, games=2, pool=2, seed="fair-cli", name="Cup")
    stored.write(database, judge_records(service.stored_records(cup.games[0].id), 4))
    project(service)
    env = {"DIGSITE_DATABASE_URL": database.url}

    as_json = CliRunner().invoke(main, ["fair-play", "--tournament", cup.id, "--json"], env=env)
    assert as_json.exit_code == 0, as_json.output
    shown = json.loads(as_json.output)
    assert (shown["judged_games"], shown["finished_games"], shown["unjudged_games"]) == (1, 2, [cup.games[1].id])
    top = shown["signals"]["gifts"][0]

    text = CliRunner().invoke(main, ["fair-play", "--tournament", cup.id], env=env)
    assert text.exit_code == 0, text.output
    assert "1 of 2 finished games judged" in text.output and f"digsite analyse --tournament {cup.id}" in text.output
    gifts = text.output.split("\ngifts")[1].split("\n\n")[0]
    assert "(1 scored; with no cheat about 0.2 would reach 1 by chance" in gifts  # 1 - Phi(1) = 0.16 of one pair
    row = next(line for line in gifts.splitlines() if line.strip().startswith("1 "))
    giver, receiver = (service.player(p)["name"] for p in top["subject"])  # by name, not by id
    assert f"{giver} > {receiver}" in row and "YES" in row and f"{top['score']:.3f}" in row
    assert top["subject"][0] not in text.output and giver != receiver
    assert f"v{top['moves'][0]['version']} seat {top['moves'][0]['seat'] + 1}" in row  # seats from 1, as on the pages
    assert text.output.startswith(f"Fair play in tournament Cup ({cup.id}): ")
    under = gifts.splitlines()[gifts.splitlines().index(row) + 1]  # a flagged finding's figures, in words
    assert top["figures"] and under.strip() == figure_words("gifts", top["figures"])

    unknown = CliRunner().invoke(main, ["fair-play", "--tournament", "00000000-0000-4000-8000-000000000000"], env=env)
    assert unknown.exit_code == 1 and "[unknown_tournament]" in unknown.output


def test_a_tournament_with_nothing_judged_says_so_under_each_signal(service: Digsite, database: Database) -> None:
    """Not "no finding", which would read as a clean field: no decision of its games has been judged yet."""
    cup = run_tournament(service, kind="ruins", players=2, games=1, pool=2, seed="fair-cli-none", name="Unjudged")
    project(service)
    text = CliRunner().invoke(main, ["fair-play", "--tournament", cup.id], env={"DIGSITE_DATABASE_URL": database.url})
    assert text.exit_code == 0, text.output
    assert "0 of 1 finished games judged, 0 decisions read" in text.output
    signals = [part.splitlines() for part in text.output.split("\n\n")[1:]]
    assert signals and all(lines[1].strip() == f"({none_found(0)})" for lines in signals), text.output
    assert none_found(0).startswith("Nothing to read yet") and none_found(1) == "No finding."


def test_without_the_store_nothing_is_printed(tmp_path: object) -> None:
    missing = CliRunner().invoke(
        main, ["fair-play", "--tournament", "x"], env={"DIGSITE_DATABASE_URL": f"sqlite:///{tmp_path}/none.sqlite"}
    )
    assert missing.exit_code != 0 and "signals" not in missing.output and "Fair play" not in missing.output


def test_players_who_share_a_name_are_told_apart_by_the_start_of_their_id() -> None:
    shown = labels([("aaaaaaaa-1", "Sam"), ("bbbbbbbb-2", "Sam"), ("cccccccc-3", "Ana")])
    assert shown == {"aaaaaaaa-1": "Sam (aaaaaaaa)", "bbbbbbbb-2": "Sam (bbbbbbbb)", "cccccccc-3": "Ana"}
