"""The ``digsite`` command group every module of this package adds its commands to."""

from __future__ import annotations

from typing import Any

import click

from service.cli.problems import as_line


class DigsiteGroup(click.Group):
    """Every command's store failures as one line "Error: ..." (service/cli/problems.py), never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except Exception as error:
            line = as_line(error)
            if line is None:
                raise
            raise line from None


@click.group(cls=DigsiteGroup)
@click.version_option(package_name="digsite")
def main() -> None:
    """Digsite: event-sourced Ruins and Lost Ruins of Arnak, with replay analytics."""
