"""The replay's log for Arnak, in names: ``domain.arnak.describe`` says what happened, but with ids (``L1-3``,
``camp2a``, ``r3p1``, ``card (#133)``, ``guardian (4)``, ``assistant 7``). ``log_line`` has ``describe``'s
signature and tells the same facts, to the same reader, with the names and printed texts from the data.

What a reader may not know stays hidden exactly as ``describe`` hides it: a draw by another seat is a number
of cards, a face-down idol is not named, and the events a seat reads were already redacted for it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from dashboard.games.arnak import names
from domain.arnak import describe, event_from_dict
from domain.arnak import events as ev

_CARD_ID = re.compile(r" \(#\d+\)")
_ACTIONS = {
    "dig": "dig at a site",
    "discover": "discover a site",
    "overcome": "overcome a guardian",
    "buy": "buy a card",
    "play": "play a card",
    "research": "research",
    "pass": "pass",
    "assistant": "use an assistant",
}
# Decisions among cards only the deciding seat has seen (Obsidian, Crystal Earring): as the engine's view says.
SECRET_CHOICES = frozenset({"keep_one", "put_back"})
_DESTINATIONS = {"play_area": "into play", "deck_top": "on top of the deck", "deck_bottom": "under the deck"}
_REASONS = {"travel": "to pay travel", "discard": "as a discard", "round_end": "at the end of the round"}


def _cards(cards: Sequence[int]) -> str:
    return ", ".join(names.card_name(c) for c in cards) or "nothing"


def log_line(event: ev.Event, players: Sequence[str], seat: int | None = None, side: str = "bird") -> str:
    """One event in plain English, with names; ``seat`` is the reader (``None``: the referee). ``side`` is the
    board side, for the camps' labels (the camps are alike on both sides)."""

    def who(s: int) -> str:
        return players[s] if 0 <= s < len(players) else f"seat {s + 1}"

    def sees(s: int) -> bool:
        return seat is None or seat == s

    match event:
        case ev.CardsDrawn():
            what = _cards(event.cards) if sees(event.seat) else names_count(len(event.cards), "card")
            return f"{who(event.seat)} draws {what}{' from the bottom' if event.bottom else ''}"
        case ev.CardsToPlayArea():
            reason = _REASONS.get(event.reason, f"({event.reason})")
            return f"{who(event.seat)} puts {_cards(event.cards)} into play {reason}"
        case ev.MainActionTaken():
            return f"{who(event.seat)} takes the main action: {_ACTIONS.get(event.action, event.action)}"
        case ev.ArchaeologistPlaced():
            return f"{who(event.seat)} sends an archaeologist to {names.space_label(event.space, side)}"
        case ev.IdolsTaken():
            up = f" (face up: {names.idol_text(event.idols[0])})" if event.idols else ""
            where = names.location_label(event.site, side)
            return f"{who(event.seat)} takes {names_count(len(event.idols), 'idol')} at {where}{up}"
        case ev.SiteRevealed():
            return f"{names.site_label(event.site)} is discovered: {names.site_tile_text(event.tile)}"
        case ev.GuardianAwakened():
            return f"A guardian awakens at {names.location_label(event.site, side)}: {_guardian(event.guardian)}"
        case ev.GuardianOvercome():
            where = names.location_label(event.site, side)
            return f"{who(event.seat)} overcomes the guardian at {where} ({_guardian(event.guardian)})"
        case ev.CardBought():
            to = _DESTINATIONS.get(event.to, event.to)
            unit = "compass" if names.card_kind(event.card) == "artifact" else "coin"
            return f"{who(event.seat)} gains {_cards([event.card])} for {names.amount(unit, event.price)} ({to})"
        case ev.RowRefilled():
            return f"The {event.kind} row is refilled with {_cards([event.card]) if event.card else 'nothing'}"
        case ev.CardPlayed():
            return f"{who(event.seat)} plays {_cards([event.card])}"
        case ev.CardExiled():
            return f"{who(event.seat)} exiles {_cards([event.card])}"
        case ev.ResearchMoved():
            token = "magnifying glass" if event.token == "glass" else event.token
            return f"{who(event.seat)} moves the {token} to {names.research_label(event.to)}"
        case ev.BonusTileTaken():
            return f"{who(event.seat)} takes a bonus tile: {names.bonus_text(event.tile)}"
        case ev.TempleTileBought():
            vp, cost = names.temple_stack(event.stack)
            return f"{who(event.seat)} buys a {vp}-point temple tile for {cost}"
        case ev.AssistantTaken():
            return f"{who(event.seat)} recruits {names.assistant_label(event.assistant)}"
        case ev.AssistantUpgraded():
            gold = names.assistant_text(event.assistant, True)
            return f"{who(event.seat)} turns assistant {event.assistant} to gold ({gold})"
        case ev.AssistantUsed():
            return f"{who(event.seat)} uses assistant {event.assistant}"
        case ev.AssistantRefreshed():
            return f"{who(event.seat)} refreshes assistant {event.assistant}"
        case ev.BoonUsed():
            return f"{who(event.seat)} uses a guardian's boon: {names.guardian_parts(event.guardian)[1]}"
        case ev.IdolPlaced():
            effect = names.option_label(event.option, side)
            return f"{who(event.seat)} places an idol in slot {event.slot + 1}: {effect}"
        case ev.DecisionPending():
            what = names.DECISIONS.get(event.pending.kind, event.pending.kind.replace("_", " "))
            return f"{who(event.pending.seat)} must decide {what}"
        case ev.DecisionMade():
            if event.option == "hidden" or (event.kind in SECRET_CHOICES and not sees(event.seat)):
                return f"{who(event.seat)} decides (hidden)"
            return f"{who(event.seat)} decides: {names.option_label(event.option, side, event.kind)}"
        case ev.ArchaeologistMoved():
            source, target = names.space_label(event.source, side), names.space_label(event.target, side)
            return f"{who(event.seat)} moves an archaeologist from {source} to {target}"
        case ev.ArchaeologistRecalled():
            return f"{who(event.seat)} brings an archaeologist home from {names.space_label(event.space, side)}"
        case ev.SiteTileUsed():
            level = names.ROMAN.get(event.level, str(event.level))
            return (
                f"The top Level {level} site tile ({names.site_tile_text(event.tile)}) is used and put under its stack"
            )
        case ev.AssistantSwapped():
            return f"{who(event.seat)} swaps assistant {event.mine} for {names.assistant_label(event.theirs)}"
        case ev.GuardianMoved():
            source, target = names.location_label(event.source, side), names.location_label(event.target, side)
            return f"The guardian at {source} moves to {target}"
        case ev.AssistantRescued():
            return f"{who(event.seat)} rescues {names.assistant_label(event.assistant)}"
        case ev.RivalTileRevealed():
            return f"The rival reveals an action tile: {names.rival_tile_label(event.tile)}"
        case ev.RivalIdolsTaken():
            n = len(event.face_up) + len(event.negative)
            return f"The rival takes {names_count(n, 'idol')} at {names.location_label(event.site, side)}"
        case ev.AssistantRemoved():
            return f"The rival takes {names.assistant_label(event.assistant)} out of the game"
    return _CARD_ID.sub("", describe(event, players, seat))


