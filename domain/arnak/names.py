"""Readable names for Arnak's codes, from the engine's own data (the book and the rival's book): what the
narration (``describe``), the move summaries of the analytics and any screen say instead of ids.

The data names every card; sites, camps, guardians, assistants and research spaces have ids and printed
text but no names, so their labels are built here from what the box prints: a camp by what it gives, a
site by its level and number (and its tile's effect once discovered), a guardian by its boon and cost.
"""

from __future__ import annotations

import re
from functools import cache

from domain.arnak.components import RESOURCES, book, steps_of
from domain.arnak.rival import rival_book

ROMAN = {0: "", 1: "I", 2: "II"}
RESOURCE_NAMES = {
    "coin": ("coin", "coins"),
    "compass": ("compass", "compasses"),
    "tablet": ("tablet", "tablets"),
    "arrowhead": ("arrowhead", "arrowheads"),
    "jewel": ("jewel", "jewels"),
}
TRAVEL_NAMES = {"boot": "boot", "car": "car", "ship": "ship", "plane": "plane"}


DECISIONS = {
    "choose": "which effect",
    "discard": "which card to discard",
    "keep": "which hand cards to put into play before the next round (done: keep the rest)",
    "keep_one": "which drawn card to keep",
    "put_back": "which card to put back",
    "gain_card": "which card to take",
    "take_assistant": "which assistant to take",
    "exile": "which card to exile",
    "activate": "which site to activate",
    "activate_own": "which of their sites to activate",
    "buy": "which card to buy",
    "buy_top": "whether to buy the revealed card",
    "discard_travel": "which travel to give up",
    "draw_count": "how many cards to draw",
    "overcome": "which guardian to overcome",
    "relocate": "where to move an archaeologist",
    "research": "which token to move, and where",
    "return_archaeologist": "which archaeologist to bring home",
    "supply_assistant": "which assistant stack",
    "swap_assistant": "which assistants to swap",
    "upgrade": "which resource to upgrade",
    "upgrade_assistant": "which assistant to turn gold",
    "refresh_assistant": "which assistant to refresh",
}


def amount(resource: str, n: int) -> str:
    one, many = RESOURCE_NAMES.get(resource, (resource, resource + "s"))
    return f"{n} {one if abs(n) == 1 else many}"


def amounts(res: dict[str, int] | tuple[int, ...]) -> str:
    """'1 coin + 2 tablets' from a resource mapping or a 5-tuple in ``RESOURCES`` order."""
    if not isinstance(res, dict):
        res = dict(zip(RESOURCES, res, strict=True))
    return " + ".join(amount(r, n) for r, n in res.items() if n) or "nothing"


def card_name(card_id: int) -> str:
    return book().card(card_id).name


def card_kind(card_id: int) -> str:
    return book().card(card_id).kind


def card_text(card_id: int) -> str:
    return book().card(card_id).text


@cache
def _camp_gift(camp_id: str, side: str) -> str:
    loc = book().boards[side].location(camp_id)
    parts = []
    for step in steps_of(loc.effect or "[]"):
        if step["op"] == "gain":
            parts.append(amounts(step["res"]))
        elif step["op"] == "discard":
            parts.append(f"discard {step.get('n', 1)}")
    return ", then ".join(parts) if parts else "camp"


def camp_label(camp_id: str, side: str = "bird") -> str:
    """'Camp: 2 coins'."""
    return f"Camp: {_camp_gift(camp_id, side)}"


def site_level(site_id: str) -> int:
    m = re.fullmatch(r"L(\d)-(\d+)", site_id)
    return int(m.group(1)) if m else 0


def site_label(site_id: str) -> str:
    """'Level I site 3' for ``L1-3``."""
    m = re.fullmatch(r"L(\d)-(\d+)", site_id)
    if not m:
        return site_id
    return f"Level {ROMAN.get(int(m.group(1)), m.group(1))} site {m.group(2)}"


def site_tile_text(tile: int) -> str:
    return book().site_tiles[tile].text


def location_label(location: str, side: str = "bird") -> str:
    """A camp or a site, by its readable label."""
    if location.startswith("camp"):
        return camp_label(location, side)
    return site_label(location)


