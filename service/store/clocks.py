"""A game's clock: its time control (data, fixed when the game is created) and the seats' time, folded from the
game's stored records alone, so that every process (and ``verify``) computes the same deadlines from the same
records, whatever it held in memory or when it started.

A time control is one of:

- ``{"bank": S, "increment": I}``: every seat starts with ``S`` seconds for the whole game (Board Game Arena's
  reflection time); a seat's time runs while the game has it to act, and ``I`` seconds are added each time its
  turn ends (Fischer's increment);
- ``{"per_move": S}``: a seat has ``S`` seconds each time its turn begins, whatever it left unused before.

A *turn* is a stretch of records during which the game's ``to_act`` names the seat: in a game where one seat
makes several moves in a row (a main action then the end of its turn), the increment is added, and a per-move
limit set, once per stretch, so that no seat gains time by splitting its turn into more moves. A timeout ends the
seat's turn (with no time left, then the increment): if the game's default action leaves it to act, a new turn
begins, so that one lapse is one timeout, not a run of them.

The clock's state is plain JSON (it is kept on the game aggregate and in its snapshots): ``left`` holds each
seat's time left in microseconds at the moment ``since`` (ISO times) says its time began to run again, or at the
last record if it is not running (``since`` None); ``paused``: whether the organiser has paused the table. Times
are whole microseconds, so every fold of the same records gives the same numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from service.errors import BadRequest

MICRO = 1_000_000
# What a seat out of time costs it: the game's default move for it ("move"), or the game, ranked last ("forfeit")
ON_TIMEOUT = ("move", "forfeit")
LONGEST_SECONDS = 30 * 24 * 3600  # a time bank of a month is generous for a correspondence game; past it, a typo


def check_control(data: Any) -> dict[str, Any] | None:
    """A time control as given by a caller (None: no clock), in its stored form; 400 ``invalid_clock`` for
    anything else (a clock of zero or less, an unknown field, both kinds at once)."""
    if data is None:
        return None
    if not isinstance(data, Mapping):
        raise BadRequest("'clock' must be an object: {bank, increment} or {per_move}", "invalid_clock")
    keys = set(data) - {"on_timeout"}
    rule = data.get("on_timeout", "move")
    if rule not in ON_TIMEOUT:
        raise BadRequest(f"the clock's 'on_timeout' is one of {', '.join(ON_TIMEOUT)}, not {rule!r}", "invalid_clock")
    forfeit = {"on_timeout": "forfeit"} if rule == "forfeit" else {}  # (the default is not stored: as before)
    if keys == {"per_move"}:
        return {"per_move": _seconds(data["per_move"], "per_move", positive=True), **forfeit}
    if keys in ({"bank"}, {"bank", "increment"}):
        return {
            "bank": _seconds(data["bank"], "bank", positive=True),
            "increment": _seconds(data.get("increment", 0), "increment", positive=False),
            **forfeit,
        }
    raise BadRequest(
        f"a clock is {{bank, increment}} or {{per_move}}, not {{{', '.join(sorted(map(str, keys)))}}}",
        "invalid_clock",
    )


def _seconds(value: Any, name: str, positive: bool) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise BadRequest(f"the clock's {name!r} must be a number of seconds", "invalid_clock")
    if value < 0 or (positive and value <= 0) or value > LONGEST_SECONDS:
        least = "more than 0" if positive else "0 or more"
        raise BadRequest(
            f"the clock's {name!r} must be {least} and at most {LONGEST_SECONDS} seconds, not {value}", "invalid_clock"
        )
    return value


def micros(at: str) -> int:
    """An ISO time (as records hold them) in whole microseconds since the epoch."""
    return (datetime.fromisoformat(at) - _EPOCH) // _ONE


_ONE = timedelta(microseconds=1)


_EPOCH = datetime.fromisoformat("1970-01-01T00:00:00+00:00")


def iso(value: int) -> str:
    return (_EPOCH + timedelta(microseconds=value)).isoformat()


def started(control: Mapping[str, Any], seats: int, to_act: Iterable[int], at: str) -> dict[str, Any]:
    """The clock of a new game: every seat's full time; the seats to act running from the game's creation."""
    full = round((control["bank"] if "bank" in control else control["per_move"]) * MICRO)
    clock: dict[str, Any] = {"left": [full] * seats, "since": [None] * seats, "paused": False}
    return advanced(control, clock, at, to_act)


def advanced(
    control: Mapping[str, Any],
    clock: Mapping[str, Any],
    at: str,
    to_act: Iterable[int],
    out_of_time: int | None = None,
) -> dict[str, Any]:
    """The clock after a record stored ``at`` that leaves ``to_act`` to act (a move, or the timeout of
    ``out_of_time``, whose time is then spent to nothing and whose turn ends there): each running seat is charged
    its time up to ``at``; a seat whose turn ends gains the increment; a seat whose turn begins runs from ``at``
    (with the per-move limit afresh)."""
    now = micros(at)
    left, since = list(clock["left"]), list(clock["since"])
    acting = {s for s in to_act if 0 <= s < len(left)}  # (a seat the engine plays itself has no clock)
    for seat, began in enumerate(since):
        if began is not None:
            left[seat] -= max(0, now - micros(began))
        timed_out = seat == out_of_time
        if timed_out:  # its turn ends here, with no time left (a seat still to act then begins a new turn)
            left[seat] = 0
        if clock["paused"]:
            continue
        if began is not None and seat in acting and not timed_out:
            since[seat] = at  # its turn goes on
            continue
        if began is not None:  # its turn ends
            since[seat] = None
            left[seat] += round(control.get("increment", 0) * MICRO)
        if seat in acting:  # its turn begins
            if "per_move" in control:
                left[seat] = round(control["per_move"] * MICRO)
            since[seat] = at
    return {"left": left, "since": since, "paused": clock["paused"]}


def paused(clock: Mapping[str, Any], at: str) -> dict[str, Any]:
    """The table paused at ``at``: every running seat charged up to then; nobody's time runs."""
    now = micros(at)
    left = [
        t - max(0, now - micros(s)) if s is not None else t for t, s in zip(clock["left"], clock["since"], strict=True)
    ]
    return {"left": left, "since": [None] * len(left), "paused": True}


