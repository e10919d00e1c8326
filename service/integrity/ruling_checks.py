"""What ``verify`` checks of a game's ruling records (``service.commands.rulings``), beyond the hash chain that
covers them like any record: each names a known ruling with a reason, stands where that ruling may stand (a
substitute or a restart while the game is in play, an adjusted result once it is over), says what the records
say (the seat's player it replaces, the engine's own result beside the adjusted one), and no move follows a
ruling that stopped the game (annul, restart)."""

from __future__ import annotations

from typing import Any

from service.commands.rulings import GAME_RULINGS
from service.store.aggregates import STOPPING


def check_rulings(records: list[dict[str, Any]], rules: Any, state: Any) -> tuple[bool, str, int | None]:
    """The ``rulings`` check of a game whose records replayed to ``state``: ok, what was found, the first bad
    record (``service.integrity.audit`` makes it a ``Check``)."""
    rulings = 0
    players = list((records[0].get("body") or {}).get("players") or [])
    # each seat's token hash of the moment and how often its link was voided (a ``void_link`` names both)
    links = {"hashes": list((records[0].get("body") or {}).get("token_hashes") or []), "voided": [0] * len(players)}
    over = False
    stopped: int | None = None
    forfeit = None  # (a forfeit's result: the game's own, when a forfeit clock ended it)
    for record in records[1:]:
        version, kind, body = record.get("version"), record.get("type"), record.get("body") or {}
        if kind == "forfeit":
            forfeit = body.get("result")
        if kind == "seed_revealed":
            over = True
            continue
        if stopped is not None:
            return False, f"record {version} follows the ruling of record {stopped}, which stopped the game", version
        if kind != "ruling":
            continue
        rulings += 1
        problem = _problem(body, version, players, over, rules, state, forfeit) or _link_problem(body, links)
        if problem:
            return False, f"record {version}: {problem}", version
        if body["ruling"] in STOPPING:
            stopped = version
    if not rulings:
        return True, "no ruling was recorded on this game", None
    return True, f"{rulings} ruling(s), each with a reason, each standing where it may", None


def _link_problem(body: dict[str, Any], links: dict[str, list[Any]]) -> str | None:
    """A ``void_link`` (or a ``substitute``, which replaces a seat's token too) against the seat's token of that
    moment: the voided hash is the one the seat held, the generation the next one; then the new hash holds."""
    details, ruling = body.get("details") or {}, body.get("ruling")
    seat = details.get("seat")
    if ruling not in ("void_link", "substitute") or not isinstance(seat, int) or not 0 <= seat < len(links["hashes"]):
        return None
    if ruling == "void_link":
        if details.get("voided_hash") != links["hashes"][seat]:
            return f"the voided link is not the token seat {seat} held then"
        if details.get("generation") != links["voided"][seat] + 1:
            return f"the voided link's generation is not the next one of seat {seat}"
        if not isinstance(details.get("token_hash"), str):
            return "the voided link names no new seat token"
        links["voided"][seat] += 1
    links["hashes"][seat] = details.get("token_hash")
    return None


def _problem(
    body: dict[str, Any], version: Any, players: list[Any], over: bool, rules: Any, state: Any, forfeit: Any
) -> str | None:
    ruling, details = body.get("ruling"), body.get("details")
    if ruling not in GAME_RULINGS:
        return f"{ruling!r} is not a ruling"
    if not isinstance(body.get("reason"), str) or not body["reason"].strip():
        return "the ruling has no reason"
    if not isinstance(details, dict):
        return "the ruling's details are not an object"
    if ruling == "annul":
        if details != {"in_play": not over}:
            return (
                "the annulment says the game was " + ("in play" if details.get("in_play") else "over") + ", it was not"
            )
    elif ruling == "substitute":
        seat = details.get("seat")
        if over:
            return "a player is substituted after the game's end"
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(players):
            return f"seat {seat!r} is not a seat of this game"
        if details.get("replaced") != players[seat] or details.get("from_version") != version + 1:
            return f"the substitute does not replace seat {seat}'s player from the next record"
        if not isinstance(details.get("player"), str) or not isinstance(details.get("token_hash"), str):
            return "the substitute names no player or no seat token"
        players[seat] = details["player"]
    elif ruling == "void_link":
        seat = details.get("seat")
        if over:
            return "a seat's link is voided after the game's end"
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(players):
            return f"seat {seat!r} is not a seat of this game"
        if details.get("player") != players[seat]:
            return f"the voided link does not name seat {seat}'s player of that moment"
    elif ruling == "restart":
        at = details.get("version")
        if over:
            return "a game is restarted after its end"
        if not isinstance(at, int) or isinstance(at, bool) or not 1 <= at < version:
            return f"it restarts from version {at!r}, which is not a record before it"
        if not isinstance(details.get("continued_as"), str):
            return "the restart names no game it continues as"
    else:  # adjust_result
        if not over:
            return "a result is adjusted before the game's end"
        result = forfeit if forfeit is not None else rules.result(state)
        found = result if isinstance(result, dict) or result is None else result.to_dict()
        engine = None if found is None else {k: v for k, v in found.items() if k != "detail"}
        if details.get("engine_result") != engine:
            return "the engine's result it keeps beside the adjusted one is not the result the rules give"
        ranking = (details.get("result") or {}).get("ranking") if isinstance(details.get("result"), dict) else None
        if not isinstance(ranking, list) or sorted(ranking) != list(range(len(players))):
            return "the adjusted ranking does not list every seat once"
    return None
