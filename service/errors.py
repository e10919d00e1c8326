"""Service errors: each has a stable machine-readable code, an HTTP status, and a sentence."""

from __future__ import annotations

from domain.errors import DomainError, GameOver, MalformedAction, NotYourTurn, SetupError


class ServiceError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class BadRequest(ServiceError):
    status, code = 400, "malformed_request"


class Unauthorized(ServiceError):
    status, code = 401, "unauthorized"


class Forbidden(ServiceError):
    status, code = 403, "forbidden"


class NotFound(ServiceError):
    status, code = 404, "not_found"


class Conflict(ServiceError):
    status, code = 409, "conflict"


class RuleRejected(ServiceError):
    status, code = 422, "rule_violation"


class Unavailable(ServiceError):
    status, code = 503, "unavailable"


class Busy(Unavailable):
    """The server will not hold this request now (as many wait on the push channel as it may): ask again after
    ``retry_after`` seconds (the answer's Retry-After)."""

    code = "busy"

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def from_domain(error: DomainError) -> ServiceError:
    """One HTTP status per kind of rule error."""
    if isinstance(error, MalformedAction):
        return BadRequest(str(error), "malformed_action")
    if isinstance(error, SetupError):
        return BadRequest(str(error), "invalid_setup")
    if isinstance(error, NotYourTurn):
        return Forbidden(str(error), "not_your_turn")
    if isinstance(error, GameOver):
        return RuleRejected(str(error), "game_over")
    return RuleRejected(str(error), error.code)
