"""One error tree for every game; the service maps each kind to one HTTP status."""

from __future__ import annotations

from collections.abc import Callable, Mapping


class DomainError(ValueError):
    """Base of every error raised by the rules.

    A message that names seats names them as data: ``NotYourTurn("it is {turn}'s turn, not {seat}'s", turn=1,
    seat=0)``. Its text (``str``, the API's ``message``) says each "seat N", numbered from 0 as the API numbers
    them; ``template`` and ``seats`` let a page say them its own way (``said``)."""

    code = "domain_error"

    def __init__(self, message: str, **seats: int | None) -> None:
        self.template = message
        self.seats = dict(seats)
        super().__init__(said(message, self.seats))


def said(
    template: str, seats: Mapping[str, int | None], seat_name: Callable[[int | None], str] = "seat {}".format
) -> str:
    """A refusal's text with each seat it names said by ``seat_name`` (by default "seat N", numbered from 0)."""
    if not seats:
        return template
    return template.format_map({name: seat_name(seat) for name, seat in seats.items()})


class RuleViolation(DomainError):
    """The action breaks a rule of the game; the message names the rule."""

    code = "rule_violation"


class NotYourTurn(RuleViolation):
    """The seat may not act now (another seat's turn, or a finished round step)."""

    code = "not_your_turn"


class GameOver(RuleViolation):
    """The game has ended; no further action is accepted."""

    code = "game_over"


class MalformedAction(DomainError):
    """The action could not be parsed at all (wrong shape, unknown type)."""

    code = "malformed_action"


class SetupError(DomainError):
    """The players, options or explicit setup of a new game are not valid."""

    code = "setup_error"


class NotSampleable(DomainError):
    """A view no state can be drawn from (``GameRules.sample``): another seat's secret decision pends, and what it
    may choose and what follows are that seat's to know. A seat to act can always be sampled."""
