"""Club nights over the club's tables (``web.store.club_schema``, in the store's database)
and the store's game tables.

Members persist across nights. A night (an event) takes check-ins, seats each round (round 1
by a seeded draw, later rounds by standings: ``scorekeeper.club.seating``), creates each
seated table through the store as an ordinary table, and when every table has finished its
game (or the round's clock has run out, or the organiser calls time) records each player's
result from the table's log (``scorekeeper.club.standings``). Records across nights come
from the results (``scorekeeper.club.records``).
"""

from __future__ import annotations

import json
import re
import secrets
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, delete, func, insert, select, update
from sqlalchemy.engine import Engine, Row
from sqlalchemy.exc import IntegrityError

from scorekeeper import tables as game_tables
from scorekeeper.club.outcome import outcome
from scorekeeper.club.records import GameResult, head_to_head, player_records
from scorekeeper.club.seating import SeatingError, met_counts, seat_round
from scorekeeper.club.standings import RoundResult, Scoring, ScoringError, places, standings
from scorekeeper.games import GAMES
from scorekeeper.pegboard import PEG_COLOURS
from scorekeeper.rulesets import RULESETS
from web import edge
from web.store import Store, StoreError, Table
from web.store import club_schema as cdb
from web.store.live import Note

MAX_ROUNDS = 20
MAX_MINUTES = 600
#: The kind of fan-out note that says a night changed (its id in the note's table field).
CLUB_NOTE = "club"
COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")


class ClubError(StoreError):
    """A club request refused: nothing is stored."""

    status = 400


class MemberNotFoundError(ClubError):
    status = 404


class EventNotFoundError(ClubError):
    status = 404


class RoundNotFoundError(ClubError):
    status = 404


class NameTakenError(ClubError):
    status = 409


class AlreadyCheckedInError(ClubError):
    status = 409


class RoundOpenError(ClubError):
    """The next round cannot be seated while a table of this one plays on."""

    status = 409


class SeatsLockedError(ClubError):
    """Seats change only before their round starts."""

    status = 409


class OrganiserOnlyError(ClubError):
    status = 403


@dataclass(frozen=True)
class Member:
    id: int
    name: str
    colour: str
    link: str

    def to_json(self, *, with_link: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "name": self.name, "colour": self.colour}
        if with_link:
            data["link"] = self.link
        return data


# -- reading a night's settings -------------------------------------------------------------

def whole(data: Mapping[str, Any], name: str, low: int, high: int, default: int | None) -> int:
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ClubError(f'"{name}" must be a whole number from {low} to {high}, not {value!r}')
    return value


def event_config(data: Any, probe: Any) -> dict[str, Any]:
    """A night's settings from the organiser's JSON, checked: each round's game is tried with
    a table of ``seats`` players through ``probe`` (the API's table setup reader)."""
    if not isinstance(data, Mapping):
        raise ClubError('a night is a JSON object like {"name": "Friday", "game": '
                        '"complex-toss-rummy", "rounds": 2, "seats": 3}')
    name = data.get("name") or "Club night"
    if not isinstance(name, str):
        raise ClubError('the night\'s "name" must be text, like "Friday club"')
    name = edge.clean_name(" ".join(name.split()) or "Club night", "the night", 80)
    rounds = whole(data, "rounds", 1, MAX_ROUNDS, 3)
    seats = whole(data, "seats", 2, 6, 4)
    teams = data.get("teams", False)
    if not isinstance(teams, bool):
        raise ClubError('"teams" must be true (partners of two, opposite) or false')
    odd = data.get("odd", "table")
    if odd not in ("table", "bye"):
        raise ClubError('"odd" must be "table" (a smaller table takes the rest) or "bye" '
                        "(every table full, the rest sit out)")
    minutes = data.get("minutes")
    if minutes is not None:
        minutes = whole(data, "minutes", 1, MAX_MINUTES, None)
    try:
        scoring = Scoring.from_json(data.get("scoring"))
    except ScoringError as exc:
        raise ClubError(str(exc)) from exc
    games = round_games(data, rounds)
    if teams and seats not in (4, 6):
        raise ClubError("partnership tables seat teams of two: use 4 or 6 seats")
    for i, game in enumerate(games, 1):
        if teams and game["game"] not in RULESETS:
            raise ClubError(f"round {i}: partnerships are played at "
                            f"{' and '.join(RULESETS)} tables, not {game['game']}")
        try:
            probe(table_json(game, [(f"Player {k + 1}", None) for k in range(seats)], teams))
        except ValueError as exc:
            raise ClubError(f"round {i} ({game['game']}, {seats} seats): {exc}") from exc
    return {"name": name, "rounds": rounds, "seats": seats, "teams": teams, "odd": odd,
            "minutes": minutes, "scoring": scoring.to_json(), "games": games}


