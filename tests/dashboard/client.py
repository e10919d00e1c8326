"""Calling the dashboard the way a browser does, without one: Flask's test client, the session cookie it
keeps, the Origin header a browser sends with its POSTs, and Dash's callback requests written out by hand
(a JSON body with ``output``, ``outputs``, ``inputs``, ``state`` and ``changedPropIds``)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

from dashboard.replay_frames import CHUNK

ORIGIN = "http://localhost"  # the test client's own origin (its requests go to http://localhost/)
KEY = "organiser-key"


class Browser:
    """One visitor: a test client with its cookies. ``origin``: what its POSTs say they come from."""

    def __init__(self, app: Any, origin: str | None = ORIGIN) -> None:
        self.app = app
        self.client = app.server.test_client()
        self.origin = origin
        self.prefix = app.config.requests_pathname_prefix

    def headers(self) -> dict[str, str]:
        return {"Origin": self.origin} if self.origin else {}

    def get(self, path: str, **kw: Any) -> Any:
        return self.client.get(self.prefix + path.lstrip("/"), **kw)

    def post(self, path: str, **kw: Any) -> Any:
        given = kw.pop("headers", {})
        # A request that says where it comes from (Origin or Referer) says only that.
        headers = given if {"Origin", "Referer"} & set(given) else {**self.headers(), **given}
        return self.client.post(self.prefix + path.lstrip("/"), headers=headers, **kw)

    def csrf(self) -> str:
        """The CSRF token of this browser's forms, read as a browser would: from the sign-in page (which sets
        the CSRF cookie), or, once signed in, from the sign-out button in the page's header."""
        page = self.get("login")
        if page.status_code == 303:  # signed in already
            account = self.route_response("/")["account"]["children"]
            return str(next(c["props"]["value"] for c in components(account) if c["props"].get("name") == "csrf"))
        found = re.search(r'name="csrf" value="([^"]+)"', page.get_data(as_text=True))
        assert found, page.get_data(as_text=True)[:2000]
        return found.group(1)

    def sign_in(self, key: str = KEY) -> Any:
        return self.post("login", data={"key": key, "csrf": self.csrf(), "next": self.prefix})

    def session_cookie(self) -> str | None:
        cookie = self.client.get_cookie("digsite_session", path=self.prefix)
        return cookie.value if cookie is not None else None

    def set_session_cookie(self, value: str) -> None:
        self.client.set_cookie("digsite_session", value, path=self.prefix)

    # -- Dash callbacks ------------------------------------------------------------------------------------

    def post_callback(
        self,
        outputs: list[tuple[str, str]],
        inputs: list[tuple[str, str, Any]],
        state: Sequence[tuple[str, str, Any]] = (),
        headers: dict[str, str] | None = None,
    ) -> Any:
        """POST one callback to /_dash-update-component; the raw response."""
        if len(outputs) == 1:
            key = f"{outputs[0][0]}.{outputs[0][1]}"
            spec: Any = {"id": outputs[0][0], "property": outputs[0][1]}
        else:
            key = ".." + "...".join(f"{i}.{p}" for i, p in outputs) + ".."
            spec = [{"id": i, "property": p} for i, p in outputs]
        body = {
            "output": key,
            "outputs": spec,
            "inputs": [{"id": i, "property": p, "value": v} for i, p, v in inputs],
            "state": [{"id": i, "property": p, "value": v} for i, p, v in state],
            "changedPropIds": [f"{i}.{p}" for i, p, _ in inputs[:1]],
        }
        return self.post("_dash-update-component", json=body, headers=headers or {})

    def call(
        self,
        outputs: list[tuple[str, str]],
        inputs: list[tuple[str, str, Any]],
        state: Sequence[tuple[str, str, Any]] = (),
    ) -> dict[str, Any]:
        """A callback that must succeed; its response as {id: {property: value}}."""
        response = self.post_callback(outputs, inputs, state)
        assert response.status_code == 200, response.get_data(as_text=True)[:2000]
        return dict(json.loads(response.get_data(as_text=True))["response"])

    def route_response(self, path: str, search: str = "") -> dict[str, Any]:
        return self.call(
            [("page", "children"), ("nav", "children"), ("account", "children"), ("go", "href")],
            [("url", "pathname", self.prefix + path.lstrip("/"))],
            [("url", "search", search)],
        )

    def route(self, path: str, search: str = "") -> Any:
        """The page the router draws for ``path`` (a path inside the dashboard)."""
        return self.route_response(path, search)["page"]["children"]

    def frames_response(
        self,
        game_id: str,
        seat: str | None = "referee",
        part: int = 0,
        moves: bool = True,
        by_event: bool = False,
        **kw: Any,
    ) -> Any:
        """One part of a perspective's replay (``/replay-frames/<game>``), as the page's script asks for it."""
        query = {"part": str(part), "moves": "1" if moves else "0", "events": "1" if by_event else "0"}
        if seat is not None:
            query["seat"] = seat
        if "early" in kw:  # (the page's head asking before the page is built)
            query["early"] = kw.pop("early")
        if "part_text" in kw:
            query["part"] = kw.pop("part_text")
        return self.get(f"replay-frames/{game_id}", query_string=query, **kw)

    def frames(
        self, game_id: str, seat: str = "referee", part: int = 0, moves: bool = True, by_event: bool = False
    ) -> dict[str, Any]:
        response = self.frames_response(game_id, seat, part, moves, by_event)
        assert response.status_code == 200, response.get_data(as_text=True)[:2000]
        return dict(json.loads(response.get_data(as_text=True)))

    def frame_response(
        self, game_id: str, version: int, seat: str | None = "referee", events: int | None = None
    ) -> Any:
        """The part of the replay holding ``version`` (the browser steps by event within it, without asking)."""
        return self.frames_response(game_id, seat, (version - 1) // CHUNK, by_event=events is not None)

    def frame(self, game_id: str, version: int, seat: str = "referee", events: int | None = None) -> dict[str, Any]:
        """One frame as the page shows it: its table (HTML) and the log up to it (the lines told so far)."""
        doc = self.frames(game_id, seat, (version - 1) // CHUNK, by_event=events is not None)
        found = [f for f in doc["frames"] if f["v"] == version and f["k"] == events]
        assert found, f"no frame for version {version}, events {events}"
        table = "".join(doc["pieces"][i] for i in found[0]["t"])
        log = [
            {**m, "lines": [x for x in m["lines"][: events if m["v"] == version and events else None] if x is not None]}
            for m in doc["moves"][:version]
        ]
        return {"replay-table": table, "replay-log": log, "document": doc}

    def verification_response(self, game_id: str) -> Any:
        return self.post_callback(
            [("replay-verify", "children")],
            [("replay-meta", "data", {"game": game_id, "latest": 1, "names": [], "starts": {}})],
        )

    def chart_response(self, game_id: str, move: int = 1, latest: int = 1) -> Any:
        """The replay's VP chart, as its page asks for it once the first table shows."""
        return self.post_callback(
            [("replay-vp", "children"), ("replay-rounds", "children")],
            [("replay-chart-wanted", "data", {"v": move})],
            [("replay-meta", "data", {"game": game_id, "latest": latest})],
        )

    def games_response(self, start: str | None = None, **filters: Any) -> Any:
        inputs = [(f, "value", filters.get(f.removeprefix("games-"))) for f in GAME_INPUTS]
        inputs += [("games-dates", "start_date", start), ("games-dates", "end_date", None)]
        inputs += [("games-prev", "n_clicks", None), ("games-next", "n_clicks", None)]
        return self.post_callback(GAME_OUTPUTS, inputs, [("games-offset", "data", 0)])

    def games(self, start: str | None = None, **filters: Any) -> dict[str, Any]:
        response = self.games_response(start, **filters)
        assert response.status_code == 200, response.get_data(as_text=True)[:2000]
        return dict(json.loads(response.get_data(as_text=True))["response"])


GAME_INPUTS = ("games-kind", "games-tournament", "games-round", "games-player", "games-status", "games-winner")
GAME_OUTPUTS = [
    ("games-results", "children"),
    ("games-offset", "data"),
    ("games-prev", "disabled"),
    ("games-next", "disabled"),
    ("games-page", "children"),
]


def organiser(app: Any) -> Browser:
    browser = Browser(app)
    response = browser.sign_in()
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return browser


# -- reading what came back ------------------------------------------------------------------------------------


def components(tree: Any, kind: str | None = None) -> Iterator[dict[str, Any]]:
    """Every serialised component in a layout tree (of type ``kind`` if given)."""
    if isinstance(tree, list):
        for item in tree:
            yield from components(item, kind)
    elif isinstance(tree, dict) and "props" in tree and "type" in tree:
        if kind is None or tree["type"] == kind:
            yield tree
        for value in tree["props"].values():
            yield from components(value, kind)


def text(tree: Any) -> str:
    if isinstance(tree, str | int | float):
        return str(tree)
    if isinstance(tree, list):
        return " ".join(text(t) for t in tree)
    if isinstance(tree, dict) and "props" in tree:
        return text(tree["props"].get("children"))
    return ""


def by_id(tree: Any, component_id: str) -> dict[str, Any]:
    found = [c for c in components(tree) if c["props"].get("id") == component_id]
    assert found, f"no component with id {component_id!r}"
    return found[0]


def ids(tree: Any) -> set[str]:
    return {str(c["props"]["id"]) for c in components(tree) if "id" in c["props"]}


def graphs(tree: Any) -> dict[str, dict[str, Any]]:
    """Every figure in a layout tree by its chart's id: a ``dcc.Graph``'s, and those of charts drawn when scrolled
    to (``dashboard.lazy_charts``: in a store beside their boxes), only where the page holds the chart's box."""
    found = {g["props"]["id"]: g["props"]["figure"] for g in components(tree, "Graph")}
    boxes = {c["props"].get("id") for c in components(tree, "Div") if c["props"].get("className") == "lazy-chart"}
    for store in components(tree, "Store"):
        data = store["props"].get("data")
        if isinstance(data, dict) and "figures" in data and data.get("store") == store["props"].get("id"):
            found.update({cid: figure for cid, figure in data["figures"].items() if cid in boxes})
    return found


def tendency_groups(tree: Any, store_id: str = "players-bars") -> dict[str, list[list[dict[str, Any]]]]:
    """A page's groups of bars (``dashboard.tendency_bars``, sent as HTML text in a store: a players page's
    tendencies in ``players-bars``, the aggregates page's win rates in ``agg-bars``) by id: each tendency's (or
    table size's) rows, one per series (or value), as {who, value (None: none), n}, with ``size`` (the group's
    table size) and ``fair`` (where the dashed fair-share line is, in percent of the track) where the bars have
    them; only the groups that have a box in the page."""
    (store,) = [c for c in components(tree, "Store") if c["props"].get("id") == store_id]
    boxes = {c["props"]["id"] for c in components(tree, "Div") if c["props"].get("className") == "tbars"}
    return {gid: bar_rows(text) for gid, text in store["props"]["data"]["html"].items() if gid in boxes}


def store_texts(tree: Any, store_id: str) -> dict[str, str]:
    """The HTML texts a store of ``tendency_bars.boxed`` carries, by box id."""
    (store,) = [c for c in components(tree, "Store") if c["props"].get("id") == store_id]
    return dict(store["props"]["data"]["html"])


def column_counts(html_text: str) -> list[tuple[str, int]]:
    """The columns of a chart of counts' HTML (``dashboard.count_columns``): each one's value (or bin) and the
    count it is drawn with, in the axis's order."""
    from html.parser import HTMLParser

    found: list[tuple[str, int]] = []

    class Columns(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            named = dict(attrs)
            if "ccols-col" in (named.get("class") or "").split():
                found.append((named.get("data-label") or "", int(named.get("data-n") or 0)))

    Columns().feed(html_text)
    return found


def bar_rows(html_text: str) -> list[list[dict[str, Any]]]:
    """The rows of one group of bars' HTML, per tendency."""
    from html.parser import HTMLParser

    tendencies: list[list[dict[str, Any]]] = []

    class Rows(HTMLParser):
        who: dict[str, Any] | None = None
        size: str | None = None

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            found = dict(attrs)
            classes = (found.get("class") or "").split()
            if "tbars-tendency" in classes:
                tendencies.append([])
                self.size = found.get("data-size")
            elif "tbars-row" in classes:
                value = found.get("data-value") or ""
                tendencies[-1].append(
                    {"who": "", "value": float(value) if value else None, "n": float(found["data-n"] or 0)}
                )
                if self.size:
                    tendencies[-1][-1]["size"] = int(self.size)
            elif "tbars-fair" in classes:
                left = re.search(r"left:\s*([0-9.]+)%", found.get("style") or "")
                tendencies[-1][-1]["fair"] = float(left.group(1)) if left else None
            elif "tbars-who" in classes:
                self.who = tendencies[-1][-1]

        def handle_endtag(self, tag: str) -> None:
            self.who = None

        def handle_data(self, data: str) -> None:
            if self.who is not None:
                self.who["who"] += data

    Rows().feed(html_text)
    return tendencies


def listed(out: dict[str, Any]) -> list[str]:
    """The game ids a games-results answer lists."""
    return [
        c["props"]["data-game"] for c in components(out["games-results"]["children"], "Tr") if "data-game" in c["props"]
    ]


def hands(frame: dict[str, Any]) -> list[str]:
    """Each hand's visibility ("shown" / "hidden") in a replay frame's table (HTML), in seat order."""
    return re.findall(r'data-visible="(\w+)"', frame["replay-table"])


def perspectives(page: Any) -> list[str]:
    """The perspectives a replay page offers (its seat buttons), in order."""
    return [c["props"]["data-seat"] for c in components(page) if "seat-choice" in str(c["props"].get("className", ""))]


def replay_root(page: Any) -> dict[str, Any]:
    """The replay page's root props: the game, move and perspective the script opens it at (``data-*``)."""
    return dict(by_id(page, "replay-root")["props"])


def tree(component: Any) -> Any:
    """A component as Dash serialises it (dicts all the way down)."""
    from plotly.utils import PlotlyJSONEncoder

    return json.loads(json.dumps(component, cls=PlotlyJSONEncoder))
