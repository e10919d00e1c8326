-- The ledger (service/ledger.py): one entry when a game is created and one when it ends, chained by hash.
-- A trigger on the events table writes the entry in the same statement, and so the same transaction, as the
-- record it names, whatever path appends it (the library's insert, the multi-row append, digsite_append_one).
-- Entries are appended under a lock on the ledger, so two games ending at once take turns.

CREATE TABLE IF NOT EXISTS "{schema}"."digsite_ledger" (
    seq bigint PRIMARY KEY,
    kind text NOT NULL,
    game_id uuid NOT NULL,
    version bigint NOT NULL,
    record_hash text NOT NULL,
    origin text NOT NULL,
    at text NOT NULL,
    prev_hash text NOT NULL,
    entry_hash text NOT NULL
);

CREATE INDEX IF NOT EXISTS "digsite_ledger_game_idx" ON "{schema}"."digsite_ledger" (game_id);

-- Copies of the checkpoints issued by `digsite checkpoint` (service/checkpoint.py): public documents, proven
-- by their signature, kept so the service can say which one covers a game.
CREATE TABLE IF NOT EXISTS "{schema}"."digsite_checkpoints" (
    id bigserial PRIMARY KEY,
    ledger_size bigint NOT NULL,
    head text NOT NULL,
    key_id text NOT NULL,
    issued_at text NOT NULL,
    statement text NOT NULL,
    signature text NOT NULL
);

-- entry_hash = sha256('digsite-ledger/1|seq|kind|game|version|record_hash|origin|at|prev'), as in Python.
CREATE OR REPLACE FUNCTION "{schema}"."digsite_ledger_append"() RETURNS trigger LANGUAGE plpgsql AS
$BODY$
DECLARE
    last_seq bigint;
    last_hash text;
    new_kind text;
    new_record_hash text;
    new_at text;
BEGIN
    new_kind := CASE WHEN NEW.topic = 'service.aggregates:Game.Created' THEN 'created' ELSE 'finished' END;
    new_record_hash := convert_from(NEW.state, 'UTF8')::jsonb ->> 'hash';
    IF new_record_hash IS NULL THEN
        RAISE EXCEPTION 'game record % v% has no hash: it cannot enter the ledger', NEW.originator_id, NEW.originator_version;
    END IF;
    LOCK TABLE "{schema}"."digsite_ledger" IN SHARE ROW EXCLUSIVE MODE;
    SELECT seq, entry_hash INTO last_seq, last_hash FROM "{schema}"."digsite_ledger" ORDER BY seq DESC LIMIT 1;
    IF last_seq IS NULL THEN
        last_seq := 0;
        last_hash := repeat('0', 64);
    END IF;
    new_at := to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"');
    INSERT INTO "{schema}"."digsite_ledger"
        (seq, kind, game_id, version, record_hash, origin, at, prev_hash, entry_hash)
    VALUES (
        last_seq + 1, new_kind, NEW.originator_id, NEW.originator_version, new_record_hash, 'live', new_at, last_hash,
        encode(sha256(convert_to(concat_ws('|',
            'digsite-ledger/1', (last_seq + 1)::text, new_kind, NEW.originator_id::text,
            NEW.originator_version::text, new_record_hash, 'live', new_at, last_hash
        ), 'UTF8')), 'hex')
    );
    RETURN NULL;
END;
$BODY$;

DROP TRIGGER IF EXISTS "digsite_ledger_append" ON "{schema}"."digsite_events";
CREATE TRIGGER "digsite_ledger_append" AFTER INSERT ON "{schema}"."digsite_events"
    FOR EACH ROW WHEN (NEW.topic IN ('service.aggregates:Game.Created', 'service.aggregates:Game.SeedRevealed'))
    EXECUTE FUNCTION "{schema}"."digsite_ledger_append"();

-- Snapshots are now sealed with the server secret (service/snapshots.py); the service ignores unsealed ones,
-- so the old ones go (they are a cache: the records give every state).
DELETE FROM "{schema}"."digsite_snapshots";
