"""The read side: the projections that keep the read models, and the queries, lists, standings, analytics
catalogue, replays and crafting answers read from them."""
