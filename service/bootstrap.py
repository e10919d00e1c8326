"""The composition root: build the service from settings, in one place (tests pass other settings)."""

from __future__ import annotations

from service.application import Digsite
from service.settings import Settings


def build(settings: Settings | None = None) -> Digsite:
    return Digsite(settings or Settings.from_env())
