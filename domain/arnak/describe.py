"""One line of plain English per event, with names (never the engine's codes): for logs, the CLI narration, the
replay's event list and the dashboard's log, which shows these lines as they are.

``seat`` is the reader: what it may not know stays hidden. Another seat's draw is a number of cards, a face-down
idol is not named, a card chosen among cards only its seat has seen (Obsidian, Crystal Earring) is "hidden", a
card put back on the deck is not named: the line follows from the event as redacted for that reader
(``view.redact_event``), so two events that redact alike read alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.arnak import events as ev
from domain.arnak import names
from domain.arnak.components import RESOURCES
from domain.arnak.view import HIDDEN_CHOICES

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
_DESTINATIONS = {"play_area": "into play", "deck_top": "on top of the deck", "deck_bottom": "under the deck"}
_REASONS = {"travel": "to pay travel", "discard": "as a discard", "round_end": "at the end of the round"}


def _cards(cards: Sequence[int]) -> str:
    return ", ".join(names.card_name(c) for c in cards) or "nothing"


def _count(n: int, one: str) -> str:
    return f"{n} {one}{'' if n == 1 else 's'}"


def _delta(delta: Sequence[int]) -> str:
    return ", ".join(f"{'+' if n > 0 else ''}{names.amount(r, n)}" for r, n in zip(RESOURCES, delta, strict=True) if n)


def _guardian(guardian: int) -> str:
    cost, boon = names.guardian_parts(guardian)
    return f"boon {boon}, cost {cost}"


# The board side the camps are named from: an event does not say its game's side, and the camps give the same on
# both boards (tests/domain/arnak/test_views.py checks it), so either side names them rightly.
_SIDE = "bird"


def describe(event: ev.Event, players: Sequence[str], seat: int | None = None) -> str:
    """``seat`` is the reader (``None``: the referee)."""
    side = _SIDE

    def who(s: int) -> str:
        return players[s] if 0 <= s < len(players) else f"seat {s + 1}"

    def sees(s: int) -> bool:
        return seat is None or seat == s

    match event:
        case ev.GameStarted():
            return f"Game set up for {', '.join(event.players)} on the {event.side} side"
        case ev.RoundStarted():
            return f"Round {event.round}: {who(event.first_player)} starts"
        case ev.CardsDrawn():
            what = _cards(event.cards) if sees(event.seat) else _count(len(event.cards), "card")
            return f"{who(event.seat)} draws {what}{' from the bottom' if event.bottom else ''}"
        case ev.ResourcesChanged():
            return f"{who(event.seat)}: {_delta(event.delta)} ({event.reason.replace('_', ' ')})"
        case ev.CardsToPlayArea():
            reason = _REASONS.get(event.reason, f"({event.reason})")
            return f"{who(event.seat)} puts {_cards(event.cards)} into play {reason}"
        case ev.TravelChanged():
            gained = f" gains travel {', '.join(event.gained)}" if event.gained else ""
            spent = f" spends travel {', '.join(event.spent)}" if event.spent else ""
            return f"{who(event.seat)}{gained}{spent}"
        case ev.MainActionTaken():
            return f"{who(event.seat)} takes the main action: {_ACTIONS.get(event.action, event.action)}"
        case ev.ArchaeologistPlaced():
            return f"{who(event.seat)} sends an archaeologist to {names.space_label(event.space, side)}"
        case ev.IdolsTaken():
            up = f" (face up: {names.idol_text(event.idols[0])})" if event.idols else ""
            where = names.location_label(event.site, side)
            return f"{who(event.seat)} takes {_count(len(event.idols), 'idol')} at {where}{up}"
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
        case ev.FearGained():
            return f"{who(event.seat)} gains {'a fear card' if event.card is not None else 'a fear tile'}"
        case ev.ResearchMoved():
            token = "magnifying glass" if event.token == "glass" else event.token
            return f"{who(event.seat)} moves the {token} to {names.research_label(event.to)}"
        case ev.TempleReached():
            return f"{who(event.seat)} reaches the Lost Temple ({event.place + 1}.)"
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
            kind = event.pending.kind
            return f"{who(event.pending.seat)} must decide {names.DECISIONS.get(kind, kind.replace('_', ' '))}"
        case ev.DecisionMade():
            if event.option == "hidden" or (event.kind in HIDDEN_CHOICES and not sees(event.seat)):
                return f"{who(event.seat)} decides (hidden)"
            return f"{who(event.seat)} decides: {names.option_label(event.option, side, event.kind)}"
        case ev.Passed():
            return f"{who(event.seat)} passes"
        case ev.NextTurn():
            return f"{who(event.seat)} to act"
        case ev.ArchaeologistsReturned():
            return f"Round {event.round} ends: archaeologists return home"
        case ev.KeepDone():
            return f"{who(event.seat)} keeps the rest of the hand"
        case ev.DeckRebuilt():
            return f"{who(event.seat)} shuffles {_count(len(event.order), 'card')} under the deck"
        case ev.RowRotated():
            return "The cards beside the moon staff are exiled and the staff moves right"
        case ev.RoundEnded():
            return f"Round {event.round} is over: assistants refreshed"
        case ev.GameEnded():
            scores = ", ".join(f"{who(s.seat)} {s.total}" for s in event.outcome.scores)
            return f"Game over: {scores}; winner(s): {', '.join(who(s) for s in event.outcome.winners)}"
        case ev.DiscoveryDiscount():
            return f"{who(event.seat)}'s next discovery costs {names.amount('compass', event.compasses)} less"
        case ev.GuardianFearWaived():
            return f"{who(event.seat)} takes no fear from guardians this round"
        case ev.AllTravelPlanes():
            return f"{who(event.seat)}'s travel icons are all planes this round"
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
        case ev.IdolUnslotted():
            return f"{who(event.seat)} takes an idol back from its slot"
        case ev.RowItemExiled():
            return f"{_cards([event.card])} is exiled from the card row"
        case ev.GuardianMoved():
            source, target = names.location_label(event.source, side), names.location_label(event.target, side)
            return f"The guardian at {source} moves to {target}"
        case ev.CardReturnedToDeck():
            return f"{who(event.seat)} puts a card back on top of the deck"
        case ev.DeckTopRevealed():
            return f"The top of the {event.kind} deck is revealed: {_cards([event.card])}"
        case ev.IdolDiscarded():
            return f"{who(event.seat)} discards an idol to reach the rescue space"
        case ev.AssistantRescued():
            return f"{who(event.seat)} rescues {names.assistant_label(event.assistant)}"
        case ev.RivalStackShuffled():
            return "The rival's action tiles are shuffled"
        case ev.RivalTileRevealed():
            return f"The rival reveals an action tile: {names.rival_tile_label(event.tile)}"
        case ev.RivalIdolsTaken():
            n = len(event.face_up) + len(event.negative)
            return f"The rival takes {_count(n, 'idol')} at {names.location_label(event.site, side)}"
        case ev.AssistantRemoved():
            return f"The rival takes {names.assistant_label(event.assistant)} out of the game"
    return repr(event)