def space_label(space: str, side: str = "bird") -> str:
    """A board space (``camp1a``, ``L1-3``) or a research node (``r3p1``, ``start``, ``temple``) as words."""
    if space in ("start", "temple") or re.fullmatch(r"r\d+p\d+", space):
        return research_label(space)
    m = re.fullmatch(r"(camp\d+)([ab])", space)
    if m:
        kind = "double-boot space" if m.group(2) == "b" else "space"
        return f"{camp_label(m.group(1), side)} ({kind})"
    return location_label(space, side)


def research_label(node: str) -> str:
    if node == "start":
        return "the start of the research track"
    if node == "temple":
        return "the Lost Temple"
    m = re.fullmatch(r"r(\d+)p(\d+)", node)
    if not m:
        return node
    return f"research row {int(m.group(1)) + 1}, space {int(m.group(2)) + 1}"


def short_research(node: str) -> str:
    """'row 3', 'start', 'temple': where a token stands, briefly (``research_label`` says which space)."""
    if node in ("start", "temple"):
        return node
    m = re.fullmatch(r"r(\d+)p(\d+)", node)
    return f"row {int(m.group(1)) + 1}" if m else node


def idol_text(idol: int) -> str:
    return book().idols[idol].text


def idol_kind(idol: int) -> str:
    return book().idols[idol].kind


def guardian_parts(guardian: int) -> tuple[str, str]:
    """(cost, boon) of a guardian, as printed."""
    text = book().guardians[guardian].text
    m = re.fullmatch(r"Cost: (.*)\. Boon: (.*)\.", text)
    return (m.group(1), m.group(2)) if m else (text, "")


def guardian_label(guardian: int) -> str:
    cost, boon = guardian_parts(guardian)
    return f"Guardian {guardian} (boon: {boon}; cost {cost})"


def assistant_text(assistant: int, gold: bool = False) -> str:
    silver, golden = book().assistants[assistant].text
    return golden if gold else silver


def assistant_label(assistant: int) -> str:
    return f"Assistant {assistant} ({assistant_text(assistant)})"


def bonus_text(tile: int) -> str:
    return book().bonus_tiles[tile].text


def temple_stack(stack: int) -> tuple[int, str]:
    """(points, cost) of a temple-tile stack."""
    t = book().temple_stacks[stack]
    return t.vp, amounts(t.cost)


def rival_tile_label(tile: int) -> str:
    t = rival_book().tiles[tile]
    what = {
        "dig": f"dig for {t.resource}",
        "discover": "discover a site",
        "research": "research",
        "overcome": "overcome a guardian",
        "buy_item": "buy an item",
        "buy_artifact": "buy an artifact",
    }.get(t.kind, t.kind)
    colour = f"{t.colour} " if t.colour else ""
    return f"{colour}{what} ({t.arrow})".strip()


def option_label(option: str, side: str = "bird", kind: str = "") -> str:
    """A decision's option (``card:12``, ``site:L1-3``, ``glass>r3p1``, ``camp2a>L1-4``...) in words; ``kind`` is
    the decision's kind, where it changes the reading (``draw_count``)."""
    if ">" in option:
        a, _, b = option.partition(">")
        if a in ("glass", "notebook"):
            token = "magnifying glass" if a == "glass" else a
            return f"the {token} to {research_label(b)}"
        if a == "tile" and b.isdigit():
            vp, cost = temple_stack(int(b))
            return f"a {vp}-point temple tile for {cost}"
        if a.isdigit() and b.isdigit():
            return f"assistant {a} for the top of assistant stack {int(b) + 1}"
        return f"from {space_label(a, side)} to {space_label(b, side)}"
    head, _, rest = option.partition(":")
    if rest:
        if head in ("card", "hand", "play") and rest.isdigit():
            where = {"hand": " (from the hand)", "play": " (from the play area)"}.get(head, "")
            return card_name(int(rest)) + where
        if head == "assistant" and rest.isdigit():
            return assistant_label(int(rest))
        if head == "stack" and rest.isdigit():
            return f"assistant stack {int(rest) + 1}"
        if head in ("site", "space"):
            return space_label(rest, side)
        if head == "travel":
            return f"a {rest} travel icon"
        return f"{head} {rest}"
    if option.isdigit():
        return f"draw {option}" if kind == "draw_count" else f"option {int(option) + 1}"
    if option in book().idol_slot_options:
        return book().idol_slot_options[option].text.rstrip(".")
    if option == "deck":
        return "the top card of the deck"
    if re.fullmatch(r"r\d+p\d+|camp\d+[ab]?|L\d-\d+|temple|start", option):
        return space_label(option, side)
    return option.replace("_", " ")
