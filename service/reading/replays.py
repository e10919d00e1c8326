"""A whole game's replay from one perspective in a single pass: every frame and every log entry.

``Replays.replay`` answers one frame (nearest snapshot, then ``evolve``): right for one look, too slow
to prepare a replay that steps in the browser without asking the server again. Here the recorded
events are evolved once, from the first, and the perspective's view is taken after every event (a
frame per event, so a replay can step by event too) and every version. The engine decides everything
through the game protocol (``GameRules``: ``evolve``, ``view``, ``to_act``, ``describe``); nothing here
knows a game.

The perspective is the referee (``seat`` None) or one seat: views and narration are the engine's for
that reader, so a seat's replay holds nothing that seat could not see then.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache

from domain.games import game as game_of
from service.commands.application import GameReader, Viewer
from service.integrity.chain import MOVES
from service.reading import results
from service.store import clocks

SEED_REVEALED = "The seed is revealed."


def ruling_line(record: dict[str, Any]) -> str:
    """How the log tells an organiser's ruling (service.commands.rulings): what it rules and the reason."""
    body = record["body"]
    details = body.get("details") or {}
    what = {
        "annul": "the game is annulled",
        "adjust_result": "the result is adjusted (ranking, best first: seats "
        + ", ".join(str(s) for s in (details.get("result") or {}).get("ranking", []))
        + ")",
        "substitute": f"{details.get('name')} takes seat {details.get('seat')}",
        "void_link": f"the link of seat {details.get('seat')} is voided (a new one was issued)",
        "restart": f"the game restarts from version {details.get('version')} as game {details.get('continued_as')}",
    }.get(str(body.get("ruling")), str(body.get("ruling")))
    return f"Organiser's ruling: {what}. Reason: {body.get('reason')}"


@dataclass(frozen=True)
class Step:
    """The table after ``events`` of version ``version``'s events (``events`` = ``count``: the whole version)."""

    version: int
    events: int
    count: int
    view: dict[str, Any]
    to_act: list[int]

    @property
    def whole(self) -> bool:
        return self.events >= self.count


@dataclass(frozen=True)
class Entry:
    """One version in the log: who moved (None: the setup or the seed's reveal) and one line per event
    (None where the engine's line only says who acts next, which the table shows, unless that is all the move
    did)."""

    version: int
    seat: int | None
    lines: list[str | None]