def round_games(data: Mapping[str, Any], rounds: int) -> list[dict[str, Any]]:
    """One ``{"game", "options"}`` per round: ``"games"`` lists them, else ``"game"`` (with
    ``"options"``) is played every round."""
    entries = data.get("games")
    if entries is None:
        entries = [{"game": data.get("game", "complex-toss-rummy"),
                    "options": data.get("options") or {}}] * rounds
    if not isinstance(entries, list) or len(entries) != rounds:
        raise ClubError(f'"games" must list one game per round ({rounds}), like '
                        '["complex-toss-rummy", {"game": "toss-hearts", "options": {}}]')
    known = [*RULESETS, *GAMES]
    games = []
    for i, entry in enumerate(entries, 1):
        game = entry if isinstance(entry, str) else (
            entry.get("game") if isinstance(entry, Mapping) else None)
        options = entry.get("options") or {} if isinstance(entry, Mapping) else {}
        if game not in known:
            raise ClubError(f"round {i}: unknown game {game!r}: use one of {', '.join(known)}")
        if not isinstance(options, Mapping):
            raise ClubError(f'round {i}: "options" must be an object of the game\'s options')
        games.append({"game": game, "options": dict(options)})
    return games


def table_json(game: Mapping[str, Any], players: Sequence[tuple[str, str | None]],
               teams: bool) -> dict[str, Any]:
    """The API's table JSON for players ``(name, colour)`` in seat order; with ``teams``
    partners sit opposite (seat 1 with seat 3 at a table of four)."""
    used: set[str] = set()
    entries: list[dict[str, Any]] = []
    for name, colour in players:
        entry: dict[str, Any] = {"name": name}
        if colour and colour.lower() not in used:
            entry["colour"] = colour
            used.add(colour.lower())
        entries.append(entry)
    data: dict[str, Any] = {"game": game["game"], "options": dict(game["options"]),
                            "players": entries}
    if teams:
        half = len(players) // 2
        data["teams"] = [{"name": f"{players[i][0]} & {players[i + half][0]}",
                          "members": [players[i][0], players[i + half][0]]}
                         for i in range(half)]
    return data


def clock_due(room: Mapping[str, Any]) -> float | None:
    """When the room's running round's clock runs out (the room changes then by itself)."""
    current = room.get("round")
    if not current or current.get("status") != "running":
        return None
    ends = current.get("ends_at")
    return None if ends is None else float(ends)


