"""Accuracy across judged games, read from the judge's tables (``service.reading.judgements``: the player page's and
the tournament page's figures), on SQLite and PostgreSQL: each judged seat once, at its game's largest budget, only
finished games of the kind or tournament asked for, the field by table size."""

from __future__ import annotations

from collections import defaultdict

import pytest

from service.analysis import stored
from service.analysis.judging import judge_records
from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from service.reading.read_port import ReadPort
from service.settings import Database
from tests.service.api.support import project


def test_accuracy_by_player_by_table_size_and_by_tournament(service: Digsite, database: Database) -> None:
    cup = run_tournament(service, kind="ruins", players=3, games=2, pool=4, seed="acc", name="Cup")
    duel = run_tournament(service, kind="ruins", players=2, games=1, seed="acc2", name="Duel")
    unjudged = run_tournament(service, kind="ruins", players=2, games=1, seed="acc3", name="Unjudged")
    games = [*cup.games, *duel.games]
    for g in games:
        records = service.stored_records(g.id)
        stored.write(database, judge_records(records, 4))
    stored.write(database, judge_records(service.stored_records(cup.games[0].id), 8))  # a larger budget: it counts
    project(service)
    read = ReadPort.over(service.reader)
    try:
        judgements = read.judgements
        seats = []  # (game, player, size, accuracy) at each game's largest budget
        for g in games:
            found = service.game(g.id)
            analysis = judgements.of(g.id)
            assert analysis is not None and analysis["budget"] == (8 if g.id == cup.games[0].id else 4)
            players = [p["id"] for p in found["players"]]
            seats += [(g.id, players[s["seat"]], len(players), s["accuracy"]) for s in analysis["seats"]]

        by_size: dict[int, list[float]] = defaultdict(list)
        for s in seats:
            by_size[s[2]].append(s[3])
        field = judgements.field("ruins")
        assert [(f["key"], f["n"]) for f in field] == [(n, len(v)) for n, v in sorted(by_size.items())]
        for f in field:
            values = by_size[f["key"]]
            assert f["accuracy"] == pytest.approx(sum(values) / len(values))
            assert f["square"] == pytest.approx(sum(v * v for v in values) / len(values))
        assert judgements.field("arnak") == []

        player = cup.pool[0]["id"]
        mine = judgements.of_player(player, "ruins")
        assert sorted((m["game_id"], m["accuracy"]) for m in mine) == sorted(
            (s[0], s[3]) for s in seats if s[1] == player
        )
        assert all(m["game_id"] not in {g.id for g in unjudged.games} for m in mine)

        in_cup = {g.id for g in cup.games}
        by_player: dict[str, list[float]] = defaultdict(list)
        for s in seats:
            if s[0] in in_cup:
                by_player[s[1]].append(s[3])
        means = {r["key"]: (r["accuracy"], r["n"]) for r in judgements.of_tournament(cup.id)}
        assert means == {p: (pytest.approx(sum(v) / len(v)), len(v)) for p, v in by_player.items()}
        assert judgements.of_tournament(unjudged.id) == []
    finally:
        read.close()
