"""Every frame of a game from one perspective, drawn once and sent to the browser at once, so that the replay
steps, jumps and switches perspective there with no round trip (``dashboard/pages/replay.py`` serves it,
``dashboard/assets/replay.js`` shows it).

A perspective's replay is one JSON document:

- ``pieces``: HTML fragments (``dashboard.html_text``), each once; a frame's table is the concatenation of
  its pieces, so the parts of the table a move does not change (the market, a hand, the score sheet)
  are sent once for the whole game;
- ``frames``: one per move whole, or (asked for apart) one per event within the moves that have several:
  the move (``v``), how many of its events it shows (``k``, null: all of them), how many it has (``n``)
  and its pieces (``t``);
- ``moves``: the log, one entry per move: who moved, how long they thought and what kind of move it was
  (the read models' ``think_ms`` and ``kind``), and one line per event (null for a line that only says who
  acts next), told by the engine for this perspective's reader and named by the game's renderer
  (``Renderer.log_text``).

Nothing else is in it: the views are the engine's for this reader (a seat's hides the other hands), so a
seat's or a spectator's document holds no referee frame. The caller (``Data.replay_document``) has
checked that the visitor may take this perspective.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dashboard.format import log_line
from dashboard.games import renderer
from dashboard.html_text import pieces
from dashboard.kept import drawing_frames
from domain.games import game
from service.integrity.chain import MOVES
from service.reading.replays import At, Entry, entries, events_of, states, viewed

CHUNK = 25  # moves per part: the first part is drawn in a fraction of a second, the rest follow it


def chunks(latest: int) -> int:
    """How many parts a game of ``latest`` moves is sent in."""
    return max(1, (latest + CHUNK - 1) // CHUNK)


def document(
    game_id: str,
    records: Sequence[dict[str, Any]],
    perspective: str,
    seat: int | None,
    read: Mapping[int, Mapping[str, Any]],
    chunk: int = 0,
    with_moves: bool = True,
    by_event: bool = False,
    start: tuple[int, Any] | None = None,
    frames_at: Sequence[At] | None = None,
) -> dict[str, Any]:
    """Part ``chunk`` (moves ``chunk * CHUNK + 1`` on) of the replay of ``records`` from ``perspective``
    ("referee" or a seat number as text; ``seat`` the same as the engine's reader), with the whole log when
    ``with_moves``; ``read``: the read models' rows per move (``think_ms``, ``kind``), by move number. The part
    holds one frame per move, or with ``by_event`` the frames within the moves instead (after each event of a
    move with several): most steps are by move, so those come first and the others only when wanted.
    ``start``: (version, the engine's state after it) before the part, to evolve on from
    (``service.reading.replays.evolved``)
    instead of from the first record; ``frames_at``: the part's states already evolved (``part_states``: every
    perspective's frames are views of the same states), instead of evolving them here."""
    first = records[0]["body"]
    kind = str(first["kind"])
    drawing = renderer(kind)
    rules = game(kind).rules
    players = [{"seat": i, "name": str(n)} for i, n in enumerate(first["names"])]
    latest = len(records)
    high = min(latest, (chunk + 1) * CHUNK)
    movers = [r["body"]["seat"] if r["type"] in MOVES else None for r in records]  # who made each move
    index: dict[str, int] = {}
    shared: list[str] = []
    frames = []
    views: dict[int, Mapping[str, Any]] = {}
    for at in part_states(records, chunk, by_event, start) if frames_at is None else frames_at:
        step = viewed(rules, at, seat)
        record = records[step.version - 1]
        # The move's events as this reader may read them then (a secret draw stays a count), for the table
        # to mark the latest play.
        shown = [rules.redact_event(e, seat, False) for e in events_of(record)[: step.events]]
        frame = {
            "id": game_id,
            "kind": kind,
            "version": step.version,
            "latest_version": latest,
            "players": players,
            "view": step.view,
            "to_act": step.to_act,
            "events_shown": step.events,
            "event_count": step.count,
            # What the table marks as the latest play: who made the move shown, and its events so far.
            "last": {"seat": movers[step.version - 1], "events": shown},
        }
        parts = []
        with drawing_frames():  # parts of the table the frames before drew the same are reused (dashboard.kept)
            table = pieces(drawing.draw_table(frame))
        for piece in table:
            found = index.get(piece)
            if found is None:
                found = index[piece] = len(shared)
                shared.append(piece)
            parts.append(found)
        frames.append({"v": step.version, "k": None if step.whole else step.events, "n": step.count, "t": parts})
        views[step.version] = step.view
    out: dict[str, Any] = {
        "game": game_id,
        "kind": kind,
        "perspective": perspective,
        "latest": latest,
        "chunk": chunk,
        "by_event": by_event,
        "chunks": chunks(latest),
        "names": [p["name"] for p in players],
        "pieces": shared,
        "frames": frames,
    }
    if with_moves:
        out["moves"] = log(records, seat, read, views, high)
    return out


def merged(parts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Parts of one perspective's frames (``document``s without the log, in order) as one document: one table of
    pieces for all of them, each frame's ``t`` renumbered into it, the frames and VP points one after the other, and
    ``parts``: the part numbers it holds. A frame is the same pieces in the same order as in its part, so the page
    draws the same HTML from it. An Arnak four-seat perspective: 15 parts of about 80 kB each as JSON, most of it
    pieces every part repeats (the board, a player's board nobody touched); in one table, about a third."""
    index: dict[str, int] = {}
    shared: list[str] = []
    frames: list[dict[str, Any]] = []
    points: list[Any] = []
    for part in parts:
        renumber = []
        for piece in part["pieces"]:
            found = index.get(piece)
            if found is None:
                found = index[piece] = len(shared)
                shared.append(piece)
            renumber.append(found)
        frames.extend({**f, "t": [renumber[i] for i in f["t"]]} for f in part["frames"])
        points.extend(part.get("points", ()))
    first = parts[0]
    out = {key: first[key] for key in ("game", "kind", "perspective", "latest", "by_event", "chunks", "names")}
    out.update({"parts": [part["chunk"] for part in parts], "pieces": shared, "frames": frames})
    if "points" in first:  # (a game in play's parts carry their VP points)
        out["points"] = points
    return out


def log_document(
    game_id: str,
    records: Sequence[dict[str, Any]],
    perspective: str,
    seat: int | None,
    read: Mapping[int, Mapping[str, Any]],
    chunk: int,
    frames_at: Sequence[At],
) -> dict[str, Any]:
    """The log ``document`` sends with part ``chunk`` (``with_moves``), alone: the page draws its first table before
    the log (every move told for the perspective) is written. ``frames_at``: the part's states, viewed again for the
    log's naming as the part's frames view them, so the log is the one ``document`` would send."""
    rules = game(str(records[0]["body"]["kind"])).rules
    views = {at.version: viewed(rules, at, seat).view for at in frames_at}
    high = min(len(records), (chunk + 1) * CHUNK)
    return {
        "game": game_id,
        "perspective": perspective,
        "latest": len(records),
        "chunk": chunk,
        "moves": log(records, seat, read, views, high),
    }


def log(
    records: Sequence[dict[str, Any]],
    seat: int | None,
    read: Mapping[int, Mapping[str, Any]],
    views: Mapping[int, Mapping[str, Any]],
    high: int,
) -> list[dict[str, Any]]:
    """The game's log for ``seat``, one entry per move (``_move``); ``views``: a part's views by version, ``high``
    its last move."""
    told = renderer(str(records[0]["body"]["kind"])).log_text
    # The log names codes beside a view; a move's own view where the part drew it, else the part's last one.
    final = views.get(high) or next(iter(views.values()), {})
    return [_move(entry, told, views.get(entry.version, final), read) for entry in entries(records, seat)]


def part_states(
    records: Sequence[dict[str, Any]], chunk: int, by_event: bool, start: tuple[int, Any] | None = None
) -> list[At]:
    """The engine's state at every frame of part ``chunk`` (by move, or ``by_event`` within moves), the same for every
    perspective; ``start`` as for ``document``."""
    low, high = chunk * CHUNK + 1, min(len(records), (chunk + 1) * CHUNK)
    return list(states(records, low, high, start, whole=not by_event))


def _move(entry: Entry, told: Any, view: Mapping[str, Any], read: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]:
    row = read.get(entry.version, {}) if entry.seat is not None else {}
    return {
        "v": entry.version,
        "seat": entry.seat,
        "think": row.get("think_ms"),
        "kind": row.get("kind"),
        "lines": [None if line is None else log_line(told(line, view)) for line in entry.lines],
    }
