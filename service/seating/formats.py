"""Tournament formats as data, and the pure, deterministic (seeded) functions that seat one round.

A round is seated from the entries (player ids), the table size the organiser asked for, the table sizes the game
allows (``Seats``' ``low``..``high``), the rounds seated before (``History``) and, for Swiss, the standings. Every
format gives each entry one seat per round, or a bye when the entries cannot all sit at legal tables; tables of
one round differ by at most one seat and never exceed the size asked for (``table_sizes``).

- ``round_robin``: each player meets the others as evenly as the numbers allow. There is no closed-form schedule
  for every (players, table size, rounds) (the "social golfer problem"), so it follows the local-search approach
  of Dotú and Van Hentenryck, "Scheduling social golfers locally" (CPAIOR 2005): a greedy first seating of each
  round, then swaps of two players between tables while a swap lowers the cost (the number of times the pairs
  of the round met before, squared so that a third meeting costs more than two second ones; among seatings
  that meet as often, the one whose tables' best seat orders repeat fewest earlier seats). Then each table's
  seat order is the permutation with the fewest earlier sittings in the same seats (first seat matters).
- ``swiss``: Swiss for table games, in the manner of the multiplayer ("pod") Swiss pairings of Commander events
  and of Board Game Arena's Swiss for multiplayer games (tables filled from the top of the standings, repeat
  opponents avoided); the swap rule is this module's own: players sorted by standings (ties drawn by the seed) and
  cut into tables from the top, then a player who would meet someone again is swapped with the nearest-ranked
  player of a lower table when that lowers the repeats. Round 1 (no standings) is a seeded draw. Seat order as for
  the round robin.
- ``csv``: the organiser's own seating, one line per seat (``table,player``), read by ``csv_tables`` and checked
  by ``given``.

Byes go to those who had fewest byes (ties drawn by the seed; in Swiss, to the lowest ranked of them).
"""

from __future__ import annotations

import csv
import io
import itertools
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

FORMATS = ("round_robin", "swiss", "csv")
RESTARTS = 12  # greedy starts per round robin round (measured: docs/events.md, "How even a round robin is")
ORDERED_UP_TO = 6  # a table of at most this many tries every seat order (720); a larger one keeps its drawn order

Table = tuple[str, ...]  # player ids in seat order


