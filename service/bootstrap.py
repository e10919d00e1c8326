"""The composition root of the service: the one place that builds the event-sourced application, the service,
the projections' follower and the read side from settings (tests pass other settings through the same door).
Nothing is built on import."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from service.settings import Settings
from service.store import backends

if TYPE_CHECKING:
    from service.commands.application import Digsite, DigsiteApplication
    from service.reading.projections.follower import Follower
    from service.reading.queries import Queries


def application(settings: Settings) -> DigsiteApplication:
    """The library's application over the store the settings name, snapshots sealed with the server secret."""
    from service.commands.application import DigsiteApplication

    db = settings.database
    return DigsiteApplication(
        env={**backends.eventsourcing_env(db), **settings.extra_env}, server_secret=settings.server_secret
    )


def build(settings: Settings | None = None, *, check_schema: bool = True) -> Digsite:
    """The service (commands and the play API's reads) over its own application."""
    from service.commands.application import Digsite

    settings = settings or Settings.from_env()
    return Digsite(settings, check_schema=check_schema, app_factory=application)


def follower(settings: Settings | None = None, **options: Any) -> Follower:
    """The projections' follower over its own application (it reads the notification log in its own process), on
    the log's database when the settings name one (a replica: ``Settings.log_database``)."""
    from service.reading.projections.follower import Follower

    settings = settings or Settings.from_env()
    return Follower(settings, app=application(settings.log_settings()), **options)


def queries(service: Digsite, **options: Any) -> Queries:
    """The read side (read models and replays) beside a service."""
    from service.reading.queries import Queries

    return Queries(service, **options)
