"""Commands a seat can give. Each has a short string form and a JSON dict form that round-trip.

String forms (seat first):
    ``2 play 14,31@7``            play ruins 14 and 31 as rank 7
    ``2 play 14,31@7 buy 12>14``  ... after buying discovery 12 from the market into ruin 14
    ``2 play 14@7 claim 14``      ... sleeving one of your claims onto ruin 14
    ``2 pass``
    ``2 flip 23`` / ``2 flip -``  round start: flip ruin 23 to night, or keep every ruin on its day side
    ``2 discard 8``               after a dig: discard ruin 8
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from domain.errors import MalformedAction
from domain.slots import new as _new
from domain.slots import slot_setters


@dataclass(frozen=True, slots=True)
class Purchase:
    """Buy ``discovery`` from the market (paying its slot's price) and sleeve it onto ``ruin``."""

    discovery: int
    ruin: int


@dataclass(frozen=True, slots=True)
class Play:
    seat: int
    ruins: tuple[int, ...]
    rank: int
    purchases: tuple[Purchase, ...] = ()
    claims: tuple[int, ...] = ()

    def __str__(self) -> str:
        text = f"{self.seat} play {','.join(map(str, self.ruins))}@{self.rank}"
        for p in self.purchases:
            text += f" buy {p.discovery}>{p.ruin}"
        for c in self.claims:
            text += f" claim {c}"
        return text


@dataclass(frozen=True, slots=True)
class Pass:
    seat: int

    def __str__(self) -> str:
        return f"{self.seat} pass"


@dataclass(frozen=True, slots=True)
class Flip:
    """The round-start choice: ``ruin`` flips to night for good, or ``None`` keeps every ruin as it is."""

    seat: int
    ruin: int | None

    def __str__(self) -> str:
        return f"{self.seat} flip {'-' if self.ruin is None else self.ruin}"


@dataclass(frozen=True, slots=True)
class Discard:
    seat: int
    ruins: tuple[int, ...]

    def __str__(self) -> str:
        return f"{self.seat} discard {','.join(map(str, self.ruins))}"


Action: TypeAlias = Play | Pass | Flip | Discard

# Fast construction for the hot path (domain.slots says why).
_play_seat, _play_ruins, _play_rank, _play_purchases, _play_claims = slot_setters(Play)


def new_play(
    seat: int, ruins: tuple[int, ...], rank: int, purchases: tuple[Purchase, ...] = (), claims: tuple[int, ...] = ()
) -> Play:
    """``Play(seat, ruins, rank, purchases, claims)``, built about twice as fast (legal moves build many)."""
    play: Play = _new(Play)
    _play_seat(play, seat)
    _play_ruins(play, ruins)
    _play_rank(play, rank)
    _play_purchases(play, purchases)
    _play_claims(play, claims)
    return play


def with_purchase(play: Play, purchase: Purchase) -> Play:
    """``play`` with one more purchase (what ``dataclasses.replace`` would give, without its overhead)."""
    return new_play(play.seat, play.ruins, play.rank, (*play.purchases, purchase), play.claims)


def with_claim(play: Play, card: int) -> Play:
    """``play`` with one more claim, on ``card``."""
    return new_play(play.seat, play.ruins, play.rank, play.purchases, (*play.claims, card))


# A pass carries nothing but its seat, and actions are immutable values: one shared Pass per seat.
_PASSES = tuple(Pass(seat) for seat in range(8))


def pass_of(seat: int) -> Pass:
    """``Pass(seat)``, shared rather than built anew."""
    return _PASSES[seat] if type(seat) is int and 0 <= seat < len(_PASSES) else Pass(seat)  # not True: JSON true


def action_to_dict(action: Action) -> dict[str, Any]:
    if isinstance(action, Play):
        out: dict[str, Any] = {"type": "play", "seat": action.seat, "ruins": list(action.ruins), "rank": action.rank}
        if action.purchases:
            out["purchases"] = [{"discovery": p.discovery, "ruin": p.ruin} for p in action.purchases]
        if action.claims:
            out["claims"] = list(action.claims)
        return out
    if isinstance(action, Pass):
        return {"type": "pass", "seat": action.seat}
    if isinstance(action, Flip):
        return {"type": "flip", "seat": action.seat, "ruin": action.ruin}
    return {"type": "discard", "seat": action.seat, "ruins": list(action.ruins)}


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedAction(f"{what} must be an integer, not {value!r}")
    return value


def _ints(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, (list, tuple)):
        raise MalformedAction(f"{what} must be a list of integers, not {value!r}")
    return tuple(_int(v, what) for v in value)


def action_from_dict(data: Any) -> Action:
    """Parse the JSON form; raises ``MalformedAction`` with a sentence on any shape error."""
    if not isinstance(data, dict):
        raise MalformedAction("an action must be a JSON object with a 'type'")
    kind = data.get("type")
    allowed: dict[str, set[str]] = {
        "play": {"type", "seat", "ruins", "rank", "purchases", "claims"},
        "pass": {"type", "seat"},
        "flip": {"type", "seat", "ruin"},
        "discard": {"type", "seat", "ruins"},
    }
    if not isinstance(kind, str) or kind not in allowed:
        raise MalformedAction(f"unknown action type {kind!r}; expected one of {sorted(allowed)}")
    extra = set(data) - allowed[kind]
    if extra:
        raise MalformedAction(f"unexpected field(s) for a {kind}: {sorted(map(str, extra))}")
    if "seat" not in data:
        raise MalformedAction("an action must name its 'seat'")
    seat = _int(data["seat"], "seat")
    if kind == "pass":
        return Pass(seat)
    if kind == "flip":
        if "ruin" not in data:
            raise MalformedAction("a flip must name its 'ruin' (null to keep every ruin on its day side)")
        ruin = data["ruin"]
        return Flip(seat, None if ruin is None else _int(ruin, "ruin"))
    if kind == "discard":
        return Discard(seat, _ints(data.get("ruins"), "ruins"))
    if "rank" not in data:
        raise MalformedAction("a play must declare the 'rank' it is played as")
    purchases = data.get("purchases", [])
    if not isinstance(purchases, list) or not all(isinstance(p, dict) for p in purchases):
        raise MalformedAction("purchases must be a list of {'discovery': int, 'ruin': int}")
    for p in purchases:
        if set(p) != {"discovery", "ruin"}:
            raise MalformedAction("each purchase needs exactly 'discovery' and 'ruin'")
    return Play(
        seat,
        _ints(data.get("ruins"), "ruins"),
        _int(data["rank"], "rank"),
        tuple(Purchase(_int(p["discovery"], "discovery"), _int(p["ruin"], "ruin")) for p in purchases),
        _ints(data.get("claims", []), "claims"),
    )


def action_from_record(data: Mapping[str, Any]) -> Action:
    """Rebuild an action this engine already accepted, from its stored JSON form, without checking its shape
    again (projections read millions of them). Anything from outside goes through ``action_from_dict``."""
    kind, seat = data["type"], data["seat"]
    if kind == "pass":
        return pass_of(seat)
    if kind == "play":
        bought = data.get("purchases")
        purchases = tuple([Purchase(p["discovery"], p["ruin"]) for p in bought]) if bought else ()
        claims = data.get("claims")
        return new_play(seat, tuple(data["ruins"]), data["rank"], purchases, tuple(claims) if claims else ())
    if kind == "flip":
        return flip_of(seat, data["ruin"])
    return Discard(seat, tuple(data["ruins"]))


def _number(text: str) -> int:
    # Plain ASCII digits only: int() would also take '+1', '1_0' and other scripts' digits.
    if not (text.isascii() and text.isdigit()):
        raise ValueError(text)
    return int(text)


def action_from_str(text: str) -> Action:
    """Parse the short string form, e.g. ``'1 play 3,17@7 buy 12>3 claim 17'``."""
    if not isinstance(text, str):
        raise MalformedAction(f"an action string is text, not {type(text).__name__}")
    words = text.split()
    try:
        seat = _number(words[0])
        verb, rest = words[1], words[2:]
        if verb == "pass" and not rest:
            return Pass(seat)
        if verb == "flip" and len(rest) == 1:
            return Flip(seat, None if rest[0] == "-" else _number(rest[0]))
        if verb == "discard" and len(rest) == 1:
            return Discard(seat, tuple(_number(x) for x in rest[0].split(",")))
        if verb == "play" and rest:
            cards, rank = rest[0].split("@")
            purchases: list[Purchase] = []
            claims: list[int] = []
            for key, value in zip(rest[1::2], rest[2::2], strict=True):
                if key == "buy":
                    d, r = value.split(">")
                    purchases.append(Purchase(_number(d), _number(r)))
                elif key == "claim":
                    claims.append(_number(value))
                else:
                    raise ValueError(key)
            return Play(
                seat, tuple(_number(x) for x in cards.split(",")), _number(rank), tuple(purchases), tuple(claims)
            )
    except (ValueError, IndexError):
        pass
    # (_number() also accepts '+1', '1_0' and non-ASCII digits: those are refused by the round-trip check below)
    raise MalformedAction(f"cannot read action {text!r}; e.g. '1 play 3,17@7', '1 pass', '1 flip 23', '1 discard 8'")


_FLIPS: dict[tuple[int, int | None], Flip] = {}


def flip_of(seat: int, ruin: int | None) -> Flip:
    """``Flip(seat, ruin)``, shared: every seat is offered each of its day ruins at each round's start."""
    if type(seat) is not int:  # (True == 1, but True is stored as JSON true)
        return Flip(seat, ruin)
    flip = _FLIPS.get((seat, ruin))
    if flip is None:
        if len(_FLIPS) >= 4096:
            _FLIPS.clear()
        flip = _FLIPS[seat, ruin] = Flip(seat, ruin)
    return flip
