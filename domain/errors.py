"""One error tree for every game; the service maps each kind to one HTTP status."""

from __future__ import annotations


class DomainError(ValueError):
    """Base of every error raised by the rules."""

    code = "domain_error"


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
