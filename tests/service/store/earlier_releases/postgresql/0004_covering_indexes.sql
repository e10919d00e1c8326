-- A player's tendencies page reads one player's rounds, purchases and claims out of every game's (about
-- 300,000 purchases at 10,000 games). With an index on player_id alone, each matching row was then
-- fetched from its table, one random page read per row; these indexes hold every column those queries
-- read (service/queries.py: finishing_positions, vp_by_round, torches_by_round, purchases, claims), so the
-- queries are answered from the index alone. They replace the player_id indexes (same leading column).

DROP INDEX IF EXISTS "{schema}".rm_player_rounds_player;
CREATE INDEX IF NOT EXISTS rm_player_rounds_player_covering
    ON "{schema}".rm_player_rounds (player_id, round, place, vp_end, torches_spent);
DROP INDEX IF EXISTS "{schema}".rm_purchases_player;
CREATE INDEX IF NOT EXISTS rm_purchases_player_covering
    ON "{schema}".rm_purchases (player_id, effect, effect_kind, position, price);
DROP INDEX IF EXISTS "{schema}".rm_claims_player;
CREATE INDEX IF NOT EXISTS rm_claims_player_covering ON "{schema}".rm_claims (player_id, rank, sleeves);
