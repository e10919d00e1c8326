-- The store: the eventsourcing library's tables (9.5) written out so schema changes are explicit, the projection's
-- tracking table, the one-round-trip append, and the ledger with its trigger. The read models are not here: they
-- are declared in Python (service/store/read_models.py) and created from that by `digsite db upgrade`.
-- This file gathers what the numbered files of the earlier releases made of the store; a store they made has it
-- all, and is marked as having this one (service/store/backends.py: EARLIER).
-- {schema} and {lock_timeout} are filled in by `digsite db upgrade`.

-- Tables: digsite_events (one row per aggregate event, with the notification id that orders the log)
-- and digsite_snapshots. The insert function lets the library append in one round trip.
CREATE TABLE IF NOT EXISTS "{schema}"."digsite_events" (
    originator_id "uuid" NOT NULL,
    originator_version bigint NOT NULL,
    topic text,
    state bytea,
    notification_id bigserial,
    PRIMARY KEY (originator_id, originator_version)
) WITH (
    autovacuum_enabled = true,
    autovacuum_vacuum_threshold = 100000000,
    autovacuum_vacuum_scale_factor = 0.5,
    autovacuum_analyze_threshold = 1000,
    autovacuum_analyze_scale_factor = 0.01
);

DO $$ BEGIN
    CREATE TYPE "{schema}"."stored_event_uuid" AS (
        originator_id "uuid", originator_version bigint, topic text, state bytea
    );
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;

CREATE UNIQUE INDEX IF NOT EXISTS "digsite_events_notification_id_idx"
    ON "{schema}"."digsite_events" (notification_id ASC);

CREATE OR REPLACE FUNCTION "{schema}"."es_insert_events_uuid"(events "{schema}"."stored_event_uuid"[])
RETURNS SETOF bigint LANGUAGE plpgsql AS
$BODY$BEGIN    SET LOCAL lock_timeout = '{lock_timeout}s';    NOTIFY "digsite_events";    RETURN QUERY    INSERT INTO "{schema}"."digsite_events" AS t (    originator_id, originator_version, topic, state)    SELECT originator_id, originator_version, topic, state    FROM unnest(events)    RETURNING notification_id;END;$BODY$;

CREATE TABLE IF NOT EXISTS "{schema}"."digsite_snapshots" (
    originator_id "uuid" NOT NULL,
    originator_version bigint NOT NULL,
    topic text,
    state bytea,
    PRIMARY KEY (originator_id, originator_version)
) WITH (
    autovacuum_enabled = true,
    autovacuum_vacuum_threshold = 100000000,
    autovacuum_vacuum_scale_factor = 0.5,
    autovacuum_analyze_threshold = 1000,
    autovacuum_analyze_scale_factor = 0.01
);

-- The position of the read models' projection in the log (the library's tracking table), written in the same
-- transaction as each batch of read-model rows: exactly once.
CREATE TABLE IF NOT EXISTS "{schema}"."digsite_projection_tracking" (
    application_name text, notification_id bigint, PRIMARY KEY (application_name)
);

-- One move, one row: the append the play service makes on every move, as a function so that it is a
-- single statement the server prepares once per connection (parsed and planned once, parameters sent in
-- binary) instead of a multi-statement query parsed on every move. It does what the library's insert
-- does, in the same order: lock the table so that notification ids commit in the order they are
-- assigned (tracking projections rely on that), insert, notify the listeners, return the new id.
-- The lock and the notification last until the calling statement's transaction commits.
-- The notification carries the new record, so that a service process's push feed (service/serving/push.py),
-- woken by it, need not read the record back (under PostgreSQL's 8000 bytes, else it stays bare):
--   r1 <schema> <notification id> <game id> <version> <topic> <state, base64>
-- The schema is named since every schema of a database notifies on the same channel.
CREATE OR REPLACE FUNCTION "{schema}"."digsite_append_one"(
    new_originator_id "uuid", new_originator_version bigint, new_topic text, new_state bytea
) RETURNS bigint LANGUAGE plpgsql AS
$BODY$
DECLARE
    new_notification_id bigint;
    payload text;
BEGIN
    PERFORM set_config('lock_timeout', '{lock_timeout}s', true);
    LOCK TABLE "{schema}"."digsite_events" IN EXCLUSIVE MODE;
    INSERT INTO "{schema}"."digsite_events" (originator_id, originator_version, topic, state)
    VALUES (new_originator_id, new_originator_version, new_topic, new_state)
    RETURNING notification_id INTO new_notification_id;
    payload := concat_ws(' ', 'r1', '{schema}', new_notification_id, new_originator_id, new_originator_version,
                         new_topic, encode(new_state, 'base64'));
    IF octet_length(payload) < 8000 THEN
        PERFORM pg_notify('digsite_events', payload);
    ELSE
        NOTIFY "digsite_events";
    END IF;
    RETURN new_notification_id;
END;
$BODY$;

-- The ledger (service/integrity/ledger.py): one entry when a game is created and one when it ends, chained by hash.
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

-- Copies of the checkpoints issued by `digsite checkpoint` (service/integrity/checkpoint.py): public documents, proven
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
