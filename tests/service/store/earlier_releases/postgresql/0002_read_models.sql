-- Read models for replay and analytics, written by `digsite projections run` (service/projections/).
-- Every table is derived from the event store and can be rebuilt from it: `digsite projections rebuild`.
-- rm_* rows and the projection's tracking row are written in one transaction per batch (exactly once).
-- {schema} is filled in by `digsite db upgrade`.

CREATE TABLE IF NOT EXISTS "{schema}".rm_players (
    player_id TEXT PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL, bot TEXT, created_at TEXT
);
CREATE TABLE IF NOT EXISTS "{schema}".rm_tournaments (
    tournament_id TEXT PRIMARY KEY, name TEXT NOT NULL, rounds INTEGER, game TEXT, created_at TEXT
);
CREATE TABLE IF NOT EXISTS "{schema}".rm_games (
    game_id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    tournament_id TEXT,
    round_label INTEGER,
    table_label INTEGER,
    n_players INTEGER NOT NULL,
    players TEXT NOT NULL,
    status TEXT NOT NULL,
    winner_seat INTEGER,
    winner_player TEXT,
    win_how TEXT,
    moves INTEGER NOT NULL DEFAULT 0,
    rounds INTEGER NOT NULL DEFAULT 1,
    showdown INTEGER NOT NULL DEFAULT 0,
    first_leader_seat INTEGER,
    started_at TEXT,
    ended_at TEXT,
    last_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX IF NOT EXISTS rm_games_tournament ON "{schema}".rm_games (tournament_id, round_label, table_label);
CREATE INDEX IF NOT EXISTS rm_games_kind_status ON "{schema}".rm_games (kind, status);
CREATE TABLE IF NOT EXISTS "{schema}".rm_moves (
    game_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    round INTEGER NOT NULL,
    at TEXT NOT NULL,
    think_ms INTEGER,
    lead INTEGER NOT NULL DEFAULT 0,
    size INTEGER NOT NULL DEFAULT 0,
    rank INTEGER NOT NULL DEFAULT 0,
    skipped_next INTEGER NOT NULL DEFAULT 0,
    could_follow INTEGER,
    torches_spent INTEGER NOT NULL DEFAULT 0,
    summary TEXT NOT NULL,
    PRIMARY KEY (game_id, version)
);
CREATE TABLE IF NOT EXISTS "{schema}".rm_player_games (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    n_players INTEGER NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    won INTEGER NOT NULL DEFAULT 0,
    final_vp INTEGER NOT NULL DEFAULT 0,
    moves INTEGER NOT NULL DEFAULT 0,
    think_ms INTEGER NOT NULL DEFAULT 0,
    follow_turns INTEGER NOT NULL DEFAULT 0,
    follow_turns_able INTEGER NOT NULL DEFAULT 0,
    passes INTEGER NOT NULL DEFAULT 0,
    passes_able INTEGER NOT NULL DEFAULT 0,
    plays INTEGER NOT NULL DEFAULT 0,
    leads INTEGER NOT NULL DEFAULT 0,
    lead_size_sum INTEGER NOT NULL DEFAULT 0,
    lead_rank_sum INTEGER NOT NULL DEFAULT 0,
    skips INTEGER NOT NULL DEFAULT 0,
    torches_spent INTEGER NOT NULL DEFAULT 0,
    purchases INTEGER NOT NULL DEFAULT 0,
    claims INTEGER NOT NULL DEFAULT 0,
    night_flips INTEGER NOT NULL DEFAULT 0,
    rounds_played INTEGER NOT NULL DEFAULT 0,
    first_outs INTEGER NOT NULL DEFAULT 0,
    showdown INTEGER NOT NULL DEFAULT 0,
    showdown_won INTEGER NOT NULL DEFAULT 0,
    led_round1 INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS rm_player_games_player ON "{schema}".rm_player_games (player_id, finished);
CREATE TABLE IF NOT EXISTS "{schema}".rm_player_rounds (
    game_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    place INTEGER,
    vp_end INTEGER,
    torches_spent INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, round, seat)
);
CREATE INDEX IF NOT EXISTS rm_player_rounds_player ON "{schema}".rm_player_rounds (player_id);
CREATE TABLE IF NOT EXISTS "{schema}".rm_purchases (
    game_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    discovery INTEGER NOT NULL,
    effect TEXT NOT NULL,
    effect_kind TEXT NOT NULL,
    position TEXT NOT NULL,
    price INTEGER NOT NULL,
    PRIMARY KEY (game_id, version, idx)
);
CREATE INDEX IF NOT EXISTS rm_purchases_player ON "{schema}".rm_purchases (player_id);
CREATE TABLE IF NOT EXISTS "{schema}".rm_claims (
    game_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    ruin INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    sleeves INTEGER NOT NULL,
    PRIMARY KEY (game_id, version, idx)
);
CREATE INDEX IF NOT EXISTS rm_claims_player ON "{schema}".rm_claims (player_id);

CREATE TABLE IF NOT EXISTS "{schema}"."digsite_projection_tracking" (
    application_name text, notification_id bigint, PRIMARY KEY (application_name)
);
