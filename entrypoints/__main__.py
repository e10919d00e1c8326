"""``python -m entrypoints`` runs the ``digsite`` command."""

from entrypoints.cli import main

main()
