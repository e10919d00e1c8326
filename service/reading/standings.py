"""A tournament's standings: who is leading after each round, from the games' results alone.

Pure: the read side hands in one ``Seat`` per player per game (the common read-model columns every game has:
its round and table, its status, the seat's place and score) and gets the table back; any game's results rank
the same way, since every game's engine reports places and points (``domain.protocol.Result``).

How a player ranks, in order (the page and the API say the same, from ``TIE_BREAKS``):
1. tournament points: each finished game gives points by place, from a points table the organiser may set (by
   default a table of N players gives N-1 points to first place down to 0 for last);
2. games won (first place, shared places included);
3. the game's own points summed over the player's games ("VP" in Ruins; victory points in Arnak);
4. the average place (lower is better);
5. then the players stay tied: they share the rank, listed by name.
Games still in play (or abandoned) count for nothing until they finish; the cross table shows them as such.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

TIE_BREAKS = (
    "tournament points",
    "games won",
    "points scored in the games",
    "average place (lower is better)",
)


class PointsTableError(ValueError):
    """A points table that cannot be read: the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class PointsTable:
    """Tournament points by place (index 0 = first place), the same for every table size; places past the
    list's end get 0. ``None`` means the default: N-1 points for first at a table of N, down to 0 for last."""

    by_place: tuple[int, ...] | None = None

    def points(self, place: int, n_players: int) -> int:
        if self.by_place is None:
            return max(0, n_players - place)
        return self.by_place[place - 1] if 1 <= place <= len(self.by_place) else 0

    def describe(self) -> str:
        if self.by_place is None:
            return "N-1 points for first place at a table of N, one less for each place below, 0 for last"
        return ", ".join(f"{_ordinal(i)} {p}" for i, p in enumerate(self.by_place, start=1)) + ", others 0"

    @classmethod
    def parse(cls, text: str | None) -> PointsTable:
        """``"3,2,1,0"`` (points for 1st, 2nd...), or empty/None for the default."""
        if text is None or not text.strip():
            return cls()
        parts = [p.strip() for p in text.split(",")]
        if len(parts) > 10:
            raise PointsTableError("a points table lists at most 10 places")
        try:
            values = tuple(int(p) for p in parts)
        except ValueError:
            raise PointsTableError(
                f"points must be whole numbers separated by commas, best place first (got {text!r})"
            ) from None
        if any(v < 0 or v > 1000 for v in values):
            raise PointsTableError("points per place must be between 0 and 1000")
        return cls(values)


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's seat in one game of the tournament."""

    game_id: str
    round: int | None  # the tournament round the game was played in (None: not labelled)
    table: int | None
    status: str  # "over" when finished
    player_id: str
    n_players: int
    place: int | None  # 1 = first (shared by tied winners); None until the game is over
    score: int | None


@dataclass(frozen=True, slots=True)
class Cell:
    """A player's game in a round of the cross table."""

    game_id: str
    table: int | None
    finished: bool
    place: int | None
    n_players: int
    score: int | None
    points: int


@dataclass
class Line:
    """A player's standing after some rounds."""

    player_id: str
    name: str
    rank: int = 0
    games: int = 0
    wins: int = 0
    points: int = 0
    score: int = 0
    place_sum: int = 0
    cells: dict[int, list[Cell]] = field(default_factory=dict)  # round -> the player's games in it

    @property
    def average_place(self) -> float | None:
        return self.place_sum / self.games if self.games else None

    def key(self) -> tuple[int, int, int, float]:
        average = self.average_place
        return (-self.points, -self.wins, -self.score, average if average is not None else float("inf"))

    def to_dict(self) -> dict[str, object]:
        return {
            "rank": self.rank,
            "player_id": self.player_id,
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "points": self.points,
            "score": self.score,
            "average_place": None if self.average_place is None else round(self.average_place, 3),
        }


def standings(
    seats: Iterable[Seat],
    names: Mapping[str, str],
    table: PointsTable = PointsTable(),
    through_round: int | None = None,
) -> list[Line]:
    """The standings counting the games of rounds up to ``through_round`` (all rounds when None), best first.
    Every player seated in the tournament (in any round) is listed, with zeros if no game of theirs counts yet."""
    lines: dict[str, Line] = {}
    for seat in seats:
        line = lines.get(seat.player_id)
        if line is None:
            line = lines[seat.player_id] = Line(seat.player_id, names.get(seat.player_id, seat.player_id))
        if through_round is not None and (seat.round is None or seat.round > through_round):
            continue
        finished = seat.status == "over" and seat.place is not None
        points = table.points(seat.place, seat.n_players) if finished and seat.place is not None else 0
        cell = Cell(seat.game_id, seat.table, finished, seat.place, seat.n_players, seat.score, points)
        line.cells.setdefault(seat.round or 0, []).append(cell)
        if finished and seat.place is not None:
            line.games += 1
            line.wins += int(seat.place == 1)
            line.points += points
            line.score += seat.score or 0
            line.place_sum += seat.place
    ranked = sorted(lines.values(), key=lambda line: (line.key(), line.name.casefold(), line.player_id))
    previous: tuple[int, int, int, float] | None = None
    for position, line in enumerate(ranked, start=1):
        key = line.key()
        line.rank = ranked[position - 2].rank if key == previous else position
        previous = key
    return ranked


