"""The ``digsite`` command line. Each resource registers its own commands in a module of this package, on the
group in ``service.cli.group``; importing this package registers them all.

The commands that also run the dashboard (``dashboard``, ``up``) are added by the composition root,
``entrypoints.cli`` (the ``digsite`` script): the service knows no screen."""

from __future__ import annotations

from service.cli import analyse, audit, bots, db, fair_play, projections, rulings, serve, simulate, tournament
from service.cli.group import DigsiteGroup, main

__all__ = [
    "DigsiteGroup",
    "analyse",
    "audit",
    "bots",
    "db",
    "fair_play",
    "main",
    "projections",
    "rulings",
    "serve",
    "simulate",
    "tournament",
]
