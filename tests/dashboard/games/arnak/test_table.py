"""The Arnak table drawn from real engine states (bot games, 1-4 players, both boards, solo), checked on the
component tree: every seat's resources, hidden information per perspective, the player to act, the final
score breakdown, and names (never the engine's codes)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from dashboard.games.arnak import CSS, draw_table, log_line, log_lines, name_codes
from dashboard.games.arnak import names as arnak_names
from domain.arnak import describe, event_to_dict
from domain.arnak.components import RESOURCES
from domain.arnak.simulate import play_game
from tests.dashboard.games.arnak.frames import GAMES, Game, frame, game, perspectives

CODES = re.compile(r"\b(?:L[12]-\d|camp\d[ab]?|r\d+p\d+)\b|\(#\d+\)")
LINE_CODES = re.compile(r"guardian \(?\d|site tile \(?\d|bonus tile \d|\b(?:card|hand|play):\d")


def walk(component: Any) -> Iterator[Any]:
    if component is None or isinstance(component, str | int | float):
        return
    yield component
    children = getattr(component, "children", None)
    if isinstance(children, list | tuple):
        for child in children:
            yield from walk(child)
    else:
        yield from walk(children)


def text(component: Any) -> str:
    if component is None:
        return ""
    if isinstance(component, str | int | float):
        return str(component)
    children = getattr(component, "children", None)
    if isinstance(children, list | tuple):
        return " ".join(text(c) for c in children)
    return text(children)


def attr(component: Any, name: str) -> Any:
    return getattr(component, name, None)


def classes(component: Any) -> set[str]:
    return set((attr(component, "className") or "").split())


def seat_panel(table: Any, seat: int) -> Any:
    found = [c for c in walk(table) if attr(c, "id") == f"arnak-seat-{seat}"]
    assert len(found) == 1
    return found[0]


def every_frame() -> Iterator[tuple[str, Game, int, int | None]]:
    for spec in GAMES:
        g = game(*spec)
        for point, state in enumerate(g.states):
            for seat in perspectives(state):
                yield g.label, g, point, seat


FRAMES = list(every_frame())
IDS = [f"{label}-at{point}-{'referee' if seat is None else f'seat{seat}'}" for label, _, point, seat in FRAMES]


@pytest.mark.parametrize(("label", "g", "point", "seat"), FRAMES, ids=IDS)
def test_every_seats_resources_appear(label: str, g: Game, point: int, seat: int | None) -> None:
    state = g.states[point]
    table = draw_table(frame(state, seat))
    for s, player in enumerate(state.seats):
        panel = seat_panel(table, s)
        chips = {attr(c, "data-resource"): attr(c, "data-count") for c in walk(panel) if attr(c, "data-resource")}
        assert chips == {r: str(n) for r, n in zip(RESOURCES, player.resources, strict=True)}
        assert state.players[s] in text(panel)


@pytest.mark.parametrize(
    ("label", "g", "point", "seat"),
    [f for f in FRAMES if f[3] is not None],
    ids=[i for i, f in zip(IDS, FRAMES, strict=True) if f[3] is not None],
)
def test_a_seat_never_sees_what_the_referee_alone_sees(label: str, g: Game, point: int, seat: int | None) -> None:
    assert seat is not None
    state = g.states[point]
    mine = draw_table(frame(state, seat))
    referee = draw_table(frame(state, None))
    # Nothing secret of another seat: hand cards and face-down idols only of the viewer, no deck order.
    own = Counter()
    for c in walk(mine):
        secret = attr(c, "data-secret")
        if secret is not None:
            assert secret in ("hand", "idol") and attr(c, "data-seat") == str(seat), (secret, attr(c, "data-seat"))
            own[secret] += 1
    assert own["idol"] == len(state.seats[seat].idols)  # the viewer's own idols, each drawn
    assert "top first" not in text(mine)
    # The referee's render does show them (so the comparison means something).
    ref_secrets = Counter(attr(c, "data-secret") for c in walk(referee) if attr(c, "data-secret"))
    hands_out = sum(len(p.hand) for s, p in enumerate(state.seats) if s != seat)
    assert ref_secrets["hand"] == sum(len(p.hand) for p in state.seats)
    idols_down = sum(len(s.idols[1:]) for s in state.sites) + sum(len(p.idols) for p in state.seats)
    assert ref_secrets["idol"] == idols_down
    # Card by card: the seat sees what the referee sees, less the other seats' hands.
    cards_mine = Counter(attr(c, "data-card") for c in walk(mine) if attr(c, "data-card"))
    cards_ref = Counter(attr(c, "data-card") for c in walk(referee) if attr(c, "data-card"))
    others = Counter(
        attr(c, "data-card")
        for c in walk(referee)
        if attr(c, "data-secret") == "hand" and attr(c, "data-seat") != str(seat)
    )
    assert sum(others.values()) == hands_out
    assert cards_mine == cards_ref - others
    # And no other seat's hand card name turns up anywhere as text beyond what is public.
    for s, player in enumerate(state.seats):
        if s == seat or not player.hand:
            continue
        panel = seat_panel(mine, s)
        hand = [c for c in walk(panel) if "arnak-hand" in classes(c)]
        assert len(hand) == 1 and "hidden" in text(hand[0])
        assert not [c for c in walk(hand[0]) if attr(c, "data-card")]


@pytest.mark.parametrize(("label", "g", "point", "seat"), FRAMES, ids=IDS)
def test_the_player_to_act_is_marked(label: str, g: Game, point: int, seat: int | None) -> None:
    state = g.states[point]
    shown = frame(state, seat)
    table = draw_table(shown)
    acting = set(shown["to_act"])
    for s in range(len(state.players)):
        panel = seat_panel(table, s)
        assert (attr(panel, "data-to-act") == "yes") == (s in acting)
        assert ("arnak-acting" in classes(panel)) == (s in acting)
        assert ("TO ACT" in text(panel)) == (s in acting)
    pill = [c for c in walk(table) if attr(c, "id") == "arnak-to-act"]
    if acting:
        assert all(state.players[s] in text(pill[0]) for s in acting)
    else:
        assert not pill


@pytest.mark.parametrize("spec", GAMES, ids=[f"{p}p-{side}" for p, side, _ in GAMES])
def test_the_final_frame_shows_the_score_breakdown_that_sums_to_each_score(spec: tuple[int, str, str]) -> None:
    state = game(*spec).states[-1]
    assert state.outcome is not None
    for seat in perspectives(state):
        table = draw_table(frame(state, seat))
        score = [c for c in walk(table) if attr(c, "id") == "arnak-score"]
        assert len(score) == 1
        rows = [c for c in walk(score[0]) if attr(c, "data-seat") is not None]
        assert len(rows) == len(state.players)
        for row in rows:
            parts = {attr(c, "data-part"): int(text(c)) for c in walk(row) if attr(c, "data-part")}
            total = parts.pop("total")
            assert sum(parts.values()) == total
            expected = next(s for s in state.outcome.scores if s.seat == int(attr(row, "data-seat")))
            assert total == expected.total
        winners = " and ".join(state.players[s] for s in state.outcome.winners)
        assert f"Game over: {winners} wins" in text(table)


def test_no_score_breakdown_before_the_end() -> None:
    state = game(*GAMES[4]).states[2]
    assert not [c for c in walk(draw_table(frame(state, None))) if attr(c, "id") == "arnak-score"]


@pytest.mark.parametrize(("label", "g", "point", "seat"), FRAMES, ids=IDS)
def test_the_table_reads_as_names_not_codes(label: str, g: Game, point: int, seat: int | None) -> None:
    state = g.states[point]
    table = draw_table(frame(state, seat))
    words = text(table)
    assert not CODES.search(words), CODES.search(words)
    for c in walk(table):
        title = attr(c, "title")
        assert title is None or not CODES.search(title), title
    # Every card in the row and in play areas by its name.
    view = frame(state, seat)["view"]
    for card in view["card_row"]["artifacts"] + view["card_row"]["items"]:
        assert card["name"] in words
    # The board's parts are all there.
    assert "moon staff" in words
    assert "Lost Temple" in words
    assert len(re.findall(r"Level I site \d", words)) == 8
    assert len(re.findall(r"Level II site \d", words)) == 4


def test_the_solo_rival_shows_its_tiles_and_idols() -> None:
    state = game(*GAMES[0]).states[2]
    assert state.rival is not None
    panel = seat_panel(draw_table(frame(state, 0)), state.rival.seat)
    words = text(panel)
    assert "solo rival" in words and "Action tiles" in words and "negative stack" in words
    assert "notebook" not in words  # the rival uses only the magnifying glass


def test_the_referee_sees_the_deck_order_top_first() -> None:
    state = game(*GAMES[2]).states[2]
    table = draw_table(frame(state, None))
    orders = [c for c in walk(table) if attr(c, "data-secret") == "deck"]
    decks = [s for s in state.seats if s.deck]
    assert len(orders) == len(decks)
    from domain.arnak import book

    first = orders[0]
    seat = int(attr(first, "data-seat"))
    names = [book().card(c).name for c in state.seats[seat].deck]
    assert text(first) == "top first: " + ", ".join(names)


# -- the log --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", GAMES, ids=[f"{p}p-{side}" for p, side, _ in GAMES])
def test_the_log_reads_as_names_and_hides_other_seats_draws(spec: tuple[int, str, str]) -> None:
    _, side, seed = spec
    g = game(*spec)
    state = g.states[-1]
    from domain.arnak import events as ev
    from domain.arnak.bots import RandomBot

    played = play_game(state.players, [RandomBot()] * len(state.players), seed, options={"side": side})
    for seat in perspectives(played.state):
        for event in played.events:
            line = log_line(event, played.state.players, seat, side)
            assert not CODES.search(line), line
            assert "card:" not in line and "stack:" not in line, line
            if isinstance(event, ev.CardsDrawn) and seat is not None and event.seat != seat:
                assert re.search(r"draws \d+ cards?", line), line
            if isinstance(event, ev.DecisionMade) and event.kind in ("keep_one", "put_back"):
                # Obsidian, Crystal Earring: the card chosen among cards only that seat has seen.
                assert line.endswith("(hidden)") == (seat is not None and seat != event.seat), line
        for event in played.events:  # the lines describe already wrote, named afterwards
            line = name_codes(describe(event, played.state.players, seat), side)
            assert not CODES.search(line) and not LINE_CODES.search(line), line
    lines = log_lines([event_to_dict(e) for e in played.events[:80]], played.state.players, None, side)
    assert lines and not any(line.endswith(" to act") for line in lines)


def test_the_log_keeps_a_secret_choice_to_its_seat() -> None:
    """Obsidian and Crystal Earring: the card kept (or put back) among cards only that seat has drawn is told to
    that seat and the referee, to no one else (``describe`` alone would print it; see the report)."""
    from domain.arnak import events as ev
    from domain.arnak.bots import RandomBot

    played = play_game(["Ana", "Beto"], [RandomBot(), RandomBot()], 15)  # a game with a keep_one decision
    secret = [e for e in played.events if isinstance(e, ev.DecisionMade) and e.kind in ("keep_one", "put_back")]
    assert secret
    for event in secret:
        assert log_line(event, ["Ana", "Beto"], 1 - event.seat) == f"{['Ana', 'Beto'][event.seat]} decides (hidden)"
        for reader in (None, event.seat):
            assert "hidden" not in log_line(event, ["Ana", "Beto"], reader)


def test_the_css_is_scoped_to_the_table() -> None:
    css = re.sub(r"/\*.*?\*/", "", CSS, flags=re.S)
    rules = [r.strip() for r in re.findall(r"([^{}]+)\{", css) if not r.strip().startswith("@")]
    for selector in rules:
        for part in selector.split(","):
            assert part.strip().startswith(".arnak-"), part


def test_another_seats_slotted_idols_are_drawn_face_down() -> None:
    """Two tables alike but for which idols seat 0 placed in its slots: seat 1's drawing (a replay frame's) is the
    same for both, seat 0's and the referee's name the idols."""
    from dataclasses import replace

    from domain.arnak import new_game

    start = new_game(["Ana", "Beto"], seed=3)
    tables = [start.with_seat(0, replace(start.seats[0], slots=slots)) for slots in ((1, 7), (1, 13))]
    assert str(draw_table(frame(tables[0], 1))) == str(draw_table(frame(tables[1], 1)))
    assert str(draw_table(frame(tables[0], 0))) != str(draw_table(frame(tables[1], 0)))
    assert str(draw_table(frame(tables[0], None))) != str(draw_table(frame(tables[1], None)))


def test_a_seats_face_down_idols_are_drawn_for_it_alone() -> None:
    """Two tables alike but for which idol seat 0 holds face down: seat 0's drawing names it, seat 1's is the same
    for both."""
    from dataclasses import replace

    from domain.arnak import new_game

    start = new_game(["Ana", "Beto"], seed=3)
    tables = [start.with_seat(0, replace(start.seats[0], idols=(idol,))) for idol in (1, 13)]
    assert str(draw_table(frame(tables[0], 1))) == str(draw_table(frame(tables[1], 1)))
    for table, idol in zip(tables, (1, 13), strict=True):
        mine = [c for c in walk(seat_panel(draw_table(frame(table, 0)), 0)) if attr(c, "data-secret") == "idol"]
        assert [attr(c, "title") for c in mine] == [f"Idol (face down): {arnak_names.idol_text(idol)}"]


def test_a_pending_decision_counts_identical_cards_once() -> None:
    """Keeping cards with three Fear cards in hand reads "Fear" times 3, not "Fear; Fear; Fear"."""
    from domain.arnak.components import book

    state = game(*GAMES[4]).states[2]
    drawn = frame(state, None)
    fear = [f"card:{c}" for c in book().fear_ids[:3]]
    drawn["view"]["pending"] = {"seat": 0, "kind": "keep", "options": ["done", *fear]}
    (pending,) = [c for c in walk(draw_table(drawn)) if attr(c, "id") == "arnak-pending"]
    said = text(pending)
    assert "Fear \u00d73" in said and "Fear; Fear" not in said
