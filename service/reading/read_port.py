"""The read port: the query objects the dashboard and the API's read routes read through, over one read-model
database and the store's reader. None of them can play a move or create a game
(``tests/service/reading/test_read_port.py``); that goes through the command side (``service.commands``) only."""

from __future__ import annotations

from dataclasses import dataclass

from service.commands.application import GameReader
from service.commands.rounds import RoundsReader
from service.reading.analytics import Analytics
from service.reading.judgements import Judgements
from service.reading.lists import Lists
from service.reading.read_db import ReadDatabase
from service.reading.replays import Replays


@dataclass(frozen=True)
class ReadPort:
    """Lists of tournaments, players and games; a game's records, replay frames and progress; the analytics; the
    judge's judgements; tournaments' entries and rounds."""

    db: ReadDatabase
    reader: GameReader  # (the store, read only: a game as a seat sees it, its log, a player, a tournament)
    lists: Lists
    replays: Replays
    analytics: Analytics
    judgements: Judgements  # finished games' stored judgements (``digsite analyse``)
    rounds: RoundsReader  # tournaments' entries and seated rounds (from the store, as the reader reads it)

    @classmethod
    def over(cls, reader: GameReader, cached_replays: int = 64) -> ReadPort:
        """The read port on the store ``reader`` reads (its read models beside its events)."""
        db = ReadDatabase(reader.database)
        return cls(
            db, reader, Lists(db), Replays(reader, cached_replays), Analytics(db), Judgements(db), RoundsReader(reader)
        )

    def close(self) -> None:
        self.db.close()
