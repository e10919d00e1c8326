"""What every page shares: the guarded reads (``Data``) and the door (``Gate``), which says who is asking."""

from __future__ import annotations

from dataclasses import dataclass

from dashboard.access import Visitor
from dashboard.data import Data
from dashboard.session import Gate


@dataclass
class Context:
    data: Data
    gate: Gate

    def visitor(self) -> Visitor:
        """Who sent the request being answered (from its session cookie, checked on the server)."""
        return self.gate.visitor()
