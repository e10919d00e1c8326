"""``sample(view, seat, rng)``: a complete Arnak state drawn from what one seat sees (``view(state, seat)``).

Search over hidden information (determinization, ISMCTS) plays on whole states; a state drawn from the seat's view
alone cannot know more than the seat, whatever the real state holds. What the view hides is drawn here from what
the view leaves unaccounted for:

- each seat's hand and deck: the view lists the cards a seat holds in both together (public: every card gained or
  lost shows at the table); the seat's own hand is known, the rest is dealt at random, the deck in random order;
- the item, artifact and fear decks: every such card in no row, exile pile, play area, hand or deck, the rival's
  cards, in random order; the site tiles not on the board, the guardians nowhere in sight, likewise;
- idols: every idol not in sight (face up on a site, in a slot the seat sees, the rival's face-up ones, the seat's
  own supply when the view lists it) is drawn at random for the face-down idols of Level II sites, every supply
  the seat does not see, slots shown as hidden and the rival's negative idols;
- the assistants under each stack's top and on the snake side's rescue space: those neither on top, held nor taken
  out of the game; the face-down temple bonus tiles: those not face up on the research track;
- the rival's stack: its tiles not yet played this round, in random order; the seed: a new one from ``rng``.

What the view does not say is approximated, never read from elsewhere: the deck orders are uniform (a card a seat
knows lies on top of or under a deck, from a reveal or a purchase, is dealt anywhere), which idols a seat took face
up is forgotten once they are in its supply, and the temple's bonus tiles are drawn from every tile not face up (the
tiles taken or left in the box included). Another seat's pending decision cannot be rebuilt from the view (its
options and the rest of its effect may name that seat's cards): ``NotSampleable``. A seat only ever searches on
its own decisions, which its view shows whole.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from domain.arnak.components import RESOURCES, book
from domain.arnak.evolve import replay
from domain.arnak.plain import from_plain
from domain.arnak.rival import tiles_for
from domain.arnak.setup import start
from domain.arnak.state import GameState, HeldAssistant, Outcome, Pending, Rival, Site, changed
from domain.errors import NotSampleable


@lru_cache(maxsize=64)
def _opening(players: tuple[str, ...], options: tuple[tuple[str, Any], ...], rules_version: str) -> GameState:
    """A new game of these players and options under the view's rules version: the sample is built on it, so every
    field the view does not concern keeps the engine's own value (its version too: a game of an older version is
    searched under that version's rules, never the current one's)."""
    names = players[:1] if any(k == "difficulty" for k, _ in options) else players
    return replay(start(names, dict(options), "sample", rules_version))


def _ids(cards: Iterable[Mapping[str, Any]]) -> tuple[int, ...]:
    return tuple(int(c["id"]) for c in cards)


def _take(pool: list[int], count: int) -> tuple[int, ...]:
    taken = tuple(pool[:count])
    del pool[:count]
    return taken


def _without(pool: Iterable[int], gone: Iterable[int]) -> list[int]:
    left = Counter(gone)
    out = []
    for item in pool:
        if left[item]:
            left[item] -= 1
        else:
            out.append(item)
    return out


def _shuffled(rng: random.Random, items: Iterable[int]) -> list[int]:
    out = sorted(items)
    rng.shuffle(out)
    return out


def sample(view: Mapping[str, Any], seat: int, rng: random.Random) -> GameState:
    """A state ``seat``'s view cannot tell from the real one, its hidden parts drawn from ``rng``."""
    pending_seen = view.get("pending")
    if pending_seen is not None and "options" not in pending_seen:
        raise NotSampleable("{seat} decides, and only it knows its options", seat=int(pending_seen["seat"]))
    b = book()
    seats_seen = view["seats"]
    rival_seen = view.get("rival")
    options: dict[str, Any] = {"side": view["side"]}
    if rival_seen is not None:
        tiles = tuple(rival_seen["tiles"])
        options["difficulty"] = next(d for d in range(6) if tiles_for(d) == tiles)
    base = _opening(tuple(view["players"]), tuple(sorted(options.items())), str(view["rules_version"]))

    # Cards: what every hand and deck holds together is in the view; the decks of cards are what is left.
    in_sight: list[int] = [*_ids(view["card_row"]["artifacts"]), *_ids(view["card_row"]["items"])]
    in_sight += [*view["artifact_exile"], *view["item_exile"], *view["removed"]]
    for p in seats_seen:
        in_sight += [*_ids(p["play_area"]), *p["hand_and_deck"]]
    if rival_seen is not None:
        in_sight += _ids(rival_seen["cards"])
    seen_cards = set(in_sight)
    artifacts = _shuffled(rng, (c.id for c in b.cards.values() if c.kind == "artifact" and c.id not in seen_cards))
    items = _shuffled(rng, (c.id for c in b.cards.values() if c.kind == "item" and c.id not in seen_cards))
    fear = _shuffled(rng, (c for c in b.fear_ids if c not in seen_cards))

    # Idols: those in sight, and the rest drawn for every place the seat cannot see into.
    idols_seen: list[int] = [s["face_up_idol"] for s in view["sites"] if s["face_up_idol"] is not None]
    own_supply = seats_seen[seat]["idols"].get("ids")
    if own_supply is not None:
        idols_seen += own_supply
    for p in seats_seen:
        idols_seen += [i for i in p["idol_slots"] if isinstance(i, int)]
    if rival_seen is not None:
        idols_seen += rival_seen["face_up_idols"]
    idol_pool = _shuffled(rng, _without(sorted(b.idols), idols_seen))

    # Assistants: on top of a stack, held, or out of the game are in sight; the rest lie under the tops or at
    # the rescue space.
    stacks_seen = view["assistant_stacks"]
    assistants_seen = [s["top"] for s in stacks_seen if s["top"] is not None] + list(view["assistants_out"])
    for p in seats_seen:
        assistants_seen += [a["id"] for a in p["assistants"]]
    assistant_pool = _shuffled(rng, _without(sorted(b.assistants), assistants_seen))

    players = []
    for s, p in enumerate(seats_seen):
        mine = s == seat
        hand = _ids(p["hand"]["cards"]) if mine else ()
        rest = _shuffled(rng, _without(p["hand_and_deck"], hand))
        if not mine:
            hand = _take(rest, p["hand"]["count"])
        supply = tuple(own_supply) if mine and own_supply is not None else _take(idol_pool, p["idols"]["count"])
        slots = tuple(i if isinstance(i, int) else idol_pool.pop() for i in p["idol_slots"])
        players.append(
            changed(
                base.seats[s],
                colour=p["colour"],
                hand=hand,
                deck=tuple(rest),
                play_area=_ids(p["play_area"]),
                resources=tuple(p["resources"][r] for r in RESOURCES),
                idols=supply,
                slots=slots,
                guardians=tuple(g["id"] for g in p["guardians"]),
                boons_used=tuple(g["id"] for g in p["guardians"] if g["boon_used"]),
                assistants=tuple(from_plain(HeldAssistant, a) for a in p["assistants"]),
                glass=p["glass"],
                notebook=p["notebook"],
                temple_place=p["temple_place"],
                temple_tiles=tuple(p["temple_tiles"]),
                fear_tiles=p["fear_tiles"],
                travel=tuple(p["travel"]),
                passed=p["passed"],
                discover_discount=p["discover_discount"],
                no_guardian_fear=p["no_guardian_fear"],
                all_planes=p["all_planes"],
            )
        )

    sites = []
    for s in view["sites"]:
        face_down = _take(idol_pool, s["face_down_idols"])
        face_up = () if s["face_up_idol"] is None else (s["face_up_idol"],)
        sites.append(Site(s["id"], s["tile"], face_up + face_down, s["guardian"]))

    rival = None
    if rival_seen is not None:
        played = tuple(rival_seen["played"])
        rival = Rival(
            seat=rival_seen["seat"],
            tiles=tuple(rival_seen["tiles"]),
            stack=tuple(_shuffled(rng, _without(rival_seen["tiles"], played))[: rival_seen["stack"]["count"]]),
            played=played,
            face_up_idols=tuple(rival_seen["face_up_idols"]),
            negative_idols=_take(idol_pool, rival_seen["negative_idols"]["count"]),
            cards=_ids(rival_seen["cards"]),
        )

    tiles_on_board = {s["tile"] for s in view["sites"] if s["tile"] is not None}
    site_stacks = tuple(
        tuple(_shuffled(rng, (t.id for t in b.site_tiles.values() if t.level == level and t.id not in tiles_on_board)))
        for level in (1, 2)
    )
    guardians_seen = {s["guardian"] for s in view["sites"] if s["guardian"] is not None}
    guardians_seen |= {c["guardian"] for c in view["camp_guardians"]}
    guardians_seen |= {g["id"] for p in seats_seen for g in p["guardians"]}
    face_up_bonus = {b_["tile"] for b_ in view["research_bonus"]}
    temple_bonus = _shuffled(rng, (t for t in b.bonus_tiles if t not in face_up_bonus))[: view["temple_bonus"]]
    assistant_stacks = []
    for s in stacks_seen:
        top = () if s["top"] is None else (s["top"],)
        assistant_stacks.append(top + _take(assistant_pool, s["count"] - len(top)))
    rescue = _take(assistant_pool, view["rescue"]["count"])

    pending = None
    if pending_seen is not None:
        pending = Pending(
            seat=pending_seen["seat"],
            kind=pending_seen["kind"],
            options=tuple(pending_seen["options"]),
            then=pending_seen["then"],
            branches=tuple(pending_seen["branches"]),
            card=pending_seen["card"],
            picks=pending_seen["picks"],
            optional=pending_seen["optional"],
        )
    outcome = view["outcome"]
    return changed(
        base,
        seed=view.get("seed") or f"sampled:{rng.getrandbits(64):016x}",
        seats=tuple(players),
        sites=tuple(sites),
        occupants=tuple(sorted((a["space"], a["seat"]) for a in view["archaeologists"])),
        blocked=tuple(view["blocked"]),
        site_stacks=(site_stacks[0], site_stacks[1]),
        guardian_stack=tuple(_shuffled(rng, (g for g in b.guardians if g not in guardians_seen))),
        artifact_row=_ids(view["card_row"]["artifacts"]),
        item_row=_ids(view["card_row"]["items"]),
        artifact_deck=tuple(artifacts[: view["artifact_deck"]]),
        item_deck=tuple(items[: view["item_deck"]]),
        artifact_exile=tuple(view["artifact_exile"]),
        item_exile=tuple(view["item_exile"]),
        removed=tuple(view["removed"]),
        fear_deck=tuple(fear[: view["fear_deck"]]),
        research_bonus=tuple((b_["space"], b_["tile"]) for b_ in view["research_bonus"]),
        temple_bonus=tuple(temple_bonus),
        temple_stacks=tuple(view["temple_stacks"]),
        assistant_stacks=tuple(assistant_stacks),
        rescue=rescue,
        assistants_out=tuple(view["assistants_out"]),
        camp_guardians=tuple((c["camp"], c["guardian"]) for c in view["camp_guardians"]),
        round=view["round"],
        first_player=view["first_player"],
        turn=view["turn"],
        main_done=view["main_done"],
        phase=view["phase"],
        keep_queue=tuple(view["keep_queue"]),
        pending=pending,
        outcome=None if outcome is None else from_plain(Outcome, outcome),
        rival=rival,
    )
