"""Solo mode: the automated rival and its action tiles (``data/rival.json``; reference A9).

"Each turn, reveal and resolve a rival action tile, then take your own turn. The rival does not pass until every
action tile has been played." The rival's turns are taken by the engine inside ``decide`` (its seat is never
asked); every tile's outcome is written into events.

The arrow on a tile breaks ties: "left" takes the leftmost candidate, "right" the rightmost. Left to right is the
board's own order: camps and sites as listed in ``board.json``, research spaces by their position in the row, the
card row as it lies (the artifacts left of the moon staff, then the items).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from domain.arnak import events as ev
from domain.arnak.components import book, steps_of
from domain.arnak.effects import Turn
from domain.arnak.state import GameState


@dataclass(frozen=True, slots=True)
class RivalTile:
    id: int
    kind: str  # dig | discover | research | overcome | buy_item | buy_artifact
    arrow: str  # left | right
    colour: str = ""  # green (easy) | red (hard); the dig tiles have none
    resource: str = ""  # a dig tile's resource
    round_5: bool = True  # False: does nothing in round 5
    rounds: tuple[tuple[int, int, bool] | None, ...] = ()  # discover: per round (level, guardian) or None
    value: str = ""  # buy: lowest | highest VP


@dataclass(frozen=True, slots=True)
class RivalBook:
    name: str
    tiles: dict[int, RivalTile]
    red_order: tuple[str, ...]
    temple_tile_stacks: tuple[int, ...]
    face_up_idol_vp: int
    negative_idol_vp: int


@cache
def rival_book() -> RivalBook:
    data: dict[str, Any] = json.loads(resources.files("domain.arnak").joinpath("data", "rival.json").read_text("utf-8"))
    tiles = {}
    for t in data["tiles"]:
        rounds: tuple[tuple[int, int, bool] | None, ...] = ()
        if "rounds" in t:
            rounds = tuple(
                None
                if t["rounds"][str(r)] is None
                else (r, t["rounds"][str(r)]["level"], t["rounds"][str(r)]["guardian"])
                for r in range(1, 6)
            )
        tiles[t["id"]] = RivalTile(
            t["id"],
            t["kind"],
            t["arrow"],
            t.get("colour", ""),
            t.get("resource", ""),
            t.get("round_5", True),
            rounds,
            t.get("value", ""),
        )
    return RivalBook(
        data["name"],
        tiles,
        tuple(data["red_order"]),
        tuple(data["temple_tile_stacks"]),
        data["idol_vp"]["face_up_unique"],
        data["idol_vp"]["negative"],
    )


def tiles_for(difficulty: int) -> tuple[int, ...]:
    """The ten tiles of a game: the five dig tiles, and one of each pair, red for the first ``difficulty`` kinds."""
    rb = rival_book()
    red = set(rb.red_order[:difficulty])
    chosen = [t.id for t in rb.tiles.values() if t.kind == "dig"]
    for kind in rb.red_order:
        colour = "red" if kind in red else "green"
        chosen += [t.id for t in rb.tiles.values() if t.kind == kind and t.colour == colour]
    return tuple(chosen)


def _pick(candidates: list[Any], arrow: str) -> Any:
    return candidates[0] if arrow == "left" else candidates[-1]


def rival_turn(t: Turn) -> None:
    """The rival reveals its next tile and resolves it, or passes when none is left."""
    state = t.state
    rival = state.rival
    assert rival is not None
    if not rival.stack:
        t.emit(ev.Passed(rival.seat))
        return
    tile = rival_book().tiles[rival.stack[0]]
    t.emit(ev.RivalTileRevealed(tile.id))
    if state.round == book().rounds and not tile.round_5:
        return
    if state.round == book().rounds and tile.kind == "discover" and not state.book.conduct.rival_discovers_in_round_5:
        return  # "discovers sites appropriate to the round (doing nothing on round 5)": whatever its colour
    if tile.kind == "dig":
        _dig(t, tile)
    elif tile.kind == "discover":
        _discover(t, tile)
    elif tile.kind == "research":
        _research(t, tile, take_assistant=True)
    elif tile.kind == "overcome":
        if not _overcome(t, tile):
            _research(t, tile, take_assistant=False)  # "If there is none, research instead, but take no assistant."
    else:
        _buy(t, tile)


def _free_spaces(state: GameState, location: str) -> list[str]:
    board = book().boards[state.side]
    taken = {space for space, _ in state.occupants} | set(state.blocked)
    return [s.id for s in board.location(location).spaces if s.id not in taken]


def _effect_text(state: GameState, location: str) -> str | None:
    loc = book().boards[state.side].location(location)
    if loc.effect is not None:
        return loc.effect
    site = state.site(location)
    return None if site is None or site.tile is None else book().site_tiles[site.tile].effect


def _dig_rows(state: GameState) -> list[list[str]]:
    """The rows the rival's dig looks through, topmost first, each left to right: the board's rows (``Conduct``),
    or under ``arnak-0`` each level taken as one row (Level I's two rows together)."""
    rows = state.book.conduct.rival_dig_rows
    if rows:
        return [list(row) for row in rows]
    board = book().boards[state.side]
    return [[loc.id for loc in board.locations if loc.level == level] for level in (2, 1, 0)]


def _dig(t: Turn, tile: RivalTile) -> None:
    """'it digs the topmost site with a matching resource': the topmost row with a free space at a site whose
    effect gains the tile's resource, then the arrow within that row."""
    state = t.state
    for row in _dig_rows(state):
        candidates = []
        for location in row:
            effect = _effect_text(state, location)
            if effect is None or not _free_spaces(state, location):
                continue
            if any(s["op"] == "gain" and tile.resource in s["res"] for s in steps_of(effect)):
                candidates.append(location)
        if candidates:
            location = _pick(candidates, tile.arrow)
            t.emit(ev.ArchaeologistPlaced(state.rival.seat, _pick(_free_spaces(state, location), tile.arrow)))  # type: ignore[union-attr]
            return


def _discover(t: Turn, tile: RivalTile) -> None:
    """'discovers sites appropriate to the round': the lowest row first, then the arrow; idols to its board."""
    state = t.state
    rival = state.rival
    assert rival is not None
    plan = tile.rounds[state.round - 1]
    if plan is None:
        return
    _, level, guardian = plan
    if not state.site_stacks[level - 1]:
        return
    board = book().boards[state.side]
    sites = [loc.id for loc in board.sites if loc.level == level]
    rows = [sites[:4], sites[4:]] if level == 1 else [sites]  # Level I: the lower row, then the upper row
    for row in rows:
        candidates = [s for s in row if state.site(s).tile is None and _free_spaces(state, s)]  # type: ignore[union-attr]
        if not candidates:
            continue
        location = _pick(candidates, tile.arrow)
        t.emit(ev.ArchaeologistPlaced(rival.seat, _free_spaces(state, location)[0]))
        site = t.state.site(location)
        assert site is not None
        kinds_up = {book().idols[i].kind for i in rival.face_up_idols}
        face_up: tuple[int, ...] = ()
        negative: tuple[int, ...] = site.idols[1:]
        if site.idols:
            if book().idols[site.idols[0]].kind in kinds_up:
                negative = site.idols
            else:
                face_up = site.idols[:1]
        t.emit(ev.RivalIdolsTaken(location, face_up, negative))
        t.emit(ev.SiteRevealed(location, t.state.site_stacks[level - 1][0]))
        if guardian and t.state.guardian_stack:
            t.emit(ev.GuardianAwakened(location, t.state.guardian_stack[0]))
        return


def _research(t: Turn, tile: RivalTile, take_assistant: bool) -> None:
    """'advances its magnifying glass' along a bridge (the arrow picks the branch), free; removes any bonus tile
    there unused; takes the top assistant of the highest supply stack out of the game; in the temple, a 6-point tile."""
    state = t.state
    rival = state.rival
    assert rival is not None
    seat = rival.seat
    glass = state.seats[seat].glass
    track = book().boards[state.side].track
    if glass == "temple":
        stacks = [s for s in rival_book().temple_tile_stacks if state.temple_stacks[s] > 0]
        if stacks:
            t.emit(ev.TempleTileBought(seat, _pick(stacks, tile.arrow)))
        return
    targets = [b.target for b in track.bridges if b.source == glass]
    if not targets:
        return
    target = _pick(targets, tile.arrow)
    t.emit(ev.ResearchMoved(seat, "glass", target))
    if target == "temple":
        place = sum(1 for p in state.seats if p.temple_place is not None)
        t.emit(ev.TempleReached(seat, place))
        if t.state.temple_bonus:
            t.emit(ev.BonusTileTaken(seat, "temple", t.state.temple_bonus[0]))
        return
    for space, bonus in state.research_bonus:
        if space == target:
            t.emit(ev.BonusTileTaken(seat, space, bonus))
    if track.spaces[target].rescue and t.state.rescue:
        t.emit(ev.AssistantRemoved(-1, t.state.rescue[0]))
    if take_assistant:
        heights = [len(s) for s in t.state.assistant_stacks]
        if max(heights, default=0) > 0:
            tallest = [i for i, h in enumerate(heights) if h == max(heights)]
            stack = _pick(tallest, tile.arrow)
            t.emit(ev.AssistantRemoved(stack, t.state.assistant_stacks[stack][0]))


def _overcome(t: Turn, tile: RivalTile) -> bool:
    """'overcomes guardians at sites it occupies' (the higher level first, then the arrow)."""
    state = t.state
    rival = state.rival
    assert rival is not None
    board = book().boards[state.side]
    mine = {board.spaces[space].location for space, s in state.occupants if s == rival.seat}
    for level in (2, 1, 0):
        candidates = [
            location
            for location, _ in state.guardians_out()
            if location in mine and board.location(location).level == level
        ]
        if candidates:
            location = _pick(sorted(candidates, key=[loc.id for loc in board.locations].index), tile.arrow)
            guardian = state.guardian_at(location)
            assert guardian is not None
            t.emit(ev.GuardianOvercome(rival.seat, location, guardian))
            return True
    return False


def _buy(t: Turn, tile: RivalTile) -> None:
    """'buys the highest or lowest value card as its arrow dictates': green the lowest VP, red the highest."""
    state = t.state
    rival = state.rival
    assert rival is not None
    kind = "item" if tile.kind == "buy_item" else "artifact"
    row = list(state.item_row) if kind == "item" else list(reversed(state.artifact_row))  # left to right
    if not row:
        return
    vps = [book().card(c).vp for c in row]
    best = min(vps) if tile.value == "lowest" else max(vps)
    card = _pick([c for c, vp in zip(row, vps, strict=True) if vp == best], tile.arrow)
    t.emit(ev.CardBought(rival.seat, card, 0, "rival"))
    deck = t.state.item_deck if kind == "item" else t.state.artifact_deck
    t.emit(ev.RowRefilled(kind, deck[0] if deck else None))
