"""Draw the Lost Ruins of Arnak table of one replay frame as plain HTML components.

Everything comes from the frame's ``view`` (the engine's ``view(state, seat)``), never from the state: a
seat's perspective shows exactly what that seat saw. Hands are listed only where the view lists them; deck
order and face-down idols appear only in the referee's view (its ``stacks``); other seats see sizes.

Elements carry ``data-*`` attributes so tests (and the integrator) can find them: ``data-seat`` on each
player's board, ``data-resource``/``data-count`` on resources, ``data-secret`` on everything only a
privileged perspective shows (``hand``, ``deck``, ``idol``), ``data-part`` on the score breakdown.
"""

from __future__ import annotations

from typing import Any

from dashboard import fast_html as html
from dashboard.components import data_attributes
from dashboard.games.arnak import names
from dashboard.kept import kept, kept_children, narrow
from domain.arnak import book
from domain.arnak.components import RESOURCES

RESOURCE_SHORT = {"coin": "coin", "compass": "compass", "tablet": "tablet", "arrowhead": "arrowhead", "jewel": "jewel"}
PHASES = {"play": "playing", "round_end": "round end: keeping cards", "over": "game over"}
SCORE_PARTS = (  # key, column head, what it counts
    ("research", "Research", "research tokens where they stand"),
    ("temple_tiles", "Temple", "temple tiles"),
    ("idols", "Idols", "idols, 3 each"),
    ("idol_slots", "Slots", "uncovered idol slots"),
    ("guardians", "Guardians", "guardians overcome, 5 each"),
    ("cards", "Cards", "printed points of items and artifacts"),
    ("fear", "Fear", "fear cards and fear tiles"),
)


def draw_table(frame: dict[str, Any]) -> html.Div:
    """The whole table of an Arnak replay frame (``Replays.replay``: ``view``, ``to_act``, ``players``...)."""
    view = frame["view"]
    acting = {int(s) for s in frame.get("to_act") or []}
    mover = (frame.get("last") or {}).get("seat")  # who made the move shown (the replay's latest play)
    viewer = view.get("viewer")
    # The board, the card row, the research track and each player's board are drawn from the slices of the view
    # they read, and kept (``dashboard.kept``): a replay draws each distinct one once, for every frame and
    # perspective that shows it the same.
    return html.Div(
        [
            _status(view, acting),
            html.Div(
                [
                    html.Div([kept(_board, _board_slice(view)), _scores(view)], className="arnak-left"),
                    html.Div(
                        [kept(_card_row, _card_row_slice(view)), kept(_research, _research_slice(view))],
                        className="arnak-centre",
                    ),
                ],
                className="arnak-main",
            ),
            html.Div(
                [
                    kept(_player, _seat_slice(view, seat), seat, seat in acting, seat == mover)
                    for seat in range(len(view["seats"]))
                ],
                className="arnak-players",
                **data_attributes({"data-count": str(len(view["seats"]))}),
            ),
        ],
        className=f"arnak-table arnak-side-{view.get('side', 'bird')}",
        **data_attributes({"data-viewer": str(viewer)}),
    )


# -- what each kept part reads of the view ---------------------------------------------------------------
# Each slice holds every entry of the view its part reads (a part given less would draw a default, the tests
# compare whole games drawn both ways); a seat's colour is all the board and the track read of a seat.


def _colours(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"colour": s.get("colour")} for s in view["seats"]]


def _stacks(view: dict[str, Any], keys: tuple[str, ...], seat: int | None = None) -> dict[str, Any]:
    """The referee's secret stacks under ``keys`` (with ``seat``: only that seat's entry of each, by position)."""
    stacks = view.get("stacks")
    if not stacks:
        return {"stacks": stacks} if "stacks" in view else {}
    out = {}
    for k in keys:
        if k in stacks:
            found = stacks[k]
            out[k] = found if seat is None else [x if i == seat else None for i, x in enumerate(found)]
    return {"stacks": out}


def _board_slice(view: dict[str, Any]) -> dict[str, Any]:
    keys = ("side", "archaeologists", "blocked", "camp_guardians", "sites", "site_stacks", "guardian_stack", "players")
    return {**narrow(view, keys), "seats": _colours(view), **_stacks(view, ("site_idols",))}


def _card_row_slice(view: dict[str, Any]) -> dict[str, Any]:
    return narrow(view, ("card_row", "artifact_deck", "item_deck", "artifact_exile", "item_exile", "fear_deck"))