def events_of(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The domain events a stored record holds (a created game's opening, a move's events; none for the seed)."""
    if record["type"] == "created":
        opening: list[dict[str, Any]] = record["body"]["opening"]
        return opening
    if record["type"] in MOVES:  # (a timeout is the move the game made for a seat out of time)
        moved: list[dict[str, Any]] = record["body"]["events"]
        return moved
    return []


@dataclass(frozen=True)
class At:
    """The engine's state after ``events`` of version ``version``'s ``count`` events: a frame before it is viewed
    (the same for every perspective, so a replay's perspectives can share it)."""

    version: int
    events: int
    count: int
    state: Any

    @property
    def whole(self) -> bool:
        return self.events >= self.count


# A record's events, decoded (``event_from_dict``, most of the time a replay spends outside drawing): by the record's
# hash, which its content determines. The events are frozen: the engine never changes one. A replay's perspectives,
# its log and the VP chart decode the same records, each once now; about 100 records a game in play's move.
_DECODED: LRUCache[str, tuple[Any, ...]] = LRUCache(maxsize=40_000)
_DECODED_LOCK = threading.Lock()


def decoded(rules: Any, record: dict[str, Any]) -> tuple[Any, ...]:
    """The engine's events of ``record`` (``events_of``, each ``rules.event_from_dict``), decoded once per record."""
    key = record.get("hash")
    if not key:
        return tuple(rules.event_from_dict(data) for data in events_of(record))
    with _DECODED_LOCK:
        found = _DECODED.get(key)
    if found is None:
        found = tuple(rules.event_from_dict(data) for data in events_of(record))
        with _DECODED_LOCK:
            _DECODED[key] = found
    return found


def states(
    records: Sequence[dict[str, Any]],
    first: int = 1,
    last: int | None = None,
    start: tuple[int, Any] | None = None,
    whole: bool | None = None,
) -> Iterator[At]:
    """The state at every frame of the game: after each event of a version with several, then the version whole
    (a version with one event or none has one frame). The setup (version 1) is one frame: its events build the
    table and mean nothing one by one. Only versions ``first`` to ``last`` are yielded (the ones before are evolved
    only). ``start``: (version, the state after it), a state already evolved that far (``evolved``), to go on from
    instead of the first record. ``whole``: True, only the versions whole; False, only the frames within versions;
    None, both."""
    rules = game_of(records[0]["body"]["kind"]).rules
    done, state = start if start is not None and start[0] < first else (0, None)
    for record in records[done : last if last is not None else len(records)]:
        events = decoded(rules, record)
        count = max(1, len(events))
        wanted = record["version"] >= first
        within = wanted and whole is not True and record["version"] > 1
        for k, event in enumerate(events, start=1):
            state = rules.evolve(state, event)
            if within and k < count:
                yield At(record["version"], k, count, state)
        if wanted and whole is not False:
            yield At(record["version"], count, count, state)


def steps(
    records: Sequence[dict[str, Any]],
    seat: int | None,
    first: int = 1,
    last: int | None = None,
    start: tuple[int, Any] | None = None,
    whole: bool | None = None,
) -> Iterator[Step]:
    """Every frame of the game from ``seat``'s perspective (``states``, each viewed by the engine for ``seat``). Only
    the frames asked for are viewed (``whole``, ``first`` to ``last``): taking views is what costs."""
    rules = game_of(records[0]["body"]["kind"]).rules
    for at in states(records, first, last, start, whole):
        yield viewed(rules, at, seat)


def viewed(rules: Any, at: At, seat: int | None) -> Step:
    """The frame ``at`` as the engine shows it to ``seat`` (``None``: the referee)."""
    return Step(at.version, at.events, at.count, rules.view(at.state, seat), list(rules.to_act(at.state)))


def evolved(records: Sequence[dict[str, Any]], version: int, start: tuple[int, Any] | None = None) -> Any:
    """The engine's state after the first ``version`` records (``start``: (version, state), one already
    evolved that far, at or before ``version``, to go on from)."""
    rules = game_of(records[0]["body"]["kind"]).rules
    done, state = start if start is not None and start[0] <= version else (0, None)
    for record in records[done:version]:
        for event in decoded(rules, record):
            state = rules.evolve(state, event)
    return state


def entries(records: Sequence[dict[str, Any]], seat: int | None, since: int = 1) -> list[Entry]:
    """The game's log as ``seat`` may read it (the engine's ``describe`` for that reader), one entry per version,
    from version ``since`` on. The engine tells an event from the event and the seats' names alone, so the state
    is evolved only as far as it takes to name the seats (the setup's first event)."""
    rules = game_of(records[0]["body"]["kind"]).rules
    state: Any = None
    names: list[str] = []
    for data in events_of(records[0]):
        state = rules.evolve(state, rules.event_from_dict(data))
        names = [str(n) for n in rules.view(state, None)["players"]]  # every seat, a solo rival too
        if names:
            break
    # A timed game's log says the time each seat had left after every record (public: every view shows it).
    time_left = {version: clocks.told(clock, names) for version, clock in clocks.folded(rules, records)}
    out = []
    for record in records[max(0, since - 1) :]:
        if record["type"] == "seed_revealed":
            out.append(Entry(record["version"], None, [SEED_REVEALED]))
            continue
        if record["type"] == "forfeit":
            name = names[record["body"]["seat"]]
            said = f"{name}'s time ran out: {name} forfeits the game, ranked last"
            out.append(Entry(record["version"], None, [said, time_left[record["version"]]]))
            continue
        if record["type"] == "clock":
            out.append(
                Entry(record["version"], None, [_clock_change(record["body"], names), time_left[record["version"]]])
            )
            continue
        if record["type"] == "ruling":
            out.append(Entry(record["version"], None, [ruling_line(record)]))
            continue
        lines: list[str | None] = []
        if record["type"] == "timeout":
            lines.append(f"{names[record['body']['seat']]}'s time ran out: the game played for them")
        events = decoded(rules, record)
        for event in events:
            line = rules.describe(event, names, seat)
            lines.append(None if line.endswith(" to act") else line)
        who = record["body"]["seat"] if record["type"] in MOVES else None
        if lines and all(line is None for line in lines):
            # A move that only hands the turn on (Arnak's end of a turn): say so, rather than seem to do nothing,
            # and say who made it first: "Buying Bo to act" alone, beside the mover's name, read as Bo's move.
            next_up = rules.describe(events[-1], names, seat)
            lines[-1] = next_up if who is None else f"{names[who]} ends their turn; {next_up}"
        if record["version"] in time_left:
            lines.append(time_left[record["version"]])
        out.append(Entry(record["version"], who, lines))
    return out


def _clock_change(body: dict[str, Any], names: Sequence[str]) -> str:
    """The organiser's change of the clock, as the log tells it."""
    if body["change"] == "pause":
        what = "paused the table"
    elif body["change"] == "resume":
        what = "resumed the table"
    else:
        whom = "every seat" if body["seat"] is None else names[body["seat"]]
        what = f"gave {whom} {clocks.minutes(body['seconds'])} more"
    return f"The organiser {what} ({body['reason']})"


def event_count(record: dict[str, Any]) -> int:
    """How many steps a record's version has when stepping by event (one at least: the seed's reveal too)."""
    return max(1, len(events_of(record)))


class Replays:
    """A game's records, one frame of its replay, and its progress (points and round after every version), from
    the store's reader (``GameReader``: it cannot play a move). A finished game's records and progress are kept
    (``cached`` games); a live game's are read again until it ends."""

    def __init__(self, reader: GameReader, cached: int = 64) -> None:
        self.reader = reader
        self._records: LRUCache[str, list[dict[str, Any]]] = LRUCache(maxsize=max(cached, 1))
        self._progress: LRUCache[str, tuple[list[dict[str, Any]], results.Progress]] = LRUCache(maxsize=max(cached, 1))
        self._lock = threading.Lock()

    def records(self, game_id: str) -> list[dict[str, Any]]:
        """A game's records (cached per game: a finished game changes only by an organiser's ruling, so its cached
        records stand while the game's version is theirs; a live one is re-read)."""
        with self._lock:
            cached = self._records.get(game_id)
        over = any(r["type"] == "seed_revealed" for r in reversed(cached or []))  # (rulings may follow the end)
        if cached and over and self.reader.latest_version(game_id) == len(cached):
            return cached
        records = self.reader.stored_records(game_id)
        if not records:
            return records
        with self._lock:
            self._records[game_id] = records
        return records

    def replay(
        self, game_id: str, version: int, seat: int | None = None, events: int | None = None
    ) -> results.ReplayFrame:
        """One frame: the table at ``version`` as the referee (seat None) or one seat saw it then, with the
        event log up to that point told from the same perspective. With ``events`` = k (fewer than the
        record holds) the frame stops after the record's first k events: stepping by event, not by move."""
        records = self.records(game_id)
        count = event_count(records[version - 1]) if 1 <= version <= len(records) else 0
        partial = events is not None and 1 <= events < count
        game = self.reader.game(game_id, Viewer(seat), version=version - 1 if partial and version > 1 else version)
        rules = game_of(game["kind"]).rules
        names = list(game["view"]["players"])  # every seat, with any the engine plays (a solo rival)
        if partial:
            assert events is not None
            state = self.reader.state_at(game_id, version - 1) if version > 1 else None
            for data in events_of(records[version - 1])[:events]:
                state = rules.evolve(state, rules.event_from_dict(data))
            game["version"], game["view"], game["to_act"] = version, rules.view(state, seat), rules.to_act(state)
            if seat is not None:
                game["legal_actions"] = []
        log: list[results.ReplayLine] = []
        for record in records[:version]:
            if record["type"] == "seed_revealed":
                log.append({"version": record["version"], "seat": None, "lines": [SEED_REVEALED]})
                continue
            if record["type"] == "ruling":
                log.append({"version": record["version"], "seat": None, "lines": [ruling_line(record)]})
                continue
            shown = events_of(record)
            if partial and record["version"] == version:
                shown = shown[:events]
            who = record["body"]["seat"] if record["type"] in MOVES else None
            lines = [rules.describe(rules.event_from_dict(e), names, seat) for e in shown]
            log.append(
                {"version": record["version"], "seat": who, "lines": [x for x in lines if not x.endswith(" to act")]}
            )
        shown_events = events if partial and events is not None else count
        return {**game, "events_shown": shown_events, "event_count": count, "log": log}

    def event_counts(self, game_id: str) -> list[int]:
        """How many events each version's record holds (index 0: version 1), for stepping by event."""
        return [event_count(r) for r in self.records(game_id)]

    def progress(self, game_id: str) -> results.Progress:
        """Every seat's name (with any seat the engine plays, like a solo rival) and, after every version (index 0:
        version 1), the round and every seat's points as the game counts them (``GameRules.progress``), by
        evolving the recorded events once; cached with the records (a finished game never changes)."""
        records = self.records(game_id)
        with self._lock:
            cached = self._progress.get(game_id)
        if cached is not None and cached[0] is records:
            return cached[1]
        rules = game_of(records[0]["body"]["kind"]).rules
        state = None
        points: list[results.RoundPoints] = []
        for record in records:
            for event in decoded(rules, record):  # (decoded once for the replay's frames and log too)
                state = rules.evolve(state, event)
            now = rules.progress(state)
            points.append({"round": now.round, "scores": list(now.scores)})
        found: results.Progress = {"names": list(rules.view(state)["players"]), "points": points}
        with self._lock:
            self._progress[game_id] = (records, found)
        return found

    def vp_timeline(self, game_id: str) -> results.Timeline:
        """Every seat's points after every version, and the round each version is in."""
        found = self.progress(game_id)
        points = found["points"]
        return {"names": found["names"], "vp": [p["scores"] for p in points], "round": [p["round"] for p in points]}

    def round_starts(self, game_id: str) -> dict[int, int]:
        """The first version of each round (for 'jump to round')."""
        starts: dict[int, int] = {}
        for version, point in enumerate(self.progress(game_id)["points"], start=1):
            starts.setdefault(point["round"], version)
        return starts
