"""The read side as tests of tournaments meet it: queries over the read models, and the projections caught up."""

from __future__ import annotations

from service.commands.application import Digsite
from service.reading.projections.follower import Follower


def catch_up(service: Digsite) -> None:
    """Bring every read model up to the store's end, as `digsite projections run` would."""
    follower = Follower(service.settings, batch_size=64)
    try:
        follower.catch_up()
    finally:
        follower.close()
