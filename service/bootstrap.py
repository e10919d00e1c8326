"""The composition root of the service: the one place that builds the event-sourced application, the service,
the projections' follower and the read side from settings (tests pass other settings through the same door).
Nothing is built on import."""

from __future__ import annotations

from typing import Any

from service.commands.application import Digsite, DigsiteApplication
from service.reading.projections.follower import Follower
from service.reading.read_port import ReadPort
from service.settings import Settings


def application(settings: Settings) -> DigsiteApplication:
    """The library's application over the store the settings name, snapshots sealed with the server secret."""
    return DigsiteApplication.for_settings(settings)


def build(settings: Settings | None = None, *, check_schema: bool = True) -> Digsite:
    """The service (commands and the play API's reads) over its own application."""
    settings = settings or Settings.from_env()
    return Digsite(settings, check_schema=check_schema, app_factory=application)


def follower(settings: Settings | None = None, **options: Any) -> Follower:
    """The projections' follower over its own application (it reads the notification log in its own process), on
    the log's database when the settings name one (a replica: ``Settings.log_database``)."""
    settings = settings or Settings.from_env()
    return Follower(settings, app=application(settings.log_settings()), **options)


def read_port(service: Digsite, **options: Any) -> ReadPort:
    """The read side (lists, replays, analytics) beside a service: it is given the service's store reader only,
    so it cannot play a move."""
    return ReadPort.over(service.reader, **options)
