-- The ledger (service/ledger.py): one entry when a game is created and one when it ends, chained by hash,
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

-- Copies of the checkpoints issued by `digsite checkpoint` (service/checkpoint.py): public documents, proven
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

-- Snapshots are now sealed with the server secret (service/snapshots.py); the service ignores unsealed ones,
-- so the old ones go (they are a cache: the records give every state).
DELETE FROM stored_snapshots;
