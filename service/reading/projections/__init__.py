"""Projections: read models derived from the event store, kept up to date with the library's tracking.

``ReadModelProjection`` turns stored records into row changes; ``ReadModels`` writes a batch of them
together with the tracking row in ONE transaction (so a crash never loses or double-counts an event);
``Follower`` reads the notification log in order and drives both, on PostgreSQL and SQLite alike.
"""
