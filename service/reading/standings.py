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

An organiser's rulings (``Rulings``, docs/events.md, *Rulings*) apply, each with a note saying so and why: an
annulled game (or one restarted as a new game) counts for nothing; an adjusted result stands for the engine's; a
substitute's seat counts for the player who held it last; a penalty takes tournament points off.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import cast

from service.reading.results import RulingNote, Standing, Standings

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


@dataclass(frozen=True)
class Rulings:
    """The organiser's rulings the standings apply (``from_rows``: the read model ``rm_rulings``)."""

    void: Mapping[str, str] = field(default_factory=dict)  # game -> the note of its annulment (or restart)
    adjusted: Mapping[str, tuple[dict[int, int], list[int], str]] = field(
        default_factory=dict
    )  # game -> places, scores, note
    holders: Mapping[tuple[str, int], tuple[str, str, str]] = field(
        default_factory=dict
    )  # (game, seat) -> player, name, note
    penalties: Sequence[tuple[str, int, str]] = ()  # player, points, note
    notes: Sequence[dict[str, object]] = ()  # every ruling, as the answer lists them

    @classmethod
    def from_rows(cls, rows: Iterable[Mapping[str, object]], names: Mapping[str, str] | None = None) -> Rulings:
        """The rulings in ``rows``; a penalty's note names its player by ``names`` (a tournament's list of rulings
        is read apart from its standings: "a penalty of 1 point" alone does not say whose)."""
        void: dict[str, str] = {}
        adjusted: dict[str, tuple[dict[int, int], list[int], str]] = {}
        holders: dict[tuple[str, int], tuple[str, str, str]] = {}
        penalties: list[tuple[str, int, str]] = []
        notes: list[dict[str, object]] = []
        for row in rows:
            subject, ruling, reason = str(row["subject_id"]), str(row["ruling"]), str(row["reason"])
            details = json.loads(str(row["details"]))
            if ruling == "annul":
                note = f"game annulled: {reason}"
                void[subject] = note
            elif ruling == "restart":
                note = f"game restarted from version {details['version']} as game {details['continued_as']}: {reason}"
                void[subject] = note
            elif ruling == "adjust_result":
                result = details["result"]
                ranking, winners = result["ranking"], result["winners"]
                places = {seat: 1 if seat in winners else ranking.index(seat) + 1 for seat in ranking}
                note = f"result adjusted: {reason}"
                adjusted[subject] = (places, list(result["scores"]), note)
            elif ruling == "void_link":  # (a seat's link replaced: nothing the standings count)
                continue
            elif ruling == "substitute":
                note = f"{details['name']} took seat {details['seat']} from version {details['from_version']}: {reason}"
                holders[(subject, int(details["seat"]))] = (str(details["player"]), str(details["name"]), note)
            else:  # penalty
                known = {**(names or {}), **{player: name for player, name, _ in holders.values()}}  # (a substitute)
                who = known.get(str(details["player"]))
                note = f"penalty of {details['points']} point(s){f' for {who}' if who else ''}: {reason}"
                penalties.append((str(details["player"]), int(details["points"]), note))
            notes.append({"subject": subject, "ruling": ruling, "reason": reason, "at": row["at"], "note": note})
        return cls(void, adjusted, holders, penalties, notes)

    def apply(self, seat: Seat) -> tuple[Seat, str | None]:
        """The seat as the rulings make it, and the note of the ruling that changed it (if one did)."""
        note = None
        holder = self.holders.get((seat.game_id, seat.seat)) if seat.seat is not None else None
        if holder is not None:
            seat = replace(seat, player_id=holder[0])
            note = holder[2]
        if seat.game_id in self.void:
            return replace(seat, status="annulled", place=None), self.void[seat.game_id]
        adjusted = self.adjusted.get(seat.game_id)
        if adjusted is not None and seat.seat is not None and seat.status == "over":
            places, scores, note = adjusted
            return replace(seat, place=places.get(seat.seat), score=scores[seat.seat]), note
        return seat, note


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
    seat: int | None = None  # the seat's number at its table (rulings name seats)


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
    ruling: str | None = None  # the note of a ruling on this game or seat
    annulled: bool = False  # annulled or restarted as another game: it counts for nothing


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
    penalty: int = 0  # tournament points taken off by the organiser's penalties (``points`` is after them)
    notes: list[str] = field(default_factory=list)
    cells: dict[int, list[Cell]] = field(default_factory=dict)  # round -> the player's games in it

    @property
    def average_place(self) -> float | None:
        return self.place_sum / self.games if self.games else None

    def key(self) -> tuple[int, int, int, float]:
        average = self.average_place
        return (-self.points, -self.wins, -self.score, average if average is not None else float("inf"))

    def to_dict(self) -> Standing:
        return {
            "rank": self.rank,
            "player_id": self.player_id,
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "points": self.points,
            "score": self.score,
            "average_place": None if self.average_place is None else round(self.average_place, 3),
            "penalty": self.penalty,
            "notes": list(self.notes),
        }