def _research_slice(view: dict[str, Any]) -> dict[str, Any]:
    keys = ("side", "research_bonus", "players", "temple_bonus", "rescue", "temple_stacks", "assistant_stacks")
    out = narrow(view, keys)
    out["seats"] = [
        {"seat": s["seat"], "glass": s["glass"], "notebook": s["notebook"], "colour": s.get("colour")}
        for s in view["seats"]
    ]
    if "rival" in view:
        rival = view["rival"]
        out["rival"] = {"seat": rival["seat"]} if rival else rival
    return out


def _seat_slice(view: dict[str, Any], seat: int) -> dict[str, Any]:
    """A player's board with its head (who is first; its turn and last move are passed beside)."""
    return {**_player_slice(view, seat), **narrow(view, ("first_player",))}


def _line_slice(view: dict[str, Any], seat: int, keys: tuple[str, ...]) -> dict[str, Any]:
    """One line of a player's board: the seat's entries under ``keys``."""
    return {"seats": [narrow(s, keys) if i == seat else None for i, s in enumerate(view["seats"])]}


def _idols_slice(view: dict[str, Any], seat: int, is_rival: bool) -> dict[str, Any]:
    """A player's idols: its own, its face-down ones in the referee's stacks, and the solo rival's face-up ones."""
    out = {**_line_slice(view, seat, ("idols", "idol_slots")), **_stacks(view, ("idols",), seat)}
    if is_rival:
        out["rival"] = narrow(view["rival"], ("face_up_idols", "negative_idols"))
    return out


def _player_slice(view: dict[str, Any], seat: int) -> dict[str, Any]:
    seats = [s if i == seat else None for i, s in enumerate(view["seats"])]
    return {"seats": seats, **narrow(view, ("rival",)), **_stacks(view, ("idols", "decks"), seat)}


# -- small pieces ---------------------------------------------------------------------------------------


def _ordinal(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n, 'th') }"


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _meeple(view: dict[str, Any], seat: int) -> html.Span:
    name = view["players"][seat]
    return html.Span(
        name[:1].upper(),
        className=f"arnak-meeple arnak-c-{names.seat_colour(view, seat)}",
        title=f"{name}'s archaeologist",
        **data_attributes({"data-seat": str(seat)}),
    )


def _travel(icons: list[str] | tuple[str, ...], pick: bool = False) -> html.Span:
    """Travel icons; ``pick``: icons a player holds, each picked as ``travel:<icon>`` (to give one up)."""
    return html.Span(
        [
            html.Span(
                names.TRAVEL_NAMES.get(i, i),
                className=f"arnak-travel arnak-t-{i}",
                **data_attributes({"data-pick": f"travel:{i}"} if pick else {}),
            )
            for i in icons
        ],
        className="arnak-travels",
    )


def _res_chip(resource: str, count: int, seat: int | None = None) -> html.Span:
    attrs = {"data-resource": resource, "data-count": str(count)}
    if seat is not None:
        attrs["data-seat"] = str(seat)
    return html.Span(
        [html.Span(RESOURCE_SHORT[resource], className="arnak-res-name"), html.B(str(count))],
        className=f"arnak-res arnak-r-{resource}" + (" arnak-zero" if count == 0 else ""),
        title=names.amount(resource, count),
        **data_attributes(attrs),
    )


def _card(card: dict[str, Any], extra: str = "", owned: bool = False, **attrs: Any) -> Any:
    """A card chip: its name, cost (not once owned), travel icons and points; its printed text on hover. Kept: a
    card is drawn in many frames (a hand, the row) and a part around it changes more often than it does."""
    return kept(_card_chip, card, extra, owned, attrs)


def _card_chip(card: dict[str, Any], extra: str, owned: bool, attrs: dict[str, Any]) -> html.Span:
    bits: list[Any] = [html.Span(card["name"], className="arnak-card-name")]
    if card["kind"] in ("item", "artifact") and not owned:
        unit = "coin" if card["kind"] == "item" else "compass"
        bits.append(html.Span(f"{card['cost']} {unit}", className=f"arnak-cost arnak-r-{unit}"))
    bits.append(_travel(card["travel"]))
    if card.get("vp"):
        bits.append(html.Span(f"{card['vp']:+d} VP" if card["vp"] < 0 else f"{card['vp']} VP", className="arnak-vp"))
    return html.Span(
        bits,
        className=f"arnak-card arnak-k-{card['kind']} {extra}".strip(),
        title=f"{card['name']}: {names.card_text(card['id'])}",
        **{"data-card": card["name"], **attrs},
    )


def _section(title: str, body: Any, class_name: str = "", **attrs: Any) -> html.Div:
    return html.Div(
        [html.Div(title, className="arnak-h"), body], className=f"arnak-section {class_name}".strip(), **attrs
    )


