"""Final scoring with its full breakdown, and the tie breaks.

"Score up: the value of each research token where it sits; temple tiles; idols (3 each) and uncovered
idol slots; guardians overcome (5 each); items and artifacts; minus points for fear cards. Most points
wins. Ties go to whoever reached the temple first; if nobody did, to the player furthest along the
research track." From ``arnak-1`` "furthest along the research track" is where the tokens are: the
magnifying glass's row (it is never behind the notebook), then the notebook's; ``arnak-0`` compared research
scores (the reference's reading), and gave a solo tie to the rival (``Conduct``).
"""

from __future__ import annotations

from domain.arnak.components import book
from domain.arnak.rival import rival_book
from domain.arnak.state import GameState, Outcome, Player, Score


def research_points(state: GameState, p: Player) -> int:
    """Where the tokens sit now, not the sum of the rows passed: the purple points are not cumulative."""
    track = book().boards[state.side].track
    if p.temple_place is not None:
        glass = track.temple_points[p.temple_place]
    else:
        glass = track.vp[track.row(p.glass)][0] if p.glass != "start" else 0
    notebook = track.vp[track.row(p.notebook)][1] if p.notebook != "start" else 0
    return glass + notebook


def rival_score(state: GameState) -> Score:
    """Solo: "The rival scores for its magnifying glass position, temple tiles, guardians overcome and cards
    purchased, plus 3 points per unique face-up idol and 2 points for each idol in its negative stack." """
    rival = state.rival
    assert rival is not None
    b, rb = book(), rival_book()
    p = state.seats[rival.seat]
    research = research_points(state, p)
    temple = sum(b.temple_stacks[s].vp for s in p.temple_tiles)
    idols = rb.face_up_idol_vp * len(rival.face_up_idols) + rb.negative_idol_vp * len(rival.negative_idols)
    guardians = b.guardian_vp * len(p.guardians)
    cards = sum(b.card(c).vp for c in rival.cards)
    return Score(
        rival.seat, research, temple, idols, 0, guardians, cards, 0, research + temple + idols + guardians + cards
    )


def score(state: GameState, seat: int) -> Score:
    if state.is_rival(seat):
        return rival_score(state)
    b = book()
    p = state.seats[seat]
    cards = [b.card(c) for c in p.cards()]
    research = research_points(state, p)
    temple = sum(b.temple_stacks[s].vp for s in p.temple_tiles)
    idols = b.idol_vp * (len(p.idols) + len(p.slots))
    slots = sum(b.idol_slot_vp[len(p.slots) :])  # slots fill from the left: the uncovered ones are the rest
    guardians = b.guardian_vp * len(p.guardians)
    printed = sum(c.vp for c in cards if c.kind in ("item", "artifact"))
    fear = sum(c.vp for c in cards if c.kind == "fear") + b.fear_tile_vp * p.fear_tiles
    total = research + temple + idols + slots + guardians + printed + fear
    return Score(seat, research, temple, idols, slots, guardians, printed, fear, total)


def _key(state: GameState, s: Score) -> tuple[int, ...]:
    p = state.seats[s.seat]
    temple = p.temple_place if p.temple_place is not None else len(state.seats)
    if not state.book.conduct.ties_by_track_position:
        return (-s.total, temple, -s.research)
    track = book().boards[state.side].track
    return (-s.total, temple, -track.row(p.glass), -track.row(p.notebook))


def outcome_of(state: GameState) -> Outcome:
    scores = tuple(score(state, seat) for seat in range(state.n_players))
    if state.rival is not None and not state.book.conduct.solo_ties_by_the_tie_breaks:
        # arnak-0: "The human wins only with a strictly higher score" (reference A9)
        human, rival = (s for s in scores if s.seat != state.rival.seat), scores[state.rival.seat]
        me = next(human)
        first = me.seat if me.total > rival.total else rival.seat
        ranking = (first, rival.seat if first == me.seat else me.seat)
        return Outcome(scores, ranking, (first,))
    ranked = sorted(scores, key=lambda s: (_key(state, s), s.seat))
    best = _key(state, ranked[0])
    winners = tuple(s.seat for s in ranked if _key(state, s) == best)
    return Outcome(scores, tuple(s.seat for s in ranked), winners)
