-- A tournament's rule options (every game of it plays them: docs/api.md, "A tournament is for one game"), kept on
-- its read-model row so that the tournaments list shows them as the tournament itself does. A tournament projected
-- before holds none (NULL): it was created before tournaments held options, which is what NULL says.
-- Note: stop the previous release's `digsite projections run` first: it would not write this column.

ALTER TABLE "{schema}".rm_tournaments ADD COLUMN IF NOT EXISTS options TEXT;