# -- status ---------------------------------------------------------------------------------------------


def _status(view: dict[str, Any], acting: set[int]) -> html.Div:
    players = view["players"]
    rounds = book().rounds
    bits: list[Any] = [
        html.Span(
            f"Round {view['round']} of {rounds}" if view["round"] else "Setup",
            className="arnak-pill arnak-pill-round",
            id="arnak-round",
        ),
        html.Span(f"{view.get('side', 'bird').capitalize()} temple side", className="arnak-pill"),
    ]
    outcome = view.get("outcome")
    if outcome is not None:
        winners = " and ".join(players[s] for s in outcome["winners"])
        bits.append(html.Span(f"Game over: {winners} wins", className="arnak-pill arnak-pill-win"))
    else:
        bits.append(html.Span(PHASES.get(view["phase"], view["phase"]), className="arnak-pill"))
        if acting:
            who = ", ".join(players[s] for s in sorted(acting))
            bits.append(html.Span(f"To act: {who}", className="arnak-pill arnak-pill-turn", id="arnak-to-act"))
        if view.get("main_done") and view["phase"] == "play":
            bits.append(html.Span("main action taken", className="arnak-pill arnak-pill-quiet"))
    pending = view.get("pending")
    if pending is not None:
        what = names.DECISIONS.get(pending["kind"], pending["kind"].replace("_", " "))
        text = f"{players[pending['seat']]} decides {what}"
        if "options" in pending:
            said = [names.option_label(o, view.get("side", "bird"), pending["kind"]) for o in pending["options"]]
            # identical copies of a card once, counted ("Fear x3" with a times sign), not "Fear; Fear; Fear"
            counted = {label: said.count(label) for label in said}
            options = [f"{label} \u00d7{n}" if n > 1 else label for label, n in counted.items()]
            text += ": " + "; ".join(options[:6]) + (" …" if len(options) > 6 else "")
        bits.append(html.Span(text, className="arnak-pill arnak-pill-quiet arnak-pill-wrap", id="arnak-pending"))
    bits.append(html.Span(f"First player: {players[view['first_player']]}", className="arnak-pill arnak-pill-quiet"))
    viewer = view["viewer"]
    perspective = "referee (sees everything)" if viewer == "referee" else f"{players[int(viewer)]}'s view"
    bits.append(
        html.Span(f"Perspective: {perspective}", className="arnak-pill arnak-pill-quiet", id="arnak-perspective")
    )
    return html.Div(bits, className="arnak-status")


# -- the board: camps and dig sites ---------------------------------------------------------------------


def _occupants(view: dict[str, Any]) -> dict[str, int]:
    return {a["space"]: int(a["seat"]) for a in view["archaeologists"]}


def _space(view: dict[str, Any], space_id: str, cost: tuple[str, ...], occupants: dict[str, int]) -> html.Span:
    blocked = space_id in view["blocked"]
    seat = occupants.get(space_id)
    if seat is not None:
        body: Any = _meeple(view, seat)
        state = "taken"
    elif blocked:
        body = html.Span("blocked", className="arnak-blocked-x")
        state = "blocked"
    else:
        body = html.Span("free", className="arnak-free")
        state = "free"
    return html.Span(
        [_travel(cost), body],
        className=f"arnak-space arnak-space-{state}",
        title=f"{names.space_label(space_id, view.get('side', 'bird'))}: {state}",
        **data_attributes({"data-space": space_id, "data-state": state, "data-pick": f"space:{space_id}"}),
    )


def _guardian(guardian: int, used: bool | None = None, pick: str | None = None) -> html.Span:
    """A guardian: on a site (``pick``: what overcoming it is picked as) or, with ``used``, one a player holds."""
    cost, boon = names.guardian_parts(guardian)
    label = f"Guardian: {boon}" if used is None else f"boon: {boon}{' (used)' if used else ''}"
    return html.Span(
        label,
        className="arnak-guardian" + (" arnak-used" if used else ""),
        title=f"Guardian {guardian}. Cost: {cost}. Boon: {boon}. 5 VP once overcome.",
        **data_attributes({"data-guardian": str(guardian), "data-pick": pick or f"guardian:{guardian}"}),
    )


def _idol(idol: int, face: str = "up", holder: int | None = None) -> html.Span:
    """An idol; a face-down one is marked secret (``data-secret``), with its holder's seat when a seat holds it."""
    kind = names.idol_kind(idol)
    secret = {} if face == "up" else {"data-secret": "idol"}
    if secret and holder is not None:
        secret["data-seat"] = str(holder)
    return html.Span(
        f"idol: {kind}" if face == "up" else f"face down: {kind}",
        className=f"arnak-idol arnak-idol-{face}",
        title=f"Idol ({'face down' if face != 'up' else 'face up'}): {names.idol_text(idol)}",
        **data_attributes(secret),
    )


