"""``python -m service.cli`` runs the same CLI as the ``digsite`` script."""

from service.cli import main

main()
