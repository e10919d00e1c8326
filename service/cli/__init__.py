"""The ``digsite`` command line. Each resource registers its own commands in a module of this package."""

from __future__ import annotations

import click


@click.group()
@click.version_option(package_name="digsite")
def main() -> None:
    """Digsite: event-sourced Ruins and Lost Ruins of Arnak, with replay analytics."""


# Each module adds its commands to ``main`` when imported.
from service.cli import audit, bots, dashboard, db, projections, serve, simulate, up  # noqa: E402, F401