class RoomSignals:
    """A version number per night, moved on by every change its room display shows; the
    room streams of this process wait on it."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._versions: dict[str, int] = {}

    def version(self, event_id: str) -> int:
        with self._cond:
            return self._versions.get(event_id, 0)

    def bump(self, event_id: str | None) -> None:
        """Night ``event_id`` changed (``None``: maybe every night did)."""
        with self._cond:
            for key in [event_id] if event_id is not None else list(self._versions):
                self._versions[key] = self._versions.get(key, 0) + 1
            self._cond.notify_all()

    def wait(self, event_id: str, version: int, timeout: float) -> int:
        """Wait up to ``timeout`` seconds for a version other than ``version``; returns the
        version then."""
        with self._cond:
            self._cond.wait_for(lambda: self._versions.get(event_id, 0) != version, timeout)
            return self._versions.get(event_id, 0)


class Club:
    """Members, nights and records, in the club tables beside the store's game tables.

    Every change to a night is told to its room displays: in this process at once, in the
    others through the store's fan-out (a ``club`` note, sent on commit). A table that
    finishes its game records its players' results in the same request, right after its
    finishing event is committed, and ends the round when it was the last table playing.
    """

    def __init__(self, store: Store, probe: Any) -> None:
        self.store, self.db, self.probe = store, store.db, probe
        self.lock = threading.RLock()  # one club write at a time (seating, rounds ending)
        self.rooms = RoomSignals()
        self._watched: dict[str, str] = {}  # a table shown in a room here -> its night
        self._room_cache: dict[str, tuple[int, dict[str, Any]]] = {}  # night -> version, room
        self._recorded_here: set[str] = set()  # tables whose results this process recorded
        store.watchers.append(self._table_changed)
        store.note_handlers[CLUB_NOTE] = self._club_note

    @property
    def engine(self) -> Engine:
        """The store's engine (the club's tables live in the store's database)."""
        return self.db.engine

    # -- telling the rooms ---------------------------------------------------------------

    @contextmanager
    def changing(self, event_id: str) -> Iterator[Connection]:
        """One write to night ``event_id``: on commit, the room displays of every process
        are told."""
        with self.db.write() as conn:
            yield conn
            self.store.fanout.announce(conn, event_id, CLUB_NOTE, 0)
        self.rooms.bump(event_id)

    def _club_note(self, note: Note | None) -> None:
        """Another process changed a night (``None``: notes may have been lost)."""
        self.rooms.bump(None if note is None else note.table_id)

    def _table_changed(self, table: Table, local: bool) -> None:
        """A table's log grew (``local``: written by this process, just committed)."""
        event_id = self._watched.get(table.id)
        if event_id is not None:
            self.rooms.bump(event_id)
        if local and (table.state.game_over or table.id in self._recorded_here):
            self.record_table(table.id)

    # -- members -------------------------------------------------------------------------

    @staticmethod
    def _member(row: Row[Any]) -> Member:
        return Member(row.id, row.name, row.colour, row.link)

    def members(self) -> list[Member]:
        with self.db.read() as conn:
            rows = conn.execute(select(cdb.members).order_by(cdb.members.c.name_key))
            return [self._member(r) for r in rows]

    def member(self, member_id: int) -> Member:
        with self.db.read() as conn:
            row = conn.execute(select(cdb.members).where(cdb.members.c.id == member_id)).first()
        if row is None:
            raise MemberNotFoundError(f"no club member number {member_id}: see the club page")
        return self._member(row)

    def member_by_link(self, link: str) -> Member:
        with self.db.read() as conn:
            row = conn.execute(select(cdb.members).where(cdb.members.c.link == link)).first()
        if row is None:
            raise MemberNotFoundError(
                "no club member has this personal link: check it was copied whole, or check in "
                "by name (the organiser can look you up)")
        return self._member(row)

    @staticmethod
    def check_name(name: Any) -> str:
        """A member's name: readable text (no hidden characters), spaces collapsed, 1-24."""
        if not isinstance(name, str) or not name.strip():
            raise ClubError('a member needs a "name" (1 to 24 characters)')
        return edge.clean_name(" ".join(name.split()), "a member", 24)

    @staticmethod
    def check_colour(colour: Any) -> str | None:
        if colour in (None, ""):
            return None
        if isinstance(colour, str) and colour.lower() in PEG_COLOURS:
            return PEG_COLOURS[colour.lower()]
        if not isinstance(colour, str) or not COLOUR_RE.match(colour):
            raise ClubError(f"colour {colour!r} is not a peg colour: use #rrggbb or one of "
                            f"{', '.join(PEG_COLOURS)}")
        return colour.lower()

    def _find_or_add(self, conn: Connection, name: str, colour: str | None,
                     *, must_be_new: bool) -> Member:
        row = conn.execute(select(cdb.members).where(
            cdb.members.c.name_key == name.casefold())).first()
        if row is not None:
            if must_be_new:
                raise NameTakenError(f"a member is already called {row.name!r}: pick another "
                                     "name, or use their personal link")
            return self._member(row)
        count = conn.execute(select(func.count()).select_from(cdb.members)).scalar_one()
        palette = list(PEG_COLOURS.values())
        colour = colour or palette[count % len(palette)]
        link = secrets.token_urlsafe(12)
        new_id = conn.execute(insert(cdb.members).values(
            name=name, name_key=name.casefold(), colour=colour, link=link,
            created_at=time.time())).inserted_primary_key
        assert new_id is not None
        return Member(int(new_id[0]), name, colour, link)

    def add_member(self, name: Any, colour: Any = None) -> Member:
        name, colour = self.check_name(name), self.check_colour(colour)
        with self.db.write() as conn:
            return self._find_or_add(conn, name, colour, must_be_new=True)

    # -- nights --------------------------------------------------------------------------

    def create_event(self, data: Any) -> tuple[str, str]:
        """A new night; returns its id and the organiser's token."""
        config = event_config(data, self.probe)
        event_id, token = secrets.token_hex(4), secrets.token_urlsafe(18)
        with self.db.write() as conn:
            conn.execute(insert(cdb.events).values(
                id=event_id, name=config.pop("name"), created_at=time.time(),
                config_json=json.dumps(config), seed=secrets.token_hex(8),
                organiser_token=token, checkin_token=secrets.token_urlsafe(12)))
        return event_id, token

    def event(self, event_id: str, conn: Connection | None = None) -> Row[Any]:
        if conn is None:
            with self.db.read() as own:
                return self.event(event_id, own)
        row = conn.execute(select(cdb.events).where(cdb.events.c.id == event_id)).first()
        if row is None:
            raise EventNotFoundError(f"no club night {event_id!r}: check the link, or start one "
                                     "on the club page")
        return row

    def events(self) -> list[dict[str, Any]]:
        with self.db.read() as conn:
            rows = conn.execute(select(cdb.events).order_by(cdb.events.c.created_at.desc()))
            out = []
            for row in rows:
                config = json.loads(row.config_json)
                played = conn.execute(select(func.count()).select_from(cdb.rounds).where(and_(
                    cdb.rounds.c.event_id == row.id, cdb.rounds.c.status == "finished"))
                ).scalar_one()
                out.append({"id": row.id, "name": row.name, "created_at": row.created_at,
                            "rounds": config["rounds"], "rounds_played": played})
            return out

    def check_organiser(self, event_id: str, token: str | None) -> None:
        row = self.event(event_id)
        if not token or not secrets.compare_digest(token, row.organiser_token):
            raise OrganiserOnlyError("only the night's organiser may do this: open the organiser "
                                     "page from the link given when the night was created")

    def check_in(self, event_id: str, data: Any, *, organiser: bool) -> Member:
        """Check a member in by personal link (``member``) or by name (a new name makes a new
        member). A phone must carry the night's check-in code ``t`` (the QR at the door)."""
        if not isinstance(data, Mapping):
            raise ClubError('a check-in is {"name": "Ann"} or {"member": "<personal link>"}')
        row = self.event(event_id)
        if not organiser and not secrets.compare_digest(str(data.get("t") or ""),
                                                        row.checkin_token):
            raise OrganiserOnlyError("this check-in link has no valid code: scan the QR code "
                                     "at the door again, or ask the organiser")
        with self.lock:
            link = data.get("member")
            if link:
                member = self.member_by_link(str(link))
            else:
                name, colour = self.check_name(data.get("name")), self.check_colour(
                    data.get("colour"))
            with self.changing(event_id) as conn:
                if not link:
                    member = self._find_or_add(conn, name, colour, must_be_new=False)
                seen = conn.execute(select(cdb.checkins).where(and_(
                    cdb.checkins.c.event_id == event_id,
                    cdb.checkins.c.member_id == member.id))).first()
                if seen is not None:
                    raise AlreadyCheckedInError(
                        f"{member.name} is already checked in to this night: nothing was "
                        "changed (to bring back a player who dropped out, mark them playing)")
                seated = conn.execute(select(func.count()).select_from(cdb.rounds).where(and_(
                    cdb.rounds.c.event_id == event_id, cdb.rounds.c.status != "seated"))
                ).scalar_one()
                try:
                    with conn.begin_nested():
                        conn.execute(insert(cdb.checkins).values(
                            event_id=event_id, member_id=member.id, at=time.time(),
                            dropped=False, after_round=seated))
                except IntegrityError as exc:  # another server process checked them in
                    raise AlreadyCheckedInError(
                        f"{member.name} is already checked in to this night: nothing was "
                        "changed") from exc
                self._reseat_draft(conn, event_id)
            return member

    def set_dropped(self, event_id: str, member_id: int, dropped: Any) -> None:
        """Mark a player dropped out (seated no more) or playing again; a round seated but not
        started is seated again without (or with) them."""
        if not isinstance(dropped, bool):
            raise ClubError('"dropped" must be true (the player leaves) or false (plays again)')
        with self.lock, self.changing(event_id) as conn:
            self.event(event_id, conn)
            done = conn.execute(update(cdb.checkins).where(and_(
                cdb.checkins.c.event_id == event_id, cdb.checkins.c.member_id == member_id)
            ).values(dropped=dropped))
            if done.rowcount == 0:
                raise MemberNotFoundError(f"member {member_id} is not checked in to this night")
            self._reseat_draft(conn, event_id)

    def remove_checkin(self, event_id: str, member_id: int) -> None:
        """Take back a check-in made by mistake (a typo, the wrong night): only for a player
        not seated in a round that has started; a player who has played drops out instead."""
        with self.lock, self.changing(event_id) as conn:
            self.event(event_id, conn)
            played = conn.execute(
                select(cdb.rounds.c.round_no)
                .join(cdb.seats, and_(cdb.seats.c.event_id == cdb.rounds.c.event_id,
                                      cdb.seats.c.round_no == cdb.rounds.c.round_no))
                .where(and_(cdb.rounds.c.event_id == event_id, cdb.seats.c.member_id == member_id,
                            cdb.rounds.c.status != "seated"))).first()
            if played is not None:
                raise SeatsLockedError(f"this player has played round {played.round_no}: their "
                                       "check-in stays; mark them dropped out instead")
            done = conn.execute(delete(cdb.checkins).where(and_(
                cdb.checkins.c.event_id == event_id, cdb.checkins.c.member_id == member_id)))
            if done.rowcount == 0:
                raise MemberNotFoundError(f"member {member_id} is not checked in to this night")
            conn.execute(delete(cdb.seats).where(and_(
                cdb.seats.c.event_id == event_id, cdb.seats.c.member_id == member_id)))
            self._reseat_draft(conn, event_id)

    # -- rounds --------------------------------------------------------------------------

    def _rounds(self, conn: Connection, event_id: str) -> list[Row[Any]]:
        return list(conn.execute(select(cdb.rounds).where(cdb.rounds.c.event_id == event_id)
                                 .order_by(cdb.rounds.c.round_no)))

    def _seats(self, conn: Connection, event_id: str, round_no: int) -> list[Row[Any]]:
        return list(conn.execute(
            select(cdb.seats, cdb.members.c.name, cdb.members.c.colour)
            .join(cdb.members, cdb.members.c.id == cdb.seats.c.member_id)
            .where(and_(cdb.seats.c.event_id == event_id, cdb.seats.c.round_no == round_no))
            .order_by(cdb.seats.c.table_no, cdb.seats.c.position)))

    def seat_next(self, event_id: str) -> int:
        """Seat the next round (or seat again the round seated but not started)."""
        with self.lock:
            self.refresh(event_id)
            with self.changing(event_id) as conn:
                event = self.event(event_id, conn)
                config = json.loads(event.config_json)
                rounds = self._rounds(conn, event_id)
                last = rounds[-1] if rounds else None
                if last is not None and last.status == "running":
                    raise RoundOpenError(self._open_message(conn, event_id, last))
                if last is not None and last.status == "seated":
                    round_no = int(last.round_no)
                else:
                    round_no = (last.round_no if last else 0) + 1
                if round_no > config["rounds"]:
                    raise ClubError(f"all {config['rounds']} rounds are played: the night is "
                                    "over (see the final standings)")
                self._seat(conn, event, config, round_no)
                return round_no

    def _open_message(self, conn: Connection, event_id: str, last: Row[Any]) -> str:
        open_tables = sorted({s.table_no for s in self._seats(conn, event_id, last.round_no)
                              if s.table_no and not self._table_done(s.table_id)})
        names = ", ".join(str(t) for t in open_tables)
        return (f"round {last.round_no} is still being played (table {names} not finished): "
                "nothing was seated. Wait for the tables to finish, or end the round "
                "(each table's last complete hand counts)")

    def _table_done(self, table_id: str | None) -> bool:
        return table_id is not None and outcome(self.store.table(table_id).state).finished

    def _reseat_draft(self, conn: Connection, event_id: str) -> None:
        rounds = self._rounds(conn, event_id)
        if rounds and rounds[-1].status == "seated":
            event = self.event(event_id, conn)
            self._seat(conn, event, json.loads(event.config_json), rounds[-1].round_no)

    def _seat(self, conn: Connection, event: Row[Any], config: dict[str, Any],
              round_no: int) -> None:
        event_id = event.id
        present = self._present(conn, event_id)
        if len(present) < 2:
            raise ClubError("check in at least two players before seating a round")
        earlier = [self._seats(conn, event_id, r) for r in range(1, round_no)]
        tables_before = []
        byes_had: dict[str, int] = {}
        for seats in earlier:
            by_table: dict[int, list[str]] = {}
            for seat in seats:
                if seat.table_no == 0:
                    byes_had[seat.name] = byes_had.get(seat.name, 0) + 1
                else:
                    by_table.setdefault(seat.table_no, []).append(seat.name)
            tables_before.append(list(by_table.values()))
        ranked = [s["player"] for s in self._standings(conn, event_id, config)
                  if s["player"] in present] if round_no > 1 else list(present)
        ranked += [p for p in present if p not in ranked]
        game = config["games"][round_no - 1]
        try:
            seating = seat_round(ranked, config["seats"], round_no=round_no, seed=event.seed,
                                 met=met_counts(tables_before), byes=config["odd"] == "bye",
                                 pairs=config["teams"], byes_had=byes_had)
        except SeatingError as exc:
            raise ClubError(str(exc)) from exc
        for table in seating.tables:
            self._check_game_size(game, len(table), round_no)
        conn.execute(delete(cdb.seats).where(and_(cdb.seats.c.event_id == event_id,
                                                  cdb.seats.c.round_no == round_no)))
        conn.execute(delete(cdb.rounds).where(and_(cdb.rounds.c.event_id == event_id,
                                                   cdb.rounds.c.round_no == round_no)))
        conn.execute(insert(cdb.rounds).values(
            event_id=event_id, round_no=round_no, status="seated", game_json=json.dumps(game),
            seated_at=time.time()))
        rows = [(no, pos, name) for no, table in enumerate(seating.tables, 1)
                for pos, name in enumerate(table)]
        rows += [(0, pos, name) for pos, name in enumerate(seating.byes)]
        for table_no, position, name in rows:
            conn.execute(insert(cdb.seats).values(
                event_id=event_id, round_no=round_no, member_id=present[name],
                table_no=table_no, position=position))

    def _check_game_size(self, game: Mapping[str, Any], size: int, round_no: int) -> None:
        info = next(g for g in game_tables.available_games() if g["name"] == game["game"])
        low, high = info["players"]["min"], info["players"]["max"]
        if not low <= size <= high:
            raise ClubError(f"round {round_no}'s game {game['game']} seats {low} to {high} "
                            f"players, but the players present make a table of {size}: change "
                            "the seats per table, or check players in or out")

    def _present(self, conn: Connection, event_id: str) -> dict[str, int]:
        """Players to seat, name -> member id, in check-in order."""
        rows = conn.execute(
            select(cdb.members.c.id, cdb.members.c.name)
            .join(cdb.checkins, cdb.checkins.c.member_id == cdb.members.c.id)
            .where(and_(cdb.checkins.c.event_id == event_id, cdb.checkins.c.dropped.is_(False)))
            .order_by(cdb.checkins.c.at, cdb.members.c.id))
        return {r.name: r.id for r in rows}

    def _round(self, conn: Connection, event_id: str, round_no: int) -> Row[Any]:
        """The round's row, locked for the transaction where the database locks rows (several
        server processes on PostgreSQL); SQLite's transactions already hold the write lock."""
        row = conn.execute(select(cdb.rounds).where(and_(
            cdb.rounds.c.event_id == event_id, cdb.rounds.c.round_no == round_no))
            .with_for_update()).first()
        if row is None:
            raise RoundNotFoundError(f"round {round_no} is not seated yet")
        return row

    def swap(self, event_id: str, round_no: int, a: Any, b: Any) -> None:
        """Swap two players' seats (a seat with a bye too) before their round starts."""
        if not isinstance(a, str) or not isinstance(b, str) or a == b:
            raise ClubError('a swap names two different seated players: {"a": "Ann", "b": "Bo"}')
        with self.lock, self.changing(event_id) as conn:
            self.event(event_id, conn)
            row = self._round(conn, event_id, round_no)
            seats = {s.name: s for s in self._seats(conn, event_id, round_no)}
            for name in (a, b):
                if name not in seats:
                    raise ClubError(f"{name!r} has no seat in round {round_no}")
            if row.status != "seated":
                running = sorted({seats[n].table_no for n in (a, b) if seats[n].table_no})
                where = " and ".join(f"table {t}" for t in running) or "the round"
                verb = "are" if len(running) > 1 else "is"
                raise SeatsLockedError(
                    f"round {round_no} has started ({where} {verb} playing): seats change "
                    "only before a round starts, so nothing was swapped")
            for name, other in ((a, b), (b, a)):
                conn.execute(update(cdb.seats).where(and_(
                    cdb.seats.c.event_id == event_id, cdb.seats.c.round_no == round_no,
                    cdb.seats.c.member_id == seats[name].member_id)).values(
                    table_no=-seats[other].table_no - 1, position=seats[other].position))
            conn.execute(update(cdb.seats).where(and_(
                cdb.seats.c.event_id == event_id, cdb.seats.c.round_no == round_no,
                cdb.seats.c.table_no < 0)).values(table_no=-cdb.seats.c.table_no - 1))

    def start_round(self, event_id: str, round_no: int) -> list[str]:
        """Create each seated table through the store and start the round's clock."""
        with self.lock:
            with self.db.read() as conn:
                event = self.event(event_id, conn)
                config = json.loads(event.config_json)
                row = self._round(conn, event_id, round_no)
                if row.status != "seated":
                    raise SeatsLockedError(f"round {round_no} has already started")
                game = json.loads(row.game_json)
                by_table: dict[int, list[tuple[str, str | None]]] = {}
                for seat in self._seats(conn, event_id, round_no):
                    if seat.table_no:
                        by_table.setdefault(seat.table_no, []).append((seat.name, seat.colour))
            setups = {}
            for table_no, players in by_table.items():
                try:
                    setups[table_no] = self.probe(table_json(game, players, config["teams"]))
                except ValueError as exc:
                    raise ClubError(f"table {table_no}: {exc}") from exc
            created = {no: self.store.create_table(setup) for no, setup in setups.items()}
            now = time.time()
            ends = now + 60 * config["minutes"] if config["minutes"] else None
            with self.changing(event_id) as conn:
                for table_no, table in created.items():
                    conn.execute(update(cdb.seats).where(and_(
                        cdb.seats.c.event_id == event_id, cdb.seats.c.round_no == round_no,
                        cdb.seats.c.table_no == table_no)).values(table_id=table.id))
                conn.execute(update(cdb.rounds).where(and_(
                    cdb.rounds.c.event_id == event_id, cdb.rounds.c.round_no == round_no))
                    .values(status="running", started_at=now, ends_at=ends))
            return [created[no].id for no in sorted(created)]

    def end_round(self, event_id: str, round_no: int) -> None:
        """The organiser calls time: each table's last complete hand counts."""
        with self.lock, self.changing(event_id) as conn:
            self.event(event_id, conn)
            row = self._round(conn, event_id, round_no)
            if row.status != "running":
                raise ClubError(f"round {round_no} is {row.status}, not being played: "
                                "nothing to end")
            self._finish(conn, event_id, row, "organiser", None)

    def refresh(self, event_id: str) -> None:
        """Record the running round's results once every table has finished or its clock has
        run out."""
        with self.db.read() as conn:
            rounds = self._rounds(conn, event_id)
            if not rounds or rounds[-1].status != "running":
                return
            row = rounds[-1]
            ids = [s.table_id for s in self._seats(conn, event_id, row.round_no) if s.table_no]
        clock_out = row.ends_at is not None and time.time() >= row.ends_at
        if not clock_out and not all(self._table_done(t) for t in ids):
            return
        with self.lock, self.changing(event_id) as conn:
            current = self._round(conn, event_id, row.round_no)
            if current.status == "running":
                self._finish(conn, event_id, current, "clock" if clock_out else "games",
                             current.ends_at if clock_out else None)

    def record_table(self, table_id: str) -> None:
        """Table ``table_id`` has written an event: while its round runs, its players'
        results are recorded as its game stands once it has ended (again after an amendment;
        taken back when an undo reopens the game), and its round ends when it was the last
        table playing (or when the round's clock has run out, every table as it stood then)."""
        with self.db.read() as conn:
            seat = conn.execute(
                select(cdb.seats.c.event_id, cdb.seats.c.round_no, cdb.seats.c.table_no)
                .where(cdb.seats.c.table_id == table_id).limit(1)).first()
        if seat is None:  # not a club table
            return
        event_id, table_no = str(seat.event_id), int(seat.table_no)
        with self.lock, self.changing(event_id) as conn:
            row = self._round(conn, event_id, seat.round_no)
            if row.status != "running":
                return
            if row.ends_at is not None and time.time() >= row.ends_at:
                self._finish(conn, event_id, row, "clock", row.ends_at)
                return
            conn.execute(delete(cdb.results).where(and_(
                cdb.results.c.event_id == event_id, cdb.results.c.round_no == row.round_no,
                cdb.results.c.table_no == table_no)))
            self._recorded_here.discard(table_id)
            if not self._state_at(table_id, None).game_over:
                return
            by_table = self._by_table(conn, event_id, row.round_no)
            self._record(conn, event_id, row, table_no, by_table[table_no], None)
            self._recorded_here.add(table_id)
            recorded = self._recorded(conn, event_id, row.round_no)
            if all(no in recorded for no in by_table if no):
                self._finish(conn, event_id, row, "games", None)

    def _state_at(self, table_id: str, deadline: float | None) -> game_tables.State:
        table = self.store.table(table_id)
        if self.db.is_postgresql:  # another process may have written a moment ago
            self.store.catch_up(table)
        if deadline is None:
            return table.state
        logged = [e["event"] for e in self.store.events(table) if e["at"] <= deadline]
        return game_tables.replay(table.setup, logged)

    def _by_table(self, conn: Connection, event_id: str,
                  round_no: int) -> dict[int, list[Row[Any]]]:
        """The round's seats by table number (0: the byes)."""
        by_table: dict[int, list[Row[Any]]] = {}
        for seat in self._seats(conn, event_id, round_no):
            by_table.setdefault(seat.table_no, []).append(seat)
        return by_table

    @staticmethod
    def _recorded(conn: Connection, event_id: str, round_no: int) -> set[int]:
        """The numbers of the round's tables whose results are recorded."""
        return {int(r.table_no) for r in conn.execute(
            select(cdb.results.c.table_no).distinct().where(and_(
                cdb.results.c.event_id == event_id, cdb.results.c.round_no == round_no)))}

    def _record(self, conn: Connection, event_id: str, row: Row[Any], table_no: int,
                seats: list[Row[Any]], deadline: float | None) -> None:
        """Record the results of one table of round ``row`` (table 0: the byes)."""
        event = self.event(event_id, conn)
        scoring = Scoring.from_json(json.loads(event.config_json)["scoring"])
        game = json.loads(row.game_json)["game"]
        if table_no == 0:
            for seat in seats:
                points = scoring.bye_points if scoring.mode == "placement" else 0.0
                conn.execute(insert(cdb.results).values(
                    event_id=event_id, round_no=row.round_no, member_id=seat.member_id,
                    table_no=0, table_id=None, game=game, bye=True, score=0, place=None,
                    points=points, best_hand=None, hands=0, finished=False))
            return
        result = outcome(self._state_at(seats[0].table_id, deadline))
        board = {o: result.scores[p] for p, o in result.owners.items()}
        owner_points = scoring.night_points(board, result.lower_wins)
        owner_places = places(board, result.lower_wins)
        for seat in seats:
            owner = result.owners[seat.name]
            conn.execute(insert(cdb.results).values(
                event_id=event_id, round_no=row.round_no, member_id=seat.member_id,
                table_no=table_no, table_id=seat.table_id, game=game, bye=False,
                score=result.scores[seat.name], place=owner_places[owner],
                points=owner_points[owner], best_hand=result.best_hand[seat.name],
                hands=result.hands, finished=result.finished))

    def _finish(self, conn: Connection, event_id: str, row: Row[Any], ended_by: str,
                deadline: float | None) -> None:
        """End round ``row``: record every table not recorded yet (as it stood at
        ``deadline`` when given), and the byes."""
        recorded = self._recorded(conn, event_id, row.round_no)
        for table_no, seats in self._by_table(conn, event_id, row.round_no).items():
            if table_no not in recorded:
                self._record(conn, event_id, row, table_no, seats, deadline)
        conn.execute(update(cdb.rounds).where(and_(
            cdb.rounds.c.event_id == event_id, cdb.rounds.c.round_no == row.round_no)).values(
            status="finished", finished_at=time.time(), ended_by=ended_by))

    # -- standings and the room ----------------------------------------------------------

    def _standings(self, conn: Connection, event_id: str,
                   config: dict[str, Any]) -> list[dict[str, Any]]:
        checked = list(conn.execute(
            select(cdb.members.c.name, cdb.members.c.colour, cdb.members.c.id,
                   cdb.checkins.c.dropped)
            .join(cdb.checkins, cdb.checkins.c.member_id == cdb.members.c.id)
            .where(cdb.checkins.c.event_id == event_id).order_by(cdb.checkins.c.at)))
        rows = conn.execute(
            select(cdb.results, cdb.members.c.name)
            .join(cdb.members, cdb.members.c.id == cdb.results.c.member_id)
            .where(cdb.results.c.event_id == event_id))
        results = [RoundResult(r.name, r.round_no, r.points, r.score, r.place, r.bye)
                   for r in rows]
        info = {r.name: r for r in checked}
        lines = standings([r.name for r in checked], results)
        return [{**line.to_json(), "member": info[line.player].id,
                 "colour": info[line.player].colour,
                 "dropped": bool(info[line.player].dropped)}
                for line in lines if line.player in info]

    def room(self, event_id: str) -> dict[str, Any]:
        """Everything the room's TV shows: the round, each table's status, the standings."""
        self.refresh(event_id)
        with self.db.read() as conn:
            event = self.event(event_id, conn)
            config = json.loads(event.config_json)
            rounds = self._rounds(conn, event_id)
            current = rounds[-1] if rounds else None
            tables: list[dict[str, Any]] = []
            byes: list[str] = []
            if current is not None:
                tables, byes = self._tables(conn, event_id, current)
            finished = (len(rounds) == config["rounds"] and current is not None
                        and current.status == "finished")
            checked_in = conn.execute(select(func.count()).select_from(cdb.checkins).where(
                cdb.checkins.c.event_id == event_id)).scalar_one()
            return {
                "event": {"id": event.id, "name": event.name, **config},
                "round": None if current is None else {
                    "no": current.round_no, "status": current.status,
                    "game": json.loads(current.game_json), "started_at": current.started_at,
                    "ends_at": current.ends_at, "ended_by": current.ended_by},
                "tables": tables, "byes": byes, "checked_in": checked_in,
                "standings": self._standings(conn, event_id, config),
                "finished": finished,
            }

    def _tables(self, conn: Connection, event_id: str,
                current: Row[Any]) -> tuple[list[dict[str, Any]], list[str]]:
        by_table: dict[int, list[Row[Any]]] = {}
        for seat in self._seats(conn, event_id, current.round_no):
            by_table.setdefault(seat.table_no, []).append(seat)
        byes = [s.name for s in by_table.pop(0, [])]
        tables = []
        for table_no, seats in sorted(by_table.items()):
            entry: dict[str, Any] = {
                "no": table_no, "table_id": seats[0].table_id,
                "players": [{"name": s.name, "colour": s.colour, "score": None} for s in seats],
                "seq": 0, "hand_no": 0, "leader": None, "finished": False, "winner": None}
            if seats[0].table_id is not None:
                self._watched[seats[0].table_id] = event_id
                table = self.store.table(seats[0].table_id)
                with table.cond:
                    state, entry["seq"] = table.state, table.seq
                result = outcome(state)
                for player in entry["players"]:
                    player["score"] = result.scores[player["name"]]
                entry.update(hand_no=result.hand_no, leader=result.leader,
                             finished=result.finished, winner=result.winner)
            tables.append(entry)
        return tables, byes

    def live_room(self, event_id: str) -> dict[str, Any]:
        """:meth:`room` for the room streams: computed once per change to the night (and
        when the round's clock runs out), however many displays this process serves."""
        version = self.rooms.version(event_id)
        cached = self._room_cache.get(event_id)
        if cached is not None and cached[0] == version:
            due = clock_due(cached[1])
            if due is None or time.time() < due:
                return cached[1]
        room = self.room(event_id)
        self._room_cache[event_id] = (version, room)
        return room

    def organiser_view(self, event_id: str) -> dict[str, Any]:
        """The room, plus what only the organiser sees: check-in code, players, tables' keys."""
        room = self.room(event_id)
        with self.db.read() as conn:
            event = self.event(event_id, conn)
            players = conn.execute(
                select(cdb.members.c.id, cdb.members.c.name, cdb.members.c.colour,
                       cdb.checkins.c.dropped, cdb.checkins.c.after_round)
                .join(cdb.checkins, cdb.checkins.c.member_id == cdb.members.c.id)
                .where(cdb.checkins.c.event_id == event_id).order_by(cdb.checkins.c.at))
            room["players"] = [{"id": p.id, "name": p.name, "colour": p.colour,
                                "dropped": bool(p.dropped), "late": p.after_round > 0}
                               for p in players]
        room["checkin_token"] = event.checkin_token
        for table in room["tables"]:
            if table["table_id"]:
                store_table = self.store.table(table["table_id"])
                table["keeper_token"] = store_table.keeper_token
                table["display_token"] = store_table.display_token
        return room

    # -- records -------------------------------------------------------------------------

    def refresh_all(self) -> None:
        """Record the results of every round whose tables have all finished."""
        with self.db.read() as conn:
            running = [r.event_id for r in conn.execute(
                select(cdb.rounds.c.event_id).where(cdb.rounds.c.status == "running"))]
        for event_id in running:
            self.refresh(event_id)

    def game_results(self) -> list[GameResult]:
        """Every finished seat (byes left out), oldest night first."""
        self.refresh_all()
        query = (select(cdb.results, cdb.members.c.name, cdb.events.c.created_at)
                 .join(cdb.members, cdb.members.c.id == cdb.results.c.member_id)
                 .join(cdb.events, cdb.events.c.id == cdb.results.c.event_id)
                 .where(cdb.results.c.bye.is_(False))
                 .order_by(cdb.events.c.created_at, cdb.results.c.round_no))
        with self.db.read() as conn:
            rows = list(conn.execute(query))
        lower = {g["name"]: bool(g.get("lower_wins")) for g in game_tables.available_games()}
        return [GameResult(r.event_id, r.round_no, r.table_no, r.game, r.name, r.score,
                           r.place, r.best_hand, lower.get(r.game, False)) for r in rows]

    def records(self) -> list[dict[str, Any]]:
        members = {m.name: m for m in self.members()}
        return [{"member": members[name].id, "colour": members[name].colour, **record.to_json()}
                for name, record in player_records(self.game_results()).items()]

    def player(self, member: Member) -> dict[str, Any]:
        """A member's record, head-to-head and games."""
        results = self.game_results()
        record = player_records(results).get(member.name)
        games = [{"event": r.event, "round": r.round_no, "table": r.table_no, "game": r.game,
                  "score": r.score, "place": r.place, "best_hand": r.best_hand}
                 for r in results if r.player == member.name]
        return {"member": member.to_json(),
                "record": record.to_json() if record else None,
                "head_to_head": [h.to_json() for h in head_to_head(results, member.name)],
                "games": games}
