"""Everything the pages read, each call for one :class:`~dashboard.access.Visitor`.

The pages hold a :class:`Data`, never the read port itself: every function here takes the visitor first and asks
``dashboard.access`` before it reads, so a page or callback cannot read without saying for whom. A refusal
is :class:`~dashboard.access.Denied` (HTTP 403 when it ends a callback). Reads go through the query objects of
``service.reading.read_port.ReadPort`` (lists, replays, analytics: none can play a move).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cachetools import LRUCache

from dashboard import access, collection, replay_frames
from dashboard.access import HIDDEN_GAME, REFEREE, Denied, Visitor
from dashboard.judged_moves import judged_words
from domain.games import game as game_of
from service.bots.seated_rounds import enter_bots
from service.commands.application import Digsite, GameReader, Viewer
from service.commands.broadcasts import delay_of
from service.commands.results import MoveAcknowledged, SeatedRound, SeatLink, TournamentRounds
from service.commands.tournament_setup import register_people, set_up_tournament
from service.errors import BadRequest, NotFound
from service.integrity.audit import verify
from service.integrity.checkpoint import checkpoint_coverage
from service.reading import fair_play
from service.reading.analytics import Analytics
from service.reading.crafting import crafted
from service.reading.judgements import Judgements, MeanAccuracy, PlayerAccuracy
from service.reading.lists import Lists
from service.reading.read_port import ReadPort
from service.reading.replays import At, Replays, entries, events_of, evolved
from service.reading.results import (
    Broadcast,
    ByDimension,
    ByRound,
    Count,
    FairPlay,
    GamesPage,
    LeaderboardEntry,
    PlayerRow,
    RatingChange,
    Standings,
    Tendencies,
    Timeline,
    TournamentListed,
    TournamentRow,
)
from service.reading.scope import Sizes
from service.reading.skills import Skills
from service.reading.standings import PointsTable, report, to_csv
from service.serving import broadcast as broadcasting
from service.serving import push

FAIR_PLAY_REFUSED = "a tournament's fair-play report is for organisers: sign in as an organiser"
DETAILS_LATER = "shown to everyone once the game is over"
NOT_YOUR_SEAT = "Only a player of this game can play here: open the seat link the organiser gave you."
MAX_WAIT_SECONDS = 25.0  # a live page's one waiting request answers within this (then the page asks again)
LOG_MOVES = 30  # the play page's log: the last moves
PART_STATES = 64  # parts whose frames' states are kept (a part is 25 to 80 states sharing most of their parts)


@dataclass
class Verifications:
    """``service.integrity.audit.verify`` replays a whole game, so each game is checked once per version it has
    reached (a finished game once for good) and the report kept; stepping through a replay never verifies."""

    service: Digsite
    size: int = 256
    _reports: OrderedDict[tuple[str, int], dict[str, Any]] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    runs: int = 0  # how many times verify actually ran (the tests check the cache holds)

    def report(self, game_id: str, latest_version: int) -> dict[str, Any]:
        key = (game_id, latest_version)
        with self._lock:
            cached = self._reports.get(key)
            if cached is not None:
                self._reports.move_to_end(key)
                return cached

        report = verify(self.service, game_id).to_dict()
        with self._lock:
            self.runs += 1
            self._reports[key] = report
            while len(self._reports) > self.size:
                self._reports.popitem(last=False)
        return report


@dataclass
class Kept:
    """A small thread-safe LRU of replay parts (a finished game's never change; a live game's are keyed by
    how many moves it has, so a new move makes new ones)."""

    size: int
    _found: OrderedDict[tuple[Any, ...], dict[str, Any]] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    built: int = 0  # how many parts were drawn (the tests check the cache holds)

    def get(self, key: tuple[Any, ...]) -> dict[str, Any] | None:
        with self._lock:
            found = self._found.get(key)
            if found is not None:
                self._found.move_to_end(key)
            return found

    def put(self, key: tuple[Any, ...], value: dict[str, Any]) -> None:
        with self._lock:
            self.built += 1
            self._found[key] = value
            while len(self._found) > self.size:
                self._found.popitem(last=False)


@dataclass(frozen=True)
class Opened:
    """A game as one visitor may open it: its id, whether it is over, and the perspectives allowed."""

    game_id: str
    over: bool
    latest: int
    names: list[str]
    perspectives: tuple[str, ...]

    def choose(self, wanted: str | None) -> str:
        """The perspective to show: the one asked for if allowed, else the first allowed."""
        return wanted if wanted in self.perspectives else self.perspectives[0]


@dataclass
class States:
    """The engine's state of a game after its first N records, kept by (game, N): the one place the dashboard keeps
    evolved games. A game's records never change once stored, so neither does its state after N of them, a game in
    play's included. A replay's parts start from the state before them (kept at every part's boundary) instead of
    folding the game from its first record for each of them."""

    size: int = 2048  # states are immutable and share most of their parts: a few MB for a store's busy games
    _kept: LRUCache[tuple[str, int], Any] = field(init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    evolved: int = 0  # records folded (the tests check a replay folds each once)

    def __post_init__(self) -> None:
        self._kept = LRUCache(maxsize=self.size)

    def after(self, game_id: str, records: Sequence[dict[str, Any]], version: int) -> tuple[int, Any] | None:
        """(``version``, the state after the first ``version`` records of ``game_id``), evolved from the nearest
        kept part boundary before it and kept; None for version 0 (no state before the first record)."""
        if version < 1:
            return None
        with self._lock:
            found = self._kept.get((game_id, version))
        if found is not None:
            return version, found
        start = None
        below = (version - 1) // replay_frames.CHUNK * replay_frames.CHUNK
        while below > 0 and start is None:
            with self._lock:
                state = self._kept.get((game_id, below))
            start = (below, state) if state is not None else None
            below -= replay_frames.CHUNK
        # Keep every part boundary passed on the way, so the parts after this one start from there too.
        done, state = start if start is not None else (0, None)
        for boundary in range(done + replay_frames.CHUNK - done % replay_frames.CHUNK, version, replay_frames.CHUNK):
            state = evolved(records, boundary, (done, state) if done else None)
            self._keep(game_id, boundary, state, boundary - done)
            done = boundary
        state = evolved(records, version, (done, state) if done else None)
        self._keep(game_id, version, state, version - done)
        return version, state

    def _keep(self, game_id: str, version: int, state: Any, folded: int) -> None:
        with self._lock:
            self.evolved += folded
            self._kept[(game_id, version)] = state


class Data:
    def __init__(self, read: ReadPort, service: Digsite) -> None:
        # (reads: none of these can play a move)
        self._lists: Lists = read.lists
        self._replays: Replays = read.replays
        self._reader: GameReader = read.reader  # (a game now, as a seat sees it)
        self._analytics: Analytics = read.analytics
        self._skills: Skills = read.skills
        self._rounds = read.rounds  # (tournaments' entries and seated rounds, read only)
        self._judgements: Judgements = read.judgements  # (the judge's, written by ``digsite analyse``)
        self._service = service  # (the command side: moves, crafting, the push channel's waits, verification)
        self._read = read  # (a tournament's fair-play evidence reads the store's records and the judge's rows)
        self.fair_play_reporter: fair_play.Reporter | None = None  # None: the fair-play signals' own report
        self.verifications = Verifications(service)
        self.documents = Kept(size=512)  # a five-seat game of 300 moves is 72 parts
        self.states = States()
        # A part's states, frame by frame, while its perspectives are drawn one after the other (each perspective's
        # frames are the engine's views of the same states): by (game, part, by event, its last move).
        self.part_states: LRUCache[tuple[str, int, bool, int], list[At]] = LRUCache(maxsize=PART_STATES)
        self._part_states_lock = threading.Lock()

    # -- lists and statistics ---------------------------------------------------------------------------

    def tournaments(self, visitor: Visitor) -> list[TournamentListed]:
        return self._lists.tournaments(finished_only=access.finished_only(visitor))

    def tournament_names(self, visitor: Visitor) -> dict[str, str]:
        return {str(t["tournament_id"]): t["name"] for t in self.tournaments(visitor)}

    def tournament(self, visitor: Visitor, tournament_id: str) -> TournamentRow:
        """One tournament (``NotFound`` for an id the read models do not hold)."""
        access.require_lists(visitor)
        found = self._lists.tournament(tournament_id)
        if found is None:
            raise NotFound(f"no tournament with id {tournament_id}", "unknown_tournament")
        return found

    def standings(self, visitor: Visitor, tournament_id: str, points: str | None) -> Standings:
        """The tournament's standings (``service.reading.standings.report``): an organiser's count every game and show
        those in play; anyone else's only finished games. ``PointsTableError`` for a points table that cannot
        be read."""
        table = PointsTable.parse(points)
        found = self.tournament(visitor, tournament_id)
        rows = self._lists.tournament_seats(tournament_id, finished_only=access.finished_only(visitor))
        return report(found, rows, table, self._lists.tournament_rulings(tournament_id))

    # -- a tournament's entries and rounds (organisers only; the one service function: ``Digsite.rounds``) ------

    def rounds(self, visitor: Visitor, tournament_id: str) -> TournamentRounds:
        access.require_organiser(visitor)
        return self._rounds.status(tournament_id)

    def enter(self, visitor: Visitor, tournament_id: str, players: list[str], bots: int) -> None:
        """Enter ``players`` (ids) and ``bots`` named bot players, as the API and the CLI do."""
        access.require_organiser(visitor)
        if players:
            self._service.rounds.enter(tournament_id, players)
        if bots:
            enter_bots(self._service, tournament_id, bots)

    def create_tournament(
        self,
        visitor: Visitor,
        name: str,
        rounds: int,
        kind: str,
        clock: dict[str, Any] | None,
        broadcast: dict[str, Any] | None,
    ) -> str:
        """Create a tournament with its time control and broadcast delay, as the CLI does (``set_up_tournament``:
        the API's checks; refusals are ``ServiceError`` and nothing is stored)."""
        access.require_organiser(visitor, "creating a tournament is for organisers: sign in as an organiser")
        return set_up_tournament(self._service, name, rounds, kind, clock, broadcast)

    def enter_new_people(self, visitor: Visitor, tournament_id: str, names: list[str]) -> list[str]:
        """Register a person for each of ``names`` and enter them, as ``digsite tournament enter --new`` does; their
        ids. An unknown tournament or a bad name registers nobody."""
        access.require_organiser(visitor)
        self._rounds.status(tournament_id)  # (404 unknown_tournament before anyone is registered)
        made = register_people(self._service, names)
        if made:
            self._service.rounds.enter(tournament_id, made)
        return made

    def seat_round(
        self, visitor: Visitor, tournament_id: str, fmt: str | None, table_size: int | None, force: bool
    ) -> SeatedRound:
        """Seat and start the next round, as the API and the CLI do (refusals: ``ServiceError``, nothing changed)."""
        access.require_organiser(visitor)
        return self._service.rounds.seat_round(tournament_id, fmt, table_size, force=force)

    def rule(self, visitor: Visitor, tournament_id: str, game_id: str | None, body: dict[str, Any]) -> dict[str, Any]:
        """Record an organiser's ruling ``body`` (as the API takes it) on one of the tournament's seated games, or a
        penalty on the tournament, through the one service function the API and the CLI call (``Digsite.rulings``).
        Refusals: ``ServiceError``, nothing recorded."""
        access.require_organiser(visitor)
        if body.get("ruling") == "penalty":
            return self._service.rulings.rule_on_tournament(tournament_id, body)
        seated = self._rounds.status(tournament_id)["seated_rounds"]
        if game_id not in {t["game"] for r in seated for t in r["tables"]}:
            raise BadRequest("choose one of this tournament's games (a table of a seated round)", "invalid_ruling")
        return self._service.rulings.rule_on_game(str(game_id), body)

    def seat_links(self, visitor: Visitor, tournament_id: str, round_no: int, base_url: str) -> list[SeatLink]:
        access.require_organiser(visitor)
        return self._service.rounds.links(tournament_id, round_no, base_url)

    def void_link(
        self, visitor: Visitor, tournament_id: str, round_no: Any, table: Any, seat: Any, reason: Any
    ) -> dict[str, Any]:
        """Void one seat's link (``seat`` from 0), as the API and the CLI do; answers its new token, once."""
        access.require_organiser(visitor)
        return self._service.rounds.void_link(tournament_id, round_no, table, seat, reason)

    # -- a tournament's fair-play report (organisers only: it names players whose play looks unusual) -----------

    def fair_play(self, visitor: Visitor, tournament_id: str) -> tuple[FairPlay, fair_play.Gathered]:
        """The report the API gives organisers (``service.reading.fair_play``), with the judge's figures behind it."""
        access.require_organiser(visitor, FAIR_PLAY_REFUSED)
        return fair_play.fair_play(self._read, tournament_id, self.fair_play_reporter)

    def standings_csv(self, visitor: Visitor, tournament_id: str, points: str | None) -> str:
        table = PointsTable.parse(points)
        self.tournament(visitor, tournament_id)
        rows = self._lists.tournament_seats(tournament_id, finished_only=access.finished_only(visitor))
        return to_csv(rows, table, self._lists.tournament_rulings(tournament_id))

    def players(self, visitor: Visitor, ids: Sequence[str] | None = None) -> list[PlayerRow]:
        """Every player the visitor may see (or only those of ``ids``)."""
        return self._lists.players(finished_only=access.finished_only(visitor), ids=ids)

    def find_players(self, visitor: Visitor, text: str) -> list[PlayerRow]:
        """The players the visitor may see whose name contains ``text`` (a picker's search)."""
        return self._lists.find_players(text, finished_only=access.finished_only(visitor))

    def player_names(self, visitor: Visitor) -> dict[str, str]:
        return {str(p["player_id"]): p["name"] for p in self.players(visitor)}

    def games(self, visitor: Visitor, status: str | None = None, **filters: Any) -> GamesPage:
        """The games list: an organiser's as asked; anyone else's finished games only."""
        status = access.list_status(visitor, status)
        if status == "":
            return {"total": 0, "rows": []}
        return self._lists.games(status=status, **filters)

    # Ratings are over finished games for everyone (a game is rated once it is over): players' statistics.

    def rating_history(self, visitor: Visitor, player: str, kind: str) -> list[RatingChange]:
        """The player's rating changes in ``kind``, in the order the games were rated."""
        access.require_lists(visitor)
        return self._skills.history(player, kind).get(kind, [])

    def leaderboard(self, visitor: Visitor, kind: str, limit: int) -> tuple[list[LeaderboardEntry], bool]:
        """The first ``limit`` places of the kind's leaderboard, and whether there are more."""
        access.require_lists(visitor)
        entries, following = self._skills.leaderboard(kind, None, limit)
        return entries, following is not None

    def tournament_ratings(self, visitor: Visitor, tournament_id: str) -> list[dict[str, Any]]:
        """The rating changes of the tournament's finished games (``Skills.of_tournament``)."""
        self.tournament(visitor, tournament_id)  # (its door: require_lists, NotFound)
        return self._skills.of_tournament(tournament_id)

    # Tendencies are over finished games for everyone (``require_lists``); the per-round figures and
    # breakdowns count an organiser's games in play too, as the lists do (``access.finished_only``).

    def tendencies(self, visitor: Visitor, kind: str, player: str | None, n_players: Sizes | None = None) -> Tendencies:
        access.require_lists(visitor)
        return self._analytics.tendencies(kind, player, n_players=n_players)

    def table_sizes(self, visitor: Visitor, kind: str, player: str) -> tuple[int, ...]:
        """The table sizes of the player's finished games: the field they are compared with plays at these."""
        access.require_lists(visitor)
        return self._analytics.table_sizes(kind, player)

    def per_round(
        self,
        visitor: Visitor,
        kind: str,
        metric: str,
        player: str | None,
        n_players: Sizes | None = None,
        tournament: str | None = None,
        in_play: bool = True,
    ) -> list[ByRound]:
        """``in_play`` False: finished games only, for an organiser too (a page whose heading says so)."""
        access.require_lists(visitor)
        return self._analytics.per_round(
            kind, metric, player, tournament, n_players, finished_only=access.finished_only(visitor) or not in_play
        )

    def breakdown(
        self,
        visitor: Visitor,
        kind: str,
        name: str,
        player: str | None = None,
        tournament: str | None = None,
        n_players: Sizes | None = None,
        in_play: bool = True,
    ) -> list[dict[str, Any]]:
        """``in_play`` False: finished games only, for an organiser too (a page whose heading says so)."""
        access.require_lists(visitor)
        return self._analytics.breakdown(
            kind, name, player, tournament, n_players, finished_only=access.finished_only(visitor) or not in_play
        )

    def by_dimension(
        self, visitor: Visitor, kind: str, metric: str, dimension: str, tournament: str | None
    ) -> list[ByDimension]:
        access.require_lists(visitor)  # finished games only, for everyone
        return self._analytics.by_dimension(kind, metric, dimension, tournament=tournament)

    def distributions(self, visitor: Visitor, kind: str, tournament: str | None) -> dict[str, list[Count]]:
        access.require_lists(visitor)  # finished games only, for everyone
        return self._analytics.distributions(kind, tournament)

    def trend(self, visitor: Visitor, metric: str, tournament: str) -> list[ByRound]:
        access.require_lists(visitor)  # finished games only, for everyone
        return self._analytics.trend(metric, tournament)

    # -- one game -----------------------------------------------------------------------------------------

    def open(self, visitor: Visitor, game_id: str) -> Opened:
        """The game ``game_id`` as ``visitor`` may see it; Denied (for an organiser: NotFound when there is no
        such game) when they may not see it at all. Over or not is read from the store, not the read models."""
        canonical = access.canonical_id(game_id)
        records = self._replays.records(canonical) if canonical else []
        if not records:
            if visitor.organiser:
                raise NotFound(f"no game with id {game_id!r}", "unknown_game")
            raise Denied(HIDDEN_GAME)
        assert canonical is not None
        first = records[0]["body"]
        names = [str(n) for n in first["names"]]
        over = any(r["type"] == "seed_revealed" for r in records)  # (an organiser's rulings may follow the end)
        allowed = access.perspectives(visitor, canonical, over, len(names))
        if not allowed:
            raise Denied(HIDDEN_GAME)
        return Opened(canonical, over, len(records), names, allowed)

    def replay_page(self, visitor: Visitor, game_id: str) -> dict[str, Any]:
        """What the replay page is built from: the game's first frame (from a perspective the visitor may
        take) and its read-model row (the frames come apart: ``replay_document``; the VP chart and the rounds to
        jump to too, ``replay_timeline``: they evolve and score every record, which the first table need not wait
        for)."""
        opened = self.open(visitor, game_id)
        gid = opened.game_id
        seat = None if opened.perspectives[0] == REFEREE else int(opened.perspectives[0])
        return {
            "opened": opened,
            "first": self._replays.replay(gid, 1, seat),
            "row": self._lists.game_row(gid),
            "tournaments": self.tournament_names(visitor) if visitor.sees_finished else {},
        }

    def replay_timeline(self, visitor: Visitor, game_id: str) -> tuple[str, Timeline, dict[int, int]]:
        """The game's kind, VP timeline and the first move of each round, for the replay's chart and its buttons
        to jump to a round (drawn once the first table shows): Denied unless the visitor may see the game."""
        opened = self.open(visitor, game_id)
        kind = str(self._replays.records(opened.game_id)[0]["body"]["kind"])
        return kind, self._replays.vp_timeline(opened.game_id), self._replays.round_starts(opened.game_id)

    def replay_document(
        self,
        visitor: Visitor,
        game_id: str,
        perspective: str | None,
        chunk: int = 0,
        with_moves: bool = True,
        by_event: bool = False,
        chosen: bool = False,
    ) -> dict[str, Any]:
        """Part ``chunk`` of every frame of the game from ``perspective``, for the browser to step through
        (``dashboard.replay_frames``): Denied unless the visitor may take that perspective (``chosen``: from the
        perspective the replay's page shows this visitor for that wish, ``Opened.choose``); NotFound for a part
        the game does not have. Drawn once per game (as far as it is played), perspective and part, then kept."""
        opened, perspective = self._perspective(visitor, game_id, perspective, chunk, chosen)
        return self._document(opened, perspective, chunk, with_moves, by_event)

    def replay_parts(
        self, visitor: Visitor, game_id: str, perspective: str | None, by_event: bool = False
    ) -> dict[str, Any]:
        """Every part of ``perspective``'s frames (by move, or ``by_event`` within moves) in one document with one
        table of pieces (``replay_frames.merged``): the page loads a perspective it does not show in one request,
        and a piece many parts share (the board, a hand nobody touched) is sent once, not once a part. Checked as
        ``replay_document`` is; each part drawn and kept as it is."""
        opened, perspective = self._perspective(visitor, game_id, perspective, 0, False)
        parts = [
            self._document(opened, perspective, chunk, False, by_event)
            for chunk in range(replay_frames.chunks(opened.latest))
        ]
        return replay_frames.merged(parts)

    def _document(
        self, opened: Opened, perspective: str, chunk: int, with_moves: bool, by_event: bool
    ) -> dict[str, Any]:
        """``replay_document`` once the visitor's perspective and the part are checked."""
        key = (opened.game_id, opened.latest, perspective, chunk, with_moves, by_event)
        found = self.documents.get(key)
        if found is not None:
            return found
        records = self._replays.records(opened.game_id)[: opened.latest]
        read = {int(m["version"]): m for m in self._lists.moves(opened.game_id)} if with_moves else {}
        seat = None if perspective == REFEREE else int(perspective)
        with collection.paused():  # (drawing: dashboard.collection)
            built = replay_frames.document(
                opened.game_id,
                records,
                perspective,
                seat,
                read,
                chunk,
                with_moves,
                by_event,
                frames_at=self._part_states(opened.game_id, records, chunk, by_event),
            )
        if not opened.over:
            # The VP chart's points for this part's moves (the page's chart shows them all already): a page that
            # follows a game in play extends its chart with them as moves land. A finished game's page never does,
            # and its points (every record evolved and scored) would hold up its first part.
            low = chunk * replay_frames.CHUNK + 1
            high = min(opened.latest, low + replay_frames.CHUNK - 1)
            points = self._replays.progress(opened.game_id)["points"][low - 1 : high]
            built["points"] = [{"v": low + i, "vp": p["scores"], "round": p["round"]} for i, p in enumerate(points)]
        self.documents.put(key, built)
        return built

    def replay_log(
        self, visitor: Visitor, game_id: str, perspective: str | None, chunk: int = 0, chosen: bool = False
    ) -> dict[str, Any]:
        """The log ``replay_document`` sends with part ``chunk`` of ``perspective`` (``with_moves``), alone
        (``replay_frames.log_document``): the page asks for it once its first table is drawn. Checked and kept as
        ``replay_document`` is."""
        opened, perspective = self._perspective(visitor, game_id, perspective, chunk, chosen)
        key = (opened.game_id, opened.latest, perspective, chunk, "log")
        found = self.documents.get(key)
        if found is not None:
            return found
        records = self._replays.records(opened.game_id)[: opened.latest]
        read = {int(m["version"]): m for m in self._lists.moves(opened.game_id)}
        with collection.paused():
            built = replay_frames.log_document(
                opened.game_id,
                records,
                perspective,
                None if perspective == REFEREE else int(perspective),
                read,
                chunk,
                self._part_states(opened.game_id, records, chunk, False),
            )
        self.documents.put(key, built)
        return built

    def _perspective(
        self, visitor: Visitor, game_id: str, perspective: str | None, chunk: int, chosen: bool
    ) -> tuple[Opened, str]:
        """The game as ``visitor`` may open it and the perspective to draw (``replay_document``'s checks)."""
        opened = self.open(visitor, game_id)
        if chosen:
            perspective = opened.choose(perspective)
        if perspective not in opened.perspectives:
            raise Denied("you may not see this game from that perspective")
        if not 0 <= chunk < replay_frames.chunks(opened.latest):
            raise NotFound(f"this game's replay has parts 0 to {replay_frames.chunks(opened.latest) - 1}", "no_part")
        return opened, perspective

    def _part_states(self, game_id: str, records: Sequence[dict[str, Any]], chunk: int, by_event: bool) -> list[At]:
        """The engine's states at part ``chunk``'s frames (``replay_frames.part_states``), from the state kept at the
        part's boundary, kept for the part's other perspectives."""
        key = (game_id, chunk, by_event, min(len(records), (chunk + 1) * replay_frames.CHUNK))
        with self._part_states_lock:
            found = self.part_states.get(key)
        if found is None:
            start = self.states.after(game_id, records, chunk * replay_frames.CHUNK)
            found = replay_frames.part_states(records, chunk, by_event, start)
            with self._part_states_lock:
                self.part_states[key] = found
        return found

    def verification(self, visitor: Visitor, game_id: str) -> dict[str, Any]:
        """The verification report; to a player of a game in play only whether each check holds (the details
        name hashes and hidden facts: they wait until the game is over)."""
        opened = self.open(visitor, game_id)
        report = self.verifications.report(opened.game_id, opened.latest)
        # Read afresh on every visit: a checkpoint issued since the report was cached covers the game now.
        coverage = checkpoint_coverage(self._service, opened.game_id)
        if REFEREE in opened.perspectives:
            return {**report, "coverage": coverage}
        return {
            "game": report["game"],
            "ok": report["ok"],
            "status": report["status"],
            "checks": [{**c, "detail": DETAILS_LATER, "version": None} for c in report["checks"]],
            "first_bad": None,
            "details_hidden": True,
            "coverage": {"covered": coverage["covered"], "checkpoint": coverage["checkpoint"]},
        }

    # -- the judge's judgements (docs/judge.md) ----------------------------------------------------------

    def replay_judgement(self, visitor: Visitor, game_id: str) -> dict[str, Any] | None:
        """The stored judgement of a finished game for its replay: ``analysis`` (as the API answers it, None when
        the game is not judged yet), the seats' ``names``, and ``words``: each judged move's move played and best
        move found in the game's words (``dashboard.judged_moves``), by version. Read through the replay's door
        (Denied unless the visitor may open the game; a finished game's log is every perspective's); None for a
        game in play, which is never judged, whoever asks. Kept per game and version once built."""
        opened = self.open(visitor, game_id)
        if not opened.over:
            return None
        analysis = self._judgements.of(opened.game_id)  # (a ruling since the end leaves it standing)
        if analysis is None:
            return {"analysis": None, "names": opened.names, "words": {}}
        key = (opened.game_id, opened.latest, "judgement", analysis["budget"])
        found = self.documents.get(key)
        if found is None:
            records = self._replays.records(opened.game_id)[: opened.latest]
            with collection.paused():
                words = judged_words(records, analysis["moves"])
            found = {"analysis": analysis, "names": opened.names, "words": words}
            self.documents.put(key, found)
        return found

    def player_accuracy(self, visitor: Visitor, kind: str, player: str) -> list[PlayerAccuracy]:
        """The player's accuracy in each judged finished game of ``kind``, oldest first (judged games are finished
        ones: the same for every visitor the players' pages are open to)."""
        access.require_lists(visitor)
        return self._judgements.of_player(player, kind)

    def field_accuracy(self, visitor: Visitor, kind: str) -> list[MeanAccuracy]:
        """Every judged seat's mean accuracy in finished games of ``kind``, by table size (``key``), with ``n``."""
        access.require_lists(visitor)
        return self._judgements.field(kind)

    def tournament_accuracy(self, visitor: Visitor, tournament_id: str) -> list[MeanAccuracy]:
        """Each player's (``key``) mean accuracy over the tournament's judged games, with ``n`` games."""
        self.tournament(visitor, tournament_id)
        return self._judgements.of_tournament(tournament_id)

    def my_games(self, visitor: Visitor) -> list[dict[str, Any]]:
        """The games in play whose seats this visitor's tokens opened (for a link back to them)."""
        mine = []
        for game_id, seat in visitor.seats.items():
            try:
                opened = self.open(visitor, game_id)
            except (Denied, NotFound):
                continue
            if not opened.over:
                mine.append({"game_id": opened.game_id, "seat": seat, "names": opened.names})
        return mine

    # -- live play --------------------------------------------------------------------------------------

    def seat(self, visitor: Visitor, game_id: str) -> tuple[Opened, int]:
        """The game and the seat this visitor holds in it (from the session: a seat link proved it); Denied
        for anyone else, an organiser included (moves are a seat's, never the referee's)."""
        opened = self.open(visitor, game_id)
        seat = visitor.seat_in(opened.game_id)
        if seat is None:
            raise Denied(NOT_YOUR_SEAT)
        return opened, seat

    def table_now(self, visitor: Visitor, game_id: str) -> dict[str, Any]:
        """The game now as the visitor's seat sees it: the game (view, who is to act, the seat's legal actions:
        the engine's, through the store's reader), a replay frame of it for the game's renderer, and the log of the
        last moves told for that seat (the engine's ``describe``: the other seats' secrets stay secret)."""
        opened, seat = self.seat(visitor, game_id)
        now = self._reader.game(opened.game_id, Viewer(seat))
        records = self._replays.records(opened.game_id)[: now["version"]]
        log = entries(records, seat, since=len(records) - LOG_MOVES + 1) if records else []
        over = now["status"] == "over"
        rules_kind = now["kind"]
        rules = game_of(rules_kind).rules
        frame = {
            "id": opened.game_id,
            "kind": rules_kind,
            "version": now["version"],
            "latest_version": now["version"],
            "players": [{"seat": p["seat"], "name": p["name"]} for p in now["players"]],
            "view": now["view"],
            "to_act": now["to_act"],
            "events_shown": None,
            "event_count": None,
            "last": {
                "seat": log[-1].seat if log else None,
                "events": [rules.redact_event(e, seat, over) for e in events_of(records[-1])] if records else [],
            },
        }
        return {"game": now, "seat": seat, "frame": frame, "log": log[-LOG_MOVES:]}

    def play(self, visitor: Visitor, game_id: str, version: Any, action: Any) -> MoveAcknowledged:
        """Submit ``action`` for the visitor's own seat on top of ``version``, as the API does
        (``Digsite.submit``: the engine decides; a stale version is a Conflict and changes nothing)."""
        opened, seat = self.seat(visitor, game_id)
        return self._service.submit(opened.game_id, Viewer(seat), version, action)

    def crafted(self, visitor: Visitor, game_id: str, version: Any, action: Any) -> dict[str, Any]:
        """The crafted forms of the visitor's own legal move at ``version``
        (``service.reading.crafting``: the engine's),
        with the seat's view to name them; none for a game without crafting or a version gone stale."""
        opened, seat = self.seat(visitor, game_id)
        if isinstance(version, bool) or not isinstance(version, int):
            return {"forms": [], "view": {}, "kind": ""}
        forms = crafted(self._service, opened.game_id, Viewer(seat), version, action)
        now = self._reader.game(opened.game_id, Viewer(seat)) if forms else {"view": {}, "kind": ""}
        return {"forms": forms, "view": now["view"], "kind": now["kind"], "seat": seat}

    def wait_for_move(self, visitor: Visitor, game_id: str, after: int, wait: float) -> dict[str, Any]:
        """The game's version, status and who is to act, once it has moved past ``after`` or ``wait`` seconds
        have passed (the service's push channel: one waiting request per open page). Only what any visitor who
        may open the game sees anyway: no records, no view."""
        opened = self.open(visitor, game_id)
        seat = visitor.seat_in(opened.game_id)
        viewer = Viewer(None if REFEREE in opened.perspectives or seat is None else seat)
        found = push.updates(
            self._service, opened.game_id, viewer, max(0, after), max(0.0, min(wait, MAX_WAIT_SECONDS))
        )
        return {key: found[key] for key in ("version", "status", "to_act") if key in found} | (
            {"retry_after": found["retry_after"]} if "retry_after" in found else {}
        )

    def broadcast(self, visitor: Visitor, game_id: str, after: int = 0, wait: float = 0.0) -> Broadcast:
        """The delayed broadcast of a game in play (``service.serving.broadcast``: the public view at the version
        its tournament's delay allows, the records up to it redacted for a seat at no table), waiting up to
        ``wait`` seconds for a version after ``after``. For spectators (spectator mode on) and organisers, as
        finished games are; a game not broadcast is Denied with the words of a hidden game (403, no data)."""
        access.require_lists(visitor)  # (spectator mode off: 403, before anything is read)
        try:
            return broadcasting.broadcast(self._service, game_id, max(0, after), max(0.0, min(wait, MAX_WAIT_SECONDS)))
        except NotFound:
            raise Denied(access.NOT_BROADCAST) from None

    def broadcast_table(self, visitor: Visitor, game_id: str) -> dict[str, Any]:
        """The broadcast page's table and log (``broadcast``): a replay frame of the public view for the game's
        renderer, and the last moves up to the version shown told for a seat at no table (the engine's
        ``describe``, as the play page tells them for a seat)."""
        shown = self.broadcast(visitor, game_id)
        public = shown["game"]
        if public is None:
            return {"broadcast": shown, "frame": None, "log": []}
        records = self._replays.records(shown["id"])[: shown["version"]]
        log = entries(records, broadcasting.SPECTATOR_SEAT, since=len(records) - LOG_MOVES + 1) if records else []
        frame = {
            "id": shown["id"],
            "kind": public["kind"],
            "version": shown["version"],
            "latest_version": shown["version"],
            "players": [{"seat": p["seat"], "name": p["name"]} for p in public["players"]],
            "view": public["view"],
            "to_act": public["to_act"],
            "events_shown": None,
            "event_count": None,
            "last": {"seat": log[-1].seat if log else None, "events": []},
        }
        return {"broadcast": shown, "frame": frame, "log": log[-LOG_MOVES:]}

    def broadcast_games(self, visitor: Visitor, tournament_id: str) -> dict[str, Any]:
        """A tournament's broadcast for its page: the delay (None: off) and, while it is on, its games in play
        (from the read models: id and players' names), each followed on its broadcast page."""
        access.require_lists(visitor)
        delay = delay_of(self._service, tournament_id)
        if delay is None:
            return {"delay": None, "games": []}
        rows = self._lists.games(tournament=tournament_id, status="playing", limit=200)["rows"]
        games = [{"game_id": r["game_id"], "names": [p["name"] for p in r["players"]]} for r in rows]
        return {"delay": delay, "games": games}

    def in_play(self, visitor: Visitor, game_ids: list[str]) -> dict[str, dict[str, Any]]:
        """For an organiser's games list: each game in play's seats to act and the time of its last record
        (from the store, through its reader); nothing for anyone else."""
        if not visitor.organiser:
            return {}
        out = {}
        for game_id in game_ids:
            found = self._reader.game(game_id)
            if found["status"] != "playing":
                continue
            out[game_id] = {
                "to_act": [
                    found["players"][s]["name"] if s < len(found["players"]) else str(s) for s in found["to_act"]
                ],
                "since": found["updated_at"],
                "version": found["version"],
            }
        return out