class SeatingError(ValueError):
    """The entries cannot be seated this way: ``code`` says why (machine-readable), the message in a sentence."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class History:
    """What the rounds seated so far say about each player: how often each pair met, how often each player sat in
    each seat, and how many byes each had."""

    met: Mapping[frozenset[str], int] = field(default_factory=dict)
    seats: Mapping[tuple[str, int], int] = field(default_factory=dict)
    byes: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, rounds: Sequence[tuple[Sequence[Table], Sequence[str]]]) -> History:
        """The history of rounds given as (tables, byes)."""
        met: Counter[frozenset[str]] = Counter()
        seats: Counter[tuple[str, int]] = Counter()
        byes: Counter[str] = Counter()
        for tables, resting in rounds:
            for table in tables:
                for a, b in itertools.combinations(table, 2):
                    met[frozenset((a, b))] += 1
                for position, player in enumerate(table):
                    seats[(player, position)] += 1
            byes.update(resting)
        return cls(dict(met), dict(seats), dict(byes))


@dataclass(frozen=True)
class Round:
    tables: tuple[Table, ...]
    byes: tuple[str, ...]


def table_sizes(entries: int, size: int, low: int, high: int) -> list[int]:
    """The table sizes of one round: as many tables as seat everyone at tables of at most ``size``, as even as
    possible; if that leaves a table below the game's ``low``, tables of exactly ``size`` and the rest sit out."""
    if not low <= size <= high:
        raise SeatingError(f"this game seats {low} to {high} players at a table, not {size}", "table_size_not_allowed")
    if entries < low:
        raise SeatingError(
            f"{entries} entries cannot fill a table: this game needs at least {low} players", "too_few_entries"
        )
    count = -(-entries // size)
    if entries // count >= low:
        base, extra = divmod(entries, count)
        return [base + 1] * extra + [base] * (count - extra)
    return [size] * (entries // size)


def seat(
    fmt: str,
    entries: Sequence[str],
    size: int,
    low: int,
    high: int,
    seed: str,
    history: History | None = None,
    standings: Sequence[str] | None = None,
) -> Round:
    """One round of ``fmt`` (``round_robin`` or ``swiss``; ``csv`` is read by ``parse_csv``)."""
    history = history or History()
    if len(set(entries)) != len(entries):
        raise SeatingError("an entry is listed twice", "duplicate_entry")
    sizes = table_sizes(len(entries), size, low, high)
    rng = random.Random(f"seating:{fmt}:{seed}")
    if fmt == "round_robin":
        order = sorted(entries)
        rng.shuffle(order)
        resting = _byes(order, sum(sizes), history)
        playing = [p for p in order if p not in resting]
        tables = _best_of(playing, sizes, history, rng)
    elif fmt == "swiss":
        ranked = _ranked(entries, standings or [], rng)
        resting = _byes(list(reversed(ranked)), sum(sizes), history)
        playing = [p for p in ranked if p not in resting]
        tables = _avoid_repeats(_cut(playing, sizes), history)
    else:
        raise SeatingError(f"a round is seated by one of {', '.join(FORMATS)}, not {fmt!r}", "unknown_format")
    return Round(tuple(_seat_order(t, history, rng) for t in tables), tuple(sorted(resting)))


def _byes(order: list[str], seated: int, history: History) -> set[str]:
    """Who sits out: those with fewest byes so far, in ``order`` among equals (a stable sort keeps it)."""
    resting = len(order) - seated
    return set(sorted(order, key=lambda p: history.byes.get(p, 0))[:resting]) if resting else set()


def _cost(table: Sequence[str], history: History) -> int:
    return sum(history.met.get(frozenset(pair), 0) ** 2 for pair in itertools.combinations(table, 2))


def _greedy(players: list[str], sizes: list[int], history: History) -> list[list[str]]:
    """Each player in turn to the open table where they met its players least (the first such table)."""
    tables: list[list[str]] = [[] for _ in sizes]
    for player in players:
        open_tables = [i for i, t in enumerate(tables) if len(t) < sizes[i]]
        best = min(open_tables, key=lambda i: (_cost([*tables[i], player], history) - _cost(tables[i], history), i))
        tables[best].append(player)
    return tables


class _Costs:
    """What one round's tables cost under the history: the meetings again (``_cost``) and, when ``seats``, then
    the earlier sittings in the seats of the table's best seat order (``_seat_cost``), compared in that order.
    Memoised: the local search asks for the same table many times (measured 2026-12-07: 0.67 s of CPU for a round
    robin of 30 entries at tables of 5 over 5 rounds, 1.35 s without)."""

    def __init__(self, history: History, seats: bool) -> None:
        self.history = history
        self.seats = seats
        self.known: dict[frozenset[str], tuple[int, int]] = {}

    def __call__(self, table: Sequence[str]) -> tuple[int, int]:
        key = frozenset(table)
        if key not in self.known:
            seats = _seat_cost(table, self.history) if self.seats else 0
            self.known[key] = (_cost(table, self.history), seats)
        return self.known[key]

    def of(self, *tables: Sequence[str]) -> tuple[int, int]:
        costs = [self(t) for t in tables]
        return sum(c[0] for c in costs), sum(c[1] for c in costs)


def _best_of(players: list[str], sizes: list[int], history: History, rng: random.Random) -> list[list[str]]:
    """The seating with fewest meetings again of ``RESTARTS`` greedy-then-swap seatings, each from another seeded
    order (restarts are how a local search escapes the first local minimum it falls into); then swapped on while
    a swap keeps its meetings and lowers its seats' cost, so that two players due the first seat sit apart.
    Seats are a second search, not part of each restart's: searching both in every restart took 2.9 s of CPU
    rather than 0.6 for 30 entries at tables of 5 over 5 rounds (``bench/seating.py``, 2026-12-07), and neither
    left a first-seat spread above 2 over the property test's grid."""
    meetings = _Costs(history, seats=False)
    best: list[list[str]] | None = None
    for _ in range(RESTARTS):
        tables = _improve(_greedy(players, sizes, history), meetings)
        if best is None or meetings.of(*tables) < meetings.of(*best):
            best = tables
        if meetings.of(*best)[0] == 0:  # nobody meets again: no restart can do better
            break
        players = list(players)
        rng.shuffle(players)
    assert best is not None
    return _improve(best, _Costs(history, seats=True))


def _improve(tables: list[list[str]], costs: _Costs) -> list[list[str]]:
    """Swap two players of two tables while some swap lowers the round's cost (first improvement, bounded)."""
    for _ in range(200):
        improved = False
        for i, j in itertools.combinations(range(len(tables)), 2):
            for a, b in itertools.product(range(len(tables[i])), range(len(tables[j]))):
                ti, tj = list(tables[i]), list(tables[j])
                ti[a], tj[b] = tj[b], ti[a]
                if costs.of(ti, tj) < costs.of(tables[i], tables[j]):
                    tables[i], tables[j] = ti, tj
                    improved = True
        if not improved:
            break
    return tables


def _ranked(entries: Sequence[str], standings: Sequence[str], rng: random.Random) -> list[str]:
    """The entries best first as ``standings`` list them; those it does not list (no games yet) after, drawn."""
    place = {p: i for i, p in enumerate(standings)}
    drawn = sorted(entries)
    rng.shuffle(drawn)
    return sorted(drawn, key=lambda p: place.get(p, len(place)))


def _cut(ranked: list[str], sizes: list[int]) -> list[list[str]]:
    tables, start = [], 0
    for size in sorted(sizes, reverse=True):
        tables.append(ranked[start : start + size])
        start += size
    return tables


def _avoid_repeats(tables: list[list[str]], history: History) -> list[list[str]]:
    """From the top table down, swap a player who meets someone again with the nearest-ranked player of a lower
    table when that lowers the two tables' repeats (the standings move as little as it can)."""
    for i in range(len(tables)):
        for j in range(i + 1, len(tables)):
            for a in reversed(range(len(tables[i]))):
                if _cost(tables[i], history) == 0:
                    break
                for b in range(len(tables[j])):
                    ti, tj = list(tables[i]), list(tables[j])
                    ti[a], tj[b] = tj[b], ti[a]
                    if _cost(ti, history) + _cost(tj, history) < _cost(tables[i], history) + _cost(tables[j], history):
                        tables[i], tables[j] = ti, tj
                        break
    return tables


def _sittings(order: Iterable[str], history: History) -> int:
    """How often the players sat in these seats before, squared (a third first seat costs more than two seconds)."""
    return sum(history.seats.get((p, i), 0) ** 2 for i, p in enumerate(order))


def _seat_cost(table: Sequence[str], history: History) -> int:
    """The sittings of the table's best seat order (what ``_seat_order`` will choose); 0 past ``ORDERED_UP_TO``."""
    if len(table) > ORDERED_UP_TO:
        return 0
    return min(_sittings(order, history) for order in itertools.permutations(table))


def _seat_order(table: Sequence[str], history: History, rng: random.Random) -> Table:
    """The table's seat order with the fewest earlier sittings of its players in those same seats (all orders
    of up to ``ORDERED_UP_TO`` players are tried; ties drawn by the seed)."""
    players = list(table)
    rng.shuffle(players)
    if len(players) > ORDERED_UP_TO:
        return tuple(players)
    return tuple(min(itertools.permutations(players), key=lambda order: _sittings(order, history)))


def csv_tables(text: str) -> list[list[str]]:
    """The tables of an organiser's CSV seating: a ``table,player`` line per seat (a header line ``table,player``
    allowed), seats in the order given, tables by number."""
    rows = [r for r in csv.reader(io.StringIO(text)) if any(cell.strip() for cell in r)]
    if rows and [c.strip().lower() for c in rows[0]] == ["table", "player"]:
        rows = rows[1:]
    tables: dict[int, list[str]] = {}
    for number, row in enumerate(rows, start=1):
        if len(row) != 2 or not row[0].strip().isdigit():
            raise SeatingError(f"CSV line {number}: expected 'table,player', got {','.join(row)!r}", "invalid_csv")
        tables.setdefault(int(row[0]), []).append(row[1].strip())
    if not tables:
        raise SeatingError("the CSV seats nobody", "invalid_csv")
    return [tables[n] for n in sorted(tables)]


def given(tables: Sequence[Sequence[str]], entries: Sequence[str], low: int, high: int) -> Round:
    """The organiser's own seating (from a CSV file: ``csv_tables``): every player an entry, seated once, at
    tables the game allows; the entries not seated sit out."""
    if not tables:
        raise SeatingError("the seating seats nobody", "invalid_csv")
    known = set(entries)
    seated = [p for t in tables for p in t]
    for player in seated:
        if player not in known:
            raise SeatingError(f"{player!r} is not an entry of this tournament", "unknown_entry")
    twice = sorted({p for p in seated if seated.count(p) > 1})
    if twice:
        raise SeatingError(f"{twice[0]} is seated more than once", "player_seated_twice")
    for number, players in enumerate(tables, start=1):
        if not low <= len(players) <= high:
            raise SeatingError(
                f"table {number} seats {len(players)}: this game seats {low} to {high}", "table_size_not_allowed"
            )
    return Round(tuple(tuple(t) for t in tables), tuple(sorted(known - set(seated))))


def parse_csv(text: str, entries: Sequence[str], low: int, high: int) -> Round:
    """An organiser's CSV seating (``csv_tables``), checked as ``given`` checks it."""
    return given(csv_tables(text), entries, low, high)


def evenness(entries: Sequence[str], rounds: Sequence[Round]) -> dict[str, int]:
    """How even a schedule is: the most and fewest meetings of any two entries, the most a pair met again
    (meetings past the first), and the spread of first seats (most minus fewest) among the entries."""
    history = History.of([(r.tables, r.byes) for r in rounds])
    pairs = [history.met.get(frozenset(p), 0) for p in itertools.combinations(entries, 2)]
    firsts = [history.seats.get((p, 0), 0) for p in entries]
    return {
        "most_meetings": max(pairs, default=0),
        "fewest_meetings": min(pairs, default=0),
        "repeat_meetings": sum(max(0, m - 1) for m in pairs),
        "first_seat_spread": max(firsts, default=0) - min(firsts, default=0),
    }