def _board(view: dict[str, Any]) -> html.Div:
    side = view.get("side", "bird")
    board = book().boards[side]
    occupants = _occupants(view)
    camp_guardians = {c["camp"]: c["guardian"] for c in view.get("camp_guardians", [])}
    camps = []
    for loc in board.camps:
        bits: list[Any] = [html.Div(names.camp_label(loc.id, side), className="arnak-loc-name")]
        bits.append(html.Div([_space(view, s.id, s.cost, occupants) for s in loc.spaces], className="arnak-spaces"))
        if loc.id in camp_guardians:
            bits.append(_guardian(camp_guardians[loc.id]))
        camps.append(
            html.Div(
                bits,
                className="arnak-loc arnak-camp",
                title=names.camp_label(loc.id, side),
                **data_attributes({"data-location": loc.id, "data-pick": f"location:{loc.id}"}),
            )
        )
    sites = {s["id"]: s for s in view["sites"]}
    secret_idols = (view.get("stacks") or {}).get("site_idols") or {}
    levels: dict[int, list[Any]] = {1: [], 2: []}
    for loc in board.sites:
        site = sites.get(loc.id)
        if site is None:
            continue
        levels[loc.level].append(_site(view, loc.id, loc.spaces[0].cost, site, occupants, secret_idols.get(loc.id)))
    stacks = view.get("site_stacks") or [0, 0]
    return html.Div(
        [
            html.Div("Board", className="arnak-h"),
            html.Div(camps, className="arnak-camps"),
            html.Div(
                [
                    html.Span("Level I sites", className="arnak-sub"),
                    html.Span(f"{stacks[0]} tiles left · hatched: not yet discovered", className="q"),
                ],
                className="arnak-subhead",
            ),
            html.Div(levels[1], className="arnak-sites arnak-sites-1"),
            html.Div(
                [
                    html.Span("Level II sites", className="arnak-sub"),
                    html.Span(
                        f"{stacks[1]} tiles left · {_plural(view.get('guardian_stack', 0), 'guardian')} in the stack",
                        className="q",
                    ),
                ],
                className="arnak-subhead",
            ),
            html.Div(levels[2], className="arnak-sites arnak-sites-2"),
        ],
        className="arnak-board arnak-panel",
        id="arnak-board",
    )


def _site(
    view: dict[str, Any],
    site_id: str,
    cost: tuple[str, ...],
    site: dict[str, Any],
    occupants: dict[str, int],
    secret: list[int] | None,
) -> html.Div:
    discovered = site["tile"] is not None
    head = html.Div(
        [html.Span(names.site_label(site_id), className="arnak-loc-name"), _space(view, site_id, cost, occupants)],
        className="arnak-site-head",
    )
    bits: list[Any] = [head]
    if discovered:
        bits.append(html.Div(names.site_tile_text(site["tile"]), className="arnak-tile", title="Site tile"))
    else:
        idols: list[Any] = []
        if site["face_up_idol"] is not None:
            idols.append(_idol(site["face_up_idol"]))
        down = int(site["face_down_idols"])
        if down:
            if secret is not None and len(secret) > 1:
                idols.extend(_idol(i, "down") for i in secret[1:])
            else:
                idols.append(html.Span(f"+{down} face down", className="arnak-idol arnak-idol-hidden"))
        bits.append(html.Div(idols, className="arnak-site-idols"))
    if site["guardian"] is not None:
        bits.append(_guardian(site["guardian"], pick=f"guardian-at:{site_id}"))
    return html.Div(
        bits,
        className=f"arnak-loc arnak-site {'arnak-discovered' if discovered else 'arnak-undiscovered'}",
        title=names.site_label(site_id) if discovered else f"{names.site_label(site_id)}: not yet discovered",
        **data_attributes({"data-location": site_id, "data-pick": f"location:{site_id}"}),
    )


# -- the centre: card row, research track, supplies -----------------------------------------------------


