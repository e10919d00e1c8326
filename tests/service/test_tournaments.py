"""Tournaments in stores written before a tournament was for one game: a tournament stored without rule options
still reads (any options of its game), and a game of another kind already labelled with a tournament counts in
neither its standings nor its number of games."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from uuid import uuid4

import pytest

from domain.games import game as game_of
from service.bots.simulation import play_stored_game, run_tournament
from service.commands import application
from service.commands.application import Digsite
from service.errors import BadRequest, Conflict
from service.reading.projections.follower import Follower
from service.reading.read_port import ReadPort
from service.reading.standings import report, to_csv
from service.store.aggregates import Game, Seating, Tournament
from tests.service.projecting import catch_up

OTHER = ("arnak", 1)  # a game other than the tournaments' below, and its fewest seats


def _tournament_as_stored_before(service: Digsite, game: str) -> str:
    """A tournament whose created record is as the release before options wrote it: no ``options`` field, no
    ``clock`` and no class version (the record of a new tournament, with those taken out)."""
    made = Tournament.create(name="Old cup", rounds=2, game=game, at="2026-01-01T00:00:00+00:00", options={})
    stored = service.app.mapper.to_stored_event(made.collect_events()[0])
    state = json.loads(stored.state)
    assert state.pop("options") == {} and state.pop("clock") is None and state.pop("class_version") == 3
    tournament_id = uuid4()
    old = replace(stored, originator_id=tournament_id, state=json.dumps(state).encode())
    service.app.recorder.insert_events([old])
    return str(tournament_id)


def test_a_tournament_stored_before_options_reads_and_takes_its_game_under_any_options(
    service: Digsite, queries: ReadPort
) -> None:
    game, seats = OTHER
    old = _tournament_as_stored_before(service, game)
    found = service.tournament(old)
    assert found["game"] == game and found["options"] is None
    players = [service.create_player(f"P{i}") for i in range(seats)]
    for i, options in enumerate(({"side": "snake"}, {"side": "bird"}, None), start=1):
        service.create_game(game, players, options, {"tournament": old, "round": 1, "table": i})
    with pytest.raises(BadRequest) as refused:
        service.create_game(
            "ruins", [service.create_player("A"), service.create_player("B")], None, {"tournament": old}
        )
    assert refused.value.code == "tournament_game_mismatch"
    catch_up(service)  # the read models read the old record too
    assert queries.lists.tournament(old)["game"] == game  # type: ignore[index]


def test_standings_and_the_tournaments_list_count_only_games_of_the_tournament_s_game(
    service: Digsite, queries: ReadPort, monkeypatch: pytest.MonkeyPatch
) -> None:
    cup = run_tournament(service, kind="ruins", players=2, games=2, seed="one-game", pool=4)
    game, seats = OTHER
    players = [p["id"] for p in cup.pool[:seats]]
    # A store written before the check: a game of another kind labelled with the tournament, and finished.
    with monkeypatch.context() as before:
        before.setattr(application, "_tournament_game", lambda tournament, found, options, players: options)
        intruder = service.create_game(game, players, None, {"tournament": cup.id, "round": 1, "table": 9})
    engine = game_of(game)
    bots = [engine.bots.from_record(persona.record) for persona in engine.bots.personas_for(seats)]
    play_stored_game(service, intruder["id"], bots, random.Random(1))
    assert service.game(intruder["id"])["status"] == "over"
    catch_up(service)

    for finished_only in (True, False):
        rows = queries.lists.tournament_seats(cup.id, finished_only=finished_only)
        assert {row["game_id"] for row in rows} == {g.id for g in cup.games}
    answer = report(queries.lists.tournament(cup.id) or {}, queries.lists.tournament_seats(cup.id))
    assert intruder["id"] not in json.dumps(answer)
    assert sum(line["games"] for line in answer["standings"]) == 2 * len(cup.games)  # type: ignore[index, union-attr]
    assert "round 1" in to_csv(queries.lists.tournament_seats(cup.id)) and intruder["id"] not in to_csv(
        queries.lists.tournament_seats(cup.id)
    )
    listed = {t["tournament_id"]: t for t in queries.lists.tournaments()}
    assert listed[cup.id]["games"] == listed[cup.id]["finished"] == len(cup.games)


def test_a_game_stored_by_a_try_whose_answer_was_lost_is_not_called_a_duplicate_of_itself(service: Digsite) -> None:
    """PostgreSQL's recorder sends an insert again on a connection found broken: if the first try had landed, the
    second meets the game's own seating, which is this game, stored (not a duplicate of another)."""
    cup = service.create_tournament("Cup", 1, "ruins")
    seats = [service.create_player("A"), service.create_player("B")]
    labels = {"tournament": cup, "round": 1, "table": 1}
    game, _, seating = service._new_game("ruins", seats, None, labels, None)
    assert seating is not None
    service._save_new(game, seating)
    [created] = service.stored_records(game.id)
    again = Game.create(game.id, **created["body"], hash=created["hash"])  # the same insert, sent again
    service._save_new(again, Seating.create(seating.id, str(game.id)))  # no Conflict: it is this game
    other, _, other_seating = service._new_game("ruins", seats, None, labels, None)
    with pytest.raises(Conflict) as refused:
        service._save_new(other, other_seating)
    assert refused.value.code == "duplicate_game" and str(game.id) in refused.value.message


def test_a_store_projected_before_tournament_options_upgrades_and_lists_them(service: Digsite) -> None:
    """The store as the release before left it (no options column, the migration not applied): `digsite db
    upgrade` rebuilds the read models, the tournaments stored before list no options, and new ones list theirs."""
    from service.reading import listing
    from service.reading.read_db import ReadDatabase
    from service.store import backends

    old = _tournament_as_stored_before(service, "ruins")
    catch_up(service)
    db = service.settings.database
    follower = Follower(service.settings)
    try:
        models = follower.read_models
        with models.tracker.datastore.transaction(commit=True) as curs:
            curs.execute(models._q("ALTER TABLE {p}rm_tournaments DROP COLUMN options"))
            curs.execute(
                models._q("DELETE FROM {p}digsite_schema_migrations WHERE version = ?"), (backends.READ_MODELS,)
            )
    finally:
        follower.close()
    assert backends.pending(db) == [backends.READ_MODELS]
    assert backends.upgrade(db) == [backends.READ_MODELS]  # the read models emptied, to be projected again
    new = service.create_tournament("New cup", 1, OTHER[0], {"side": "snake"})
    catch_up(service)
    read_models = ReadDatabase(db)
    try:
        rows, _ = listing.page(read_models, listing.TOURNAMENTS, {}, None, 10)
    finally:
        read_models.close()
    listed = {item["id"]: item["options"] for item in map(listing.tournament_item, rows)}
    assert listed == {old: None, new: {"side": "snake"}}
