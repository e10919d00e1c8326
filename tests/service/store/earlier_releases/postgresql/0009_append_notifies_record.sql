-- The move's append (0003) now sends the new record itself with its notification, so that a service process's push
-- feed (service/push.py), woken by it, need not read the record back: each worker read every move of every game
-- (one query a move a worker, 6 % of the API's CPU under bench.seats, 2026-12-04). The payload (under PostgreSQL's
-- 8000 bytes, else the notification stays bare and the feed reads the store as before):
--   r1 <schema> <notification id> <game id> <version> <topic> <state, base64>
-- The schema is named since every schema of a database notifies on the same channel. Notifications are delivered
-- in the order their transactions commit, which the table lock makes the order of the notification ids.
-- Either release runs beside either function: an older feed ignores payloads, a newer one reads a bare notification.
-- {schema} and {lock_timeout} are filled in by `digsite db upgrade`.

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
