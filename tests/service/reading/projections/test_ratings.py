"""Skill ratings kept by the projection (service/reading/projections/ratings.py), on both backends: every finished game
of two or more distinct players rated once per seat, in the order of the records that finished the games, each change
starting where the player's previous one ended; the same rows from a rebuild in one batch, after a crash, and from
rating every game afresh (the end of a distributed rebuild). The organiser's rulings apply as in the standings, and
one projected after its game was rated re-rates the games after it: checked against the pure model replayed with
the ruling there from the start."""

from __future__ import annotations

import random
from collections import defaultdict
from itertools import pairwise
from typing import Any, cast

import pytest
from click.testing import CliRunner

from domain.games import GAMES, game
from service.analysis.ratings import Rating, Ratings
from service.bots.simulation import play_stored_game, run_tournament
from service.cli import main
from service.commands.application import Digsite
from service.reading.projections.follower import Follower
from tests.service.integrity.test_audit import new_game, play
from tests.service.reading.projections.support import rows

RATED = ("rm_game_finishes", "rm_rating_changes", "rm_ratings")


def rated(follower: Follower) -> dict[str, list[tuple[Any, ...]]]:
    return {t: sorted(rows(follower, f"SELECT * FROM {{p}}{t}"), key=repr) for t in RATED}


def a_season(service: Digsite) -> None:
    """Every registered game at two table sizes (players meet again across games) and a game left in play."""
    for kind in GAMES:
        run_tournament(service, kind=kind, players=2, games=3, seed=f"ratings-{kind}", pool=3)
        run_tournament(service, kind=kind, players=3, games=2, seed=f"ratings-{kind}-3", pool=4)
    play(service, new_game(service, "ratings-in-play"), moves=30)


def test_every_finished_game_is_rated_once_per_seat_in_the_order_the_games_finished(
    service: Digsite, follower: Follower
) -> None:
    a_season(service)
    follower.catch_up()
    finished = rows(follower, "SELECT game_id, n_players FROM {p}rm_games WHERE status = 'over'")
    finishes = {g: (kind, finish) for g, kind, finish, _ in rows(follower, "SELECT * FROM {p}rm_game_finishes")}
    assert set(finishes) == {g for g, _ in finished}  # the game in play has none
    # The finish is the notification id of the game's record that finished it: the game's, and the last move.
    for game_id, (_, finish_id) in finishes.items():
        (record,) = follower.app.recorder.select_notifications(start=finish_id, limit=1)
        assert str(record.originator_id) == game_id and record.topic.endswith("MoveRecorded")
        last_move = rows(follower, "SELECT MAX(version) FROM {p}rm_moves WHERE game_id = ?", (game_id,))[0][0]
        assert record.originator_version == last_move
    changes = rows(
        follower,
        "SELECT game_id, seat, kind, player_id, finish_id, mu_before, sigma_before, mu_after, sigma_after, games "
        "FROM {p}rm_rating_changes ORDER BY finish_id, seat",
    )
    seats = defaultdict(int)
    for game_id, *_ in changes:
        seats[game_id] += 1
    assert seats == {g: n for g, n in finished}  # every seat of every finished game (all of two players or more)
    # Each player's changes in a kind follow on from each other, from the model's default, in finish order; the last
    # is the player's current rating.
    by_player: dict[tuple[str, str], list[tuple[Any, ...]]] = defaultdict(list)
    for change in changes:
        assert change[4] == finishes[change[0]][1]
        by_player[(change[2], change[3])].append(change)
    start = Rating()
    current = {(k, p): (mu, sigma, o, n) for k, p, mu, sigma, o, n, _ in rows(follower, "SELECT * FROM {p}rm_ratings")}
    assert set(current) == set(by_player)
    for key, made in by_player.items():
        assert (made[0][5], made[0][6]) == (start.mu, start.sigma)
        for earlier, later in pairwise(made):
            assert (later[5], later[6]) == (earlier[7], earlier[8])
        assert [c[9] for c in made] == list(range(1, len(made) + 1))
        mu, sigma, ordinal, games = current[key]
        assert (mu, sigma, games) == (made[-1][7], made[-1][8], len(made))
        assert ordinal == pytest.approx(mu - 3 * sigma)
    assert any(c[7] > c[5] for c in changes) and any(c[7] < c[5] for c in changes)  # winners up, losers down


def test_a_rebuild_in_one_batch_and_rating_every_game_afresh_give_the_same_rows(
    service: Digsite, follower: Follower
) -> None:
    a_season(service)
    follower.catch_up()
    kept = rated(follower)
    assert kept["rm_rating_changes"]
    follower.batch_size = 100_000
    follower.rebuild()
    assert rated(follower) == kept
    models = follower.read_models
    with models._transaction() as curs:  # what a distributed rebuild's coordinator runs at its end
        curs.execute(models._q("UPDATE {p}rm_ratings SET mu = 99, games = 7"))
        models.ratings.rate_all(curs)
    assert rated(follower) == kept


