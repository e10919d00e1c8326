"""Digsite's rules: pure, deterministic game engines with no I/O.

Each game lives in its own subpackage (``domain.ruins``, ``domain.arnak``) and meets the same protocol
(``domain.protocol.GameRules``: ``start``, ``decide``, ``evolve``, ``legal_actions``, ``to_act``, ``view``,
``result``...); ``domain.games`` registers them, with their schemas, bots (``domain.policies``) and analytics
(``domain.metrics``). Every other layer reaches a game through that registry (docs/games.md).
"""
