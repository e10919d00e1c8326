"""Fair play: collusion, soft play, kingmaking and bot-like play, scored from the judge's figures (docs/fair_play.md).

``evidence``: what the signals read, one judged decision of a tournament's game at a time, with the players behind
the seats; built from the store by the service, or from games played in memory by a simulation. ``signals``: the
scores, pure. Nothing here names a game: every figure is an expected result the judge measured through the protocol.
"""
