"""The ``digsite`` command: the service's commands, plus those that compose the service with the dashboard."""

from __future__ import annotations

# Each module adds its commands to ``main`` when imported.
from entrypoints import dashboard, up  # noqa: F401
from service.cli import main

__all__ = ["main"]
