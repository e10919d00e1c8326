"""Skill ratings kept by the projection: every finished game rated once, per game kind, in the order games finished.

The order is the store's notification order of the record that finished each game (``rm_game_finishes.finish_id``,
written with the game's other rows, by a follower's batch and by a distributed rebuild's share alike). A follower's
batch rates the games it finished, in that order, in its own transaction, after its rows and before its tracking
row (``ReadModels.write``): a batch lost in a crash loses its ratings with its position, and its records, read
again, rate their games once. A distributed rebuild's shares project games side by side, out of order, so they rate
nothing; its coordinator rates every finished game in finish order at its end (``rate_all``), which is what the
batches of a single-process rebuild add up to: the same rows.

The organiser's rulings (``rm_rulings``) apply as the standings read them (``service.reading.standings.Rulings``):
an annulled or restarted game is not rated, an adjusted result rates by its places, a substitute's seat counts for
the player who held it last. Ratings depend on order, so a ruling on a game already rated (an annulment or an
adjusted result, recorded after the game finished) re-rates every game of its kind in the batch that projects the
ruling (``rate``'s ``ruled``): the rows a rebuild gives, where the ruling is read when the game is first rated.

Who is rated and the model's defaults: ``service.analysis.ratings`` (docs/judge.md, *Ratings*). Nothing here names a
game: a game's players and places come from the core rows (``rm_player_games``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import groupby
from typing import Any

from service.analysis.ratings import Change, Rating, Ratings
from service.reading.standings import Rulings, Seat

Rows = Callable[[str, Sequence[Any]], list[Any]]

FINISH_SQL = "INSERT INTO {p}rm_game_finishes (game_id, kind, finish_id, ended_at) VALUES (?, ?, ?, ?)"
CHANGE_COLUMNS = (
    *("game_id", "seat", "kind", "player_id", "place", "finish_id", "ended_at"),
    *("mu_before", "sigma_before", "mu_after", "sigma_after", "games"),
)
RATING_COLUMNS = ("kind", "player_id", "mu", "sigma", "ordinal", "games", "finish_id")
# The seats of finished games in the order they are rated: by finish, then seat (a game's places are by seat).
SEATS_SQL = (
    "SELECT f.game_id, f.kind, f.finish_id, f.ended_at, pg.seat, pg.player_id, pg.place "
    "FROM {p}rm_game_finishes f JOIN {p}rm_player_games pg ON pg.game_id = f.game_id "
    "WHERE {where} ORDER BY f.finish_id, pg.seat"
)

UNRATED_SQL = (
    "SELECT COUNT(*) FROM {p}rm_games g WHERE g.status = 'over' "
    "AND NOT EXISTS (SELECT 1 FROM {p}rm_game_finishes f WHERE f.game_id = g.game_id)"
)
UNRATED_ADVICE = (
    "{n} finished game(s) were projected before ratings were kept and are not rated: run `digsite projections "
    "rebuild` to rate every game in the order they finished"
)


class KeptRatings:
    """The projection's side of the ratings: rates finished games in a transaction, reading and writing the tables."""

    def __init__(self, quote: Callable[[str], str]) -> None:
        self.quote = quote  # ({p} and ? to the dialect's)
        self._finish = quote(FINISH_SQL)
        self._change = quote(
            f"INSERT INTO {{p}}rm_rating_changes ({', '.join(CHANGE_COLUMNS)}) "
            f"VALUES ({', '.join('?' * len(CHANGE_COLUMNS))})"
        )
        updates = ", ".join(f"{c} = excluded.{c}" for c in RATING_COLUMNS[2:])
        marks = ", ".join("?" * len(RATING_COLUMNS))
        self._rating = quote(
            f"INSERT INTO {{p}}rm_ratings ({', '.join(RATING_COLUMNS)}) VALUES ({marks}) "
            f"ON CONFLICT (kind, player_id) DO UPDATE SET {updates}"
        )

    def finished(self, curs: Any, finishes: Sequence[tuple[str, str, int, str | None]]) -> None:
        """Note the finish (game, kind, notification id, time) of games: written by every writer of game rows."""
        if finishes:
            curs.executemany(self._finish, list(finishes))

    def rate(self, curs: Any, games: Iterable[str], ruled: Iterable[str] = ()) -> None:
        """Rate ``games`` (finished, their rows and finishes written in this transaction) in finish order, from the
        ratings stored so far: what a follower's batch does for the games it finished. ``ruled``: the games the
        batch's rulings are on; any of them rated before this batch re-rates its whole kind from the defaults."""
        ids = sorted(set(games))
        kinds = self._rated_kinds(curs, sorted(set(ruled) - set(ids)))
        if kinds:
            self._rate_kinds(curs, kinds)  # (this batch's games of those kinds included: their finishes are written)
        if ids:
            marks = ", ".join("?" * len(ids))
            where = f"f.game_id IN ({marks})"
            if kinds:
                where += f" AND f.kind NOT IN ({', '.join('?' * len(kinds))})"
            self._rate(curs, where, [*ids, *kinds])

    def rate_all(self, curs: Any) -> None:
        """Every finished game rated anew, in finish order, from the model's defaults (the end of a distributed
        rebuild, whose shares rate nothing)."""
        for table in ("rm_rating_changes", "rm_ratings"):
            curs.execute(self.quote(f"DELETE FROM {{p}}{table}"))
        self._rate(curs, "1 = 1", [])

    def _rated_kinds(self, curs: Any, games: Sequence[str]) -> list[str]:
        """The kinds of those ``games`` already rated (a finish noted before this batch rates anything)."""
        kinds: set[str] = set()
        for start in range(0, len(games), 500):
            part = games[start : start + 500]
            found = self._rows(curs)(
                f"SELECT DISTINCT kind FROM {{p}}rm_game_finishes WHERE game_id IN ({', '.join('?' * len(part))})",
                part,
            )
            kinds.update(str(_values(r)[0]) for r in found)
        return sorted(kinds)

    def _rate_kinds(self, curs: Any, kinds: Sequence[str]) -> None:
        """Every finished game of ``kinds`` rated anew, in finish order, from the model's defaults."""
        marks = ", ".join("?" * len(kinds))
        for table in ("rm_rating_changes", "rm_ratings"):
            curs.execute(self.quote(f"DELETE FROM {{p}}{table} WHERE kind IN ({marks})"), tuple(kinds))
        self._rate(curs, f"f.kind IN ({marks})", kinds)

    def unrated(self, curs: Any) -> int:
        """How many finished games have no finish noted: projected by a release before ratings were kept (their
        tables came empty with the upgrade), so not rated; `digsite projections rebuild` rates every game in order.
        (The order cannot be recovered from the read models: it is the log's.)"""
        curs.execute(self.quote(UNRATED_SQL))
        row = curs.fetchone()
        return int(_values(row)[0]) if row is not None else 0

    def _rate(self, curs: Any, where: str, params: Sequence[Any]) -> None:
        rows = self._rows(curs)
        seats = [_values(r) for r in rows(SEATS_SQL.replace("{where}", where), params)]
        if not seats:
            return
        seats = _ruled(seats, self._rulings(rows, sorted({s[0] for s in seats})))
        ratings = Ratings()
        self._load(rows, ratings, {(s[1], s[5]) for s in seats})
        changes: list[tuple[Any, ...]] = []
        touched: dict[tuple[str, str], int] = {}
        for (game_id, kind, finish_id, ended_at), game_seats in groupby(seats, key=lambda s: tuple(s[:4])):
            table = list(game_seats)
            made: list[Change] = ratings.add(kind, [s[5] for s in table], [int(s[6]) for s in table])
            for change, seat_row in zip(made, table, strict=False):
                before, after = change.before, change.after
                seat = (game_id, seat_row[4], kind, change.player, change.place, finish_id, ended_at)
                changes.append((*seat, before.mu, before.sigma, after.mu, after.sigma, after.games))
                touched[(kind, change.player)] = finish_id
        if changes:
            curs.executemany(self._change, changes)
            current = [
                (kind, player, r.mu, r.sigma, r.ordinal, r.games, touched[(kind, player)])
                for (kind, player) in sorted(touched)
                for r in (ratings.get(kind, player),)
            ]
            curs.executemany(self._rating, current)

    def _rulings(self, rows: Rows, games: Sequence[str]) -> Rulings:
        """The organiser's rulings on ``games`` (``rm_rulings``), each game's in the order they were made."""
        found: list[dict[str, Any]] = []
        for start in range(0, len(games), 500):
            part = games[start : start + 500]
            found += [
                dict(zip(("subject_id", "version", "ruling", "reason", "details", "at"), _values(r), strict=True))
                for r in rows(
                    "SELECT subject_id, version, ruling, reason, details, at FROM {p}rm_rulings "
                    f"WHERE subject_id IN ({', '.join('?' * len(part))}) ORDER BY subject_id, version",
                    part,
                )
            ]
        return Rulings.from_rows(found)

    def _load(self, rows: Rows, ratings: Ratings, wanted: set[tuple[str, str]]) -> None:
        """The stored ratings of the (kind, player) pairs ``wanted``, into ``ratings``."""
        for kind in sorted({k for k, _ in wanted}):
            players = sorted(p for k, p in wanted if k == kind)
            for start in range(0, len(players), 500):  # (a bounded number of parameters a statement)
                part = players[start : start + 500]
                found = rows(
                    f"SELECT player_id, mu, sigma, games FROM {{p}}rm_ratings WHERE kind = ? "
                    f"AND player_id IN ({', '.join('?' * len(part))})",
                    [kind, *part],
                )
                table = ratings.by_kind.setdefault(kind, {})
                for player, mu, sigma, games in map(_values, found):
                    table[str(player)] = Rating(float(mu), float(sigma), int(games))

    def _rows(self, curs: Any) -> Rows:
        def rows(sql: str, params: Sequence[Any]) -> list[Any]:
            curs.execute(self.quote(sql), tuple(params))
            return list(curs.fetchall())

        return rows


def _ruled(seats: list[list[Any]], rulings: Rulings) -> list[list[Any]]:
    """The seats as the standings read them under the rulings (``Rulings.apply``): an annulled or restarted game's
    seats dropped, an adjusted result's places, a substituted seat's last player."""
    ruled = []
    for game_id, kind, finish_id, ended_at, seat, player, place in seats:
        given = Seat(
            game_id, None, None, "over", str(player), 0, None if place is None else int(place), None, int(seat)
        )
        applied, _ = rulings.apply(given)
        if applied.status == "over" and applied.place is not None:
            ruled.append([game_id, kind, finish_id, ended_at, seat, applied.player_id, applied.place])
    return ruled


def _values(row: Any) -> list[Any]:
    return list(row.values()) if isinstance(row, dict) else list(row)
