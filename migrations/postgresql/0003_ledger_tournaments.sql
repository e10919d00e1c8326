-- The ledger enters every record of a tournament's own chain (its creation, entries, withdrawals, seated rounds,
-- broadcast settings, penalties: service/store/aggregates.py, TOURNAMENT_RECORDS) as an entry of kind 'tournament'
-- naming the tournament, in the same transaction as the record: the trigger of 0002 again, with the tournament's
-- topics added. Tournaments stored before this migration have records without a hash and no entries: `digsite ledger
-- backfill` enters them (docs/audit.md, *Tournaments*); until then `digsite verify` reports them as not covered.
-- {schema} is filled in by `digsite db upgrade`.
-- Note: tournaments stored before this release are not in the ledger: run `digsite ledger backfill` once.

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
    new_kind := CASE
        WHEN NEW.topic = 'service.aggregates:Game.Created' THEN 'created'
        WHEN NEW.topic = 'service.aggregates:Game.RulingRecorded' THEN 'ruling'
        WHEN NEW.topic = 'service.aggregates:Game.SeedRevealed' THEN 'finished'
        ELSE 'tournament'
    END;
    new_record_hash := convert_from(NEW.state, 'UTF8')::jsonb ->> 'hash';
    IF new_record_hash IS NULL THEN
        RAISE EXCEPTION 'record % v% has no hash: it cannot enter the ledger', NEW.originator_id, NEW.originator_version;
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
    FOR EACH ROW WHEN (NEW.topic IN (
        'service.aggregates:Game.Created', 'service.aggregates:Game.SeedRevealed', 'service.aggregates:Game.RulingRecorded',
        'service.aggregates:Tournament.Created', 'service.aggregates:Tournament.EntryAdded',
        'service.aggregates:Tournament.EntryWithdrawn', 'service.aggregates:Tournament.RoundSeated',
        'service.aggregates:Tournament.BroadcastSet', 'service.aggregates:Tournament.PenaltyGiven'
    ))
    EXECUTE FUNCTION "{schema}"."digsite_ledger_append"();