def resumed(clock: Mapping[str, Any], at: str, to_act: Iterable[int]) -> dict[str, Any]:
    """The table resumed at ``at``: the seats to act run from then with the time they had (no new turn)."""
    since = list(clock["since"])
    for seat in to_act:
        if 0 <= seat < len(since):
            since[seat] = at
    return {"left": list(clock["left"]), "since": since, "paused": False}


def added(clock: Mapping[str, Any], seat: int | None, seconds: int | float) -> dict[str, Any]:
    """``seconds`` more for ``seat`` (None: every seat)."""
    extra = round(seconds * MICRO)
    left = [t + extra if seat is None or i == seat else t for i, t in enumerate(clock["left"])]
    return {"left": left, "since": list(clock["since"]), "paused": clock["paused"]}


def deadlines(clock: Mapping[str, Any]) -> dict[int, int]:
    """When each running seat's time runs out (microseconds since the epoch)."""
    pairs = enumerate(zip(clock["left"], clock["since"], strict=True))
    return {seat: micros(began) + left for seat, (left, began) in pairs if began is not None}


def overdue(clock: Mapping[str, Any] | None, now: str) -> tuple[int, int] | None:
    """The seat whose time ran out first, and when, if any has run out by ``now`` (on every move of a timed game:
    one pass, no sorting)."""
    if clock is None:
        return None
    limit = micros(now)
    found: tuple[int, int] | None = None
    for seat, (left, began) in enumerate(zip(clock["left"], clock["since"], strict=True)):
        if began is not None:
            when = micros(began) + left
            if when <= limit and (found is None or when < found[1]):
                found = (seat, when)
    return found


