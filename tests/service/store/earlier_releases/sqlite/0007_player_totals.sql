-- Each player's finished games and wins, kept on the player's row.
--
-- A page or a picker naming players read their games and wins by counting their rows of rm_player_games, which
-- grows with the games they played (docs/performance.md, section 7). The projection now adds a finished game's
-- seats to its players' totals in the batch that finishes it (service/projections/tables.py); a distributed
-- rebuild counts them once at its end. Here they are counted once from what is projected already.
-- Note: stop the previous release's `digsite projections run` first: it would not keep these totals.

ALTER TABLE rm_players ADD COLUMN games INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rm_players ADD COLUMN wins INTEGER NOT NULL DEFAULT 0;

UPDATE rm_players SET
    games = (SELECT COUNT(*) FROM rm_player_games pg WHERE pg.player_id = rm_players.player_id AND pg.finished = 1),
    wins = (
        SELECT COALESCE(SUM(pg.won), 0) FROM rm_player_games pg
        WHERE pg.player_id = rm_players.player_id AND pg.finished = 1
    );
