"""Players' skill per game kind, read from the read models: ratings (``rm_ratings``, ``rm_rating_changes``, kept by
the projection: service/reading/projections/ratings.py) and the judge's accuracy (``rm_judged_seats`` at the current
``JUDGE_VERSION``, written by ``digsite analyse``). For the API's player and leaderboards and the dashboard's pages.

Every figure here comes from finished games only (a game is rated, and judged, once it is over): what a spectator
may see of players (dashboard/access.py)."""

from __future__ import annotations

from typing import Any

from domain.judge import JUDGE_VERSION
from service.analysis.ratings import Rating
from service.errors import BadRequest
from service.reading.judgements import of_game
from service.reading.listing import decode_cursor, encode_cursor
from service.reading.read_db import ReadDatabase
from service.reading.results import AccuracyFigures, KindSkill, LeaderboardEntry, RatingChange, RatingFigures
from service.store.read_models import JUDGED_SEATS


def figures(mu: float, sigma: float, games: int) -> RatingFigures:
    rating = Rating(float(mu), float(sigma), int(games))
    return {
        "mu": rating.mu,
        "sigma": rating.sigma,
        "low": rating.low,
        "high": rating.high,
        "ordinal": rating.ordinal,
        "games": rating.games,
    }


# A player's accuracy per kind: their seats of finished games judged at this judge version, each game's judgement as
# GET /games/{id}/analysis answers it by default (``of_game``: its largest budget; a ruling since its end changes
# nothing).
ACCURACY_SQL = (
    "SELECT pg.kind AS kind, AVG(js.accuracy) AS mean, COUNT(DISTINCT js.game_id) AS games "
    f"FROM {{p}}rm_player_games pg JOIN {{p}}{JUDGED_SEATS.name} js ON js.game_id = pg.game_id AND js.seat = pg.seat "
    "WHERE pg.player_id = ? AND pg.finished = 1 AND js.judge_version = ? AND js.accuracy IS NOT NULL "
    f"AND {of_game('js')} "
    "GROUP BY pg.kind"
)


CURSOR_REFUSED = "this cursor was not given by this list: start again without one"


class Skills:
    """Ratings and accuracy, by player and by game kind."""

    def __init__(self, db: ReadDatabase) -> None:
        self.db = db

    def of_player(self, player_id: str) -> list[KindSkill]:
        """Each game kind the player has a rating or a judged game in, by kind's name."""
        ratings = {
            r["kind"]: figures(r["mu"], r["sigma"], r["games"])
            for r in self.db.rows("SELECT kind, mu, sigma, games FROM {p}rm_ratings WHERE player_id = ?", (player_id,))
        }
        accuracy: dict[str, AccuracyFigures] = {
            r["kind"]: {"mean": float(r["mean"]), "games": int(r["games"]), "judge_version": JUDGE_VERSION}
            for r in self.db.rows(ACCURACY_SQL, (player_id, JUDGE_VERSION))
        }
        return [
            {"kind": kind, "rating": ratings.get(kind), "accuracy": accuracy.get(kind)}
            for kind in sorted({*ratings, *accuracy})
        ]

    def history(self, player_id: str, kind: str | None = None) -> dict[str, list[RatingChange]]:
        """The player's rating changes per kind, in the order the games were rated."""
        where, params = "player_id = ?", [player_id]
        if kind is not None:
            where, params = where + " AND kind = ?", [*params, kind]
        found: dict[str, list[RatingChange]] = {}
        for row in self.db.rows(f"SELECT * FROM {{p}}rm_rating_changes WHERE {where} ORDER BY finish_id", params):
            found.setdefault(row["kind"], []).append(_change(row))
        return found

    def of_tournament(self, tournament_id: str) -> list[dict[str, Any]]:
        """The rating changes of a tournament's games, in the order they were rated: each with the player, their
        name, the game's kind and the change (``RatingChange``'s fields). Only finished games are rated: a game in
        play has none, whoever asks."""
        rows = self.db.rows(
            "SELECT c.*, p.name AS name FROM {p}rm_rating_changes c JOIN {p}rm_games g ON g.game_id = c.game_id "
            "JOIN {p}rm_players p ON p.player_id = c.player_id "
            "WHERE g.tournament_id = ? AND g.status = 'over' ORDER BY c.finish_id, c.seat",
            (tournament_id,),
        )
        return [{"player": r["player_id"], "name": r["name"], "kind": r["kind"], **_change(r)} for r in rows]

    def leaderboard(self, kind: str, cursor: str | None, limit: int) -> tuple[list[LeaderboardEntry], str | None]:
        """A page of the kind's leaderboard, by ordinal highest first (then player id), and the next page's cursor.
        The cursor names the last row by its ordinal (its exact text: a float's shortest repr) and player id."""
        where = ["r.kind = ?"]
        params: list[Any] = [kind]
        start = 0
        if cursor is not None:
            after, ident = decode_cursor(cursor)
            rank_text, _, ordinal_text = after.partition(":")
            try:
                ordinal, start = float(ordinal_text), int(rank_text)
            except ValueError:
                raise BadRequest(CURSOR_REFUSED, "invalid_cursor") from None
            where.append("(r.ordinal < ? OR (r.ordinal = ? AND r.player_id > ?))")
            params += [ordinal, ordinal, ident]
        rows = self.db.rows(
            "SELECT r.player_id, r.mu, r.sigma, r.games, r.ordinal, p.name FROM {p}rm_ratings r "
            f"JOIN {{p}}rm_players p ON p.player_id = r.player_id WHERE {' AND '.join(where)} "
            f"ORDER BY r.ordinal DESC, r.player_id ASC LIMIT {int(limit) + 1}",
            tuple(params),
        )
        more = len(rows) > limit
        rows = rows[:limit]
        entries: list[LeaderboardEntry] = [
            {
                "rank": start + i + 1,
                "player": r["player_id"],
                "name": r["name"],
                "rating": figures(r["mu"], r["sigma"], r["games"]),
            }
            for i, r in enumerate(rows)
        ]
        following = None
        if more:
            last = rows[-1]
            following = encode_cursor([f"{start + len(rows)}:{float(last['ordinal'])!r}", last["player_id"]])
        return entries, following


def _change(row: dict[str, Any]) -> RatingChange:
    return {
        "game_id": row["game_id"],
        "seat": row["seat"],
        "place": row["place"],
        "ended_at": row["ended_at"],
        "before": figures(row["mu_before"], row["sigma_before"], row["games"] - 1),
        "after": figures(row["mu_after"], row["sigma_after"], row["games"]),
    }
