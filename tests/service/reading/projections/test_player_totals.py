"""Each player's finished games and wins, kept on their ``rm_players`` row by the projection: the count of their
finished seats however the batches fall, projected again for a store projected before, read by the
players' queries instead of counting their games; on both backends."""

from __future__ import annotations

import pytest

from domain.games import GAMES
from service.bots.simulation import run_tournament
from service.commands.application import Digsite
from service.reading.projections.follower import Follower
from service.reading.read_port import ReadPort
from service.store import backends
from tests.service.integrity.test_audit import new_game, play
from tests.service.reading.projections.support import rows


def kept(follower: Follower) -> dict[str, tuple[int, int]]:
    return {p: (g, w) for p, g, w in rows(follower, "SELECT player_id, games, wins FROM {p}rm_players")}


def counted(follower: Follower) -> dict[str, tuple[int, int]]:
    """Each player's finished seats and wins counted from ``rm_player_games`` (zero for a player with none)."""
    totals = {p: (0, 0) for p, *_ in rows(follower, "SELECT player_id FROM {p}rm_players")}
    for player, games, wins in rows(
        follower,
        "SELECT player_id, COUNT(*), SUM(won) FROM {p}rm_player_games WHERE finished = 1 GROUP BY player_id",
    ):
        totals[player] = (int(games), int(wins))
    return totals


def a_season(service: Digsite) -> str:
    """Every registered game at two table sizes, a game left in play, and a player with no game: the newcomer."""
    for kind in GAMES:
        run_tournament(service, kind=kind, players=2, games=2, seed=f"totals-{kind}", pool=3)
        run_tournament(service, kind=kind, players=3, games=1, seed=f"totals-{kind}-3", pool=3)
    play(service, new_game(service, "totals-in-play"), moves=30)
    return service.create_player("Newcomer")


def test_each_player_s_totals_are_their_finished_seats_and_wins_however_the_batches_fall(
    service: Digsite, follower: Follower
) -> None:
    newcomer = a_season(service)
    follower.catch_up()
    totals = kept(follower)
    assert totals == counted(follower)
    assert totals[newcomer] == (0, 0) and sum(g for g, _ in totals.values()) > 0
    assert any(w for _, w in totals.values()) and any(g > w for g, w in totals.values())
    follower.batch_size = 100_000
    follower.rebuild()  # the same totals from one batch
    assert kept(follower) == totals


@pytest.mark.slow
def test_counting_every_player_s_totals_afresh_gives_what_the_batches_added(
    service: Digsite, follower: Follower
) -> None:
    """What the end of a distributed rebuild runs (its shares leave the totals alone): stale totals are replaced."""
    a_season(service)
    follower.catch_up()
    totals = kept(follower)
    models = follower.read_models
    with models._transaction() as curs:
        curs.execute(models._q("UPDATE {p}rm_players SET games = games + 7, wins = 3"))
        models.count_totals(curs)
    assert kept(follower) == totals


@pytest.mark.slow
def test_a_store_projected_before_the_totals_has_them_from_the_rebuild_its_upgrade_asks(
    service: Digsite, follower: Follower
) -> None:
    a_season(service)
    follower.catch_up()
    totals = kept(follower)
    db = service.settings.database
    models = follower.read_models
    with models.tracker.datastore.transaction(commit=True) as curs:  # the store as the release before left it
        for column in ("games", "wins"):
            curs.execute(models._q(f"ALTER TABLE {{p}}rm_players DROP COLUMN {column}"))
        curs.execute(models._q("DELETE FROM {p}digsite_schema_migrations WHERE version = ?"), (backends.READ_MODELS,))
    assert backends.pending(db) == [backends.READ_MODELS]
    assert backends.upgrade(db) == [backends.READ_MODELS]
    assert kept(follower) == {}  # emptied, to be projected again: by this release's run, started anew
    anew = Follower(service.settings)
    try:
        anew.catch_up()
        assert kept(anew) == totals
    finally:
        anew.close()


def test_the_players_queries_read_the_kept_totals(service: Digsite, follower: Follower) -> None:
    """Not a count of the games: a total set by hand is what the list, a page's players and the search answer."""
    newcomer = a_season(service)
    follower.catch_up()
    queries = ReadPort.over(service.reader)
    try:
        every = {p["player_id"]: p for p in queries.lists.players()}
        someone = next(p for p, row in every.items() if row["games"] > 0)
        models = follower.read_models
        with models._transaction() as curs:
            curs.execute(models._q("UPDATE {p}rm_players SET games = 1000, wins = 999 WHERE player_id = ?"), (someone,))
            curs.execute(models._q("UPDATE {p}rm_players SET games = 0, wins = 0 WHERE player_id <> ?"), (someone,))
        assert [(p["player_id"], p["games"], p["wins"]) for p in queries.lists.players(finished_only=True)] == [
            (someone, 1000, 999)
        ]
        asked = queries.lists.players(ids=[someone, newcomer])
        assert {p["player_id"]: (p["games"], p["wins"]) for p in asked} == {someone: (1000, 999), newcomer: (0, 0)}
        found = queries.lists.find_players(every[someone]["name"], finished_only=True)
        assert [(p["player_id"], p["games"]) for p in found] == [(someone, 1000)]
        assert queries.lists.find_players("Newcomer", finished_only=True) == []
        assert [p["player_id"] for p in queries.lists.find_players("newcomer")] == [newcomer]
    finally:
        queries.close()