def test_a_batch_lost_in_a_crash_rates_its_games_once_when_read_again(
    service: Digsite, follower: Follower, monkeypatch: pytest.MonkeyPatch
) -> None:
    a_season(service)
    tracker = follower.read_models.tracker
    real_insert = tracker._insert_tracking

    def crash(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("power cut before commit")

    crashed = 0
    while follower.behind():
        before = rated(follower)
        monkeypatch.setattr(tracker, "_insert_tracking", crash)
        with pytest.raises(RuntimeError):
            follower.step()  # the batch's ratings were computed, then lost with it
        assert rated(follower) == before
        crashed += 1
        monkeypatch.setattr(tracker, "_insert_tracking", real_insert)
        follower.step()  # the same records again
    assert crashed > 5
    after_crashes = rated(follower)
    follower.rebuild()
    assert rated(follower) == after_crashes


def a_bot_game(service: Digsite, kind: str, seats: int, seed: str) -> str:
    """A game of ``kind`` whose every seat is one bot player (seated ``seats`` times), played to its end."""
    found = game(kind)
    persona = found.bots.personas_for(1)[0]
    player = service.bot_player(persona.name, persona.record)
    bot = found.bots.from_record(cast(dict[str, Any], service.player(player)["bot"]))
    game_id = str(service.create_game(kind, [player] * seats, seed=seed)["id"])
    play_stored_game(service, game_id, [bot] * seats, random.Random(seed))
    return game_id


def test_a_solo_game_and_a_player_seated_twice_are_not_rated(service: Digsite, follower: Follower) -> None:
    solo = a_bot_game(service, "arnak", 1, "solo-rated")
    doubled = a_bot_game(service, "ruins", 2, "twice-rated")
    follower.catch_up()
    over = rows(follower, "SELECT game_id FROM {p}rm_games WHERE status = 'over'")
    assert sorted(g for (g,) in over) == sorted([solo, doubled])
    assert len(rows(follower, "SELECT * FROM {p}rm_game_finishes")) == 2
    assert rows(follower, "SELECT * FROM {p}rm_rating_changes") == []
    assert rows(follower, "SELECT * FROM {p}rm_ratings") == []


def test_a_store_projected_before_ratings_says_its_games_are_not_rated_until_a_rebuild(
    service: Digsite, follower: Follower
) -> None:
    a_season(service)
    follower.catch_up()
    kept = rated(follower)
    models = follower.read_models
    assert models.unrated() == 0
    with models._transaction() as curs:  # the store as an upgrade from before ratings leaves it: tables empty
        for table in RATED:
            curs.execute(models._q(f"DELETE FROM {{p}}{table}"))
    finished = len(rows(follower, "SELECT game_id FROM {p}rm_games WHERE status = 'over'"))
    assert models.unrated() == finished
    env = {"DIGSITE_DATABASE_URL": service.settings.database.url}
    said = CliRunner().invoke(main, ["projections", "status"], env=env)
    assert said.exit_code == 0 and f"{finished} finished game(s) were projected before ratings" in said.output
    follower.rebuild()
    assert models.unrated() == 0 and rated(follower) == kept


# -- the organiser's rulings ---------------------------------------------------------------------------------------


def rule(service: Digsite, game_id: str, ruling: str, **more: Any) -> None:
    service.rulings.rule_on_game(game_id, {"ruling": ruling, "reason": "the organiser's reason", **more})


def changes_of(follower: Follower) -> list[tuple[Any, ...]]:
    return rows(
        follower,
        "SELECT game_id, seat, kind, player_id, place, mu_after, sigma_after, games FROM {p}rm_rating_changes "
        "ORDER BY finish_id, seat",
    )


def replayed(follower: Follower, skip: str = "", places: dict[str, list[int]] | None = None) -> list[tuple[Any, ...]]:
    """The changes of every finished game rated afresh by the pure model, in finish order, with the game ``skip``
    never counted and ``places`` (game -> place by seat) standing for the engine's: what the rulings should give."""
    seats = rows(
        follower,
        "SELECT f.game_id, f.kind, pg.seat, pg.player_id, pg.place FROM {p}rm_game_finishes f "
        "JOIN {p}rm_player_games pg ON pg.game_id = f.game_id ORDER BY f.finish_id, pg.seat",
    )
    by_game: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
    for seat in seats:
        by_game[seat[0]].append(seat)
    ratings, made = Ratings(), []
    for game_id, table in by_game.items():
        if game_id == skip:
            continue
        kind, players = table[0][1], [s[3] for s in table]
        given = (places or {}).get(game_id, [s[4] for s in table])
        for c in ratings.add(kind, players, given):
            made.append((game_id, c.seat, kind, c.player, c.place, c.after.mu, c.after.sigma, c.after.games))
    return made


def a_ruled_game(follower: Follower) -> str:
    """The first finished game of the 3-player tables of the first kind: later games of its players follow it."""
    first = rows(
        follower,
        "SELECT f.game_id FROM {p}rm_game_finishes f JOIN {p}rm_games g ON g.game_id = f.game_id "
        "WHERE g.n_players = 3 AND f.kind = ? ORDER BY f.finish_id",
        (sorted(GAMES)[0],),
    )
    return str(first[0][0])


def same_after_every_rebuild(follower: Follower) -> None:
    """The rows kept equal those of a rebuild in small batches, in one batch, and of rating every game afresh."""
    kept = rated(follower)
    follower.rebuild()  # (the ruling after its game's finish, in a later batch: re-rated there)
    assert rated(follower) == kept
    follower.batch_size = 100_000
    follower.rebuild()  # (the ruling in the batch of its game's finish: read when the game is first rated)
    assert rated(follower) == kept
    models = follower.read_models
    with models._transaction() as curs:
        models.ratings.rate_all(curs)
    assert rated(follower) == kept


def test_an_annulled_game_is_unrated_and_every_later_rating_is_as_if_it_never_counted(
    service: Digsite, follower: Follower
) -> None:
    a_season(service)
    follower.catch_up()
    annulled = a_ruled_game(follower)
    before = changes_of(follower)
    assert before == replayed(follower)
    assert any(c[0] == annulled for c in before)
    rule(service, annulled, "annul")
    follower.catch_up()  # (the ruling in a batch of its own, long after the game was rated)
    after = changes_of(follower)
    assert not any(c[0] == annulled for c in after)
    assert after == replayed(follower, skip=annulled)
    assert set(after) != set(before) - {c for c in before if c[0] == annulled}  # later ratings did change
    current = {(k, p): (mu, sigma, n) for k, p, mu, sigma, _, n, _ in rows(follower, "SELECT * FROM {p}rm_ratings")}
    last = {(c[2], c[3]): (c[5], c[6], c[7]) for c in after}  # (in finish order: the last change stands)
    assert current == last
    same_after_every_rebuild(follower)


def test_an_adjusted_result_rates_the_game_by_its_new_places(service: Digsite, follower: Follower) -> None:
    a_season(service)
    follower.catch_up()
    adjusted = a_ruled_game(follower)
    engine = service.game(adjusted)["result"]
    assert engine is not None
    ranking = list(reversed(engine["ranking"]))
    rule(service, adjusted, "adjust_result", result={"ranking": ranking})
    follower.catch_up()
    places = [0] * len(ranking)
    for place, seat in enumerate(ranking, start=1):
        places[seat] = place
    after = changes_of(follower)
    assert [c[4] for c in after if c[0] == adjusted] == places
    assert after == replayed(follower, places={adjusted: places})
    assert after != replayed(follower)
    same_after_every_rebuild(follower)


def test_a_substitutes_seat_is_rated_for_the_player_who_held_it_last(service: Digsite, follower: Follower) -> None:
    game_id = new_game(service, "substituted")
    play(service, game_id, 4)
    left = service.game(game_id)["players"][0]["id"]
    dora = service.create_player("Dora")
    rule(service, game_id, "substitute", seat=0, player=dora)
    play(service, game_id)
    follower.catch_up()
    (seat0,) = [c for c in changes_of(follower) if c[1] == 0]
    assert seat0[3] == dora
    assert {p for _, p in rows(follower, "SELECT kind, player_id FROM {p}rm_ratings")} == {
        dora,
        *(p["id"] for p in service.game(game_id)["players"][1:]),
    }
    assert left not in {p for _, p in rows(follower, "SELECT kind, player_id FROM {p}rm_ratings")}
    same_after_every_rebuild(follower)


def test_a_ruling_batch_lost_in_a_crash_re_rates_once_when_read_again(
    service: Digsite, follower: Follower, monkeypatch: pytest.MonkeyPatch
) -> None:
    a_season(service)
    follower.catch_up()
    annulled = a_ruled_game(follower)
    rule(service, annulled, "annul")
    before = rated(follower)
    tracker = follower.read_models.tracker
    real_insert = tracker._insert_tracking

    def crash(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("power cut before commit")

    monkeypatch.setattr(tracker, "_insert_tracking", crash)
    with pytest.raises(RuntimeError):
        follower.step()  # the ruling's re-rating computed, then lost with the batch
    assert rated(follower) == before
    monkeypatch.setattr(tracker, "_insert_tracking", real_insert)
    follower.catch_up()
    assert changes_of(follower) == replayed(follower, skip=annulled)
    same_after_every_rebuild(follower)
