"""``sample(view, seat, rng)``: a complete Ruins state drawn from what one seat sees (``view(state, seat)``).

Search over hidden information (determinization, ISMCTS) plays on whole states; a state drawn from the seat's
view alone cannot know more than the seat, whatever the real state holds. What the view hides is drawn here:

- the ruins in no place the seat can see (not its hand, the pile, the discard or set aside) are dealt at random
  among the other hands (to their sizes) and the draw pile (the rest, in a random order); a claimed ruin of a
  seat dealt in goes to that seat's hand, as the deal sends it home and only its owner can have played it since;
- the discovery deck: every discovery neither in the market nor sleeved, in a random order;
- another seat's night flip, chosen but not yet revealed: any of its legal flips (none, or a day ruin of the
  hand it was dealt here);
- the seed (so later deals are drawn afresh): a new one from ``rng``.

Everything else is copied from the view. ``view(sample(v, seat, rng), seat) == v`` (the conformance suite
checks it, and that every hidden placement turns up).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from domain.ruins.caches import profile
from domain.ruins.profiles import twins
from domain.ruins.setup import shuffle
from domain.ruins.state import GameState, Outcome, Top, new_ruin
from domain.ruins.versions import book_of


def sample(view: Mapping[str, Any], seat: int, rng: random.Random) -> GameState:
    """A state ``seat``'s view cannot tell from the real one, its hidden parts drawn from ``rng``."""
    book = book_of(view["rules_version"])
    positions = book.positions
    cards = view["ruins"]
    ruins = tuple(new_ruin(c["side"] == "night", tuple(c["sleeves"][p] for p in positions), c["claim"]) for c in cards)
    set_aside = tuple(c["id"] for c in cards if c["set_aside"])
    hand_views = view["hands"]
    mine = tuple(hand_views[seat]["ruins"])
    pile, discard = tuple(view["pile"]), tuple(view["discard"])
    seen = {*mine, *pile, *discard, *set_aside}
    unseen = [c for c in range(len(ruins)) if c not in seen]
    participants = tuple(view["participants"])

    hands: list[list[int]] = [[] for _ in hand_views]
    hands[seat] = list(mine)
    # A claimed ruin out of sight is in its owner's hand: dealt home this round, and only the owner plays it.
    claimed = [c for c in unseen if ruins[c].claim is not None and ruins[c].claim != seat]
    for c in claimed:
        owner = ruins[c].claim
        assert owner is not None
        if owner in participants and len(hands[owner]) < hand_views[owner]["count"]:
            hands[owner].append(c)
    homed = {c for s, h in enumerate(hands) if s != seat for c in h}
    pool = [c for c in unseen if c not in homed]
    shuffle(rng, pool)
    for s, entry in enumerate(hand_views):
        if s != seat:
            need = entry["count"] - len(hands[s])
            hands[s].extend(pool[:need])
            del pool[:need]
    draw_pile = tuple(pool)

    sleeved = {d for r in ruins for d in r.sleeves if d is not None}
    market = tuple(slot["discovery"] for slot in view["market"])
    deck = [d.id for d in book.discoveries if d.id not in sleeved and d.id not in market]
    shuffle(rng, deck)

    dealt = tuple(tuple(sorted(h)) for h in hands)
    flip_choices: list[tuple[int, int | None]] = []
    for flip in view["flips"]:
        if flip["chosen"]:
            s = flip["seat"]
            if s == seat:
                flip_choices.append((s, flip["ruin"]))
            else:
                flip_choices.append((s, rng.choice([None, *(c for c in dealt[s] if not ruins[c].night)])))

    top = view["top"]
    outcome = view["outcome"]
    pending = view["pending_discard"]
    profiles = tuple(profile(book, card, ruin) for card, ruin in enumerate(ruins))
    return GameState(
        players=tuple(view["players"]),
        options=(),  # Ruins has no rule options
        seed=view.get("seed") or f"sampled:{rng.getrandbits(64):016x}",
        set_aside=set_aside,
        ruins=ruins,
        vp=tuple(view["vp"]),
        claims_left=tuple(view["claims_left"]),
        torches=tuple(view["torches"]),
        market=market,
        discovery_deck=tuple(deck),
        book=book,
        round=view["round"],
        showdown=view["showdown"],
        participants=participants,
        round_start_vp=tuple(view["round_start_vp"]),
        hands=dealt,
        draw_pile=draw_pile,
        discard=discard,
        pile=pile,
        top=None if top is None else Top(top["seat"], top["rank"], top["count"]),
        responded=frozenset(view["passed_or_skipped"]),
        phase=view["phase"],
        leader=view["leader"],
        turn=view["turn"],
        flip_choices=tuple(flip_choices),
        discarder=None if pending is None else pending["seat"],
        discard_count=0 if pending is None else pending["count"],
        finish_order=tuple(view["finish_order"]),
        last_round_order=tuple(view["last_round_order"]),
        outcome=None if outcome is None else Outcome(outcome["winner"], outcome["how"], outcome["round"]),
        profiles=profiles,
        twins=twins(profiles),
    )
