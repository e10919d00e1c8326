"""``dashboard.kept``: a replay draws each distinct part of a table once and reuses it for every frame and perspective
that shows it the same. The frames must be exactly the frames drawn without it, from every perspective: a part given
too little of the view would draw a default, and a part reused across perspectives must never carry what one
perspective saw into another's frames. A renderer's ``*_slice`` functions say what each kept part is given of the view;
the frames are compared with the frames drawn with every part given the whole view, afresh for every frame."""

from __future__ import annotations

import contextlib
import sys
from typing import Any

import pytest

from dashboard import kept, replay_frames
from dashboard.games import renderer
from dashboard.html_text import Written, to_html
from tests.dashboard.conftest import Demo


def _documents(demo: Demo, game_id: str, every_part: bool) -> dict[tuple[str, int, bool], list[str]]:
    """Every frame of every perspective of a game, as HTML, drawn the way the replay draws them: of each part the
    replay sends (25 moves), or of its first, middle and last parts only."""
    records = demo.queries.replays.records(game_id)
    seats = len(records[0]["body"]["names"])
    parts = replay_frames.chunks(len(records))
    out = {}
    for perspective in ["referee", *map(str, range(seats))]:
        seat = None if perspective == "referee" else int(perspective)
        for chunk in range(parts) if every_part else sorted({0, parts // 2, parts - 1}):
            for by_event in (False, True):
                doc = replay_frames.document(game_id, records, perspective, seat, {}, chunk, False, by_event)
                out[(perspective, chunk, by_event)] = ["".join(doc["pieces"][i] for i in f["t"]) for f in doc["frames"]]
    return out


# Each game's frames drawn twice over, the second time every part afresh: half a minute an Arnak game on a quiet
# machine. The fast run compares the first game of each kind on three of its parts (the start, the middle, the end:
# 2.1 s of CPU against 9.6 s for the Arnak game whole); the full run compares both games whole.
@pytest.mark.parametrize(
    ("nth", "every_part"),
    [(0, False), pytest.param(0, True, marks=pytest.mark.slow), pytest.param(1, True, marks=pytest.mark.slow)],
)
@pytest.mark.parametrize("kind", ["ruins", "arnak"])
def test_frames_drawn_with_kept_parts_are_the_frames_drawn_whole(
    demo: Demo, kind: str, nth: int, every_part: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = demo.finished if kind == "ruins" else demo.others[kind]
    for game_id in games[nth : nth + 1]:
        kept.clear()
        before = dict(kept.counts)
        reused = _documents(demo, game_id, every_part)
        with monkeypatch.context() as m:  # every part drawn afresh for every frame, from the whole view
            m.setattr(replay_frames, "drawing_frames", contextlib.nullcontext)
            table = sys.modules[renderer(kind).draw_table.__module__]
            for name in dir(table):
                if name.endswith("_slice"):  # what a kept part is given of the view: all of it
                    m.setattr(table, name, lambda view, *_: view)
            whole = _documents(demo, game_id, every_part)
        assert reused == whole
        # Most parts are reused (Arnak's board and player boards; Ruins' hands, market and changed ruins). A part
        # kept within a kept part is drawn only when its parent is, and then often reused: both are counted.
        assert kept.counts["reused"] - before["reused"] > 3 * (kept.counts["drawn"] - before["drawn"]) > 0


def _part(view: dict[str, Any]) -> Any:
    from dashboard import fast_html as html

    return html.Div([html.Span(str(view.get("secret", "none")))], className="part")


def test_a_part_is_reused_only_for_the_same_arguments() -> None:
    kept.clear()
    with kept.drawing_frames():
        first, again = kept.kept(_part, {"secret": 1}), kept.kept(_part, {"secret": 1})
        other = kept.kept(_part, {"secret": 2})
    assert isinstance(first, Written) and first is again and other is not first
    assert to_html(other) == '<div class="part"><span>2</span></div>'
    # Outside a replay's frames (the seat page, the tests) a part is drawn as components, every time.
    assert not isinstance(kept.kept(_part, {"secret": 1}), Written)


def test_arguments_json_cannot_hold_exactly_are_keyed_by_their_whole_text() -> None:
    """A part's key is its arguments' JSON, or their ``repr`` where JSON would lose something (keys that are not text):
    arguments that differ never share a part."""
    kept.clear()
    with kept.drawing_frames():
        by_number = kept.kept(_part, {"secret": {1: "a"}})
        by_text = kept.kept(_part, {"secret": {"1": "a"}})
        other = kept.kept(_part, {"secret": {1: "b"}})
    assert len({id(by_number), id(by_text), id(other)}) == 3
    assert to_html(other) == "<div class=\"part\"><span>{1: 'b'}</span></div>"
