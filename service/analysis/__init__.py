"""The judge's judgements of finished games, on the service side: judged from the stored records
(``judging``), written to the read models in one transaction a game (``stored``); docs/judge.md."""
