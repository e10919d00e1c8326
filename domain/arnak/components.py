"""The printed components of Lost Ruins of Arnak, loaded from ``data/*.json``.

Code holds the mechanics; everything the box prints (cards, sites, idols, guardians, assistants, the
research track, bonus and temple tiles, setup tables) is data. Effects are written in a small effect
language: a list of steps, each ``{"op": ..., ...}``, which ``effects.py`` interprets. A step is kept as
its canonical JSON text (``Steps``), so it is immutable, hashable and can be written into an event.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

RESOURCES = ("coin", "compass", "tablet", "arrowhead", "jewel")
Resources = tuple[int, int, int, int, int]
NONE: Resources = (0, 0, 0, 0, 0)

Steps = str  # canonical JSON text of a list of effect steps (see ``steps_of``)


def steps_text(steps: list[dict[str, Any]]) -> Steps:
    return json.dumps(steps, sort_keys=True, separators=(",", ":"))


@cache
def steps_of(text: Steps) -> tuple[dict[str, Any], ...]:
    """The steps of a ``Steps`` text. Callers must not change the dicts (they are shared)."""
    value = json.loads(text)
    assert isinstance(value, list)
    return tuple(value)


def negative(r: Resources) -> Resources:
    """The amounts as paid (each negated), for a ``ResourcesChanged`` event."""
    a, b, c, d, e = (-x for x in r)
    return (a, b, c, d, e)


def resources_of(amounts: dict[str, int]) -> Resources:
    unknown = set(amounts) - set(RESOURCES)
    if unknown:
        raise ValueError(f"unknown resource(s) {sorted(unknown)}")
    a, b, c, d, e = (int(amounts.get(r, 0)) for r in RESOURCES)
    return (a, b, c, d, e)


@dataclass(frozen=True, slots=True)
class Card:
    id: int
    name: str
    kind: str  # starter | item | artifact | fear
    cost: int  # coins for an item, compasses for an artifact, 0 otherwise
    travel: tuple[str, ...]  # boot | car | ship | plane (a card may show two)
    vp: int
    free: bool  # the effect has the lightning bolt (a free action)
    effect: Steps
    text: str
    colour: str | None = None  # a starting card's player colour


@dataclass(frozen=True, slots=True)
class Space:
    id: str
    location: str  # the camp or site this space belongs to
    cost: tuple[str, ...]  # travel icons
    double_boot: bool = False


@dataclass(frozen=True, slots=True)
class Location:
    id: str
    level: int  # 0 camp, 1 or 2 site
    spaces: tuple[Space, ...]
    effect: Steps | None  # a camp's printed effect; a site's effect is its site tile's


@dataclass(frozen=True, slots=True)
class ResearchSpace:
    id: str
    row: int  # 0.. from the bottom; the start is -1 and the Lost Temple is ``len(rows)``
    bonus_slots: tuple[int, ...] = ()  # one bonus tile per slot, each from that many players on
    rescue: bool = False  # the snake side's assistant rescue space


@dataclass(frozen=True, slots=True)
class Bridge:
    source: str
    target: str
    cost: Resources
    idols: int = 0  # idols from the supply discarded (the snake side's rescue space)


@dataclass(frozen=True, slots=True)
class Track:
    spaces: dict[str, ResearchSpace]
    bridges: tuple[Bridge, ...]
    vp: dict[int, tuple[int, int]]  # row -> (glass VP, notebook VP)
    effects: dict[int, tuple[Steps, Steps]]  # row -> (glass effect, notebook effect)
    temple_points: tuple[int, ...]
    temple_row: int

    def row(self, node: str) -> int:
        if node == "start":
            return -1
        if node == "temple":
            return self.temple_row
        return self.spaces[node].row


@dataclass(frozen=True, slots=True)
class Guardian:
    id: int
    cost: Resources
    travel: tuple[str, ...]
    discards: int
    boon: Steps
    text: str = ""


@dataclass(frozen=True, slots=True)
class Assistant:
    id: int
    main: bool  # using it takes the main action (the market-discount assistant)
    silver: Steps
    gold: Steps
    text: tuple[str, str]


@dataclass(frozen=True, slots=True)
class Tile:
    """An idol, a site tile or a research bonus tile: an id, a kind and an effect."""

    id: int
    kind: str
    effect: Steps
    level: int = 0
    text: str = ""


@dataclass(frozen=True, slots=True)
class IdolSlotOption:
    id: str
    effect: Steps
    text: str


@dataclass(frozen=True, slots=True)
class TempleStack:
    stack: int
    vp: int
    cost: Resources


@dataclass(frozen=True, slots=True)
class Board:
    side: str
    locations: tuple[Location, ...]
    spaces: dict[str, Space]
    track: Track
    assistant_stacks: int
    rescue_per_player: int = 0  # assistants dealt to the rescue space per player (snake side)
    assistant_stack_sizes: tuple[int, ...] = ()  # the first stacks' sizes; the last takes the rest (empty: equal)
    by_id: dict[str, Location] = field(default_factory=dict, compare=False, repr=False)  # ``locations`` by id

    def __post_init__(self) -> None:
        self.by_id.update((loc.id, loc) for loc in self.locations)

    def location(self, location_id: str) -> Location:
        return self.by_id[location_id]

    @property
    def camps(self) -> tuple[Location, ...]:
        return tuple(loc for loc in self.locations if loc.level == 0)

    @property
    def sites(self) -> tuple[Location, ...]:
        return tuple(loc for loc in self.locations if loc.level > 0)


@dataclass(frozen=True, slots=True)
class Conduct:
    """How a rules version plays where the code, not a number, changed (docs/versions.md, "Code"). Each default is
    the first version's (``arnak-0``) behaviour, which its data never states; a later version's ``rules.json``
    sets the field (docs/rules/arnak.md, section 1, says which seed sentence each one follows)."""

    # "resolve its effect without paying the activation cost. Then refill the row": False refilled the row as the
    # artifact left it, before its effect.
    refill_after_artifact_effect: bool = False
    # "discovers sites appropriate to the round (doing nothing on round 5)": True let a discover tile whose
    # round-5 entry names a level (the reference's red tile) discover in round 5.
    rival_discovers_in_round_5: bool = True
    # "it digs the topmost site with a matching resource": the rows of the board, topmost first (each a row's
    # camps or sites, left to right); empty: the highest level first, then the arrow across the whole level.
    rival_dig_rows: tuple[tuple[str, ...], ...] = ()
    # "Ties go to whoever reached the temple first; if nobody did, to the player furthest along the research
    # track": True compares the tokens' places (the glass's row, then the notebook's); False compared research
    # scores (the reference's "highest research score").
    ties_by_track_position: bool = False
    # "Score yourself normally and compare": True breaks a solo tie as any other (the tie breaks above); False gave
    # every tie to the rival (the reference's "the human wins only with a strictly higher score").
    solo_ties_by_the_tie_breaks: bool = False


@dataclass(frozen=True, slots=True)
class Book:
    version: str
    cards: dict[int, Card]
    fear_ids: tuple[int, ...]
    starter_ids: dict[str, tuple[int, ...]]  # colour -> its four starting cards
    boards: dict[str, Board]
    discover_compasses: dict[int, int]
    guardians: dict[int, Guardian]
    assistants: dict[int, Assistant]
    idols: dict[int, Tile]
    site_tiles: dict[int, Tile]
    bonus_tiles: dict[int, Tile]
    temple_stacks: tuple[TempleStack, ...]
    idol_slot_vp: tuple[int, ...]
    idol_slot_options: dict[str, IdolSlotOption]
    idols_face_up: dict[int, int]
    idols_face_down: dict[int, int]
    min_players: int
    max_players: int
    rounds: int
    hand_size: int
    archaeologists: int
    starting_resources: tuple[Resources, ...]
    blocked_double_boot: dict[int, int]
    upgrades: dict[str, str]
    plane_charter_coins: int
    fear_tile_vp: int
    idol_vp: int
    guardian_vp: int
    assistant_spots: int
    artifact_play_tablets: int
    conduct: Conduct = Conduct()

    def card(self, card_id: int) -> Card:
        return self.cards[card_id]


def _read(name: str) -> Any:
    return json.loads(resources.files("domain.arnak").joinpath("data", name).read_text("utf-8"))


def _card(data: dict[str, Any], card_id: int) -> Card:
    return Card(
        id=card_id,
        name=data["name"],
        kind=data["kind"],
        cost=int(data.get("cost", 0)),
        travel=tuple(data["travel"]),
        vp=int(data["vp"]),
        free=data["timing"] == "free",
        effect=steps_text(data["effect"]),
        text=data["text"],
        colour=data.get("colour"),
    )


def _board(side: str, data: dict[str, Any]) -> Board:
    locations: list[Location] = []
    for camp in data["camps"]:
        camp_spaces = tuple(
            Space(s["id"], camp["id"], tuple(s["cost"]), s.get("double_boot", False)) for s in camp["spaces"]
        )
        locations.append(Location(camp["id"], 0, camp_spaces, steps_text(camp["effect"])))
    for site in data["sites"]:
        locations.append(
            Location(site["id"], site["level"], (Space(site["id"], site["id"], tuple(site["cost"])),), None)
        )
    research = data["research"]
    spaces: dict[str, ResearchSpace] = {}
    vp: dict[int, tuple[int, int]] = {}
    effects: dict[int, tuple[Steps, Steps]] = {}
    for row in research["rows"]:
        r = row["row"]
        vp[r] = (row["vp"]["glass"], row["vp"]["notebook"])
        effects[r] = (steps_text(row["effect"]["glass"]), steps_text(row["effect"]["notebook"]))
        for s in row["spaces"]:
            spaces[s["id"]] = ResearchSpace(s["id"], r, tuple(s.get("bonus_slots", ())), s.get("rescue", False))
    track = Track(
        spaces=spaces,
        bridges=tuple(
            Bridge(b["from"], b["to"], resources_of(b["cost"]), b.get("idols", 0)) for b in research["bridges"]
        ),
        vp=vp,
        effects=effects,
        temple_points=tuple(research["temple"]["points"]),
        temple_row=len(research["rows"]),
    )
    return Board(
        side=side,
        locations=tuple(locations),
        spaces={s.id: s for loc in locations for s in loc.spaces},
        track=track,
        assistant_stacks=data["assistant_stacks"],
        rescue_per_player=data.get("rescue_per_player", 0),
        assistant_stack_sizes=tuple(data.get("assistant_stack_sizes", ())),
    )


@cache
def book() -> Book:
    """The printed components (``components.json``, ``board.json``, ``cards.json``), loaded once, immutable: every
    released rules version so far reads these same files (``tests/domain/arnak/test_versions.py`` holds them to
    it), so the engine reads numbers here and a game's behaviour from its own version's book (``state.book``)."""
    return load_book({role: _read(f"{role}.json") for role in ("components", "board", "cards")})


def _conduct(rules: dict[str, Any] | None) -> Conduct:
    if rules is None:
        return Conduct()
    given = rules["conduct"]
    return Conduct(
        refill_after_artifact_effect=given.get("refill_after_artifact_effect", False),
        rival_discovers_in_round_5=given.get("rival_discovers_in_round_5", True),
        rival_dig_rows=tuple(tuple(row) for row in given.get("rival_dig_rows", ())),
        ties_by_track_position=given.get("ties_by_track_position", False),
        solo_ties_by_the_tie_breaks=given.get("solo_ties_by_the_tie_breaks", False),
    )


def load_book(files: Mapping[str, Any]) -> Book:
    """A rule book from a version's parsed data files, by role: ``components``, ``board``, ``cards``, and from the
    second version on ``rules`` (its name and its ``Conduct``)."""
    comp = files["components"]
    board = files["board"]
    rules = files.get("rules")
    cards: dict[int, Card] = {}
    fear_ids: tuple[int, ...] = ()
    starters: dict[str, list[int]] = {}
    for data in files["cards"]["cards"]:
        if data["kind"] == "fear":
            fear_ids = tuple(range(data["id"], data["id"] + data["copies"]))
            for card_id in fear_ids:
                cards[card_id] = _card(data, card_id)
            continue
        cards[data["id"]] = _card(data, data["id"])
        if data["kind"] == "starter":
            starters.setdefault(data["colour"], []).append(data["id"])
    return Book(
        version=comp["version"] if rules is None else rules["version"],
        cards=cards,
        fear_ids=fear_ids,
        starter_ids={colour: tuple(ids) for colour, ids in starters.items()},
        boards={side: _board(side, board[side]) for side in ("bird", "snake")},
        discover_compasses={int(k): v for k, v in board["discover_compasses"].items()},
        guardians={
            g["id"]: Guardian(
                g["id"],
                resources_of(g["cost"]["res"]),
                tuple(g["cost"]["travel"]),
                g["cost"]["discard"],
                steps_text(g["boon"]),
                g["text"],
            )
            for g in comp["guardians"]
        },
        assistants={
            a["id"]: Assistant(
                a["id"],
                a["timing"] == "main",
                steps_text(a["silver"]),
                steps_text(a["gold"]),
                (a["text"]["silver"], a["text"]["gold"]),
            )
            for a in comp["assistants"]
        },
        idols={i["id"]: Tile(i["id"], i["kind"], steps_text(i["effect"]), 0, i["text"]) for i in comp["idols"]},
        site_tiles={
            t["id"]: Tile(t["id"], t["code"], steps_text(t["effect"]), t["level"], t["text"])
            for t in comp["site_tiles"]
        },
        bonus_tiles={
            t["id"]: Tile(t["id"], t["kind"], steps_text(t["effect"]), 0, t["text"]) for t in comp["bonus_tiles"]
        },
        temple_stacks=tuple(TempleStack(t["stack"], t["vp"], resources_of(t["cost"])) for t in comp["temple_tiles"]),
        idol_slot_vp=tuple(comp["idol_slots"]["vp"]),
        idol_slot_options={
            o["id"]: IdolSlotOption(o["id"], steps_text(o["effect"]), o["text"]) for o in comp["idol_slots"]["options"]
        },
        idols_face_up={int(k): v for k, v in comp["idols_face_up"].items()},
        idols_face_down={int(k): v for k, v in comp["idols_face_down"].items()},
        min_players=comp["players"]["min"],
        max_players=comp["players"]["max"],
        rounds=comp["rounds"],
        hand_size=comp["hand_size"],
        archaeologists=comp["archaeologists"],
        starting_resources=tuple(resources_of(r) for r in comp["starting_resources"]),
        blocked_double_boot={int(k): v for k, v in comp["blocked_double_boot_spaces"].items()},
        upgrades=dict(comp["upgrades"]),
        plane_charter_coins=comp["plane_charter_coins"],
        fear_tile_vp=comp["fear_tile_vp"],
        idol_vp=comp["idol_vp"],
        guardian_vp=comp["guardian_vp"],
        assistant_spots=comp["assistant_spots"],
        artifact_play_tablets=comp["artifact_play_tablets"],
        conduct=_conduct(rules),
    )
