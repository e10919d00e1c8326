"""The analytics' figures computed from the read models' rows (``service.reading.catalogue``: a game's catalogue
as SQL): every figure of one player, and the field's while the projection's sums are not complete
(``service.reading.figures_from_sums``)."""

from __future__ import annotations

from typing import Any

from domain.metrics import Metric
from service.reading import catalogue
from service.reading.read_db import ReadDatabase
from service.reading.scope import Scope


class RowFigures:
    """Each figure over the rows of the games in a ``Scope``, read afresh."""

    def __init__(self, db: ReadDatabase) -> None:
        self.db = db

    def tendencies(self, scope: Scope) -> dict[str, Any]:
        """Every seat- and game-grain metric of the catalogue with its sample size (the denominator's sum)."""
        found: dict[str, dict[str, Any]] = {}
        games = 0
        for grain in ("seat", "game"):
            chosen = [m for m in catalogue.analytics_of(scope.kind)[0] if m.grain == grain]
            plan = catalogue.plan(scope.kind, grain, [c for m in chosen for c in sorted(m.columns())])
            where, params = scope.where(grain)
            exprs = []
            for i, m in enumerate(chosen):
                value, n = catalogue.ratio(m, plan.qualified)
                exprs.append(f", {value} AS v{i}, {n} AS n{i}")
            row = self.db.rows(
                f"SELECT COUNT(*) AS games{''.join(exprs)} FROM {plan.from_clause('{p}')}"
                f"{scope.tournament_join(grain)} WHERE {where}",
                params,
            )[0]
            if grain == "seat":
                games = int(row["games"])
            for i, m in enumerate(chosen):
                value = row[f"v{i}"]
                found[m.name] = tendency(m, None if value is None else float(value), row[f"n{i}"])
        return tendencies_answer(scope, games, found)

    def per_round(self, scope: Scope, metric: str) -> list[dict[str, Any]]:
        """A round-grain metric, round by round: [{round, value, n}]."""
        m = catalogue.metric(scope.kind, metric)
        if m.grain != "round":
            raise catalogue.UnknownName(f"{metric!r} is not a per-round metric of {scope.kind}")
        if scope.player is None:  # the field: its games picked from rm_games, no join with every seat's row
            plan = catalogue.plan(scope.kind, "round", sorted(m.columns()))
            where, params = scope.field_games("r")
            joins = ""
        else:
            plan = catalogue.plan(scope.kind, "round", sorted(m.columns()), always=("pg",))
            where, params = scope.filters("round")
            joins = scope.tournament_join("round")
        value, n = catalogue.ratio(m, plan.qualified)
        rows = self.db.rows(
            f"SELECT r.round AS round, {value} AS value, {n} AS n FROM {plan.from_clause('{p}')}"
            f"{joins} WHERE {' AND '.join(where)} GROUP BY r.round ORDER BY r.round",
            params,
        )
        return [r for r in rows if r["n"]]

    def breakdown(self, scope: Scope, name: str) -> list[dict[str, Any]]:
        """How often each combination of the breakdown's columns occurs: [{<by columns>, n, <averaged
        columns>}], most frequent first. A table with a ``seat`` column can be asked about one player."""
        found, table, stored = catalogue.breakdown(scope.kind, name)
        columns = set(table.column_names())
        averaged = list(found.average)
        if not {*found.by, *averaged} <= columns:  # (the table's own columns: plain names the migration created)
            raise catalogue.UnknownName(f"breakdown {name!r} names columns {stored} does not have")
        if scope.player is None:  # the field: its games picked from rm_games, no join with every seat's row
            joins = ""
            where, params = scope.field_games("b")
        elif "seat" in columns:
            joins = " JOIN {p}rm_player_games pg ON pg.game_id = b.game_id AND pg.seat = b.seat"
            where, params = scope.filters("seat")
            joins += scope.tournament_join("seat")
        else:
            joins = " JOIN {p}rm_games g ON g.game_id = b.game_id"
            where, params = scope.filters("game")
        groups = ", ".join(f"b.{c}" for c in found.by)
        means = "".join(f", CAST(AVG(b.{c}) AS DOUBLE PRECISION) AS {c}" for c in averaged)
        return self.db.rows(
            f"SELECT {', '.join(f'b.{c} AS {c}' for c in found.by)}, COUNT(*) AS n{means} "
            f"FROM {{p}}{stored} b{joins} WHERE {' AND '.join(where)} GROUP BY {groups} ORDER BY n DESC, {groups}",
            params,
        )

    def by_dimension(self, scope: Scope, metric: str, dimension: str) -> list[dict[str, Any]]:
        """A seat- or game-grain metric per value of a dimension, per table size (a rate compares only within
        one player count): [{n_players, grp, value, n, games}], e.g. win rate by seat per player count."""
        m = catalogue.metric(scope.kind, metric)
        d = catalogue.dimension(scope.kind, dimension)
        if m.grain == "round":
            raise catalogue.UnknownName(f"{metric!r} is per round: see per_round")
        of_game = (dimension,) if d.grain == "game" else ()
        plan = catalogue.plan(scope.kind, m.grain, [*sorted(m.columns()), "n_players", dimension], of_game=of_game)
        value, n = catalogue.ratio(m, plan.qualified)
        group, size = plan.qualified[dimension], plan.qualified["n_players"]
        where, params = scope.where(m.grain)
        return self.db.rows(
            f"SELECT {size} AS n_players, {group} AS grp, {value} AS value, {n} AS n, COUNT(*) AS games "
            f"FROM {plan.from_clause('{p}')}{scope.tournament_join(m.grain)} WHERE {where} "
            f"GROUP BY {size}, {group} ORDER BY {size}, {group}",
            params,
        )

    def distributions(self, scope: Scope) -> dict[str, list[dict[str, Any]]]:
        """From the core alone: places and final scores (one per seat), game lengths in moves and rounds (one per
        game)."""
        seat_where, seat_params = scope.where("seat")
        game_where, game_params = scope.where("game")
        seats = f"FROM {{p}}rm_player_games pg{scope.tournament_join('seat')} WHERE {seat_where}"
        games = f"FROM {{p}}rm_games g WHERE {game_where}"
        return {
            "place": self.db.rows(
                f"SELECT pg.place AS value, COUNT(*) AS n {seats} GROUP BY pg.place ORDER BY pg.place", seat_params
            ),
            "score": self.db.rows(
                f"SELECT pg.score AS value, COUNT(*) AS n {seats} GROUP BY pg.score ORDER BY pg.score", seat_params
            ),
            "moves": self.db.rows(
                f"SELECT g.moves AS value, COUNT(*) AS n {games} GROUP BY g.moves ORDER BY g.moves", game_params
            ),
            "rounds": self.db.rows(
                f"SELECT g.round AS value, COUNT(*) AS n {games} GROUP BY g.round ORDER BY g.round", game_params
            ),
        }

    def trend(self, scope: Scope, metric: str) -> list[dict[str, Any]]:
        """A seat- or game-grain metric per round of the scope's tournament: [{round, value, n}]."""
        m = catalogue.metric(scope.kind, metric)
        plan = catalogue.plan(scope.kind, m.grain, sorted(m.columns()))
        value, n = catalogue.ratio(m, plan.qualified)
        where, params = scope.where(m.grain)
        label = "g.round_label" if m.grain == "game" else "tg.round_label"
        return self.db.rows(
            f"SELECT {label} AS round, {value} AS value, {n} AS n FROM {plan.from_clause('{p}')}"
            f"{scope.tournament_join(m.grain)} WHERE {where} GROUP BY {label} ORDER BY {label}",
            params,
        )

    def table_sizes(self, scope: Scope) -> tuple[int, ...]:
        """The table sizes of the scope's seats."""
        where, params = scope.where("seat")
        rows = self.db.rows(
            f"SELECT DISTINCT pg.n_players AS n FROM {{p}}rm_player_games pg{scope.tournament_join('seat')} "
            f"WHERE {where} ORDER BY pg.n_players",
            params,
        )
        return tuple(int(r["n"]) for r in rows)


def tendency(m: Metric, value: float | None, n: Any) -> dict[str, Any]:
    """One metric's tendency as the pages read it: its value, sample size (0 when none) and how it is shown."""
    return {"value": value, "n": n or 0, "label": m.label, "grain": m.grain, "share": m.share, "group": m.group}


def tendencies_answer(scope: Scope, games: int, found: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The tendencies ``found`` (by metric) in the catalogue's order, with whose and how many games they are over."""
    ordered = {m.name: found[m.name] for m in catalogue.analytics_of(scope.kind)[0] if m.name in found}
    return {
        "player": scope.player,
        "kind": scope.kind,
        "n_players": scope.n_players,
        "games": games,
        "metrics": ordered,
    }
