-- Each player's finished games and wins, kept on the player's row.
--
-- A page or a picker naming players read their games and wins by counting their rows of rm_player_games, which
-- grows with the games they played (docs/performance.md, section 7). The projection now adds a finished game's
-- seats to its players' totals in the batch that finishes it (service/projections/tables.py); a distributed
-- rebuild counts them once at its end. Here they are counted once from what is projected already.
-- Note: stop the previous release's `digsite projections run` first: it would not keep these totals.
-- {schema} is filled in by `digsite db upgrade`.

ALTER TABLE "{schema}".rm_players
    ADD COLUMN games INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN wins INTEGER NOT NULL DEFAULT 0;

UPDATE "{schema}".rm_players p SET games = t.games, wins = t.wins
FROM (
    SELECT player_id, COUNT(*) AS games, SUM(won) AS wins
    FROM "{schema}".rm_player_games WHERE finished = 1 GROUP BY player_id
) t
WHERE t.player_id = p.player_id;
