"""Draw the Ruins table of one replay frame (``Replays.replay``) as plain HTML components.

Everything comes from the frame's ``view``: a hand lists its ruins only when the perspective may see
them (the referee, or that seat), otherwise just its size. Every ruin shows its side, its rank(s), its
sleeved discoveries and its claim; the market shows prices and effects. The seat to act is highlighted
(its scoreboard row and its hand), and so is the latest play: the ruins the move shown put on the pile,
and the row of the seat that made it (from the frame's ``last``).
"""

from __future__ import annotations

from typing import Any

from dashboard import fast_html as html
from dashboard.components import data_attributes
from dashboard.format import TIMES, ordinal
from dashboard.games.ruins.words import HOW, PHASES, effect_label, round_name
from dashboard.kept import kept, narrow
from domain.ruins import book_of


def draw_table(frame: dict[str, Any]) -> html.Div:
    view = frame["view"]
    names = [p["name"] for p in frame["players"]]
    acting = set(frame.get("to_act", []))
    # The pile, the market, each hand and the changed ruins are drawn from the slices of the view they read, and
    # kept (``dashboard.kept``): a replay draws each distinct one once, for every frame and perspective that shows it
    # the same. The status line and the scoreboard change every move.
    latest = sorted(last_played(frame))
    return html.Div(
        [
            _status(frame, view, names),
            html.Div(
                [kept(_pile, _pile_slice(view), names, latest), kept(_market, _market_slice(view))],
                className="table-centre",
            ),
            html.Div(_scoreboard(frame, view, names), className="score-wrap"),
            html.Div(
                [
                    kept(_hand, _hand_slice(view, hand["seat"]), names, hand["seat"], hand["seat"] in acting)
                    for hand in view["hands"]
                ],
                className="hands",
            ),
            kept(_crafted, _crafted_slice(view), names),
        ],
        className="ruins-table",
    )


def last_played(frame: dict[str, Any]) -> set[int]:
    """The ruins the move shown played onto the pile (none if it played none)."""
    events = (frame.get("last") or {}).get("events") or []
    return {int(c) for e in events if e.get("type") == "RuinsPlayed" for c in e.get("ruins", [])}


OUT_OF_SIGHT = "out of sight (another hand or the draw pile)"


# -- what each kept part reads of the view ---------------------------------------------------------------
# Each slice holds every entry of the view its part reads (a part given less would draw a default; the tests
# compare whole games drawn both ways). The ruins a part shows are given whole, the others left out.


def _ruins_of(view: dict[str, Any], ids: Any) -> list[dict[str, Any]]:
    wanted = set(ids)
    return [r for r in view["ruins"] if r["id"] in wanted]


def _pile_slice(view: dict[str, Any]) -> dict[str, Any]:
    out = narrow(view, ("top", "leader", "pile", "draw_pile", "discard", "discovery_deck"))
    out["ruins"] = _ruins_of(view, view.get("pile", []))
    return out


def _market_slice(view: dict[str, Any]) -> dict[str, Any]:
    return narrow(view, ("market",))


def _hand_slice(view: dict[str, Any], seat: int) -> dict[str, Any]:
    hand = next(h for h in view["hands"] if h["seat"] == seat)
    return {"hands": [hand], "ruins": _ruins_of(view, hand.get("ruins", []))}


def _crafted_slice(view: dict[str, Any]) -> dict[str, Any]:
    out = narrow(view, ("hands", "pile", "discard", "draw_pile"))
    out["ruins"] = [r for r in view["ruins"] if _changed(r)]
    return out


# -- pieces -----------------------------------------------------------------------------------------------


