"""The write side: the eventsourcing Application and the service that plays moves and creates games, players and
tournaments, the live games kept in memory, and importing a game."""
