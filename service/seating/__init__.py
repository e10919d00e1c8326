"""Seating a tournament round: pure, seeded functions from entries (and what happened so far) to tables."""