def _status(frame: dict[str, Any], view: dict[str, Any], names: list[str]) -> html.Div:
    book = book_of()
    label = "Showdown" if view["showdown"] else f"{round_name(view['round'])} of {book.max_rounds}"
    bits: list[Any] = [html.Span(label, className="pill pill-round", id="table-round")]
    outcome = view.get("outcome")
    if outcome is not None:
        how = HOW.get(outcome["how"], outcome["how"])
        bits.append(html.Span(f"Game over: {names[outcome['winner']]} {how}", className="pill pill-win"))
    else:
        bits.append(html.Span(PHASES.get(view["phase"], view["phase"]), className="pill"))
        acting = [names[s] for s in frame.get("to_act", [])]
        if acting:
            bits.append(html.Span(f"To act: {', '.join(acting)}", className="pill pill-turn"))
        if view.get("leader") is not None:
            bits.append(html.Span(f"Leader: {names[view['leader']]}", className="pill"))
    pending = view.get("pending_discard")
    if pending:
        n = pending["count"]
        bits.append(
            html.Span(f"{names[pending['seat']]} must discard {n} ruin{'s' if n != 1 else ''}", className="pill")
        )
    if view.get("flips"):
        for flip in view["flips"]:
            what = "has chosen" if flip["chosen"] else "is choosing"
            if flip.get("ruin") is not None:
                what = f"flips #{flip['ruin']}"
            elif flip["chosen"] and "ruin" in flip:
                what = "flips nothing"
            bits.append(html.Span(f"{names[flip['seat']]} {what}", className="pill pill-quiet"))
    perspective = "referee (sees everything)" if view["viewer"] == "referee" else f"{names[view['viewer']]}'s view"
    bits.append(html.Span(f"Perspective: {perspective}", className="pill pill-quiet", id="table-perspective"))
    return html.Div(bits, className="table-status")


def _scoreboard(frame: dict[str, Any], view: dict[str, Any], names: list[str]) -> html.Table:
    acting = set(frame.get("to_act", []))
    mover = (frame.get("last") or {}).get("seat")
    out_place = {seat: i + 1 for i, seat in enumerate(view.get("finish_order", []))}
    responded = set(view.get("passed_or_skipped", []))
    participants = set(view.get("participants", range(len(names))))
    # Each row is kept (a pure function of what is passed): a move changes the rows of the seats it touches and of
    # whoever acts next, the others are reused.
    rows = [
        kept(
            _score_row,
            seat,
            name,
            seat in acting,
            seat == mover,
            out_place.get(seat),
            seat in responded,
            seat in participants,
            view["torches"][seat],
            view["vp"][seat],
            view["claims_left"][seat],
            view["hands"][seat]["count"],
        )
        for seat, name in enumerate(names)
    ]
    head = html.Tr(
        [html.Th(h) for h in ("Seat", "Player", "VP", "Torches", "Claims left", "Hand", "")],
    )
    return html.Table([html.Thead(head), html.Tbody(rows)], className="scoreboard", id="table-scoreboard")


def _score_row(
    seat: int,
    name: str,
    acting: bool,
    moved_last: bool,
    out_place: int | None,
    responded: bool,
    participant: bool,
    torches: int,
    vp: Any,
    claims_left: Any,
    hand_count: Any,
) -> html.Tr:
    notes = []
    if acting:
        notes.append("to act")
    if moved_last:
        notes.append("moved last")
    if out_place is not None:
        notes.append(f"out {ordinal(out_place)}")
    if responded:
        notes.append("passed")
    if not participant:
        notes.append("sits out the Showdown")
    return html.Tr(
        [
            html.Td(("▶ " if acting else "") + f"Seat {seat + 1}"),
            html.Td(name, className="strong"),
            html.Td(str(vp), className="num vp"),
            html.Td(
                [
                    html.Span("●" * torches, className="torch-lit torch-glyphs"),
                    html.Span("○" * max(0, book_of().torches - torches), className="torch-out torch-glyphs"),
                    html.Span(f" {torches}", className="num"),
                ],
                title=f"{torches} torch(es) lit",
            ),
            html.Td(
                str(claims_left),
                className="num",
                title=f"{name}'s claims left",
                **data_attributes({"data-pick": f"claim:{seat}"}),
            ),
            html.Td(str(hand_count), className="num"),
            html.Td(", ".join(notes), className="quiet"),
        ],
        className=" ".join(c for c, on in (("row-acting", acting), ("row-last", moved_last)) if on) or None,
    )


