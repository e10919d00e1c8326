-- The event store of the eventsourcing library (9.5), written out so schema changes are explicit.
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
