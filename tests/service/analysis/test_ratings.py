"""The ratings' own rules (service/analysis/ratings.py): who is rated, what one game moves, and the order games
finish in mattering (so the projections must rate in that order)."""

from __future__ import annotations

import pytest

from service.analysis.ratings import Rating, Ratings, rate, rateable


def test_a_game_needs_two_distinct_players_to_be_rated() -> None:
    assert rateable(["ann", "bob"])
    assert not rateable(["ann"])  # solo, against an engine's seat
    assert not rateable(["ann", "ann"])  # one player in two seats
    with pytest.raises(ValueError, match="not rated"):
        rate({}, ["ann", "ann"], [1, 2])
    assert Ratings().add("g", ["ann"], [1]) == []


def test_the_winner_gains_the_loser_loses_and_both_grow_surer() -> None:
    changes = rate({}, ["ann", "bob", "cy"], [1, 2, 3])
    ann, bob, cy = (c.after for c in changes)
    assert ann.mu > bob.mu > cy.mu
    assert ann.mu > Rating().mu > cy.mu
    assert all(r.sigma < Rating().sigma for r in (ann, bob, cy))
    assert [c.after.games for c in changes] == [1, 1, 1]
    assert ann.low < ann.mu < ann.high and ann.ordinal < ann.low


def test_a_shared_place_moves_the_tied_players_alike() -> None:
    changes = rate({}, ["ann", "bob", "cy"], [1, 1, 3])
    assert changes[0].after.mu == pytest.approx(changes[1].after.mu)
    assert changes[0].after.mu > changes[2].after.mu


def test_beating_a_stronger_player_gains_more() -> None:
    strong = {"bob": Rating(35.0, 4.0, 20)}
    weak = {"bob": Rating(15.0, 4.0, 20)}
    gain_strong = rate(strong, ["ann", "bob"], [1, 2])[0].after.mu
    gain_weak = rate(weak, ["ann", "bob"], [1, 2])[0].after.mu
    assert gain_strong > gain_weak


def test_kinds_are_rated_apart_and_order_matters() -> None:
    ratings = Ratings()
    ratings.add("g1", ["ann", "bob"], [1, 2])
    assert ratings.get("g2", "ann") == Rating()
    assert ratings.get("g1", "ann").mu > Rating().mu
    one, two = Ratings(), Ratings()
    games = [(["ann", "bob"], [1, 2]), (["bob", "cy"], [1, 2]), (["ann", "cy"], [2, 1])]
    for players, places in games:
        one.add("g", players, places)
    for players, places in reversed(games):
        two.add("g", players, places)
    assert one.get("g", "bob") != two.get("g", "bob")
    again = Ratings()
    for players, places in games:
        again.add("g", players, places)
    assert again.by_kind == one.by_kind  # the same games in the same order: the same ratings
