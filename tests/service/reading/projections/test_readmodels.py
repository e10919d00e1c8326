"""The read models' generic core and each game's fact tables: schema from the catalogue, an old store upgraded,
and Ruins' facts right where the old read models were wrong (the Showdown, claims, think time)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest

from domain.games import GAMES
from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from service.reading.projections.facts import game_tables
from service.reading.projections.follower import Follower
from service.reading.read_port import ReadPort
from service.settings import Database
from service.store import backends
from tests.service.reading.projections.support import rows
from tests.service.store import earlier_releases


def _columns(follower: Follower, table: str) -> list[str]:
    db = follower.read_models.db
    with follower.read_models.tracker.datastore.transaction(commit=False) as curs:
        if db.backend == "sqlite":
            curs.execute(f"PRAGMA table_info({table})")
            return [r[1] for r in curs.fetchall()]
        curs.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = %s AND table_name = %s "
            "ORDER BY ordinal_position",
            (db.schema, table),
        )
        return [r["column_name"] if isinstance(r, dict) else r[0] for r in curs.fetchall()]


def _tables(follower: Follower, prefix: str) -> set[str]:
    db = follower.read_models.db
    with follower.read_models.tracker.datastore.transaction(commit=False) as curs:
        if db.backend == "sqlite":
            curs.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ?", (f"{prefix}%",))
        else:
            curs.execute(
                "SELECT table_name AS name FROM information_schema.tables "
                "WHERE table_schema = %s AND table_name LIKE %s",
                (db.schema, f"{prefix}%"),
            )
        return {r["name"] if isinstance(r, dict) else r[0] for r in curs.fetchall()}


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_game_s_migrations_create_exactly_the_fact_tables_its_analytics_declares(
    follower: Follower, kind: str
) -> None:
    declared = {t.name: t.table.stored_columns() for t in game_tables(kind).values()}
    assert _tables(follower, f"rm_{kind}_") == set(declared)
    for table, columns in declared.items():
        assert _columns(follower, table) == list(columns), table


@pytest.fixture
def played(service: Digsite, follower: Follower) -> Iterator[ReadPort]:
    """Sixteen finished four-player Ruins games (many reach the Showdown, some end on an instant win)."""
    run_tournament(service, kind="ruins", players=4, games=16, seed="showdowns", pool=6)
    follower.catch_up()
    queries = ReadPort.over(service.reader)
    try:
        yield queries
    finally:
        queries.close()


@pytest.mark.slow
def test_every_round_a_game_played_has_one_first_out_the_showdown_included(
    follower: Follower, played: ReadPort
) -> None:
    """The Showdown is a round: it counts in rounds played and its winner went out first (it did neither)."""
    games = played.lists.games(kind="ruins", status="over", limit=100)["rows"]
    assert {g["win_how"] for g in games} == {"showdown", "instant"}  # both endings are covered
    for game in games:
        [(first_outs, rounds_played)] = rows(
            follower,
            "SELECT SUM(first_outs) AS f, SUM(rounds_played) AS r FROM {p}rm_ruins_seats WHERE game_id = ?",
            (game["game_id"],),
        )
        assert first_outs == game["round"], game  # one per round: 5 in a game that reached the Showdown
        [(played_rows, deals)] = rows(
            follower,
            "SELECT SUM(played) AS p, COUNT(DISTINCT round) AS d FROM {p}rm_ruins_rounds WHERE game_id = ?",
            (game["game_id"],),
        )
        assert rounds_played == played_rows and deals == game["round"]
    # Per round, a rate of what happens at most once a round can never exceed 1, and one seat per table goes
    # out first in every round played, the Showdown too.
    for row in played.analytics.per_round("ruins", "first_out_by_round"):
        tables = sum(1 for g in games if g["round"] >= row["round"])
        assert row["value"] * row["n"] == pytest.approx(tables)
    torches = played.analytics.tendencies("ruins")["metrics"]["torches_per_round"]
    by_round = played.analytics.per_round("ruins", "torches_by_round")
    assert torches["n"] == sum(r["n"] for r in by_round)
    assert torches["value"] * torches["n"] == pytest.approx(sum(r["value"] * r["n"] for r in by_round))


@pytest.mark.slow
def test_games_reaching_the_showdown_are_counted_per_game_not_per_participant(played: ReadPort) -> None:
    games = played.lists.games(kind="ruins", status="over", limit=100)["rows"]
    reached = sum(g["detail"]["how"] == "showdown" for g in games)  # the engine's result: won in the Showdown
    field = played.analytics.tendencies("ruins")["metrics"]["showdown_rate"]
    assert 0 < reached < len(games)
    assert (field["value"], field["n"]) == (reached / len(games), len(games))
    player = games[0]["players"][0]["id"]
    theirs = [g for g in played.lists.games(kind="ruins", status="over", player=player, limit=100)["rows"]]
    mine = played.analytics.tendencies("ruins", player)["metrics"]["showdown_rate"]
    assert mine["value"] == sum(g["detail"]["how"] == "showdown" for g in theirs) / len(theirs)


@pytest.mark.slow
def test_claims_are_recorded_with_the_round_they_were_made_in(follower: Follower, played: ReadPort) -> None:
    claims = rows(
        follower,
        "SELECT c.round AS c_round, m.round AS m_round, m.seat AS m_seat, c.seat AS c_seat FROM {p}rm_ruins_claims c "
        "JOIN {p}rm_moves m ON m.game_id = c.game_id AND m.version = c.version",
    )
    assert len(claims) > 10 and len({r[0] for r in claims}) > 1
    assert all(c_round == m_round and m_seat == c_seat for c_round, m_round, m_seat, c_seat in claims)
    by_round = played.analytics.breakdown("ruins", "claim_rounds")
    assert sum(r["n"] for r in by_round) == len(claims)
    when = played.analytics.tendencies("ruins")["metrics"]["claim_round"]
    assert when["n"] == len(claims) and when["value"] == pytest.approx(sum(r[0] for r in claims) / len(claims))


@pytest.mark.slow
def test_think_time_keeps_fractions_of_a_millisecond(follower: Follower, played: ReadPort) -> None:
    moves = rows(follower, "SELECT game_id, seat, think_ms FROM {p}rm_moves")
    # (Not "some move under a millisecond": how fast the bots' moves follow each other depends on the machine's load.)
    assert all(t >= 0 for _, _, t in moves) and any(t != int(t) for _, _, t in moves)
    totals: dict[tuple[str, int], float] = {}
    for game_id, seat, think in moves:
        totals[(game_id, seat)] = totals.get((game_id, seat), 0.0) + think
    for game_id, seat, think in rows(follower, "SELECT game_id, seat, think_ms FROM {p}rm_player_games"):
        assert think == pytest.approx(totals.get((game_id, seat), 0.0), abs=1e-6)


def test_a_store_with_the_old_read_models_upgrades_and_rebuilds_them(tmp_path: Any) -> None:
    """A store an earlier release made and projected, whose ``rm_games`` rows have another shape than declared now:
    the upgrade empties the read models and resets the position, and the next run projects every game again."""
    db = Database.from_url(f"sqlite:///{tmp_path / 'old.sqlite'}")
    earlier_releases.make(db)
    import sqlite3

    with sqlite3.connect(db.path) as conn:  # its read models projected up to 42, rm_games without one column
        conn.execute("INSERT INTO tracking VALUES ('Digsite', 42)")
        conn.execute(
            "INSERT INTO rm_games (game_id, kind, n_players, players, status) VALUES ('g', 'ruins', 2, '[]', 'over')"
        )
        conn.execute("ALTER TABLE rm_games DROP COLUMN detail")
    said: list[str] = []
    applied = backends.upgrade(db, report=said.append)
    assert applied == ["store/0001", backends.READ_MODELS] and backends.pending(db) == []
    assert any("rm_games changed" in line and "projections run" in line for line in said)  # to be rebuilt
    with sqlite3.connect(db.path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM tracking").fetchone() == (0,)
        assert conn.execute("SELECT COUNT(*) FROM rm_games").fetchone() == (0,)
        assert "detail" in {r[1] for r in conn.execute("PRAGMA table_info(rm_games)")}
    from service.settings import Settings

    service = Digsite(Settings(database=db))
    follower = Follower(service.settings)
    try:
        run_tournament(service, kind="ruins", players=3, games=1, seed="after")
        assert follower.catch_up() == follower.app.recorder.max_notification_id()
        queries = ReadPort.over(service.reader)
        assert queries.analytics.tendencies("ruins")["games"] == 3
        queries.close()
    finally:
        follower.close()
        service.close()


def _snapshot(follower: Follower) -> dict[str, list[tuple[Any, ...]]]:
    from service.reading.projections.tables import TABLES

    return {t: sorted(rows(follower, f"SELECT * FROM {{p}}{t}"), key=repr) for t in TABLES}


def test_every_game_s_core_rows_are_its_engine_s_result_and_a_rebuild_gives_the_same_rows(
    service: Digsite, follower: Follower
) -> None:
    """Every registered game, with an analytics part or not: the seats' place, score and win are what the engine's
    ``result`` says of the final state; an incremental run in small batches and a rebuild in one agree."""
    for kind in GAMES:
        run_tournament(service, kind=kind, players=2, games=2, seed=f"core-{kind}", pool=3)
    follower.catch_up()
    incremental = _snapshot(follower)
    for game_id, kind, winners, last_round in rows(follower, "SELECT game_id, kind, winners, round FROM {p}rm_games"):
        state = service.app.repository.get(UUID(game_id)).state
        rules = GAMES[kind].rules
        result = rules.result(state)
        assert result is not None and last_round == rules.progress(state).round
        seats = rows(
            follower,
            "SELECT seat, finished, won, place, score FROM {p}rm_player_games WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        assert seats == [(s, 1, int(s in result.winners), result.place(s), result.scores[s]) for s, *_ in seats], kind
        assert winners == f"[{', '.join(map(str, result.winners))}]"
    queries = ReadPort.over(service.reader)
    try:
        for kind in GAMES:  # every game has the core's tendencies, with or without its own
            assert queries.analytics.tendencies(kind)["metrics"]["win_rate"]["n"] == 4
    finally:
        queries.close()
    follower.batch_size = 100_000
    follower.rebuild()
    assert _snapshot(follower) == incremental


def test_the_field_s_figures_are_kept_only_until_the_read_models_move(service: Digsite, follower: Follower) -> None:
    run_tournament(service, kind="ruins", players=3, games=1, seed="field-1")
    follower.catch_up()
    queries = ReadPort.over(service.reader)
    try:
        first = queries.analytics.tendencies("ruins")
        bought = queries.analytics.breakdown("ruins", "discoveries")
        before = sum(r["n"] for r in bought)
        assert first["games"] == 3 and queries.analytics.tendencies("ruins") == first  # the same answer, kept
        bought[0]["n"] = -1  # what a caller does with its answer changes nothing kept
        assert queries.analytics.breakdown("ruins", "discoveries")[0]["n"] > 0
        run_tournament(service, kind="ruins", players=3, games=1, seed="field-2")
        assert queries.analytics.tendencies("ruins")["games"] == 3  # not projected yet
        follower.catch_up()
        assert queries.analytics.tendencies("ruins")["games"] == 6
        assert sum(r["n"] for r in queries.analytics.breakdown("ruins", "discoveries")) > before
    finally:
        queries.close()


@pytest.mark.slow
def test_the_players_asked_for_have_the_rows_the_list_of_every_player_gives_them(
    service: Digsite, follower: Follower, played: ReadPort
) -> None:
    """A page about one or two players reads only theirs (``ids``), with the same games and wins as the full list;
    a player with no finished game is left out of the finished-only answer, as from the full list."""
    newcomer = service.create_player("Newcomer")
    follower.catch_up()
    every = {p["player_id"]: p for p in played.lists.players()}
    assert every[newcomer]["games"] == 0
    some = sorted(p for p in every if p != newcomer)[:2]
    assert {p["player_id"]: p for p in played.lists.players(ids=some)} == {p: every[p] for p in some}
    finished = {p["player_id"]: p for p in played.lists.players(finished_only=True)}
    assert played.lists.players(finished_only=True, ids=[some[0], newcomer]) == [finished[some[0]]]
    assert played.lists.players(ids=[]) == []
