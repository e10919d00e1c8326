"""Digsite's service layer: the event store, projections, the Flask API and the ``digsite`` CLI."""