def _hand(view: dict[str, Any], names: list[str], seat: int, acting: bool) -> html.Div:
    hand = next(h for h in view["hands"] if h["seat"] == seat)
    cards = {r["id"]: r for r in view["ruins"]}
    count = hand["count"]
    size = f"{count} ruin{'s' if count != 1 else ''}"
    if "ruins" in hand:
        body: Any = (
            html.Div([ruin_chip(cards[c], names, pick=True) for c in hand["ruins"]], className="chips")
            if hand["ruins"]
            else html.Div("Empty hand.", className="quiet")
        )
        caption = size
        visible = "shown"
    else:
        body = html.Div(
            f"{size} in hand, hidden from this perspective.",
            className="hidden-hand",
        )
        caption = "hidden"
        visible = "hidden"
    return html.Div(
        [
            html.Div(
                [
                    html.Span(names[seat], className="strong"),
                    html.Span(f" · {caption}", className="quiet"),
                    html.Span("to act", className="pill pill-turn pill-small") if acting else None,
                ],
                className="hand-title",
            ),
            body,
        ],
        className=f"hand hand-{visible}" + (" hand-acting" if acting else ""),
        **data_attributes({"data-seat": str(seat), "data-count": str(count), "data-visible": visible}),
    )


def _pile(view: dict[str, Any], names: list[str], latest: list[int]) -> html.Div:
    cards = {r["id"]: r for r in view["ruins"]}
    top = view.get("top")
    if top is None:
        leader = view.get("leader")
        beat = "The pile is empty" + (f": {names[leader]} leads." if leader is not None else ".")
    else:
        n = top["count"]
        beat = f"To beat: {n} {TIMES} rank {top['rank']}, played by {names[top['seat']]}"
    pile = view.get("pile", [])
    return html.Div(
        [
            html.H4("Pile"),
            html.Div(beat, className="to-beat", id="table-to-beat"),
            html.Div(
                [
                    html.Div(f"On the pile ({len(pile)}), the latest play last:", className="quiet small"),
                    html.Div([ruin_chip(cards[c], names, c in latest) for c in pile], className="chips"),
                ]
            )
            if pile
            else html.Div("No ruins on the pile.", className="quiet"),
            html.Div(
                f"Draw pile: {view['draw_pile']['count']} · discard: {len(view.get('discard', []))} · "
                f"discovery deck: {view['discovery_deck']['count']}",
                className="quiet small",
                id="table-pile-counts",
            ),
        ],
        className="panel pile",
        **data_attributes({"data-pile": str(len(pile))}),
    )


def _market(view: dict[str, Any]) -> html.Div:
    book = book_of()
    slots = []
    for slot in view["market"]:
        if slot["discovery"] is None:
            slots.append(
                html.Div(
                    [
                        html.Div(f"{slot['price']} torch{'es' if slot['price'] != 1 else ''}", className="price"),
                        html.Div("empty slot", className="quiet"),
                    ],
                    className="market-slot empty",
                )
            )
            continue
        effect = book.effects[slot["effect"]]
        slots.append(
            html.Div(
                [
                    html.Div(f"{slot['price']} torch{'es' if slot['price'] != 1 else ''}", className="price"),
                    html.Div(effect_label(slot["effect"]), className="effect"),
                    html.Div(f"{slot['position']} sleeve", className="quiet small"),
                    html.Div(effect.text, className="small effect-text"),
                ],
                className="market-slot",
                title=f"{effect_label(slot['effect'])}: {effect.text}",
                # (the play page lets a crafted play that buys it be picked here: dashboard/games/ruins/play.py)
                **data_attributes({"data-pick": f"discovery:{slot['discovery']}"}),
            )
        )
    return html.Div([html.H4("Market"), html.Div(slots, className="market")], className="panel")


