"""The store and its recorders: the event store for a database URL and its migrations, the aggregates it keeps,
sealed snapshots, the lean PostgreSQL append, and the work-arounds of the eventsourcing library in one module."""
