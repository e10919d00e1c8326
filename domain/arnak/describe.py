"""One line of plain English per event, for logs, the CLI narration and the replay's event list."""

from __future__ import annotations

from collections.abc import Sequence

from domain.arnak import events as ev
from domain.arnak.components import RESOURCES, book
from domain.arnak.view import HIDDEN_CHOICES


def _cards(cards: Sequence[int]) -> str:
    return ", ".join(f"{book().card(c).name} (#{c})" for c in cards) or "nothing"


def _delta(delta: Sequence[int]) -> str:
    return ", ".join(f"{'+' if n > 0 else ''}{n} {r}" for r, n in zip(RESOURCES, delta, strict=True) if n)


def describe(event: ev.Event, players: Sequence[str], seat: int | None = None) -> str:
    """``seat`` is the reader: hidden details (a draw, a face-down idol) are told only to those who may know."""

    def who(s: int) -> str:
        return players[s]

    def sees(s: int) -> bool:
        return seat is None or seat == s

    match event:
        case ev.GameStarted():
            return f"Game set up for {', '.join(event.players)} on the {event.side} side"
        case ev.RoundStarted():
            return f"Round {event.round}: {who(event.first_player)} starts"
        case ev.CardsDrawn():
            what = _cards(event.cards) if sees(event.seat) else f"{len(event.cards)} card(s)"
            return f"{who(event.seat)} draws {what}{' from the bottom' if event.bottom else ''}"
        case ev.ResourcesChanged():
            return f"{who(event.seat)}: {_delta(event.delta)} ({event.reason})"
        case ev.CardsToPlayArea():
            return f"{who(event.seat)} puts {_cards(event.cards)} into play ({event.reason})"
        case ev.TravelChanged():
            gained = f" gains travel {', '.join(event.gained)}" if event.gained else ""
            spent = f" spends travel {', '.join(event.spent)}" if event.spent else ""
            return f"{who(event.seat)}{gained}{spent}"
        case ev.MainActionTaken():
            return f"{who(event.seat)} takes the main action: {event.action}"
        case ev.ArchaeologistPlaced():
            return f"{who(event.seat)} sends an archaeologist to {event.space}"
        case ev.IdolsTaken():
            return f"{who(event.seat)} takes {len(event.idols)} idol(s) at {event.site}"
        case ev.SiteRevealed():
            return f"{event.site} is discovered: site tile {event.tile}"
        case ev.GuardianAwakened():
            return f"A guardian ({event.guardian}) awakens at {event.site}"
        case ev.GuardianOvercome():
            return f"{who(event.seat)} overcomes the guardian at {event.site}"
        case ev.CardBought():
            return f"{who(event.seat)} gains {_cards([event.card])} for {event.price} ({event.to})"
        case ev.RowRefilled():
            return f"The {event.kind} row is refilled with {_cards([event.card]) if event.card else 'nothing'}"
        case ev.CardPlayed():
            return f"{who(event.seat)} plays {_cards([event.card])}"
        case ev.CardExiled():
            return f"{who(event.seat)} exiles {_cards([event.card])}"
        case ev.FearGained():
            return f"{who(event.seat)} gains {'a fear card' if event.card is not None else 'a fear tile'}"
        case ev.ResearchMoved():
            return f"{who(event.seat)} moves the {event.token} to {event.to}"
        case ev.TempleReached():
            return f"{who(event.seat)} reaches the Lost Temple ({event.place + 1}.)"
        case ev.BonusTileTaken():
            return f"{who(event.seat)} takes bonus tile {event.tile} ({book().bonus_tiles[event.tile].kind})"
        case ev.TempleTileBought():
            return f"{who(event.seat)} buys a temple tile from stack {event.stack}"
        case ev.AssistantTaken():
            return f"{who(event.seat)} recruits assistant {event.assistant}"
        case ev.AssistantUpgraded():
            return f"{who(event.seat)} upgrades assistant {event.assistant} to gold"
        case ev.AssistantUsed():
            return f"{who(event.seat)} uses assistant {event.assistant}"
        case ev.AssistantRefreshed():
            return f"{who(event.seat)} refreshes assistant {event.assistant}"
        case ev.BoonUsed():
            return f"{who(event.seat)} uses the boon of guardian {event.guardian}"
        case ev.IdolPlaced():
            return f"{who(event.seat)} places an idol in slot {event.slot + 1}: {event.option}"
        case ev.DecisionPending():
            return f"{who(event.pending.seat)} must decide: {event.pending.kind}"
        case ev.DecisionMade():
            if not sees(event.seat) and event.kind in HIDDEN_CHOICES:  # a card of a hidden draw: as redaction hides it
                return f"{who(event.seat)} decides ({event.kind.replace('_', ' ')})"
            return f"{who(event.seat)} decides: {event.option}"
        case ev.Passed():
            return f"{who(event.seat)} passes"
        case ev.NextTurn():
            return f"{who(event.seat)} to act"
        case ev.ArchaeologistsReturned():
            return f"Round {event.round} ends: archaeologists return home"
        case ev.KeepDone():
            return f"{who(event.seat)} keeps the rest of the hand"
        case ev.DeckRebuilt():
            return f"{who(event.seat)} shuffles {len(event.order)} card(s) under the deck"
        case ev.RowRotated():
            return "The cards beside the moon staff are exiled and the staff moves right"
        case ev.RoundEnded():
            return f"Round {event.round} is over: assistants refreshed"
        case ev.GameEnded():
            scores = ", ".join(f"{who(s.seat)} {s.total}" for s in event.outcome.scores)
            return f"Game over: {scores}; winner(s): {', '.join(who(s) for s in event.outcome.winners)}"
        case ev.DiscoveryDiscount():
            return f"{who(event.seat)}'s next discovery costs {event.compasses} compass(es) less"
        case ev.GuardianFearWaived():
            return f"{who(event.seat)} takes no fear from guardians this round"
        case ev.AllTravelPlanes():
            return f"{who(event.seat)}'s travel icons are all planes this round"
        case ev.ArchaeologistMoved():
            return f"{who(event.seat)} moves an archaeologist from {event.source} to {event.target}"
        case ev.ArchaeologistRecalled():
            return f"{who(event.seat)} brings an archaeologist home from {event.space}"
        case ev.SiteTileUsed():
            return f"The top Level {event.level} site tile ({event.tile}) is activated and put under its stack"
        case ev.AssistantSwapped():
            return f"{who(event.seat)} swaps assistant {event.mine} for assistant {event.theirs}"
        case ev.IdolUnslotted():
            return f"{who(event.seat)} takes an idol back from its slot"
        case ev.RowItemExiled():
            return f"{_cards([event.card])} is exiled from the card row"
        case ev.GuardianMoved():
            return f"The guardian at {event.source} moves to {event.target}"
        case ev.CardReturnedToDeck():
            return f"{who(event.seat)} puts a card back on top of the deck"
        case ev.DeckTopRevealed():
            return f"The top of the {event.kind} deck is revealed: {_cards([event.card])}"
        case ev.IdolDiscarded():
            return f"{who(event.seat)} discards an idol to reach the rescue space"
        case ev.AssistantRescued():
            return f"{who(event.seat)} rescues assistant {event.assistant}"
        case ev.RivalStackShuffled():
            return "The rival's action tiles are shuffled"
        case ev.RivalTileRevealed():
            return f"The rival reveals action tile {event.tile}"
        case ev.RivalIdolsTaken():
            return f"The rival takes {len(event.face_up) + len(event.negative)} idol(s) at {event.site}"
        case ev.AssistantRemoved():
            return f"The rival takes assistant {event.assistant} out of the game"
    return repr(event)