def names_count(n: int, one: str) -> str:
    return f"{n} {one}{'' if n == 1 else 's'}"


def _guardian(guardian: int) -> str:
    cost, boon = names.guardian_parts(guardian)
    return f"boon {boon}, cost {cost}"


def log_lines(
    events: Iterable[Mapping[str, Any]], players: Sequence[str], seat: int | None = None, side: str = "bird"
) -> list[str]:
    """The lines of a record's events (their JSON forms, as the store keeps them and as redacted for ``seat``),
    without the 'X to act' lines the replay leaves out."""
    lines = []
    for data in events:
        event = event_from_dict(dict(data))
        if isinstance(event, ev.NextTurn):
            continue
        lines.append(log_line(event, players, seat, side))
    return lines


_LINE_CODES = re.compile(
    "|".join(
        (
            r"\((?P<guardian>\d+)\)(?= awakens)",
            r"guardian (?P<boon>\d+)\b",
            r"site tile \(?(?P<tile>\d+)\)?",
            r"bonus tile (?P<bonus>\d+)(?: \(\w+\))?",
            r"\b(?:card|hand|play):(?P<option>\d+)",
            r"\bassistant (?P<assistant>\d+)\b",
            r"\b(?P<space>camp\d+[ab]?|L[12]-\d+|r\d+p\d+)\b",
            r"(?P<card> \(#\d+\))",
        )
    )
)


def name_codes(line: str, side: str = "bird") -> str:
    """A line ``describe`` already wrote, with its codes replaced by names: for logs built before ``log_line`` was
    used (the service's replay frames). It cannot hide what ``describe`` told; ``log_line`` on the event can."""

    def named(m: re.Match[str]) -> str:
        if m.group("guardian"):
            return f"({_guardian(int(m.group('guardian')))})"
        if m.group("boon"):
            return f"a guardian (boon {names.guardian_parts(int(m.group('boon')))[1]})"
        if m.group("tile"):
            return f"site tile: {names.site_tile_text(int(m.group('tile')))}"
        if m.group("option"):
            return names.card_name(int(m.group("option")))
        if m.group("bonus"):
            return f"a bonus tile ({names.bonus_text(int(m.group('bonus')))})"
        if m.group("assistant"):
            return f"assistant {m.group('assistant')} ({names.assistant_text(int(m.group('assistant')))})"
        if m.group("space"):
            return names.space_label(m.group("space"), side)
        return ""

    return _LINE_CODES.sub(named, line)
