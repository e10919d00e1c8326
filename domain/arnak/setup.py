"""Starting a game. All randomness is drawn from the game's seed, each draw from its own labelled
generator (``"<seed>:items"``), so one shuffle never depends on how many came before it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from domain.arnak import events as ev
from domain.arnak.components import book
from domain.arnak.decide import settle
from domain.arnak.effects import Turn
from domain.arnak.evolve import replay
from domain.arnak.rival import rival_book, tiles_for
from domain.arnak.rounds import rival_order, round_start, shuffled
from domain.arnak.state import Player, Rival, Site
from domain.arnak.versions import VERSIONS
from domain.errors import SetupError
from domain.seeds import rng

SUPPORTED_OPTIONS: frozenset[str] = frozenset({"side", "difficulty"})
SIDES = ("bird", "snake")


def _check_players(players: Iterable[str]) -> tuple[str, ...]:
    names = tuple(players)
    b = book()
    if not b.min_players <= len(names) <= b.max_players:
        raise SetupError(f"Arnak is played here by {b.min_players} to {b.max_players} players, not {len(names)}")
    if not all(isinstance(n, str) and n.strip() for n in names):
        raise SetupError("every player needs a non-empty name")
    return names


def _check_options(options: Mapping[str, Any] | None) -> tuple[tuple[str, Any], ...]:
    chosen = dict(options or {})
    unknown = set(chosen) - SUPPORTED_OPTIONS
    if unknown:
        raise SetupError(f"unknown Arnak option(s) {sorted(unknown)}; known: {sorted(SUPPORTED_OPTIONS)}")
    side = chosen.setdefault("side", "bird")
    if side not in SIDES:
        raise SetupError(f"board side {side!r} is not available; sides: {list(SIDES)}")
    difficulty = chosen.get("difficulty", 0)
    if isinstance(difficulty, bool) or not isinstance(difficulty, int) or not 0 <= difficulty <= 5:
        raise SetupError("the rival's difficulty is the number of red tiles, 0 to 5")
    return tuple(sorted(chosen.items()))


def start(
    players: Iterable[str],
    options: Mapping[str, Any] | None = None,
    seed: str | int = 0,
    rules_version: str | None = None,
) -> list[ev.Event]:
    """The opening events of a new game under ``rules_version`` (``None``: the current one): the setup, then round
    1 (its first player and every opening hand).

    The seat order is the turn order, and seat 0 starts ("whoever most recently visited somewhere they had
    never been": the table decides, and lists that player first)."""
    b = VERSIONS.book(rules_version)  # refuses, by name, a version Arnak never released
    names = _check_players(players)
    opts = _check_options(options)
    side = dict(opts)["side"]
    board = b.boards[side]
    seed = str(seed)
    # Solo: "Set up a two-player game": the human at seat 0 goes second, the rival (seat 1) always starts.
    solo = len(names) == 1
    if solo:
        names = (*names, rival_book().name)
    elif "difficulty" in dict(opts):
        raise SetupError("the difficulty option is for a solo game against the rival")
    n = len(names)

    cards = b.cards.values()
    artifacts = shuffled(seed, "artifacts", sorted(c.id for c in cards if c.kind == "artifact"))
    items = shuffled(seed, "items", sorted(c.id for c in cards if c.kind == "item"))
    # Starting decks: each colour's four starting cards and two fear cards, shuffled face down.
    fear = list(b.fear_ids)
    colours = list(b.starter_ids)
    seats = []
    for seat in range(n):
        if solo and seat == 1:  # the rival: a grey board, no cards, no resources, only a magnifying glass
            seats.append(Player(colour="grey"))
            continue
        own = [*b.starter_ids[colours[seat]], fear.pop(), fear.pop()]
        deck = shuffled(seed, f"deck:{seat}", sorted(own))
        # "give yourself a gold and a compass, since you go second" (solo): the second seat's resources
        resources = b.starting_resources[1 if solo else seat]
        seats.append(Player(colour=colours[seat], deck=deck, resources=resources))

    idols = list(shuffled(seed, "idols", sorted(b.idols)))
    sites = []
    for loc in board.sites:
        count = b.idols_face_up[loc.level] + b.idols_face_down[loc.level]
        sites.append(Site(loc.id, idols=tuple(idols[:count])))
        del idols[:count]

    doubles = [s.id for loc in board.camps for s in loc.spaces if s.double_boot]
    blocked = tuple(sorted(rng(seed, "blocking").sample(doubles, b.blocked_double_boot[n])))

    level1 = shuffled(seed, "sites:1", sorted(t.id for t in b.site_tiles.values() if t.level == 1))
    level2 = shuffled(seed, "sites:2", sorted(t.id for t in b.site_tiles.values() if t.level == 2))

    # Research bonus tiles: as many as players face down at the temple, then the rest face up on the
    # spaces open at this player count; any left over go back to the box.
    bonus = list(shuffled(seed, "bonus", sorted(b.bonus_tiles)))
    temple_bonus = tuple(bonus[:n])
    del bonus[:n]
    research_bonus = []
    for space in board.track.spaces.values():
        for min_players in space.bonus_slots:
            if n >= min_players and bonus:
                research_bonus.append((space.id, bonus.pop(0)))

    # Assistants: on the snake side, first one per player to the rescue space; then the stacks (snake: two of 3,
    # the rest in the third; bird: equal stacks).
    assistants = list(shuffled(seed, "assistants", sorted(b.assistants)))
    rescue = tuple(assistants[: n * board.rescue_per_player])
    del assistants[: len(rescue)]
    sizes = list(board.assistant_stack_sizes) or [len(assistants) // board.assistant_stacks] * board.assistant_stacks
    stacks = []
    for size in sizes[: board.assistant_stacks - 1]:
        stacks.append(tuple(assistants[:size]))
        del assistants[:size]
    stacks.append(tuple(assistants))
    assistant_stacks = tuple(stacks)

    started = ev.GameStarted(
        players=names,
        options=opts,
        rules_version=b.version,
        seed=seed,
        side=side,
        seats=tuple(seats),
        sites=tuple(sites),
        blocked=blocked,
        site_stacks=(level1, level2),
        guardian_stack=shuffled(seed, "guardians", sorted(b.guardians)),
        artifact_row=artifacts[:1],
        item_row=items[:5],
        artifact_deck=artifacts[1:],
        item_deck=items[5:],
        fear_deck=tuple(fear),
        research_bonus=tuple(sorted(research_bonus)),
        temple_bonus=temple_bonus,
        temple_stacks=(n,) * len(b.temple_stacks),
        assistant_stacks=assistant_stacks,
        rescue=rescue,
        rival=Rival(1, tiles_for(dict(opts).get("difficulty", 0))) if solo else None,
    )
    events: list[ev.Event] = [started, *round_start(seats, 1, 1 if solo else 0)]
    if solo:
        # The rival starts: its stack is shuffled and it takes its first turn before the human's.
        t = Turn(replay(events))
        t.emit(ev.RivalStackShuffled(rival_order(seed, 1, t.state.rival.tiles)))  # type: ignore[union-attr]
        settle(t)
        events += t.events
    return events