def _card_row(view: dict[str, Any]) -> html.Div:
    row = view["card_row"]
    # ``data-pick``: the play page lets a card the picker marks be picked on the table (dashboard/games/arnak/play.py)
    artifacts = [
        _card(c, "arnak-in-row", **data_attributes({"data-pick": f"card:{c['id']}"})) for c in row["artifacts"]
    ]
    items = [_card(c, "arnak-in-row", **data_attributes({"data-pick": f"card:{c['id']}"})) for c in row["items"]]
    staff = html.Span("moon staff", className="arnak-staff", title="The moon staff: artifacts left, items right")
    piles = html.Div(
        [
            html.Span(f"Artifact deck {view['artifact_deck']}", className="q"),
            html.Span(f"Item deck {view['item_deck']}", className="q"),
            html.Span(
                f"Exiled: {len(view['artifact_exile'])} artifacts, {len(view['item_exile'])} items", className="q"
            ),
            html.Span(f"Fear deck {view['fear_deck']}", className="q"),
        ],
        className="arnak-piles",
    )
    return html.Div(
        [
            html.Div("Card row", className="arnak-h"),
            html.Div([*artifacts, staff, *items], className="arnak-row"),
            piles,
        ],
        className="arnak-panel arnak-cardrow",
        id="arnak-card-row",
    )


def _research(view: dict[str, Any]) -> html.Div:
    side = view.get("side", "bird")
    track = book().boards[side].track
    seats = view["seats"]
    rival = view.get("rival")
    bonus: dict[str, list[int]] = {}
    for b in view.get("research_bonus", []):
        bonus.setdefault(b["space"], []).append(int(b["tile"]))

    def tokens(node: str) -> list[Any]:
        out: list[Any] = []
        for p in seats:
            seat = int(p["seat"])
            colour = names.seat_colour(view, seat)
            who = view["players"][seat]
            if p["glass"] == node:
                out.append(
                    html.Span(
                        "glass",
                        className=f"arnak-token arnak-glass arnak-c-{colour}",
                        title=f"{who}'s magnifying glass",
                    )
                )
            if p["notebook"] == node and not (rival and rival["seat"] == seat):
                out.append(
                    html.Span(
                        "book", className=f"arnak-token arnak-notebook arnak-c-{colour}", title=f"{who}'s notebook"
                    )
                )
        return out

    rows: list[Any] = []
    temple_bits: list[Any] = [html.Span("Lost Temple", className="arnak-row-name")]
    temple_bits += tokens("temple")
    points = track.temple_points
    temple_bits.append(html.Span("points by arrival " + " / ".join(str(p) for p in points), className="q"))
    temple_bits.append(html.Span(f"bonus stack {view.get('temple_bonus', 0)}", className="q"))
    rows.append(
        html.Div(
            temple_bits,
            className="arnak-rrow arnak-temple",
            title="The Lost Temple",
            **data_attributes({"data-row": "temple", "data-pick": "research:temple"}),
        )
    )
    by_row: dict[int, list[str]] = {}
    for space in track.spaces.values():
        by_row.setdefault(space.row, []).append(space.id)
    for r in sorted(by_row, reverse=True):
        glass_vp, note_vp = track.vp[r]
        cells = []
        for node in sorted(by_row[r]):
            space = track.spaces[node]
            inner: list[Any] = tokens(node)
            inner += [
                html.Span(names.bonus_text(t), className="arnak-bonus", title="Research bonus tile")
                for t in bonus.get(node, [])
            ]
            if space.rescue:
                rescued = int(view.get("rescue", {}).get("count", 0))
                inner.append(html.Span(f"rescue space: {_plural(rescued, 'assistant')}", className="q"))
            cells.append(
                html.Span(
                    inner or [html.Span("empty", className="arnak-free")],
                    className="arnak-rspace",
                    title=names.research_label(node),
                    **data_attributes({"data-pick": f"research:{node}"}),
                )
            )
        rows.append(
            html.Div(
                [
                    html.Span(
                        f"Row {r + 1}", className="arnak-row-name", title=f"glass {glass_vp} VP, notebook {note_vp} VP"
                    ),
                    html.Span(f"{glass_vp}/{note_vp} VP", className="arnak-row-vp"),
                    *cells,
                ],
                className="arnak-rrow",
                **data_attributes({"data-row": str(r)}),
            )
        )
    rows.append(
        html.Div(
            [html.Span("Start", className="arnak-row-name"), *tokens("start")],
            className="arnak-rrow",
            **data_attributes({"data-row": "start"}),
        )
    )
    temple_tiles = [
        html.Span(
            f"{names.temple_stack(i)[0]} VP, {left} left",
            className="arnak-temple-tile" + (" arnak-zero" if not left else ""),
            title=f"Temple tile: {names.temple_stack(i)[0]} VP for {names.temple_stack(i)[1]}; {left} left",
            **data_attributes({"data-pick": f"temple:{i}"}),
        )
        for i, left in enumerate(view.get("temple_stacks", []))
    ]
    assistants = [
        html.Span(
            [
                html.B(f"#{s['top']}" if s["top"] is not None else "empty"),
                f" {names.assistant_text(s['top'])} " if s["top"] is not None else " ",
                html.Span(f"({s['count']})", className="q"),
            ],
            className="arnak-assistant-stack",
            title=f"Assistant stack {i + 1}: the top assistant, silver side, and the stack's size",
            **data_attributes({"data-pick": f"stack:{i}"}),
        )
        for i, s in enumerate(view.get("assistant_stacks", []))
    ]
    return html.Div(
        [
            html.Div(
                [
                    html.Span("Research track", className="arnak-h"),
                    html.Span("glass / book = magnifying glass / notebook; row VP glass/notebook", className="q"),
                ],
                className="arnak-subhead",
            ),
            html.Div(rows, className="arnak-track"),
            html.Div([html.Span("Temple tiles", className="arnak-sub"), *temple_tiles], className="arnak-line"),
            html.Div([html.Span("Assistants", className="arnak-sub"), *assistants], className="arnak-line"),
        ],
        className="arnak-panel arnak-research",
        id="arnak-research",
    )


