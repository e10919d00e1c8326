-- The field's figures kept as sums, and players in name order for the pickers' search.
--
-- The field's figures kept as sums (service/projections/field.py): per game kind, scope (a tournament's id, ''
-- for games of none, '*' for every game), figure, table size and group, each sum of the figure's rows over the
-- finished games. Filled by the projection: its next batch finds the table without its "complete" marker and
-- fills it from every finished game once (until then the pages compute the field's figures afresh).
-- {schema} is filled in by `digsite db upgrade`.

CREATE TABLE "{schema}".rm_field_sums (
    kind TEXT NOT NULL,
    scope TEXT NOT NULL,
    figure TEXT NOT NULL,
    n_players INTEGER NOT NULL,
    grp TEXT NOT NULL,
    measure TEXT NOT NULL,
    total DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (kind, scope, figure, n_players, grp, measure)
);

-- A picker's search (service/queries.py, find_players) reads names in order and stops at its first matches,
-- rather than reading every player.
CREATE INDEX rm_players_name ON "{schema}".rm_players (name, player_id);
