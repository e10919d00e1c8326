"""``python -m service.cli`` runs the service's commands (``digsite`` without ``dashboard`` and ``up``)."""

from service.cli import main

main()
