"""Per game, a position a seat cannot tell apart from a given one (its hidden information dealt anew): the
conformance suite checks views and records against it. Each builder lives with its game's view tests.

``KNOWN_OPEN`` names, per game, the moves whose records are known to tell a seat more than its view does, with
why: the conformance test tolerates exactly those and fails once one no longer shows up (then drop it here)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tests.domain.arnak.test_views import hide_differently as arnak_twin
from tests.domain.ruins.test_views import hide_differently as ruins_twin

HIDDEN_TWINS: dict[str, Callable[[Any, int, random.Random], Any]] = {"ruins": ruins_twin, "arnak": arnak_twin}


def _arnak_hand_cards_put_away(state: Any, action: Any) -> bool:
    """Arnak: two choices name hand cards in the move's events though the seats' views after the move never show
    them: the round-end 'keep' choice (``CardsToPlayArea`` names the cards not kept, the new hand's
    ``CardsDrawn`` counts them) and exiling a card from the hand (``CardExiled`` names it). At the table the size
    of the draw is seen and an exiled card is perhaps shown; which of view and events is right is a rules
    question for the Arnak engine (docs/rules/arnak.md), open."""
    pending = state.pending
    return pending is not None and pending.kind in ("keep", "exile") and pending.seat == action.seat


KNOWN_OPEN: dict[str, Callable[[Any, Any], bool]] = {"arnak": _arnak_hand_cards_put_away}
