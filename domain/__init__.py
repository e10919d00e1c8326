"""Digsite's rules: pure, deterministic game engines with no I/O.

Each game lives in its own subpackage (``domain.ruins``) and exposes the same small API:
``new_game``, ``legal_actions``, ``decide``, ``evolve``, ``view`` and ``outcome``.
"""