def _crafted(view: dict[str, Any], names: list[str]) -> html.Details:
    """Every ruin changed so far (night side, sleeves or a claim; all public), and where it is now."""
    where: dict[int, str] = {}
    for hand in view["hands"]:
        for card in hand.get("ruins", []):
            where[card] = f"{names[hand['seat']]}'s hand"
    for card in view.get("pile", []):
        where[card] = "the pile"
    for card in view.get("discard", []):
        where[card] = "the discard"
    for card in view["draw_pile"].get("order", []):  # the referee sees the draw pile
        where[card] = "the draw pile"
    changed = [r for r in view["ruins"] if _changed(r)]
    if not changed:
        body: Any = html.Div("No ruin has been flipped, upgraded or claimed yet.", className="quiet small")
    else:
        # Each row kept apart too: a move moves a ruin or two, and the list grows through the game.
        rows = [kept(_crafted_row, r, where.get(r["id"], OUT_OF_SIGHT), names) for r in changed]
        body = html.Div(rows, className="crafted")
    return html.Details(
        [html.Summary(f"Flipped, upgraded and claimed ruins ({len(changed)})"), body],
        className="panel crafted-panel",
        id="table-crafted",
    )


def _crafted_row(ruin: dict[str, Any], where: str, names: list[str]) -> html.Div:
    return html.Div(
        [ruin_chip(ruin, names), html.Span(f" {ruin['day_rank']}☀/{ruin['night_rank']}☾ · {where}")],
        className="crafted-row small",
    )


def _changed(ruin: dict[str, Any]) -> bool:
    """Whether a ruin was flipped, upgraded or claimed (all public)."""
    return ruin["side"] == "night" or ruin["claim"] is not None or any(d is not None for d in ruin["sleeves"].values())


def ruin_chip(card: dict[str, Any], names: list[str], latest: bool = False, pick: bool = False) -> html.Span:
    """One ruin: its current rank(s) and side, sleeved discoveries, claim, and what it counts as; ``latest``:
    the move shown just played it (marked); ``pick``: a ruin in a hand, which its player may pick on the table."""
    book = book_of()
    night = card["side"] == "night"
    rank = card["night_rank"] if night else card["day_rank"]
    ranks = card.get("ranks") or [rank]
    rank_text = "any" if len(ranks) > 3 else "/".join(str(r) for r in ranks)
    parts: list[Any] = [
        html.Span(rank_text, className="rank"),
        html.Span("☾" if night else "☀", className="side", title="night side" if night else "day side"),
    ]
    sleeves = []
    for position, discovery in card["sleeves"].items():
        if discovery is not None:
            effect = book.discoveries[discovery].effect
            sleeves.append(html.Span(effect_label(effect), className=f"sleeve sleeve-{position}", title=position))
    parts.extend(sleeves)
    if card.get("counts_as", 1) > 1:
        parts.append(html.Span(f"{TIMES}{card['counts_as']}", className="sleeve"))
    if card.get("claim") is not None:
        parts.append(html.Span(f"claim {names[card['claim']]}", className="claim"))
    upgrades = [f"{p}: {effect_label(book.discoveries[d].effect)}" for p, d in card["sleeves"].items() if d is not None]
    title = (
        f"Ruin #{card['id']}: {'night' if night else 'day'} side, rank {rank_text} "
        f"(day {card['day_rank']} / night {card['night_rank']})"
        + (f"; sleeves {', '.join(upgrades)}" if upgrades else "")
        + (f"; claimed by {names[card['claim']]}" if card.get("claim") is not None else "")
        + (f"; effects: {', '.join(book.effects[e].text for e in card['effects'])}" if card.get("effects") else "")
    )
    return html.Span(
        parts,
        className=f"chip {'chip-night' if night else 'chip-day'}" + (" chip-last" if latest else ""),
        title=title + ("; just played" if latest else ""),
        # The play page turns the hand's chips whose ruin its picker offers into toggles (``data-pick``: the
        # picker's card value, dashboard/games/ruins/play.py), so a ruin is picked on the table as with the form's
        # box; only in the hand (the same ruin may be shown again among the changed ones).
        **data_attributes({"data-pick": str(card["id"])} if pick else {}),
    )
