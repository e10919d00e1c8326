-- Ruins' fact tables (domain/ruins/analytics.py: TABLES), filled by the read models' projection from each
-- move's facts and combined per column. Read models: `digsite projections rebuild` derives them again.

CREATE TABLE IF NOT EXISTS rm_ruins_seats (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
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
    claim_round_sum INTEGER NOT NULL DEFAULT 0,
    night_flips INTEGER NOT NULL DEFAULT 0,
    rounds_played INTEGER NOT NULL DEFAULT 0,
    first_outs INTEGER NOT NULL DEFAULT 0,
    showdown INTEGER NOT NULL DEFAULT 0,
    showdown_won INTEGER NOT NULL DEFAULT 0,
    led_round1 INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS rm_ruins_rounds (
    game_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    played INTEGER NOT NULL DEFAULT 0,
    first_out INTEGER NOT NULL DEFAULT 0,
    place INTEGER,
    vp_end INTEGER,
    torches_spent INTEGER NOT NULL DEFAULT 0,
    purchases INTEGER NOT NULL DEFAULT 0,
    claims INTEGER NOT NULL DEFAULT 0,
    night_flips INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, round, seat)
);
CREATE TABLE IF NOT EXISTS rm_ruins_games (
    game_id TEXT NOT NULL,
    rounds INTEGER,
    showdown INTEGER,
    first_leader INTEGER,
    win_how TEXT,
    PRIMARY KEY (game_id)
);
CREATE TABLE IF NOT EXISTS rm_ruins_purchases (
    game_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    round INTEGER NOT NULL,
    discovery INTEGER NOT NULL,
    effect TEXT NOT NULL,
    effect_kind TEXT NOT NULL,
    position TEXT NOT NULL,
    price INTEGER NOT NULL,
    PRIMARY KEY (game_id, version, idx)
);
CREATE TABLE IF NOT EXISTS rm_ruins_claims (
    game_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    round INTEGER NOT NULL,
    ruin INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    sleeves INTEGER NOT NULL,
    PRIMARY KEY (game_id, version, idx)
);
