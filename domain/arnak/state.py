"""The state of an Arnak game: immutable values that ``evolve`` replaces, never mutates."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from domain.arnak.components import NONE, Book, Resources, Steps
from domain.arnak.versions import FIRST, VERSIONS


@dataclass(frozen=True, slots=True)
class HeldAssistant:
    id: int
    gold: bool = False
    exhausted: bool = False


@dataclass(frozen=True)  # not slots: ``changed`` copies its __dict__
class Player:
    colour: str
    hand: tuple[int, ...] = ()
    deck: tuple[int, ...] = ()  # top first
    play_area: tuple[int, ...] = ()
    resources: Resources = NONE  # coin, compass, tablet, arrowhead, jewel
    idols: tuple[int, ...] = ()  # face down in the supply on the player board
    slots: tuple[int, ...] = ()  # idols placed in the idol slots, left to right
    guardians: tuple[int, ...] = ()  # overcome, beside the player board
    boons_used: tuple[int, ...] = ()  # guardians flipped after their boon was used
    assistants: tuple[HeldAssistant, ...] = ()
    glass: str = "start"  # magnifying glass: a research node id
    notebook: str = "start"
    temple_place: int | None = None  # 0 = first to reach the Lost Temple
    temple_tiles: tuple[int, ...] = ()  # the stacks the tiles were bought from
    fear_tiles: int = 0  # taken when the fear deck was empty
    travel: tuple[str, ...] = ()  # temporary travel icons from effects, spent on travel, gone at round end
    passed: bool = False
    discover_discount: int = 0  # compasses off the next discovery this round (Hot Air Balloon, Aeroplane)
    no_guardian_fear: bool = False  # this round, no fear from guardians at round end (War Mask)
    all_planes: bool = False  # this round, every travel icon of this player's cards is a plane (Guardian's Ocarina)

    def cards(self) -> tuple[int, ...]:
        """Every card this player owns."""
        return (*self.hand, *self.deck, *self.play_area)


@dataclass(frozen=True, slots=True)
class Site:
    """A Level I or Level II dig site: undiscovered while ``tile`` is None."""

    id: str
    tile: int | None = None
    idols: tuple[int, ...] = ()  # face-up idol first; a Level II site's second idol lies face down
    guardian: int | None = None


@dataclass(frozen=True, slots=True)
class Pending:
    """A decision the engine waits for, part-way through an effect: ``seat`` picks one of ``options``.

    ``then`` holds the effect's remaining steps, run after the choice. ``branches`` (for a ``choose``)
    holds the steps of each option, in option order. ``card`` is the card whose effect is running (if any).
    ``picks`` counts further picks of the same choice (Army Knife: two different options)."""

    seat: int
    kind: str
    options: tuple[str, ...]
    then: Steps = "[]"
    branches: tuple[Steps, ...] = ()
    card: int | None = None
    picks: int = 0
    optional: bool = False


@dataclass(frozen=True, slots=True)
class Rival:
    """Solo mode's automated rival (it sits at ``seat``; its glass, guardians and temple tiles are that seat's)."""

    seat: int
    tiles: tuple[int, ...]  # this game's ten action tiles
    stack: tuple[int, ...] = ()  # this round's face-down stack, top first
    played: tuple[int, ...] = ()  # revealed this round
    face_up_idols: tuple[int, ...] = ()  # one idol of each kind, face up
    negative_idols: tuple[int, ...] = ()  # duplicates and face-down idols
    cards: tuple[int, ...] = ()  # the cards it bought


@dataclass(frozen=True, slots=True)
class Score:
    seat: int
    research: int
    temple_tiles: int
    idols: int
    idol_slots: int
    guardians: int
    cards: int  # printed VP of items and artifacts
    fear: int  # fear cards and fear tiles (negative)
    total: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """The final scores and ranking; ``winners`` has several seats only when every tie break fails."""

    scores: tuple[Score, ...]
    ranking: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)  # not slots: ``changed`` copies its __dict__
class GameState:
    players: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]
    seed: str
    side: str
    seats: tuple[Player, ...]
    sites: tuple[Site, ...]
    occupants: tuple[tuple[str, int], ...]  # (space, seat), sorted by space
    blocked: tuple[str, ...]
    site_stacks: tuple[tuple[int, ...], tuple[int, ...]]  # Level I and Level II site tiles, top first
    guardian_stack: tuple[int, ...]
    artifact_row: tuple[int, ...]  # nearest the moon staff first
    item_row: tuple[int, ...]  # nearest the moon staff first
    artifact_deck: tuple[int, ...]
    item_deck: tuple[int, ...]
    artifact_exile: tuple[int, ...] = ()
    item_exile: tuple[int, ...] = ()
    removed: tuple[int, ...] = ()  # exiled starting cards: out of the game
    fear_deck: tuple[int, ...] = ()
    research_bonus: tuple[tuple[str, int], ...] = ()  # research space -> face-up bonus tile
    temple_bonus: tuple[int, ...] = ()  # the face-down stack at the Lost Temple
    temple_stacks: tuple[int, ...] = ()  # tiles left in each temple-tile stack
    assistant_stacks: tuple[tuple[int, ...], ...] = ()  # top (face up) first
    rescue: tuple[int, ...] = ()  # the snake side's assistant rescue space
    assistants_out: tuple[int, ...] = ()  # taken out of the game by the solo rival
    camp_guardians: tuple[tuple[str, int], ...] = ()  # camp -> a guardian moved there (Guardian's Crown)
    round: int = 0
    first_player: int = 0
    turn: int = 0
    main_done: bool = False  # the seat to act has taken its main action this turn
    phase: str = "play"  # play | round_end | over
    keep_queue: tuple[int, ...] = ()  # round end: the seats still to decide which cards to keep
    pending: Pending | None = None
    outcome: Outcome | None = None
    rival: Rival | None = None  # solo mode only
    rules_version: str = FIRST  # the version the game is played under, to its end (its GameStarted names it)

    @property
    def book(self) -> Book:
        """The rule book of this game's version: its behaviour (``book.conduct``) is read here, never from the
        current version (docs/versions.md)."""
        return VERSIONS.book(self.rules_version)

    def is_rival(self, seat: int) -> bool:
        return self.rival is not None and self.rival.seat == seat

    @property
    def n_players(self) -> int:
        return len(self.players)

    def seat(self, seat: int) -> Player:
        return self.seats[seat]

    def with_seat(self, seat: int, player: Player) -> GameState:
        seats = list(self.seats)
        seats[seat] = player
        return changed(self, seats=tuple(seats))

    def occupant(self, space: str) -> int | None:
        for s, seat in self.occupants:
            if s == space:
                return seat
        return None

    def site(self, location: str) -> Site | None:
        for site in self.sites:
            if site.id == location:
                return site
        return None

    def with_site(self, site: Site) -> GameState:
        return changed(self, sites=tuple(site if s.id == site.id else s for s in self.sites))

    def guardian_at(self, location: str) -> int | None:
        """The guardian at a site or camp, if any."""
        site = self.site(location)
        if site is not None:
            return site.guardian
        return dict(self.camp_guardians).get(location)

    def guardians_out(self) -> list[tuple[str, int]]:
        """Every guardian on the board, with its location (sites first, in board order, then camps)."""
        return [(s.id, s.guardian) for s in self.sites if s.guardian is not None] + list(self.camp_guardians)

    def archaeologists_out(self, seat: int) -> int:
        return sum(1 for _, s in self.occupants if s == seat)


Copied = TypeVar("Copied", GameState, Player)


def changed(value: Copied, **changes: Any) -> Copied:
    """``dataclasses.replace(value, **changes)`` for the two values ``evolve`` copies on nearly every event: a new
    instance whose ``__dict__`` is the old one's, updated (neither class has an ``__init__`` check or a
    ``__post_init__`` to skip).

    SPEED: replace calls the generated ``__init__``, which sets each of GameState's 30 fields (Player's 21) through
    ``object.__setattr__``: 6 µs a GameState, 3.3 µs a Player, against 0.8 µs here; a four-player random game makes
    about 1,100 such copies."""
    assert changes.keys() <= value.__dict__.keys(), f"not fields of {type(value).__name__}: {changes.keys()}"
    new = object.__new__(type(value))
    fields = new.__dict__
    fields.update(value.__dict__)
    fields.update(changes)
    return new
