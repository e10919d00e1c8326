"""Whose games a figure is over (``service.reading.scope.Scope``): the conditions each grain's rows are kept by."""

from __future__ import annotations

from service.reading.scope import Scope, sizes


def test_a_player_s_scope_keeps_their_seats_or_the_games_they_sat_in() -> None:
    scope = Scope("ruins", "p1", "t1", (3, 2, 3))
    seats, seat_params = scope.filters("seat")
    assert seats == [
        "pg.kind = ?",
        "pg.finished = 1",
        "pg.player_id = ?",
        "tg.tournament_id = ?",
        "pg.n_players IN (?, ?)",
    ]
    assert seat_params == ["ruins", "p1", "t1", 2, 3]
    games, game_params = scope.filters("game")
    assert games[:2] == ["g.kind = ?", "g.status = 'over'"] and "pp.player_id = ?" in games[2]
    assert game_params == ["ruins", "p1", "t1", 2, 3]
    assert scope.tournament_join("seat") and not scope.tournament_join("game")


def test_the_field_s_games_leave_the_player_out_and_an_organiser_s_keep_the_games_in_play() -> None:
    where, params = Scope("ruins", "p1", None, 4, finished_only=False).field_games("r")
    assert where == ["r.game_id IN (SELECT g.game_id FROM {p}rm_games g WHERE g.kind = ? AND g.n_players IN (?))"]
    assert params == ["ruins", 4]
    assert not Scope("ruins").tournament_join("seat")


def test_no_table_size_at_all_keeps_no_game() -> None:
    assert sizes(()) == [0] and sizes(5) == [5] and sizes((4, 2, 4)) == [2, 4]