# -- each player's board ---------------------------------------------------------------------------------


def _player(view: dict[str, Any], seat: int, acting: bool, moved_last: bool = False) -> html.Div:
    p = view["seats"][seat]
    rival = view.get("rival")
    is_rival = rival is not None and int(rival["seat"]) == seat
    colour = names.seat_colour(view, seat)
    tags: list[Any] = []
    if acting:
        tags.append(html.Span("TO ACT", className="arnak-tag arnak-tag-act"))
    if moved_last:
        tags.append(html.Span("moved last", className="arnak-tag arnak-tag-last"))
    if view["first_player"] == seat:
        tags.append(html.Span("first", className="arnak-tag"))
    if p.get("passed"):
        tags.append(html.Span("passed", className="arnak-tag arnak-tag-quiet"))
    if is_rival:
        tags.append(html.Span("solo rival", className="arnak-tag"))
    head = html.Div(
        [
            html.Span(className=f"arnak-swatch arnak-c-{colour}"),
            html.B(p["name"]),
            html.Span(f"seat {seat + 1}", className="q"),
            *tags,
        ],
        className="arnak-phead",
    )
    # Whose turn it is and who moved last change every move, what is on the board only with its seat's moves: the
    # board under the head is kept apart.
    return html.Div(
        [head, *kept_children(_player_body, _player_slice(view, seat), seat)],
        className=f"arnak-player arnak-panel arnak-b-{colour}" + (" arnak-acting" if acting else ""),
        id=f"arnak-seat-{seat}",
        **data_attributes(
            {
                "data-seat": str(seat),
                "data-to-act": "yes" if acting else "no",
                "data-moved-last": "yes" if moved_last else "no",
            }
        ),
    )


def _player_body(view: dict[str, Any], seat: int) -> list[Any]:
    """A player's board under its head: resources, research, idols, assistants and guardians, cards, archaeologists."""
    p = view["seats"][seat]
    rival = view.get("rival")
    is_rival = rival is not None and int(rival["seat"]) == seat
    # Each line is kept apart too, from the slice of the view it reads: a move changes one or two of them (most often
    # the resources), and the others are reused.
    bits: list[Any] = [kept(_resources, _line_slice(view, seat, ("resources", "travel")), seat)]
    research = _line_slice(view, seat, ("glass", "notebook", "temple_place", "temple_tiles"))
    bits.append(kept(_research_line, research, seat, is_rival))
    bits.append(kept(_idols_line, _idols_slice(view, seat, is_rival), seat, is_rival))
    if p["assistants"] or p["guardians"]:
        bits.append(kept(_assistants_line, _line_slice(view, seat, ("assistants", "guardians")), seat))
    if is_rival and rival is not None:
        bits.append(_rival_lines(view, rival))
    else:
        # The cards are most of a board, and a move's events change the resources more often than the cards: the
        # cards are kept apart (a pure function of what is passed: the seat's cards and its deck's order, if shown).
        decks = (view.get("stacks") or {}).get("decks") or []
        order = decks[seat] if seat < len(decks) else None
        bits.append(kept(_cards_lines, p["hand"], p["play_area"], p["deck"]["count"], p.get("fear_tiles"), order, seat))
    out = int(p.get("archaeologists_out", 0))
    total = book().archaeologists if not is_rival else 6
    bits.append(
        html.Div(
            [html.Span("Archaeologists", className="arnak-sub"), f"{out} out, {max(0, total - out)} at home"],
            className="arnak-line q",
        )
    )
    return bits


