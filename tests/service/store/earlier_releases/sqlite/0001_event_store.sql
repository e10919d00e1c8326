-- The event store of the eventsourcing library (9.5) on SQLite, written out so schema changes are explicit.
-- SQLite's rowid of stored_events is the notification id that orders the log.
CREATE TABLE IF NOT EXISTS stored_events (
    originator_id TEXT,
    originator_version INTEGER,
    topic TEXT,
    state BLOB,
    PRIMARY KEY (originator_id, originator_version)
);

CREATE TABLE IF NOT EXISTS stored_snapshots (
    originator_id TEXT,
    originator_version INTEGER,
    topic TEXT,
    state BLOB,
    PRIMARY KEY (originator_id, originator_version)
) WITHOUT ROWID;
