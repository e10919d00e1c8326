"""The ``digsite`` command line. Each resource registers its own commands in a module of this package."""

from __future__ import annotations

from typing import Any

import click


class DigsiteGroup(click.Group):
    """Every command's store failures as one line "Error: ..." (service/cli/problems.py), never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except Exception as error:
            from service.cli.problems import as_line

            line = as_line(error)
            if line is None:
                raise
            raise line from None


@click.group(cls=DigsiteGroup)
@click.version_option(package_name="digsite")
def main() -> None:
    """Digsite: event-sourced Ruins and Lost Ruins of Arnak, with replay analytics."""


# Each module adds its commands to ``main`` when imported. The commands that also run the dashboard (``dashboard``,
# ``up``) are added by the composition root, ``entrypoints.cli`` (the ``digsite`` script): the service knows no screen.
from service.cli import audit, bots, db, projections, serve, simulate  # noqa: E402, F401