def _resources(view: dict[str, Any], seat: int) -> html.Div:
    """A seat's resources, and the travel icons it holds."""
    p = view["seats"][seat]
    return html.Div(
        [_res_chip(r, int(p["resources"].get(r, 0)), seat) for r in RESOURCES]
        + ([html.Span("held:", className="q"), _travel(p["travel"], pick=True)] if p.get("travel") else []),
        className="arnak-resources",
    )


def _research_line(view: dict[str, Any], seat: int, is_rival: bool) -> html.Div:
    p = view["seats"][seat]
    place = p.get("temple_place")
    glass = names.short_research(p["glass"]) if place is None else f"Lost Temple, {_ordinal(place + 1)} to arrive"
    bits: list[Any] = [
        html.Span("Research", className="arnak-sub"),
        html.Span(f"glass: {glass}", title=f"Magnifying glass: {names.research_label(p['glass'])}"),
    ]
    if not is_rival:
        bits.append(
            html.Span(
                f" · notebook: {names.short_research(p['notebook'])}",
                title=f"Notebook: {names.research_label(p['notebook'])}",
            )
        )
    if p.get("temple_tiles"):
        vps = [str(names.temple_stack(s)[0]) for s in p["temple_tiles"]]
        bits.append(html.Span(f" · temple tiles {' + '.join(vps)} VP", className="arnak-strong"))
    return html.Div(bits, className="arnak-line")


def _idols_line(view: dict[str, Any], seat: int, is_rival: bool) -> html.Div:
    p = view["seats"][seat]
    count = int(p["idols"]["count"])
    # Which idols lie face down in the supply: the holder's own view lists them (``ids``), the referee's stacks too.
    secret = (view.get("stacks") or {}).get("idols") or []
    held = p["idols"].get("ids")
    if held is None and seat < len(secret):
        held = secret[seat]
    bits: list[Any] = [html.Span("Idols", className="arnak-sub"), f"{count} in supply"]
    if count and held:
        bits.extend(_idol(i, "down", seat) for i in held)
    if not is_rival:
        vps = book().idol_slot_vp
        slots = list(p["idol_slots"])
        cells = []
        for i, vp in enumerate(vps):
            if i < len(slots):
                # Another seat's slotted idols lie face down: the engine's view says only that one is there.
                kind = names.idol_kind(slots[i]) if isinstance(slots[i], int) else "idol"
                cells.append(
                    html.Span(
                        kind,
                        className="arnak-slot arnak-slot-full",
                        title=f"Slot {i + 1}: idol placed (its {vp} VP covered)",
                    )
                )
            else:
                cells.append(html.Span(f"{vp} VP", className="arnak-slot", title=f"Slot {i + 1}: empty, worth {vp} VP"))
        bits.append(html.Span(["slots", *cells], className="arnak-slots"))
    else:
        rival = view["rival"]
        ups = [_idol(i) for i in rival["face_up_idols"]]
        bits.append(html.Span([" face up:", *ups] if ups else " no face-up idols", className="arnak-slots"))
        bits.append(f" · {rival['negative_idols']['count']} in the negative stack")
    # (picked to place one of them in a slot: ``idols:<seat>``)
    return html.Div(
        bits, className="arnak-line arnak-idols", title="Idols", **data_attributes({"data-pick": f"idols:{seat}"})
    )


def _assistants_line(view: dict[str, Any], seat: int) -> html.Div:
    p = view["seats"][seat]
    bits: list[Any] = []
    if p["assistants"]:
        bits.append(html.Span("Assistants", className="arnak-sub"))
        for a in p["assistants"]:
            metal = "gold" if a.get("gold") else "silver"
            ready = "exhausted" if a.get("exhausted") else "ready"
            bits.append(
                html.Span(
                    f"#{a['id']} {metal}, {ready}",
                    className=f"arnak-assistant arnak-{metal} arnak-{ready}",
                    title=names.assistant_text(a["id"], bool(a.get("gold"))),
                    **data_attributes({"data-pick": f"assistant:{a['id']}"}),
                )
            )
    if p["guardians"]:
        bits.append(html.Span("Guardians", className="arnak-sub"))
        bits.extend(_guardian(g["id"], bool(g["boon_used"])) for g in p["guardians"])
    return html.Div(bits, className="arnak-line")