def shown(clock: Mapping[str, Any] | None, control: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The clock as every seat's view shows it: the control, and per seat its time left (seconds) as of the last
    record, whether it is running and, if so, its deadline (so a client counts down without asking again, and
    the answer changes only when a record lands)."""
    if clock is None or control is None:
        return None
    ends = deadlines(clock)
    return {
        "control": dict(control),
        "paused": clock["paused"],
        "seats": [
            {
                "seat": seat,
                "left": left / MICRO,
                "running": began is not None,
                "since": began,
                "deadline": iso(ends[seat]) if seat in ends else None,
            }
            for seat, (left, began) in enumerate(zip(clock["left"], clock["since"], strict=True))
        ],
    }


def folded(rules: Any, records: Sequence[Mapping[str, Any]]) -> Iterator[tuple[int, dict[str, Any]]]:
    """The clock after each record of a timed game (version, clock), folded from the records' JSON forms (as
    ``service.integrity.chain.record_of`` gives them) and the rules' ``to_act``: what the service folds on the
    game itself, for a reader that holds only the records (the replay). Nothing for an untimed game."""
    created = records[0]["body"]
    control = created.get("clock")
    if control is None:
        return
    state = rules.replay([rules.event_from_dict(e) for e in created["opening"]])
    clock = started(control, len(created["players"]), rules.to_act(state), created["at"])
    yield 1, clock
    for record in records[1:]:
        body = record["body"]
        if record["type"] in ("move", "timeout"):
            for data in body["events"]:
                state = rules.evolve(state, rules.event_from_dict(data))
            out = body["seat"] if record["type"] == "timeout" else None
            clock = advanced(control, clock, body["at"], rules.to_act(state), out)
        elif record["type"] == "forfeit":
            clock = advanced(control, clock, body["at"], [], body["seat"])
        elif record["type"] == "clock":
            if body["change"] == "pause":
                clock = paused(clock, body["at"])
            elif body["change"] == "resume":
                clock = resumed(clock, body["at"], rules.to_act(state))
            else:
                clock = added(clock, body["seat"], body["seconds"])
        yield record["version"], clock


def told(clock: Mapping[str, Any], names: Sequence[str]) -> str:
    """The seats' time left, as a log line says it: "Time left: Ana 4:32 (running) · Beto 5:00"."""
    seats = [
        f"{names[seat] if seat < len(names) else f'seat {seat + 1}'} {minutes(left / MICRO)}"
        + (" (running)" if began is not None else "")
        for seat, (left, began) in enumerate(zip(clock["left"], clock["since"], strict=True))
    ]
    return ("Table paused. " if clock["paused"] else "") + "Time left: " + " · ".join(seats)


def minutes(seconds: float) -> str:
    """Seconds as m:ss (h:mm:ss from an hour), rounded down: what a clock shows."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    mins, secs = divmod(rest, 60)
    return f"{hours}:{mins:02d}:{secs:02d}" if hours else f"{mins}:{secs:02d}"


def forfeits(control: Mapping[str, Any] | None) -> bool:
    """Whether a seat out of time forfeits the game under this control (else the game plays its default move)."""
    return control is not None and control.get("on_timeout") == "forfeit"


def forfeit_result(scores: Sequence[int], seat: int) -> dict[str, Any]:
    """How a game ends when ``seat`` forfeits (the common summary, ``domain.protocol.Result.to_dict``): ``seat``
    last; the others by the points the game counted so far (its ``progress``, public), best first, a tie in seat
    order; the winners are those sharing the best points among them (the forfeiter when it sits alone)."""
    others = sorted((s for s in range(len(scores)) if s != seat), key=lambda s: (-scores[s], s))
    best = max((scores[s] for s in others), default=None)
    return {
        "ranking": [*others, seat],
        "winners": [s for s in others if scores[s] == best] or [seat],
        "scores": list(scores),
        "detail": {"forfeit": seat},
    }