def rounds_of(seats: Sequence[Seat]) -> list[int]:
    """The labelled rounds the tournament's games were played in, in order."""
    return sorted({s.round for s in seats if s.round is not None})


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# Every seat of every game of one tournament, as the standings read it (``{p}``: the schema's prefix; ``?``: the
# tournament id). The dashboard (``Lists.tournament_seats``) and the API read through this one statement.
# Only games of the tournament's own game count: a store may hold a game of another kind labelled with the
# tournament from before the service refused one, and places of two games never compare.
SEATS_SQL = (
    "SELECT g.game_id, g.round_label, g.table_label, g.status, g.n_players, pg.seat, pg.player_id, pg.place, "
    "pg.score, p.name FROM {p}rm_games g "
    "JOIN {p}rm_tournaments t ON t.tournament_id = g.tournament_id AND t.game = g.kind "
    "JOIN {p}rm_player_games pg ON pg.game_id = g.game_id "
    "LEFT JOIN {p}rm_players p ON p.player_id = pg.player_id WHERE g.tournament_id = ?{finished} "
    "ORDER BY g.round_label, g.table_label, g.game_id, pg.seat"
)


def seats_sql(finished_only: bool) -> str:
    return SEATS_SQL.replace("{finished}", " AND g.status = 'over'" if finished_only else "")


def seats_from_rows(rows: Iterable[Mapping[str, object]]) -> tuple[list[Seat], dict[str, str]]:
    """``Seat``s and player names from the read models' rows (``Lists.tournament_seats``)."""
    seats: list[Seat] = []
    names: dict[str, str] = {}
    for row in rows:
        player = str(row["player_id"])
        names[player] = str(row.get("name") or player)
        seats.append(
            Seat(
                game_id=str(row["game_id"]),
                round=_int(row.get("round_label")),
                table=_int(row.get("table_label")),
                status=str(row["status"]),
                player_id=player,
                n_players=_int(row.get("n_players")) or 0,
                place=_int(row.get("place")),
                score=_int(row.get("score")),
            )
        )
    return seats, names


def report(
    tournament: Mapping[str, object], rows: Iterable[Mapping[str, object]], table: PointsTable = PointsTable()
) -> dict[str, object]:
    """The whole answer for a tournament: the standings now, after each round, and the cross table (JSON-ready)."""
    seats, names = seats_from_rows(rows)
    rounds = rounds_of(seats)
    final = standings(seats, names, table)
    return {
        "tournament": {k: tournament.get(k) for k in ("tournament_id", "name", "game", "rounds")},
        "points_table": list(table.by_place) if table.by_place is not None else None,
        "points_rule": table.describe(),
        "tie_breaks": list(TIE_BREAKS),
        "rounds": rounds,
        "standings": [line.to_dict() for line in final],
        "after_round": {str(r): [line.to_dict() for line in standings(seats, names, table, r)] for r in rounds},
        "cross_table": [
            {
                "player_id": line.player_id,
                "name": line.name,
                "rank": line.rank,
                "rounds": {
                    str(r): [
                        {
                            "game_id": c.game_id,
                            "table": c.table,
                            "finished": c.finished,
                            "place": c.place,
                            "n_players": c.n_players,
                            "score": c.score,
                            "points": c.points,
                        }
                        for c in cells
                    ]
                    for r, cells in sorted(line.cells.items())
                },
            }
            for line in final
        ],
    }


CSV_COLUMNS = ("rank", "name", "player_id", "games", "wins", "points", "score", "average_place")


def to_csv(rows: Iterable[Mapping[str, object]], table: PointsTable = PointsTable()) -> str:
    """The standings as CSV (one line per player, best first), then one column per round: the player's place
    and points in that round's game(s) ("1/4 +3"), for a spreadsheet."""
    seats, names = seats_from_rows(rows)
    rounds = rounds_of(seats)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*CSV_COLUMNS, *(f"round {r}" for r in rounds)])
    for line in standings(seats, names, table):
        values = line.to_dict()
        writer.writerow(
            [
                *(_csv_safe(values[c]) for c in CSV_COLUMNS),
                *(" ".join(_cell_text(c) for c in line.cells.get(r, [])) for r in rounds),
            ]
        )
    return out.getvalue()


def _cell_text(cell: Cell) -> str:
    return f"{cell.place}/{cell.n_players} +{cell.points}" if cell.finished else "in play"


def _csv_safe(value: object) -> object:
    """A player's name is typed by people: never let a spreadsheet read it as a formula."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