def _cards_lines(
    hand: dict[str, Any],
    play_area: list[dict[str, Any]],
    deck_count: int,
    fear_tiles: int | None,
    deck_order: list[Any] | None,
    seat: int,
) -> html.Div:
    """A seat's hand (its cards where the view lists them), play area, deck (its order where the referee's view
    has it) and the fear it has seen."""
    fear_seen = sum(1 for c in play_area if c["kind"] == "fear")
    if "cards" in hand:
        fear_seen += sum(1 for c in hand["cards"] if c["kind"] == "fear")
        hand_body: Any = [
            _card(
                c,
                "arnak-in-hand",
                owned=True,
                **data_attributes({"data-secret": "hand", "data-seat": str(seat), "data-pick": f"card:{c['id']}"}),
            )
            for c in hand["cards"]
        ] or [html.Span("empty", className="q")]
    else:
        hand_body = [html.Span(f"{_plural(int(hand['count']), 'card')}, hidden", className="arnak-hidden")]
    deck_bits: list[Any] = [html.Span("Deck", className="arnak-sub"), f"{_plural(int(deck_count), 'card')}"]
    if deck_order:
        deck_bits.append(
            html.Details(
                [
                    html.Summary("order"),
                    html.Span(
                        "top first: " + ", ".join(names.card_name(c) for c in deck_order),
                        className="q arnak-deck-order",
                        **data_attributes({"data-secret": "deck", "data-seat": str(seat)}),
                    ),
                ],
                className="arnak-deck-details",
            )
        )
        fear_seen = (
            sum(1 for c in play_area if c["kind"] == "fear")
            + sum(1 for c in hand.get("cards", []) if c["kind"] == "fear")
            + sum(1 for c in deck_order if names.card_kind(c) == "fear")
        )
    fear: list[Any] = [html.Span("Fear", className="arnak-sub"), f"{fear_seen} seen"]
    if fear_tiles:
        fear.append(f", {_plural(int(fear_tiles), 'fear tile')} (-2 each)")
    play = [
        _card(c, "arnak-in-play", owned=True, **data_attributes({"data-pick": f"card:{c['id']}"})) for c in play_area
    ] or [html.Span("empty", className="q")]
    return html.Div(
        [
            html.Div(
                [html.Span(f"Hand ({hand['count']})", className="arnak-sub"), *hand_body],
                className="arnak-line arnak-hand",
                **data_attributes({"data-seat": str(seat)}),
            ),
            html.Div(
                [html.Span(f"Play area ({len(play_area)})", className="arnak-sub"), *play], className="arnak-line"
            ),
            html.Div([*deck_bits, html.Span(" · ", className="q"), *fear], className="arnak-line"),
        ],
        className="arnak-cards",
    )


def _rival_lines(view: dict[str, Any], rival: dict[str, Any]) -> html.Div:
    played = [html.Span(names.rival_tile_label(t), className="arnak-rival-tile") for t in rival["played"]]
    bought = [_card(c, owned=True) for c in rival["cards"]] or [html.Span("none", className="q")]
    return html.Div(
        [
            html.Div(
                [
                    html.Span("Action tiles", className="arnak-sub"),
                    f"{rival['stack']['count']} face down; played this round: ",
                    *(played or [html.Span("none", className="q")]),
                ],
                className="arnak-line",
            ),
            html.Div([html.Span("Cards bought", className="arnak-sub"), *bought], className="arnak-line"),
        ],
        className="arnak-cards",
    )


# -- the end: the score breakdown ------------------------------------------------------------------------


def _scores(view: dict[str, Any]) -> Any:
    outcome = view.get("outcome")
    if outcome is None:
        return None
    players = view["players"]
    winners = set(outcome["winners"])
    rows = []
    for s in outcome["scores"]:
        seat = int(s["seat"])
        cells = [html.Td([html.Span(className=f"arnak-swatch arnak-c-{names.seat_colour(view, seat)}"), players[seat]])]
        cells += [
            html.Td(str(s[key]), className="num", **data_attributes({"data-part": key})) for key, _, _ in SCORE_PARTS
        ]
        total = html.B(str(s["total"]))
        cells.append(html.Td(total, className="num arnak-total", **data_attributes({"data-part": "total"})))
        place = _ordinal(1 if seat in winners else outcome["ranking"].index(seat) + 1)
        cells.append(html.Td(place, className="q", title="winner" if seat in winners else f"{place} place"))
        winner = "arnak-winner" if seat in winners else None
        rows.append(html.Tr(cells, className=winner, **data_attributes({"data-seat": str(seat)})))
    head = html.Tr(
        [
            html.Th("Player"),
            *[html.Th(label, title=what) for _, label, what in SCORE_PARTS],
            html.Th("Total"),
            html.Th(""),
        ]
    )
    return html.Div(
        [
            html.Div("Final score", className="arnak-h"),
            html.Table([html.Thead(head), html.Tbody(rows)], className="arnak-score"),
        ],
        className="arnak-panel arnak-scores",
        id="arnak-score",
    )
