"""Fixtures of the integrity tests: a second store to import into."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.commands.application import Digsite
from service.settings import Database, Settings
from tests.service.conftest import another_store


@pytest.fixture
def target(database: Database, request: pytest.FixtureRequest) -> Iterator[Digsite]:
    """A Digsite on a second, empty store of the same backend as ``service``."""
    with another_store(database, request) as other:
        svc = Digsite(Settings(database=other))
        try:
            yield svc
        finally:
            svc.close()
