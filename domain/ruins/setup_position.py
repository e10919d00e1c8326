"""Explicit positions for tests, tutorials and rule disputes: name the hands, the market, the upgrades."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from domain.errors import SetupError
from domain.ruins import events as ev
from domain.ruins.evolve import replay
from domain.ruins.setup import _check_options, _check_players, check_position
from domain.ruins.state import BARE, GameState, Ruin
from domain.ruins.versions import book_of


def start_from_setup(
    players: Iterable[str],
    hands: Sequence[Iterable[int]],
    *,
    draw_pile: Iterable[int] = (),
    market: Sequence[int | None] | None = None,
    discovery_deck: Iterable[int] | None = None,
    ruins: Mapping[int, Ruin] | None = None,
    vp: Sequence[int] | None = None,
    claims_left: Sequence[int] | None = None,
    leader: int = 0,
    round: int = 1,
    showdown: bool = False,
    participants: Iterable[int] | None = None,
    set_aside: Iterable[int] = (),
    seed: str = "setup",
    flips_done: bool = True,
    rules_version: str | None = None,
) -> list[ev.Event]:
    """The events of a game that starts from the given position.

    Ruins in no hand, not in ``draw_pile`` and not ``set_aside`` sit out this round and come back at the
    next deal. With ``market`` None the market and deck are the unsleeved discoveries in id order.
    With ``flips_done`` (the default) the round-start night flips are already over and ``leader`` leads.
    ``rules_version`` (``None``: the current one) is the version the position is played under.
    """
    book = book_of(rules_version)
    names = _check_players(players)
    n = len(names)
    if len(hands) != n:
        raise SetupError(f"give one hand per player: {n} players, {len(hands)} hands")
    states = [BARE] * len(book.ruins)
    for card, ruin in (ruins or {}).items():
        states[card] = ruin
    sleeved = {d for r in states for d in r.sleeves if d is not None}
    if market is None:
        free = [d.id for d in book.discoveries if d.id not in sleeved]
        slots = len(book.market_prices)
        market = tuple(free[:slots]) + (None,) * max(0, slots - len(free))
        deck = tuple(free[slots:]) if discovery_deck is None else tuple(discovery_deck)
    else:
        market = tuple(market)
        deck = tuple(discovery_deck or ())
        if len(market) != len(book.market_prices):
            raise SetupError(f"the market has {len(book.market_prices)} slots")
    used = [sum(1 for r in states if r.claim == s) for s in range(n)]
    seats = tuple(range(n)) if participants is None else tuple(sorted(participants))
    if leader not in seats:
        raise SetupError("the leader ({seat}) must be playing this round", seat=leader)
    events: list[ev.Event] = [
        ev.GameStarted(
            players=names,
            options=_check_options(None),
            rules_version=book.version,
            seed=seed,
            set_aside=tuple(sorted(set_aside)),
            discovery_deck=deck,
            market=market,
            ruins=tuple((r.night, r.sleeves, r.claim) for r in states),
            vp=tuple(vp) if vp is not None else (0,) * n,
            claims_left=tuple(claims_left) if claims_left is not None else tuple(book.claims - u for u in used),
        ),
        ev.RoundDealt(
            round=round,
            showdown=showdown,
            participants=seats,
            hands=tuple(tuple(sorted(h)) for h in hands),
            draw_pile=tuple(draw_pile),
            leader=leader,
        ),
    ]
    if flips_done:
        events.append(ev.NightFlipsRevealed((None,) * n))
    check_position(replay(events))
    return events


def new_game_from_setup(players: Iterable[str], hands: Sequence[Iterable[int]], **setup: object) -> GameState:
    """The state of ``start_from_setup``; see there for the keywords."""
    return replay(start_from_setup(players, hands, **setup))  # type: ignore[arg-type]
