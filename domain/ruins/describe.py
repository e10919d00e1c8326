"""One line of plain English per event, for logs, the CLI narration and the replay's event list.

A ruin is named as its card reads, day rank then night rank (``7☀/2☾``), an upgrade by its effect and
sleeve: never by the rule book's numbers, which mean nothing to a reader."""

from __future__ import annotations

from collections.abc import Sequence

from domain.ruins import events as ev
from domain.ruins.cards import Book
from domain.ruins.versions import book_of


def ruin_name(book: Book, card: int) -> str:
    """A ruin as its card reads: day rank, night rank."""
    ruin = book.ruins[card]
    return f"{ruin.day_rank}\u2600/{ruin.night_rank}\u263e"


def effect_word(book: Book, discovery: int) -> str:
    """An upgrade's effect as its card (and the dashboard's table) shows it: "+3" for an extra rank, else its
    name ("wild", "twin", "dig"), never the rule book's code ("plus3")."""
    effect = book.effect_of(discovery)
    return f"+{effect.amount}" if effect.kind == "extra_rank" else effect.name


def _ruins_of(book: Book, cards: Sequence[int]) -> str:
    return ", ".join(ruin_name(book, c) for c in cards)


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def describe(event: ev.Event, players: Sequence[str], seat: int | None = None) -> str:
    """``seat`` is the reader: hidden details (a draw, a secret flip) are told only to those who may know.

    Ranks and effects are named as the current rules version has them (a ``GameStarted``: as its own
    version has them); the rules API's ``describe`` does not yet say which game an event is from."""

    def who(s: int) -> str:
        return players[s]

    def sees(s: int) -> bool:
        return seat is None or seat == s

    book = book_of(event.rules_version if isinstance(event, ev.GameStarted) else None)

    def _ruins(cards: Sequence[int]) -> str:
        return _ruins_of(book, cards)

    match event:
        case ev.GameStarted():
            market = ", ".join(effect_word(book, d) for d in event.market if d is not None) or "empty"
            return f"Game set up for {', '.join(event.players)}; market: {market}"
        case ev.RoundDealt():
            label = "Showdown" if event.showdown else f"Round {event.round}"
            seated = ", ".join(who(s) for s in event.participants)
            return f"{label}: 9 ruins dealt to {seated}; {who(event.leader)} leads"
        case ev.NightFlipChosen():
            if not sees(event.seat):
                return f"{who(event.seat)} chose a night flip in secret"
            return f"{who(event.seat)} chose {'no flip' if event.ruin is None else 'to flip ' + _ruins([event.ruin])}"
        case ev.NightFlipsRevealed():
            flips = [f"{who(s)} flips {_ruins([c])}" for s, c in enumerate(event.flips) if c is not None]
            return "Night flips revealed: " + ("; ".join(flips) if flips else "nobody flips")
        case ev.DiscoveryBought():
            effect = effect_word(book, event.discovery)
            return (
                f"{who(event.seat)} spends {_plural(event.price, 'torch', 'torches')} on a {effect} upgrade "
                f"({book.discoveries[event.discovery].position} sleeve) for {_ruins([event.ruin])}"
            )
        case ev.ClaimSleeved():
            return f"{who(event.seat)} sleeves a claim onto {_ruins([event.ruin])}"
        case ev.RuinsPlayed():
            verb = "leads" if event.lead else "plays"
            return f"{who(event.seat)} {verb} {event.count} \u00d7 rank {event.rank}: {_ruins(event.ruins)}"
        case ev.TorchesRelit():
            return f"{who(event.seat)} relights {_plural(event.amount, 'torch', 'torches')}"
        case ev.RuinsDrawn():
            what = _ruins(event.ruins) if sees(event.seat) else _plural(len(event.ruins), "ruin", "ruins")
            return f"{who(event.seat)} draws {what} ({event.reason})"
        case ev.DiscardRequired():
            return f"{who(event.seat)} must discard {_plural(event.count, 'ruin', 'ruins')}"
        case ev.RuinsDiscarded():
            return f"{who(event.seat)} discards {_ruins(event.ruins)}"
        case ev.Passed():
            return f"{who(event.seat)} passes"
        case ev.PlayerSkipped():
            return f"{who(event.seat)} is skipped (exact match)"
        case ev.WentOut():
            return f"{who(event.seat)} goes out {_ordinal(event.place)}: +{event.award} VP (now {event.vp})"
        case ev.NextTurn():
            return f"{who(event.seat)} to act"
        case ev.PileCleared():
            return f"Pile discarded; {who(event.leader)} leads"
        case ev.RoundEnded():
            scores = ", ".join(f"{who(s)} {vp}" for s, vp in enumerate(event.vp))
            label = "The Showdown" if event.round > book.max_rounds else f"Round {event.round}"
            lost = f"loses {_plural(event.penalty, 'VP', 'VP')}" if event.penalty else "loses no VP"
            return f"{label} ends: {who(event.last)} held cards last and {lost}; VP: {scores}"
        case ev.GameWon():
            how = "instant win" if event.how == "instant" else "wins the Showdown"
            return f"{who(event.seat)} wins the game ({how}, round {event.round})"
    return repr(event)


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")
