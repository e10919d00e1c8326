"""Per game, a position a seat cannot tell apart from a given one (its hidden information dealt anew): the
conformance suite checks views and records against it. Each builder lives with its game's view tests.

``SHOWN_AT_THE_TABLE`` names, per game, the moves whose records tell a seat more than its view AFTER the move does,
because the physical game shows those cards for a moment within the move (the rules document says why): the
conformance test tolerates exactly those and fails once one no longer shows up (then drop it here)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tests.domain.arnak.test_views import hide_differently as arnak_twin
from tests.domain.ruins.test_views import hide_differently as ruins_twin

HIDDEN_TWINS: dict[str, Callable[[Any, int, random.Random], Any]] = {"ruins": ruins_twin, "arnak": arnak_twin}


def _arnak_hand_cards_put_away(state: Any, action: Any) -> bool:
    """Arnak: two choices name hand cards in the move's events though the seats' views after the whole move no
    longer show them: the round-end 'keep' choice (``CardsToPlayArea`` names the cards not kept; the play area is
    face up, and only then is it shuffled under the deck) and exiling a card from the hand (``CardExiled`` names
    it; it goes face up to its exile pile, a starting card out of the game, a fear card onto the fear deck). At the
    table every player sees those cards as they are put down: docs/rules/arnak.md, section 2, "Cards shown as they
    are put away"."""
    pending = state.pending
    return pending is not None and pending.kind in ("keep", "exile") and pending.seat == action.seat


SHOWN_AT_THE_TABLE: dict[str, Callable[[Any, Any], bool]] = {"arnak": _arnak_hand_cards_put_away}
