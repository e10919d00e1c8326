"""Setting a tournament up in one step: its name, game, rounds, time control and delayed broadcast, and the people
who will play it. The CLI and the dashboard call these functions, so an organiser never needs the API to start an
evening; the checks are the API's own (``clocks.check_control`` for the clock, ``broadcasts.checked_delay`` for the
broadcast), so the same 400 codes and sentences come out of every door, and bad input stores nothing.

The forms typed at a command line (``bank=600,increment=10``, ``per_move=60``, ``moves=3``, ``minutes=5``) are read
here too, into the objects the API takes; what they cannot read is passed on as it was, for the API's checks to
refuse in their own words."""

from __future__ import annotations

from typing import Any

from service.commands.broadcasts import checked_delay, set_broadcast
from service.errors import BadRequest
from service.store import clocks


def set_up_tournament(
    service: Any,
    name: str,
    rounds: int,
    kind: str,
    clock: dict[str, Any] | None = None,
    broadcast: dict[str, Any] | None = None,
) -> str:
    """Create the tournament under the time control ``clock`` (the API's object; None: untimed) and, with
    ``broadcast`` (``{"moves": N}`` or ``{"minutes": M}``; None: off), broadcast its games in play that far behind.
    Both are checked before anything is stored: a bad clock is 400 ``invalid_clock``, a bad delay 400
    ``invalid_broadcast``, and no tournament is created."""
    delay = checked_delay(*_delay_parts(broadcast))
    clocks.check_control(clock)  # (create_tournament checks it again: the cost of one dict, for one order of checks)
    tournament_id: str = service.create_tournament(name, rounds, kind, None, clock)
    if delay is not None:
        set_broadcast(service, tournament_id, delay.get("moves"), delay.get("minutes"))
    return tournament_id


def register_people(service: Any, names: list[str]) -> list[str]:
    """Register a player (a person) for each of ``names``, in order; their ids. Every name is checked first (400
    ``invalid_player`` names the bad one), so a list with one bad name registers nobody."""
    return [service.create_player(name) for name in checked_names(names)]


def checked_names(names: list[str]) -> list[str]:
    """``names`` stripped, or 400 ``invalid_player`` naming the first that cannot be a player's name."""
    for name in names:
        if not isinstance(name, str) or not name.strip() or len(name) > 100:
            raise BadRequest(f"a player needs a name of 1 to 100 characters, not {name!r}", "invalid_player")
    return [name.strip() for name in names]


def _delay_parts(broadcast: dict[str, Any] | None) -> tuple[Any, Any]:
    if broadcast is None:
        return None, None
    unknown = set(broadcast) - {"moves", "minutes"}
    if unknown:
        raise BadRequest(
            f"a broadcast is delayed by 'moves' or 'minutes', not {', '.join(sorted(map(str, unknown)))}",
            "invalid_broadcast",
        )
    return broadcast.get("moves"), broadcast.get("minutes")


def clock_from_text(text: str | None, on_timeout: str | None = None) -> dict[str, Any] | None:
    """The API's clock object from ``bank=600,increment=10`` or ``per_move=60`` (None and no ``on_timeout``: no
    clock). A value that is not a number stays text, for ``check_control`` to refuse."""
    if text is None:
        return None if on_timeout is None else {"on_timeout": on_timeout}
    found: dict[str, Any] = dict(_pairs(text, "invalid_clock", "the clock"))
    if on_timeout is not None:
        found["on_timeout"] = on_timeout
    return found


def delay_from_text(text: str | None) -> dict[str, Any] | None:
    """The broadcast delay from ``moves=N`` or ``minutes=M`` (None: off)."""
    if text is None:
        return None
    return dict(_pairs(text, "invalid_broadcast", "the broadcast delay"))


def _pairs(text: str, code: str, what: str) -> list[tuple[str, Any]]:
    pairs = []
    for part in text.split(","):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise BadRequest(f"{what} is written name=value[,name=value], not {text!r}", code)
        pairs.append((key.strip(), _number(value.strip())))
    return pairs


def _number(value: str) -> Any:
    """A whole number where the text is one (a move count must be), else a float, else the text itself."""
    try:
        return int(value)
    except ValueError:
        pass
    try:
        return float(value)
    except ValueError:
        return value