def standings(
    seats: Iterable[Seat],
    names: Mapping[str, str],
    table: PointsTable = PointsTable(),
    through_round: int | None = None,
    rulings: Rulings = Rulings(),
) -> list[Line]:
    """The standings counting the games of rounds up to ``through_round`` (all rounds when None), best first, with
    the organiser's ``rulings`` applied (penalties in every round's table: they are not a round's).
    Every player seated in the tournament (in any round) is listed, with zeros if no game of theirs counts yet."""
    lines: dict[str, Line] = {}
    names = {**names, **{player: name for player, name, _ in rulings.holders.values()}}
    for given in seats:
        seat, ruled_note = rulings.apply(given)
        line = lines.get(seat.player_id)
        if line is None:
            line = lines[seat.player_id] = Line(seat.player_id, names.get(seat.player_id, seat.player_id))
        if through_round is not None and (seat.round is None or seat.round > through_round):
            continue
        finished = seat.status == "over" and seat.place is not None
        points = table.points(seat.place, seat.n_players) if finished and seat.place is not None else 0
        cell = Cell(
            seat.game_id,
            seat.table,
            finished,
            seat.place,
            seat.n_players,
            seat.score,
            points,
            ruled_note,
            seat.status == "annulled",
        )
        line.cells.setdefault(seat.round or 0, []).append(cell)
        if ruled_note is not None and ruled_note not in line.notes:
            line.notes.append(ruled_note)
        if finished and seat.place is not None:
            line.games += 1
            line.wins += int(seat.place == 1)
            line.points += points
            line.score += seat.score or 0
            line.place_sum += seat.place
    for player, points, note in rulings.penalties:
        line = lines.get(player)
        if line is None:
            line = lines[player] = Line(player, names.get(player, player))
        line.points -= points
        line.penalty += points
        line.notes.append(note)
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
                seat=_int(row.get("seat")),
            )
        )
    return seats, names


def report(
    tournament: Mapping[str, object],
    rows: Iterable[Mapping[str, object]],
    table: PointsTable = PointsTable(),
    ruling_rows: Iterable[Mapping[str, object]] = (),
) -> Standings:
    """The whole answer for a tournament: the standings now, after each round, and the cross table (JSON-ready),
    the organiser's rulings (``ruling_rows``: ``Lists.tournament_rulings``) applied and listed."""
    seats, names = seats_from_rows(rows)
    rulings = _shown(Rulings.from_rows(ruling_rows, names), seats)
    rounds = rounds_of(seats)
    final = standings(seats, names, table, rulings=rulings)
    return {
        "tournament": {
            "tournament_id": _text(tournament.get("tournament_id")),
            "name": _text(tournament.get("name")),
            "game": _text(tournament.get("game")),
            "rounds": _int(tournament.get("rounds")),
        },
        "points_table": list(table.by_place) if table.by_place is not None else None,
        "points_rule": table.describe(),
        "tie_breaks": list(TIE_BREAKS),
        "rounds": rounds,
        "standings": [line.to_dict() for line in final],
        "after_round": {
            str(r): [line.to_dict() for line in standings(seats, names, table, r, rulings)] for r in rounds
        },
        "rulings": [cast(RulingNote, n) for n in rulings.notes],
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
                            "ruling": c.ruling,
                        }
                        for c in cells
                    ]
                    for r, cells in sorted(line.cells.items())
                },
            }
            for line in final
        ],
    }


CSV_COLUMNS = ("rank", "name", "player_id", "games", "wins", "points", "score", "average_place", "penalty")


def _shown(rulings: Rulings, seats: Sequence[Seat]) -> Rulings:
    """Only the rulings on the games these standings show (a visitor's: the finished ones), and penalties."""
    shown = {s.game_id for s in seats}
    notes = [n for n in rulings.notes if n["ruling"] == "penalty" or n["subject"] in shown]
    return replace(rulings, notes=notes)


def to_csv(
    rows: Iterable[Mapping[str, object]],
    table: PointsTable = PointsTable(),
    ruling_rows: Iterable[Mapping[str, object]] = (),
) -> str:
    """The standings as CSV (one line per player, best first), then one column per round: the player's place
    and points in that round's game(s) ("1/4 +3"), for a spreadsheet; last, the notes of the organiser's rulings
    on the player's games and standing."""
    seats, names = seats_from_rows(rows)
    rulings = Rulings.from_rows(ruling_rows, names)
    rounds = rounds_of(seats)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*CSV_COLUMNS, *(f"round {r}" for r in rounds), "rulings"])
    for line in standings(seats, names, table, rulings=rulings):
        values: Mapping[str, object] = line.to_dict()
        writer.writerow(
            [
                *(_csv_safe(values[c]) for c in CSV_COLUMNS),
                *(" ".join(_cell_text(c) for c in line.cells.get(r, [])) for r in rounds),
                _csv_safe("; ".join(line.notes)),
            ]
        )
    return out.getvalue()


def _cell_text(cell: Cell) -> str:
    if cell.annulled:
        return "annulled"
    return f"{cell.place}/{cell.n_players} +{cell.points}" if cell.finished else "in play"


def _csv_safe(value: object) -> object:
    """A player's name is typed by people: never let a spreadsheet read it as a formula."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
