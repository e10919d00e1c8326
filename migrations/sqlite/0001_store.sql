-- The store: the eventsourcing library's tables (9.5) on SQLite written out so schema changes are explicit, the
-- projection's tracking table and the ledger. The read models are not here: they are declared in Python
-- (service/store/read_models.py) and created from that by `digsite db upgrade`.
-- This file gathers what the numbered files of the earlier releases made of the store; a store they made has it
-- all, and is marked as having this one (service/store/backends.py: EARLIER).

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

-- The position of the read models' projection in the log (the library's tracking table), written in the same
-- transaction as each batch of read-model rows: exactly once.
CREATE TABLE IF NOT EXISTS tracking (
    application_name TEXT, notification_id INTEGER, PRIMARY KEY (application_name)
) WITHOUT ROWID;

-- The ledger (service/integrity/ledger.py): one entry when a game is created and one when it ends, chained by hash,
-- written by the application's SQLite recorder in the same transaction as the record it names.
CREATE TABLE IF NOT EXISTS digsite_ledger (
    seq INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    game_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    record_hash TEXT NOT NULL,
    origin TEXT NOT NULL,
    at TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    entry_hash TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS digsite_ledger_game_idx ON digsite_ledger (game_id);

-- Copies of the checkpoints issued by `digsite checkpoint` (service/integrity/checkpoint.py): public documents, proven
-- by their signature, kept so the service can say which one covers a game.
CREATE TABLE IF NOT EXISTS digsite_checkpoints (
    id INTEGER PRIMARY KEY,
    ledger_size INTEGER NOT NULL,
    head TEXT NOT NULL,
    key_id TEXT NOT NULL,
    issued_at TEXT NOT NULL,
    statement TEXT NOT NULL,
    signature TEXT NOT NULL
);

