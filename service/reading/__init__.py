"""The read side: the projections that keep the read models, and the query objects read from them (the read port:
lists, replays, analytics), with standings, the analytics catalogue and crafting answers."""
