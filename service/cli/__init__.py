"""The ``digsite`` command line. Each resource registers its own commands in a module of this package."""

from __future__ import annotations

import click


@click.group()
@click.version_option(package_name="digsite")
def main() -> None:
    """Digsite: event-sourced Ruins and Lost Ruins of Arnak, with replay analytics."""


# Each module adds its commands to ``main`` when imported. The commands that also run the dashboard (``dashboard``,
# ``up``) are added by the composition root, ``entrypoints.cli`` (the ``digsite`` script): the service knows no screen.
from service.cli import audit, bots, db, projections, serve, simulate  # noqa: E402, F401
