"""Service errors: each has a stable machine-readable code, an HTTP status, and a sentence."""

from __future__ import annotations

from domain.errors import DomainError, GameOver, MalformedAction, NotYourTurn, SetupError, said


class ServiceError(Exception):
    """``message`` is the sentence; a refusal that names seats keeps them as data too (``template``, ``seats``, as
    ``domain.errors.DomainError`` does), so that a page can number them its own way."""

    status = 400
    code = "bad_request"

    def __init__(self, message: str, code: str | None = None, **seats: int | None) -> None:
        self.template = message
        self.seats = dict(seats)
        self.message = said(message, self.seats)
        super().__init__(self.message)
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
    """One HTTP status per kind of rule error (the seats it names kept as data)."""
    template, seats = getattr(error, "template", str(error)), getattr(error, "seats", {})
    if isinstance(error, MalformedAction):
        return BadRequest(template, "malformed_action", **seats)
    if isinstance(error, SetupError):
        return BadRequest(template, "invalid_setup", **seats)
    if isinstance(error, NotYourTurn):
        return Forbidden(template, "not_your_turn", **seats)
    if isinstance(error, GameOver):
        return RuleRejected(template, "game_over", **seats)
    return RuleRejected(template, error.code, **seats)
