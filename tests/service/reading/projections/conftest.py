"""The projections' fixtures."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.commands.application import Digsite
from service.reading.projections.follower import Follower


@pytest.fixture
def follower(service: Digsite) -> Iterator[Follower]:
    """A follower of ``service``'s store in small batches: games finish in many batches, some two in one."""
    made = Follower(service.settings, batch_size=41)
    try:
        yield made
    finally:
        made.close()
