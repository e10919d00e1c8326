"""A tournament's entries and rounds: the one service function the API, the CLI and the dashboard call.

- ``enter`` / ``withdraw``: entries are recorded events of the Tournament (``EntryAdded``, ``EntryWithdrawn``).
- ``seat_round``: seats the next round by a format (``service.seating.formats``) and starts it: every table's game
  is created, and the round recorded (``RoundSeated``), in one transaction. The round's number is the tournament's
  next version, so two servers seating the same round at once cannot both succeed: the store refuses the second
  (409 ``round_already_seated``), as it refuses a second game at the same table (``duplicate_game``).
- ``after_move``: once the last table of the latest round ends, the next round is seated by the format of the
  round before (a CSV round waits for the organiser), by whichever process stored that last move.
- ``links``: each seat's link (the dashboard's seat page with the seat's token). A seated round's tokens are not
  drawn at random but derived from the server secret, the game and the seat (an HMAC), so the organiser can print
  the sheet again at any time; only their hashes are stored, as for every game. Keep ``DIGSITE_SECRET_KEY`` the
  same for the tournament's life: with another secret the links cannot be made again (409 ``links_unavailable``).
  A seat whose link the organiser voided (a lost or leaked sheet: the ``void_link`` ruling) gets the next token
  derived for it (``seat_token``'s generation), so its link on a sheet printed again is the new one.

Nothing here names a game: table sizes come from the game's ``Schemas.seats``, results from its ``Result``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID, uuid4

from eventsourcing.persistence import IntegrityError

from domain import games as registry
from service.caller_values import now, parse_uuid
from service.commands import results
from service.commands.broadcasts import checked_delay
from service.errors import BadRequest, Conflict, NotFound
from service.integrity.records import token_hash
from service.seating import formats
from service.store.aggregates import TOURNAMENT_RECORDS, Game, Tournament, link_generation

logger = logging.getLogger(__name__)


def seat_token(secret: bytes, game_id: str, seat: int, generation: int = 0) -> str:
    """The token of ``seat`` in a seated round's game ``game_id`` (the same every time it is asked for). Each time
    the organiser voids the seat's link (a ``void_link`` ruling, ``service.commands.rulings``) the seat's
    ``generation`` goes up by one and its token is the next one derived; generation 0 is the round's first."""
    text = f"digsite seat link/1|{game_id}|{seat}" + (f"|{generation}" if generation else "")
    digest = hmac.new(secret, text.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode().rstrip("=")


class TournamentRounds:
    """Entries and rounds of tournaments, over the service ``service`` (a ``Digsite``: it creates the games)."""

    def __init__(self, service: Any) -> None:
        self.service = service  # (typed loosely: the service module builds this one, not the other way round)
        self.rounds = RoundsReader(service.reader)

    # -- reading (the rounds as recorded; the links need the server secret, which only this side holds) ------------

    def round(self, tournament_id: str, number: Any) -> results.SeatedRound:
        """Round ``number`` as seated (``RoundsReader.round``)."""
        return self.rounds.round(tournament_id, number)

    def status(self, tournament_id: str) -> results.TournamentRounds:
        """The tournament's entries and rounds (``RoundsReader.status``)."""
        return self.rounds.status(tournament_id)

    def links(self, tournament_id: str, number: Any, base_url: str) -> list[results.SeatLink]:
        """Each seat's link of round ``number``: ``base_url`` + ``/replay/<game>?token=...`` (the dashboard's seat
        page). 409 ``links_unavailable`` if the server secret is no longer the one the tokens were made with."""
        found = self.rounds.round(tournament_id, number)
        secret = self.service.settings.server_secret()
        rows: list[results.SeatLink] = []
        for table in found["tables"]:
            assert table["game"] is not None  # (a seated round's tables have their games)
            stored = self.service.reader.aggregate(table["game"], Game, "game")
            for player in table["players"]:
                token = seat_token(secret, table["game"], player["seat"], link_generation(stored, player["seat"]))
                if token_hash(token) != stored.token_hashes[player["seat"]]:
                    raise Conflict(
                        "these seats' tokens were made with another server secret: their links cannot be made again "
                        "(set DIGSITE_SECRET_KEY back to the one the round was seated with)",
                        "links_unavailable",
                    )
                url = f"{base_url.rstrip('/')}/replay/{table['game']}?token={quote(token)}"
                rows.append(
                    {
                        "round": found["round"],
                        "table": table["table"],
                        "seat": player["seat"],
                        "player": player["id"],
                        "name": player["name"],
                        "game": table["game"],
                        "url": url,
                    }
                )
        return rows

    def void_link(self, tournament_id: str, number: Any, table: Any, seat: Any, reason: Any) -> dict[str, Any]:
        """Void the link of ``seat`` (from 0) at ``table`` of round ``number`` (a lost or leaked sheet): the seat's game
        records a ``void_link`` ruling (``service.commands.rulings``) and its new token is answered, once:
        ``{"round", "table", "seat", "player", "name", "game", "token"}``. 404 ``unknown_round``/``unknown_table``."""
        found = self.rounds.round(tournament_id, number)
        tables = {t["table"]: t for t in found["tables"]}
        if isinstance(table, bool) or table not in tables:
            raise NotFound(f"round {number} has tables 1 to {len(tables)}, not {table!r}", "unknown_table")
        at = tables[table]
        assert at["game"] is not None  # (a seated round's tables have their games)
        body = {"ruling": "void_link", "seat": seat, "reason": reason}
        ruled = self.service.rulings.rule_on_game(at["game"], body)  # (400 invalid_ruling: a seat it does not have)
        holder = at["players"][ruled["token"]["seat"]]
        return {
            "round": found["round"],
            "table": table,
            "seat": ruled["token"]["seat"],
            "player": holder["id"],
            "name": holder["name"],
            "game": at["game"],
            "token": ruled["token"]["token"],
        }

    # -- entries ----------------------------------------------------------------------------------------

    def _tournament(self, tournament_id: str | UUID) -> Tournament:
        found: Tournament = self.service.reader.aggregate(tournament_id, Tournament, "tournament")
        return found

    def enter(self, tournament_id: str, players: list[str]) -> list[str]:
        """Enter ``players`` (ids of stored players, people or bots); all or none (409 ``already_entered``)."""
        if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
            raise BadRequest("'players' must be a non-empty list of player ids", "invalid_entries")
        tournament = self._tournament(tournament_id)
        ids = [str(parse_uuid(p, "player")) for p in players]
        if len(set(ids)) != len(ids):
            raise BadRequest("a player is listed twice", "invalid_entries")
        names = [self.service.player(p)["name"] for p in ids]  # 404 unknown_player
        for player in ids:
            if player in tournament.entries:
                raise Conflict(f"player {player} is already entered in this tournament", "already_entered")
        at = now()
        for player, name in zip(ids, names, strict=True):
            tournament.enter(player, name, at)
        self._save(tournament, "the entries changed meanwhile; try again")
        return ids

    def withdraw(self, tournament_id: str, player: str) -> None:
        """Take ``player`` out of later rounds (404 ``unknown_entry`` unless entered)."""
        tournament = self._tournament(tournament_id)
        player = str(parse_uuid(player, "player"))
        if player not in tournament.entries:
            raise NotFound(f"player {player} is not entered in this tournament", "unknown_entry")
        tournament.withdraw(player, now())
        self._save(tournament, "the entries changed meanwhile; try again")

    def _save(self, tournament: Tournament, meanwhile: str) -> None:
        try:
            self.service.app.save(tournament)
        except IntegrityError:
            raise Conflict(meanwhile, "tournament_changed") from None

    # -- rounds -----------------------------------------------------------------------------------------

    def seat_round(
        self,
        tournament_id: str,
        fmt: str | None = None,
        table_size: int | None = None,
        tables: list[list[str]] | None = None,
        force: bool = False,
        round_no: int | None = None,
        dry_run: bool = False,
    ) -> results.SeatedRound:
        """Seat the next round and start it (its games created); ``dry_run`` only says how it would be seated.
        ``tables`` (player ids in seat order) is the seating of format ``csv`` (``formats.csv_tables`` reads a file).
        Refused, with nothing changed: a round already seated (409 ``round_already_seated``), the round before
        still in play unless ``force`` (409 ``round_in_play``: forced, those games go on and count when they end),
        every round played (409 ``tournament_complete``), a first round in a tournament whose games were created
        directly (409 ``games_created_directly``: the standings count those by their labels' rounds), a format or
        table size that cannot seat the entries (400, the format's code)."""
        tournament = self._tournament(tournament_id)
        game = registry.game(tournament.game)
        seated = tournament.seated
        upcoming = len(seated) + 1
        if round_no is not None:
            if isinstance(round_no, bool) or not isinstance(round_no, int) or round_no < 1:
                raise BadRequest("'round' must be a round number, 1 or more", "invalid_round")
            if round_no < upcoming:
                raise Conflict(f"round {round_no} is seated already", "round_already_seated")
            if round_no > upcoming:
                raise Conflict(f"the next round to seat is {upcoming}, not {round_no}", "round_not_next")
        if upcoming > tournament.rounds:
            raise Conflict(f"all {tournament.rounds} rounds of this tournament are seated", "tournament_complete")
        if not seated and self._made_directly(tournament):
            raise Conflict(
                "this tournament's games were created directly (by digsite simulate or the API's game creation with "
                "the tournament's labels), not seated here: a round seated here would be numbered 1 again beside "
                "theirs. Seat rounds in a tournament whose games are all seated here.",
                "games_created_directly",
            )
        last = seated[-1] if seated else None
        fmt = fmt or (last["format"] if last else "round_robin")
        if fmt not in formats.FORMATS:
            raise BadRequest(f"a round is seated by one of {', '.join(formats.FORMATS)}, not {fmt!r}", "unknown_format")
        size = table_size if table_size is not None else (last["table_size"] if last else game.schemas.seats.high)
        if isinstance(size, bool) or not isinstance(size, int):
            raise BadRequest("'table_size' must be a whole number", "table_size_not_allowed")
        unfinished = self._unfinished(tournament)
        if unfinished and not force:
            raise Conflict(
                f"round {len(seated)} still has {len(unfinished)} game(s) in play: wait for them, or force the next "
                "round (those games go on and count when they end)",
                "round_in_play",
            )
        entries = list(tournament.entries)
        low, high = game.schemas.seats.low, game.schemas.seats.high
        seed = f"{tournament.id}/{upcoming}"
        try:
            if fmt == "csv":
                if not isinstance(tables, list) or not all(isinstance(t, list) for t in tables):
                    raise formats.SeatingError("a CSV seating needs its tables: lists of player ids", "invalid_csv")
                seating = formats.given(tables, entries, low, high)
                size = max(len(t) for t in seating.tables)
            else:
                history = formats.History.of([([tuple(t["players"]) for t in r["tables"]], r["byes"]) for r in seated])
                order = self._standings(tournament) if fmt == "swiss" else None
                seating = formats.seat(fmt, entries, size, low, high, seed, history, order)
        except formats.SeatingError as error:
            raise BadRequest(str(error), error.code) from None
        if dry_run:
            return self.rounds.answer(tournament, upcoming, fmt, size, seating, unfinished, None)
        return self._start(tournament, upcoming, fmt, size, seating, unfinished)

    def _start(
        self, tournament: Tournament, number: int, fmt: str, size: int, seating: formats.Round, unfinished: list[str]
    ) -> results.SeatedRound:
        secret = self.service.settings.server_secret()
        games: list[Game] = []
        seatings = []
        tables = []
        for table_no, players in enumerate(seating.tables, start=1):
            game_id = uuid4()
            tokens = [seat_token(secret, str(game_id), s) for s in range(len(players))]
            labels = {"tournament": str(tournament.id), "round": number, "table": table_no}
            made, _, seating_record = self.service._new_game(
                tournament.game, list(players), None, labels, None, game_id=game_id, tokens=tokens
            )
            games.append(made)
            seatings.append(seating_record)
            tables.append({"table": table_no, "game": str(game_id), "players": list(players)})
        tournament.seat_round(
            round=number,
            format=fmt,
            table_size=size,
            tables=tables,
            byes=list(seating.byes),
            forced_past=unfinished,
            at=now(),
        )
        try:
            self.service.app.save(tournament, *[s for s in seatings if s is not None], *games)
        except IntegrityError:
            raise Conflict(
                f"round {number} was seated meanwhile (by another request or server)", "round_already_seated"
            ) from None
        for made in games:
            self.service.live.remember(made)
        return self.round(str(tournament.id), number)

    def _made_directly(self, tournament: Tournament) -> bool:
        """Whether a tournament with no round seated (as this request read it) has games: then each was created
        directly, with its labels. Asked only at its first seating (an organiser's request; never after a move,
        which seats only a tournament seated before): it walks the store's game creations, 60-90 us a game
        (docs/performance.md, section 46)."""
        if next(self.service.game_ids(str(tournament.id)), None) is None:
            return False
        # Or another request seated round 1 since this one read the tournament: read it again to tell them apart.
        latest: Tournament = self.service.reader.aggregate(tournament.id, Tournament, "tournament")
        if latest.seated:
            raise Conflict("round 1 was seated meanwhile (by another request or server)", "round_already_seated")
        return True

    def _unfinished(self, tournament: Tournament) -> list[str]:
        """The games of seated rounds still in play."""
        return [
            t["game"] for r in tournament.seated for t in r["tables"] if self.service.reader.over_at(t["game"]) is None
        ]

    def _standings(self, tournament: Tournament) -> list[str]:
        """The entries best first for a Swiss round: tournament points (N-1 for first at a table of N, down to 0
        for last, as the standings' default), then games won, then the games' points; finished games only."""
        points: dict[str, list[int]] = {p: [0, 0, 0] for p in tournament.entries}
        for r in tournament.seated:
            for t in r["tables"]:
                result = self.service.game(t["game"])["result"]
                if result is None:
                    continue
                n = len(t["players"])
                for seat, player in enumerate(t["players"]):
                    if player not in points:
                        continue
                    place = 1 if seat in result["winners"] else result["ranking"].index(seat) + 1
                    points[player][0] += n - place
                    points[player][1] += int(place == 1)
                    points[player][2] += result["scores"][seat]
        return sorted(points, key=lambda p: (-points[p][0], -points[p][1], -points[p][2]))

    # -- the next round, when the last table ends ---------------------------------------------------------

    def after_move(self, game: Game, records: list[Any]) -> None:
        """Heard after every stored move: when it ended the last game of a tournament's latest round, seat the
        next round (the format of the round before; a CSV round waits for the organiser). Another process may
        do it first: then the store refuses this one, quietly."""
        labels = game.labels
        if game.seed is None or not labels.get("tournament") or labels.get("round") is None:
            return
        try:
            tournament = self._tournament(labels["tournament"])
            if not tournament.seated or tournament.seated[-1]["round"] != labels["round"]:
                return
            if tournament.seated[-1]["format"] == "csv" or len(tournament.seated) >= tournament.rounds:
                return
            self.seat_round(str(tournament.id))
        except (Conflict, BadRequest, NotFound) as refused:
            logger.info("the next round of tournament %s was not seated: %s", labels["tournament"], refused)
        except Exception:  # the move is stored and answered; the organiser can still seat the round
            logger.exception("seating the next round of tournament %s failed", labels["tournament"])


class RoundsReader:
    """A tournament's entries and seated rounds, read only (the API's read routes and the dashboard read them
    through the read port): over the store's reader, which cannot write."""

    def __init__(self, reader: Any) -> None:
        self.reader = reader  # (a ``GameReader``: typed loosely, as it lives in the service module)

    def _tournament(self, tournament_id: str | UUID) -> Tournament:
        found: Tournament = self.reader.aggregate(tournament_id, Tournament, "tournament")
        return found

    def round(self, tournament_id: str, number: Any) -> results.SeatedRound:
        """Round ``number`` as seated: its tables with their games' status (404 ``unknown_round``)."""
        tournament = self._tournament(tournament_id)
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(tournament.seated):
            raise NotFound(
                f"this tournament has {len(tournament.seated)} seated round(s), not {number}", "unknown_round"
            )
        r = tournament.seated[number - 1]
        seating = formats.Round(tuple(tuple(t["players"]) for t in r["tables"]), tuple(r["byes"]))
        games = [t["game"] for t in r["tables"]]
        return self.answer(tournament, number, r["format"], r["table_size"], seating, r["forced_past"], games)

    def answer(
        self,
        tournament: Tournament,
        number: int,
        fmt: str,
        size: int,
        seating: formats.Round,
        forced_past: list[str],
        games: list[str] | None,
    ) -> results.SeatedRound:
        names = tournament.entries
        tables: list[results.RoundTable] = []
        for i, players in enumerate(seating.tables):
            game_id = None if games is None else games[i]
            status: results.Status | None = None
            if game_id is not None:
                status = "over" if self.reader.over_at(game_id) is not None else "playing"
            tables.append(
                {
                    "table": i + 1,
                    "game": game_id,
                    "status": status,
                    "players": [
                        {"seat": s, "id": p, "name": names.get(p) or self.reader.player(p)["name"]}
                        for s, p in enumerate(players)
                    ],
                }
            )
        answer = {
            "tournament": str(tournament.id),
            "round": number,
            "format": fmt,
            "table_size": size,
            "seated": games is not None,
            "status": None if games is None else ("over" if all(t["status"] == "over" for t in tables) else "playing"),
            "tables": tables,
            "byes": [{"id": p, "name": names.get(p, p)} for p in seating.byes],
            "forced_past": forced_past,
        }
        return cast(results.SeatedRound, answer)

    def status(self, tournament_id: str) -> results.TournamentRounds:
        """The tournament's entries and rounds, and what comes next."""
        tournament = self._tournament(tournament_id)
        rounds = [self.round(str(tournament.id), n) for n in range(1, len(tournament.seated) + 1)]
        playing = [r["round"] for r in rounds if r["status"] == "playing"]
        complete = len(rounds) == tournament.rounds and not playing
        return {
            "id": str(tournament.id),
            "name": tournament.name,
            "game": tournament.game,
            "rounds": tournament.rounds,
            "entries": [{"id": p, "name": n} for p, n in tournament.entries.items()],
            "seated_rounds": rounds,
            "next_round": None if len(rounds) >= tournament.rounds else len(rounds) + 1,
            "complete": complete,
        }


# -- a tournament's entries and rounds in an export (``service.integrity.transfer``) ------------------------------

# Each recorded event of entries and rounds, as an export's tournament line carries it (``"events"``): its name
# there, its class, and its fields (each of them, exactly): the tournament's records after ``created``.
RECORDED: dict[str, tuple[type[Any], tuple[str, ...]]] = {
    name: found for name, found in TOURNAMENT_RECORDS.items() if name != "created"
}


def malformed_events(events: Any) -> str | None:
    """What is wrong with an export's recorded events of a tournament (None: nothing)."""
    if not isinstance(events, list):
        return "its events are not a list"
    for i, event in enumerate(events):
        known = RECORDED.get(str(event.get("event"))) if isinstance(event, dict) else None
        if known is None or set(event) != {"event", *known[1]}:
            return f"its event {i + 1} is not an entry, a seated round, a penalty or a broadcast"
        if not all(isinstance(event[f], str) for f in ("player", "name", "at", "format", "reason") if f in event):
            return f"its event {i + 1} has a field of the wrong type"
        if "points" in event and (isinstance(event["points"], bool) or not isinstance(event["points"], int)):
            return f"its event {i + 1} is not a penalty"
        if "tables" in event and not (
            isinstance(event["round"], int)
            and isinstance(event["table_size"], int)
            and isinstance(event["tables"], list)
            and all(isinstance(t, dict) and {"table", "game", "players"} <= set(t) for t in event["tables"])
            and isinstance(event["byes"], list)
            and isinstance(event["forced_past"], list)
        ):
            return f"its event {i + 1} is not a seated round"
        if event["event"] == "broadcast_set" and not _a_delay(event["moves"], event["minutes"]):
            return f"its event {i + 1} is not a broadcast's delay"
    return None


def _a_delay(moves: Any, minutes: Any) -> bool:
    try:
        checked_delay(moves, minutes)
    except BadRequest:
        return False
    return True


def replay_recorded(tournament: Tournament, events: list[dict[str, Any]]) -> None:
    """Record ``events`` (an export's, ``service.integrity.transfer``: each ``{"event", **fields}``, checked by
    ``malformed_events``) on ``tournament``, each chained as it is recorded."""
    for event in events:
        cls, fields = RECORDED[event["event"]]
        tournament.trigger_event(cls, **{f: event[f] for f in fields})
