"""Readable names for Arnak's codes on the table: the engine names its own codes (``domain.arnak.names``, which
its narration uses too); this module only adds what belongs to the screen, a seat's colour class."""

from __future__ import annotations

from typing import Any

from domain.arnak.names import (
    DECISIONS,
    RESOURCE_NAMES,
    ROMAN,
    TRAVEL_NAMES,
    amount,
    amounts,
    assistant_label,
    assistant_text,
    bonus_text,
    camp_label,
    card_kind,
    card_name,
    card_text,
    guardian_label,
    guardian_parts,
    idol_kind,
    idol_text,
    location_label,
    option_label,
    research_label,
    rival_tile_label,
    short_research,
    site_label,
    site_level,
    site_tile_text,
    space_label,
    temple_stack,
)

__all__ = [
    "DECISIONS",
    "RESOURCE_NAMES",
    "ROMAN",
    "TRAVEL_NAMES",
    "amount",
    "amounts",
    "assistant_label",
    "assistant_text",
    "bonus_text",
    "camp_label",
    "card_kind",
    "card_name",
    "card_text",
    "guardian_label",
    "guardian_parts",
    "idol_kind",
    "idol_text",
    "location_label",
    "option_label",
    "research_label",
    "rival_tile_label",
    "seat_colour",
    "short_research",
    "site_label",
    "site_level",
    "site_tile_text",
    "space_label",
    "temple_stack",
]


def seat_colour(view: dict[str, Any], seat: int) -> str:
    return str(view["seats"][seat].get("colour") or "grey")
