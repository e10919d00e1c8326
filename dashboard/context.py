"""What every page shares: the guarded reads (``Data``), the door (``Gate``), which says who is asking, and the
answers begun before they are asked for (``Early``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from dashboard.access import Visitor
from dashboard.data import Data
from dashboard.early import Early
from dashboard.session import Gate


@dataclass
class Context:
    data: Data
    gate: Gate
    early: Early = field(default_factory=Early)

    def visitor(self) -> Visitor:
        """Who sent the request being answered (from its session cookie, checked on the server)."""
        return self.gate.visitor()
