"""Replay frames of real Arnak games, built as ``Replays.replay`` builds them: bot games played by the engine,
stopped at several points, seen by the referee and by each seat."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from domain.arnak import evolve, to_act, view
from domain.arnak.bots import HeuristicBot, RandomBot
from domain.arnak.simulate import play_game
from domain.arnak.state import GameState

NAMES = ["Ana", "Beto", "Cai", "Dora"]

# (players, side, seed): 1 to 4 players, both boards, solo.
GAMES = [
    (1, "bird", "solo-bird"),
    (1, "snake", "solo-snake"),
    (2, "bird", "two-bird"),
    (3, "snake", "three-snake"),
    (4, "bird", "four-bird"),
    (4, "snake", "four-snake"),
]


@dataclass(frozen=True)
class Game:
    players: int
    side: str
    seed: str
    states: tuple[GameState, ...]  # setup, a quarter, half, three quarters, the end

    @property
    def label(self) -> str:
        return f"{self.players}p-{self.side}"


@cache
def game(players: int, side: str, seed: str) -> Game:
    names = NAMES[:players]
    humans = 1 if players == 1 else players
    # Mostly heuristic bots (they discover sites, research and fight guardians), one random seat in two.
    tendencies = ["dig-heavy", "research-heavy", "guardian-hunting", "card-buying"]
    bots: list[Any] = [RandomBot() if i == 1 else HeuristicBot(tendencies[i]) for i in range(humans)]
    if players == 1:
        bots.append(RandomBot())  # the rival's seat is never asked
    played = play_game(names, bots, seed, options={"side": side})
    events = played.events
    marks = {1, len(events) // 4, len(events) // 2, 3 * len(events) // 4}
    states: list[GameState] = []
    state: GameState | None = None
    for i, event in enumerate(events, start=1):
        state = evolve(state, event)
        if i in marks:
            states.append(state)
    states.append(played.state)
    return Game(players, side, seed, tuple(states))


def all_games() -> list[Game]:
    return [game(*g) for g in GAMES]


def frame(state: GameState, seat: int | None, version: int = 1) -> dict[str, Any]:
    """What ``Replays.replay`` hands the dashboard for this state and perspective."""
    return {
        "kind": "arnak",
        "players": [{"name": n} for n in state.players],
        "version": version,
        "to_act": list(to_act(state)),
        "status": "over" if state.outcome is not None else "playing",
        "view": view(state, seat),
        "log": [],
    }


def perspectives(state: GameState) -> list[int | None]:
    """The referee, then every seat but a solo rival's."""
    seats = [s for s in range(len(state.players)) if not state.is_rival(s)]
    return [None, *seats]


def showcase() -> GameState:
    """A late four-player state with what bot games rarely reach, for the screenshots: a seat in the Lost Temple with
    temple tiles, idols in supply, a fear tile and a held plane; every site discovered, with guardians; gold assistants.
    Built from a real game's state by ``dataclasses.replace`` (the table reads only the view of it)."""
    from dataclasses import replace

    from domain.arnak import book
    from domain.arnak.state import HeldAssistant

    state = game(4, "bird", "four-bird").states[3]
    tiles = iter(book().site_tiles)
    guardians = iter(range(1, 16))
    sites = []
    for i, site in enumerate(state.sites):
        if site.tile is None and i % 3 != 0:
            site = replace(site, tile=next(tiles), idols=(), guardian=next(guardians) if i % 2 else None)
        sites.append(site)
    seats = list(state.seats)
    seats[0] = replace(
        seats[0],
        glass="temple",
        temple_place=0,
        temple_tiles=(5, 2),
        idols=(3, 11),
        slots=(4, 7),
        fear_tiles=1,
        travel=("plane",),
        guardians=(14,),
        boons_used=(14,),
        assistants=(HeldAssistant(12, gold=True), HeldAssistant(4, exhausted=True)),
    )
    seats[1] = replace(seats[1], guardians=(13, 15), assistants=(HeldAssistant(9, gold=True, exhausted=True),))
    return replace(state, sites=tuple(sites), seats=tuple(seats), camp_guardians=(("camp3", 12),))
