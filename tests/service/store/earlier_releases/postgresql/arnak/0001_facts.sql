-- Lost Ruins of Arnak's fact tables (domain/arnak/analytics.py: TABLES), filled from each move's facts by the
-- read models and rebuilt with them. Columns that add up default to 0; the ones set or kept stay NULL until
-- a fact gives them a value. tests/domain/arnak/test_migrations.py checks these tables against the declared ones.
-- {schema} is filled in by `digsite db upgrade`.

CREATE TABLE IF NOT EXISTS "{schema}".rm_arnak_seats (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    rival INTEGER,
    solo INTEGER,
    difficulty INTEGER,
    side TEXT,
    main_actions INTEGER NOT NULL DEFAULT 0,
    digs INTEGER NOT NULL DEFAULT 0,
    discoveries INTEGER NOT NULL DEFAULT 0,
    overcomes INTEGER NOT NULL DEFAULT 0,
    buys INTEGER NOT NULL DEFAULT 0,
    card_plays INTEGER NOT NULL DEFAULT 0,
    researches INTEGER NOT NULL DEFAULT 0,
    assistant_actions INTEGER NOT NULL DEFAULT 0,
    passes INTEGER NOT NULL DEFAULT 0,
    research_steps INTEGER NOT NULL DEFAULT 0,
    cards_bought INTEGER NOT NULL DEFAULT 0,
    fear_taken INTEGER NOT NULL DEFAULT 0,
    guardians_overcome INTEGER NOT NULL DEFAULT 0,
    idols_placed INTEGER NOT NULL DEFAULT 0,
    rounds_played INTEGER NOT NULL DEFAULT 0,
    site_actions INTEGER NOT NULL DEFAULT 0,
    cards_played INTEGER NOT NULL DEFAULT 0,
    glass_steps INTEGER NOT NULL DEFAULT 0,
    notebook_steps INTEGER NOT NULL DEFAULT 0,
    temple_tiles INTEGER NOT NULL DEFAULT 0,
    reached_temple INTEGER NOT NULL DEFAULT 0,
    items_bought INTEGER NOT NULL DEFAULT 0,
    artifacts_bought INTEGER NOT NULL DEFAULT 0,
    item_cost_sum INTEGER NOT NULL DEFAULT 0,
    artifact_cost_sum INTEGER NOT NULL DEFAULT 0,
    price_paid INTEGER NOT NULL DEFAULT 0,
    fear_exiled INTEGER NOT NULL DEFAULT 0,
    cards_exiled INTEGER NOT NULL DEFAULT 0,
    idols_taken INTEGER NOT NULL DEFAULT 0,
    guardian_round_sum INTEGER NOT NULL DEFAULT 0,
    boons_used INTEGER NOT NULL DEFAULT 0,
    assistants_taken INTEGER NOT NULL DEFAULT 0,
    assistants_upgraded INTEGER NOT NULL DEFAULT 0,
    assistants_used INTEGER NOT NULL DEFAULT 0,
    temple_place INTEGER,
    score_research INTEGER,
    score_temple_tiles INTEGER,
    score_idols INTEGER,
    score_idol_slots INTEGER,
    score_guardians INTEGER,
    score_cards INTEGER,
    score_fear INTEGER,
    solo_margin INTEGER,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE IF NOT EXISTS "{schema}".rm_arnak_rounds (
    game_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    main_actions INTEGER NOT NULL DEFAULT 0,
    digs INTEGER NOT NULL DEFAULT 0,
    discoveries INTEGER NOT NULL DEFAULT 0,
    overcomes INTEGER NOT NULL DEFAULT 0,
    buys INTEGER NOT NULL DEFAULT 0,
    card_plays INTEGER NOT NULL DEFAULT 0,
    researches INTEGER NOT NULL DEFAULT 0,
    assistant_actions INTEGER NOT NULL DEFAULT 0,
    passes INTEGER NOT NULL DEFAULT 0,
    research_steps INTEGER NOT NULL DEFAULT 0,
    cards_bought INTEGER NOT NULL DEFAULT 0,
    fear_taken INTEGER NOT NULL DEFAULT 0,
    guardians_overcome INTEGER NOT NULL DEFAULT 0,
    idols_placed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, round, seat)
);

CREATE TABLE IF NOT EXISTS "{schema}".rm_arnak_purchases (
    game_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    round INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    card INTEGER NOT NULL,
    name TEXT,
    kind TEXT,
    cost INTEGER,
    price INTEGER,
    PRIMARY KEY (game_id, version, idx)
);

CREATE TABLE IF NOT EXISTS "{schema}".rm_arnak_guardians (
    game_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    guardian INTEGER NOT NULL,
    round INTEGER,
    PRIMARY KEY (game_id, version, idx)
);
