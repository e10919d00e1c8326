-- One move, one row: the append the play service makes on every move, as a function so that it is a
-- single statement the server prepares once per connection (parsed and planned once, parameters sent in
-- binary) instead of a multi-statement query parsed on every move. It does what the library's insert
-- does, in the same order: lock the table so that notification ids commit in the order they are
-- assigned (tracking projections rely on that), notify the listeners, insert, return the new id.
-- The lock and the notification last until the calling statement's transaction commits.

CREATE OR REPLACE FUNCTION "{schema}"."digsite_append_one"(
    new_originator_id "uuid", new_originator_version bigint, new_topic text, new_state bytea
) RETURNS bigint LANGUAGE plpgsql AS
$BODY$
DECLARE
    new_notification_id bigint;
BEGIN
    PERFORM set_config('lock_timeout', '{lock_timeout}s', true);
    LOCK TABLE "{schema}"."digsite_events" IN EXCLUSIVE MODE;
    NOTIFY "digsite_events";
    INSERT INTO "{schema}"."digsite_events" (originator_id, originator_version, topic, state)
    VALUES (new_originator_id, new_originator_version, new_topic, new_state)
    RETURNING notification_id INTO new_notification_id;
    RETURN new_notification_id;
END;
$BODY$;
