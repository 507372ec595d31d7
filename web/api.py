"""The JSON API (``docs/api.md``): everything the pages do, for scripts and the LED board too."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, url_for

from scorekeeper.cards import check_cards, parse_cards, read_cards
from scorekeeper.game import (
    GAMES,
    GameSetup,
    available_games,
    game_of,
    get_game,
    read_setup,
    setup_json,
)
from scorekeeper.games import GameError
from scorekeeper.pegboard import PEG_COLOURS
from scorekeeper.rulesets import COMPLEX, TossOptions
from web import history as history_notes
from web.auth import get_store, request_token, require, role_for, set_token_cookie
from web.edge import (
    NUMBER_LIMIT,
    BadInputError,
    check_fields,
    clean_name,
    json_body,
    limit_table_creation,
)
from web.qr import qr_svg
from web.store import RefusedError, SeatClaim, StaleWriteError, Table, refusal

bp = Blueprint("api", __name__, url_prefix="/api")

PROPOSABLE = ("meld", "lay-off", "toss", "double-cross", "steal")
#: Worker threads kept free of live streams, for ordinary requests.
STREAM_RESERVE = 20
#: Between the two writes of a probe of the open streams.
PROBE_GAP_SECONDS = 0.05
BOARD_STATUSES = ("connected", "disconnected", "connecting", "error", "simulated", "none")
#: The fields each endpoint's body may hold (anything else is refused with its name).
FIELDS: dict[str, tuple[str, ...]] = {
    "create": ("game", "players", "teams", "colours", "options", "auto_accept", "decks",
               "start_chips"),
    "join": ("join_token", "player"),
    "settings": ("auto_accept",),
    "event": ("base_seq", "event", "action_id"),
    "preview": ("went_out", "hands"),
    "dry-run": ("event",),
    "propose": ("kind", "event", "cards", "action_id"),
    "accept": ("base_seq", "action_id"),
    "collect": ("secret",),
    "confirm": ("hand_no",),
    "board-status": ("status", "detail"),
    "rules-check": ("cards", "options", "top"),
}
#: The fields of a play a player may propose.
PROPOSAL_EVENT_FIELDS = ("type", "player", "cards", "top", "meld", "joker", "jokers", "card",
                         "captured")
#: A colour is ``#rrggbb`` or one of the peg colours' names.
COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


class BadRequestError(BadInputError):
    status = 400


def body(endpoint: str | None = None) -> dict[str, Any]:
    """The request's JSON object, checked at the edge (only ``endpoint``'s fields), or a 4xx."""
    return json_body(FIELDS[endpoint] if endpoint else None,
                     ', e.g. {"base_seq": 3, "event": {"type": "next-turn"}}')


def bool_field(data: dict[str, Any], name: str) -> bool:
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise BadRequestError(f'"{name}" must be true or false (JSON booleans), not {value!r}')
    return value


def colour_field(value: Any, owner: str) -> str:
    """A board colour: ``#rrggbb`` or a peg colour's name (``red``), as ``#rrggbb``."""
    if isinstance(value, str) and value.lower() in PEG_COLOURS:
        return PEG_COLOURS[value.lower()]
    if not isinstance(value, str) or not COLOUR.fullmatch(value):
        names = ", ".join(PEG_COLOURS)
        raise BadRequestError(f"{owner}'s colour {value!r} is not a colour: send #rrggbb (like "
                              f"#e5383b) or one of {names}")
    return value.lower()


def int_field(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequestError(f'"{name}" must be a whole number (the sequence number you saw)')
    return value


def options_field(data: dict[str, Any], example: str) -> dict[str, Any]:
    """The body's ``"options"`` object, without its empty values."""
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise BadRequestError(f'"options" must be an object {example}')
    return {k: v for k, v in options.items() if v is not None and v != ""}


def card_codes(value: Any, what: str) -> list[str]:
    """Card codes from a list or a space-separated string, by the one card-code reader (which
    refuses an empty code)."""
    if isinstance(value, list) and len(value) > 400:
        raise BadRequestError(f"{what} holds {len(value)} cards; at most 400")
    return [str(card) for card in read_cards(value, what, BadRequestError)]


def table_for(table_id: str) -> Table:
    return get_store().table(table_id)


def table_urls(table: Table) -> dict[str, str]:
    return {
        "join": url_for("pages.join", table_id=table.id, t=table.join_token, _external=True),
        "keeper": url_for("pages.keeper", table_id=table.id, _external=True),
        "player": url_for("pages.player", table_id=table.id, _external=True),
        "display": url_for("pages.display", table_id=table.id, token=table.display_token,
                           _external=True),
        "history": url_for("pages.history", table_id=table.id, _external=True),
    }


# -- creating and joining tables -----------------------------------------------------------

def setup_from_json(data: dict[str, Any]) -> tuple[GameSetup, bool]:
    """The table setup from ``POST /api/tables`` (see docs/api.md): the one setup format that
    :func:`scorekeeper.game.read_setup` reads (exports and ``scorekeeper replay`` too), plus
    ``auto_accept``; names and colours are checked at the edge first. The earlier format
    (players as ``{"name", "colour"}``, teams as a list) is read too (:func:`one_format`)."""
    auto_accept = bool_field(data, "auto_accept")
    fields = one_format(data)
    name = fields.get("game", COMPLEX)
    if not isinstance(name, str):
        raise BadRequestError(f'"game" must be the name of a game, not {name!r}')
    game = get_game(name)
    if game.engine == "hands" and fields.get("teams"):
        raise BadRequestError(f"{game.title} is not played in teams: leave out \"teams\"")
    fields.update(game=game.name, options=options_field(fields, "of the game's options"),
                  players=read_names(fields.get("players")),
                  teams=read_team_members(fields.get("teams") or {}),
                  colours=read_colours(fields.get("colours") or {}))
    if not fields["teams"]:
        del fields["teams"]
    try:
        return read_setup(fields), auto_accept
    except GameError as exc:  # a setup the game refuses is a malformed request: 400
        raise BadRequestError(str(exc)) from exc


def one_format(data: dict[str, Any]) -> dict[str, Any]:
    """The body as the one setup format: the earlier format's players ``{"name", "colour"}``
    and teams ``[{"name", "members", "colour"}]`` become ``players``, ``teams`` and
    ``colours``, and a hand-by-hand game's ``"decks"`` among its options its own ``decks``
    (the earlier start page sent them so; scripts and tests still do)."""
    fields = {k: v for k, v in data.items() if k != "auto_accept"}
    players, teams = fields.get("players"), fields.get("teams")
    player_colours: dict[str, str] = {}
    team_colours: dict[str, str] = {}
    if isinstance(players, list) and any(isinstance(p, dict) for p in players):
        fields["players"], player_colours = read_players(players)
    if isinstance(teams, list):
        fields["teams"], team_colours = read_teams(teams)
    chosen = team_colours if fields.get("teams") else player_colours  # boards' owners only
    if chosen:
        fields["colours"] = {**chosen, **read_colours(fields.get("colours") or {})}
    options = fields.get("options")
    name = fields.get("game", COMPLEX)
    if isinstance(options, dict) and "decks" in options and isinstance(name, str) and (
            get_game(name).engine == "hands"):
        fields["options"] = {k: v for k, v in options.items() if k != "decks"}
        fields["decks"] = options["decks"]
    if isinstance(fields.get("decks"), bool) or not isinstance(fields.get("decks", 1), int):
        raise BadRequestError(f'"decks" must be a whole number of decks, not {fields["decks"]!r}')
    return fields


def read_names(raw_players: Any) -> list[str]:
    """The players' names in seat order: each a name people read, no two alike."""
    if not isinstance(raw_players, list):
        raise BadRequestError('"players" must list the players\' names in seat order, like '
                              '["Ann", "Bob", "Cy"]')
    names, _ = read_players(raw_players)
    return names


def read_team_members(raw_teams: Any) -> dict[str, list[str]]:
    """``{"North": ["Ann", "Cy"], ...}``, every name checked as a name people read."""
    if not isinstance(raw_teams, dict):
        raise BadRequestError('"teams" must map each team\'s name to its members, like '
                              '{"North": ["Ann", "Cy"], "South": ["Bob", "Dee"]}')
    teams: dict[str, list[str]] = {}
    for i, (team, members) in enumerate(raw_teams.items()):
        name = clean_name(team, f"team {i + 1}")
        if not isinstance(members, list):
            raise BadRequestError(f"team {name} must list its members, like [\"Ann\", \"Cy\"]")
        teams[name] = [clean_name(m, f"a member of {name}") for m in members]
    return teams


def read_colours(raw_colours: Any) -> dict[str, str]:
    """``{owner: colour}``: each colour ``#rrggbb`` or a peg colour's name, as ``#rrggbb``; an
    owner without one gets the next default colour (:func:`scorekeeper.pegboard.board_colours`)."""
    if not isinstance(raw_colours, dict):
        raise BadRequestError('"colours" must map a board\'s owner (a player, or a team) to a '
                              'colour, like {"Ann": "#bb3f42"}')
    return {str(owner): colour_field(colour, str(owner)) for owner, colour in raw_colours.items()
            if colour not in (None, "")}


def read_teams(raw_teams: Any) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Teams in the earlier format (``[{"name", "members", "colour"}]``) and the colours
    chosen."""
    if not isinstance(raw_teams, list):
        raise BadRequestError('"teams" must be a list like [{"name": "North", "members": '
                              '["ann", "cy"]}]')
    teams: dict[str, list[str]] = {}
    colours: dict[str, str] = {}
    for i, team in enumerate(raw_teams):
        if not isinstance(team, dict) or not isinstance(team.get("members"), list):
            raise BadRequestError('each team must be {"name": "North", "members": ["ann", "cy"]}')
        check_fields(team, ("name", "members", "colour"), f"team {i + 1}")
        name = clean_name(team.get("name") or f"Team {i + 1}", f"team {i + 1}")
        teams[name] = list(team["members"])
        if team.get("colour"):
            colours[name] = team["colour"]
    return teams, colours


def read_players(raw_players: list[Any]) -> tuple[list[str], dict[str, str]]:
    """Player names (each a string or, in the earlier format, ``{"name", "colour"}``) and the
    colours chosen."""
    players: list[str] = []
    colours: dict[str, str] = {}
    most = max(game.max_players for game in GAMES.values())  # before any name is read
    if len(raw_players) > most:
        raise BadRequestError(f"a table seats at most {most} players, not {len(raw_players)}")
    for i, entry in enumerate(raw_players):
        if isinstance(entry, dict):
            check_fields(entry, ("name", "colour"), f"player {i + 1}")
        name = clean_name(entry.get("name") if isinstance(entry, dict) else entry,
                          f"player {i + 1}")
        if name.casefold() in {p.casefold() for p in players}:
            raise BadRequestError(f"two players are called {name!r}: give each a different name")
        players.append(name)
        if isinstance(entry, dict) and entry.get("colour"):
            colours[name] = entry["colour"]
    return players, colours


@bp.get("/games")
def games() -> Response:
    """Every game a table can play, with its options and hand form (the start page's list)."""
    return jsonify({"games": available_games()})


@bp.post("/tables")
def create_table() -> tuple[Response, int]:
    setup, auto_accept = setup_from_json(body("create"))
    limit_table_creation()
    table = get_store().create_table(setup, auto_accept=auto_accept)
    response = jsonify({
        "table_id": table.id, "keeper_token": table.keeper_token,
        "display_token": table.display_token, "join_token": table.join_token,
        "seats": table.seats, "urls": table_urls(table), "seq": table.seq,
        "state": table.state_json(),
    })
    set_token_cookie(response, table.id, table.keeper_token, "keeper")
    return response, 201


@bp.post("/tables/<table_id>/join")
def join(table_id: str) -> tuple[Response, int]:
    data = body("join")
    table = table_for(table_id)
    player, join_token = data.get("player"), data.get("join_token")
    if not isinstance(player, str):
        raise BadRequestError('say which seat you take: {"join_token": "...", "player": "ann"}')
    if not isinstance(join_token, str):
        raise BadRequestError('"join_token" must be the text from the join link (its t=...)')
    store = get_store()
    held = request_token(table.id)
    if held and table.seats.get(player) == held:  # this phone already holds the seat
        store.check_join_token(table, join_token)
        return seat_response(table, player, held), 200
    claim = store.claim_seat(table, join_token, player)
    if claim.token is None:
        return seat_request_response(table, claim), 202
    return seat_response(table, player, claim.token), 200


def seat_response(table: Table, player: str, token: str) -> Response:
    """The seat's token, also set as the phone's cookie."""
    response = jsonify({"role": "player", "player": player, "token": token,
                        "url": url_for("pages.player", table_id=table.id)})
    set_token_cookie(response, table.id, token, "player")
    return response


def seat_request_response(table: Table, claim: SeatClaim) -> Response:
    return jsonify({
        "status": "pending", "player": claim.player, "request": claim.request_id,
        "secret": claim.secret,
        "message": f"{claim.player}'s seat is already taken on another phone: the keeper has "
                   "been asked to give it to this phone (or to open the seat's own link here)",
    })


@bp.post("/tables/<table_id>/seat-requests/<int:request_id>/collect")
def collect_seat(table_id: str, request_id: int) -> tuple[Response, int]:
    """The phone that asked for a claimed seat: 202 while the keeper has not answered, then the
    seat (token and cookie) once approved; 403 with the reason when refused."""
    table = table_for(table_id)
    claim = get_store().collect_seat(table, request_id, body("collect").get("secret"))
    if claim.token is None:
        return jsonify({"status": "pending", "player": claim.player}), 202
    return seat_response(table, claim.player, claim.token), 200


@bp.post("/tables/<table_id>/seat-requests/<int:request_id>/<answer>")
def answer_seat_request(table_id: str, request_id: int, answer: str) -> Response:
    """The keeper approves (the seat gets a new token for the asking phone; the old one ends)
    or refuses a request for a claimed seat."""
    table = table_for(table_id)
    require(table, "keeper")
    if answer not in ("approve", "refuse"):
        raise BadRequestError("answer a request for a seat with .../approve or .../refuse")
    status = get_store().resolve_seat_request(table, request_id, answer == "approve")
    return jsonify({"request": request_id, "status": status})


@bp.post("/tables/<table_id>/seats/<player>/free")
def free_seat(table_id: str, player: str) -> Response:
    """The keeper frees a seat: its token ends; the next phone to tap the seat takes it."""
    table = table_for(table_id)
    require(table, "keeper")
    get_store().free_seat(table, player)
    return jsonify({"player": player, "claimed": False})


@bp.get("/tables/<table_id>/seats/<player>/qr.svg")
def seat_qr(table_id: str, player: str) -> Response:
    """The QR code of a seat's own link (its token): the keeper hands the seat to one phone."""
    table = table_for(table_id)
    require(table, "keeper")
    token = table.seats.get(player)
    if token is None:
        raise BadRequestError(f"there is no seat {player!r} at this table")
    link = url_for("pages.player", table_id=table.id, token=token, _external=True)
    return Response(qr_svg(link), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


@bp.post("/tables/<table_id>/join-token")
def rotate_join_token(table_id: str) -> Response:
    table = table_for(table_id)
    require(table, "keeper")
    token = get_store().rotate_join_token(table)
    return jsonify({"join_token": token, "expires_at": table.join_expires_at,
                    "join_url": table_urls(table)["join"]})


@bp.get("/tables/<table_id>/qr.svg")
def join_qr(table_id: str) -> Response:
    table = table_for(table_id)
    require(table, "keeper")
    return Response(qr_svg(table_urls(table)["join"]), mimetype="image/svg+xml",
                    headers={"Cache-Control": "no-store"})


@bp.get("/tables/<table_id>/display-qr.svg")
def display_qr(table_id: str) -> Response:
    """The QR code of the display's link (with the display token), for a TV or a tablet."""
    table = table_for(table_id)
    require(table, "keeper")
    return Response(qr_svg(table_urls(table)["display"]), mimetype="image/svg+xml",
                    headers={"Cache-Control": "no-store"})


@bp.post("/tables/<table_id>/settings")
def settings(table_id: str) -> Response:
    table = table_for(table_id)
    require(table, "keeper")
    data = body("settings")
    if not isinstance(data.get("auto_accept"), bool):
        raise BadRequestError('send {"auto_accept": true} or {"auto_accept": false}')
    get_store().set_auto_accept(table, data["auto_accept"])
    return jsonify({"auto_accept": table.auto_accept})


# -- reading ---------------------------------------------------------------------------------

@bp.get("/tables/<table_id>/state")
def state(table_id: str) -> Response:
    table = table_for(table_id)
    role_for(table)
    with table.cond:
        return jsonify({"seq": table.seq, "state": table.state_json()})


@bp.get("/tables/<table_id>")
def table_info(table_id: str) -> Response:
    table = table_for(table_id)
    role = role_for(table)
    store = get_store()
    info: dict[str, Any] = {
        "table_id": table.id, "setup": setup_json(table.setup), "seq": table.seq,
        "state": table.state_json(), "table": store.meta(table),
        "role": {"kind": role.kind, "player": role.player},
    }
    if role.kind == "keeper":
        info["urls"] = table_urls(table)
        info["join_token"] = table.join_token
    return jsonify(info)


@bp.get("/tables/<table_id>/events")
def events(table_id: str) -> Response:
    table = table_for(table_id)
    role_for(table)
    try:
        since = int(request.args.get("since", "0"))
    except ValueError as exc:
        raise BadRequestError("since must be a sequence number") from exc
    if not 0 <= since <= NUMBER_LIMIT:
        raise BadRequestError(f"since must be a sequence number from 0 to {NUMBER_LIMIT:,}")
    return jsonify({"seq": table.seq, "events": get_store().events(table, since)})


def encoded_once(table: Table, name: str, build: Callable[[], bytes]) -> bytes:
    """``build()``'s bytes, made once per state of the table and kept until the next event: a
    page polling a long table costs the server no encoding."""
    with table.cond:
        seq = table.seq
        cached = table.replies.get(name)
    if cached is not None and cached[0] == seq:
        return cached[1]
    data = build()
    with table.cond:
        if table.seq == seq:
            table.replies[name] = (seq, data)
    return data


@bp.get("/tables/<table_id>/history")
def history(table_id: str) -> Response:
    table = table_for(table_id)
    role_for(table)

    def build() -> bytes:
        with table.cond:  # the notes kept as the log grew, as they were at this state
            seq, state, notes = table.seq, table.state_json(), table.notes.served(table.seq)
        document = {"seq": seq, "hands": state.get("hands", []),
                    "boards": state.get("boards", []),
                    "points": get_store().states_over_time(table)[:seq + 1],
                    "timeline": [p for p in get_store().timeline(table) if p["seq"] <= seq],
                    "notes": notes}
        return json.dumps(document, separators=(",", ":")).encode()

    return Response(encoded_once(table, "history", build), mimetype="application/json")


@bp.get("/tables/<table_id>/export.json")
def export_json(table_id: str) -> Response:
    table = table_for(table_id)
    role_for(table)
    store = get_store()
    document = {"table_id": table.id, "setup": setup_json(table.setup), "seq": table.seq,
                "events": store.events(table), "hands": table.state_json().get("hands", []),
                "state": table.state_json()}
    disposition = f'attachment; filename="table-{table.id}.json"'
    return Response(json.dumps(document, indent=2, ensure_ascii=False),
                    mimetype="application/json", headers={"Content-Disposition": disposition})


@bp.get("/tables/<table_id>/export.csv")
def export_csv(table_id: str) -> Response:
    table = table_for(table_id)
    role_for(table)
    store = get_store()
    with table.cond:  # the notes kept as the log grew, as they were at this seq
        seq, notes = table.seq, dict(table.notes.notes)
    points = {p["seq"]: p["scores"] for p in store.states_over_time(table)}
    owners = [b["owner"] for b in table.state_json().get("boards", [])]
    events = [e for e in store.events(table) if e["seq"] <= seq]
    text = history_notes.events_csv(events, points, owners, notes)
    return Response(text, mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="table-{table.id}.csv"'})


@bp.get("/tables/<table_id>/export-hands.csv")
def export_hands_csv(table_id: str) -> Response:
    """The finished hands as CSV, one row per hand (the event log is ``export.csv``)."""
    table = table_for(table_id)
    role_for(table)
    state = table.state_json()
    owners = [b["owner"] for b in state.get("boards", [])]
    disposition = f'attachment; filename="table-{table.id}-hands.csv"'
    return Response(history_notes.hands_csv(state.get("hands", []), owners), mimetype="text/csv",
                    headers={"Content-Disposition": disposition})


# -- writing ---------------------------------------------------------------------------------

@bp.post("/tables/<table_id>/events")
def post_event(table_id: str) -> tuple[Response, int]:
    table = table_for(table_id)
    role = require(table, "keeper")
    data = body("event")
    base_seq = int_field(data, "base_seq")
    # a stale base_seq is the app's 409 with the current state (web.register_errors)
    seq, _, state_text = get_store().append_encoded(table, base_seq, data.get("event"), role.name,
                                                     data.get("action_id"))
    if data["event"].get("type") == "end-hand":
        for proposal in get_store().meta(table)["proposals"]:
            if proposal["kind"] == "hand":
                get_store().resolve_proposal(table, proposal["id"], "accepted", seq)
    # the state is encoded once, for the live stream and for this reply
    return Response(f'{{"seq":{seq},"state":{state_text}}}', mimetype="application/json"), 201


@bp.post("/tables/<table_id>/preview-end-hand")
def preview_end_hand(table_id: str) -> Response:
    table = table_for(table_id)
    role_for(table)
    data = body("preview")
    went_out = data.get("went_out") or None
    if went_out is not None and not isinstance(went_out, str):
        raise BadRequestError('"went_out" must be the name of the player who went out, or null')
    raw_hands = data.get("hands") or {}
    if not isinstance(raw_hands, dict):
        raise BadRequestError('"hands" must map each player to the cards left in hand')
    hands = {p: parse_cards(card_codes(v, f"{p}'s hand")) for p, v in raw_hands.items()}
    game = game_of(table.setup)
    if not game.end_hand_preview:
        raise BadRequestError("this table plays a rules-pack game: preview a hand with dry-run")
    try:
        tally = game.preview_end_hand(table.state, went_out, hands)
    except ValueError as exc:
        raise refusal(exc) from exc
    return jsonify({"seq": table.seq, "tally": tally})


@bp.post("/tables/<table_id>/dry-run")
def dry_run(table_id: str) -> Response:
    """What an event would give, without storing it: ``{"event": {...}}`` -> ``{"seq",
    "state"}`` (the keeper's preview of a hand's scores); a refusal is 422/400 as for a write."""
    table = table_for(table_id)
    require(table, "keeper")
    data = body("dry-run")
    state = get_store().dry_run(table, data.get("event"))
    return jsonify({"seq": table.seq, "state": state.to_json()})


@bp.post("/tables/<table_id>/amend")
def amend(table_id: str) -> tuple[Response, int]:
    """Amend a past event: ``{"target", "event", "reason", "remove", "base_seq", "action_id"}``
    stores an ``amend`` event (201); with ``"preview": true`` nothing is stored and the answer
    is the score change per player, the hands rescored and the later events that no longer
    hold (200). A refusal is 422 (a later event named) or 400, as for any write."""
    table = table_for(table_id)
    role = require(table, "keeper")
    data = body()
    event = {"type": "amend", "target": data.get("target"), "event": data.get("event"),
             "reason": data.get("reason"), "remove": data.get("remove") or []}
    store = get_store()
    if data.get("preview"):
        return jsonify({"seq": table.seq, "preview": store.preview_amendment(table, event)}), 200
    base_seq = int_field(data, "base_seq")
    seq, _, state_text = store.append_encoded(table, base_seq, event, role.name,
                                              data.get("action_id"))
    return Response(f'{{"seq":{seq},"state":{state_text}}}', mimetype="application/json"), 201


@bp.post("/tables/<table_id>/proposals")
def propose(table_id: str) -> tuple[Response, int]:
    table = table_for(table_id)
    role = require(table, "player")
    assert role.player is not None
    data = body("propose")
    store = get_store()
    if not game_of(table.setup).proposals:
        raise BadRequestError("at this table the keeper enters each hand: tell the keeper")
    action_id = data.get("action_id")
    repeated = store.repeated_proposal(table, action_id)
    if repeated is not None:  # a double tap: the first answer again, nothing new stored
        return jsonify({"id": repeated["id"], "status": repeated["status"], "repeat": True}), 200
    kind = data.get("kind", "event")
    if kind == "hand":
        codes = card_codes(data.get("cards", []), "your hand")
        check_cards(parse_cards(codes), table.setup.decks)
        payload: dict[str, Any] = {"hand_no": table.state_json().get("hand_no"), "cards": codes}
        pid = store.propose(table, role.player, "hand", payload, action_id)
        return jsonify({"id": pid, "status": "pending"}), 201
    if kind != "event":
        raise BadRequestError('"kind" is "event" (a play) or "hand" (the cards left in your hand)')
    event = data.get("event")
    if not isinstance(event, dict) or event.get("type") not in PROPOSABLE:
        raise BadRequestError(f"a player may propose one of: {', '.join(PROPOSABLE)}")
    check_fields(event, PROPOSAL_EVENT_FIELDS, "the proposed play")
    event = {**event, "player": role.player}
    store.dry_run(table, event)  # refuse now, with the reason, rather than later
    pid = store.propose(table, role.player, "event", event, action_id)
    if table.auto_accept:
        try:
            seq, new_state = store.append(table, table.seq, event, role.player)
        except (RefusedError, StaleWriteError) as exc:
            store.resolve_proposal(table, pid, "refused")
            raise RefusedError(str(exc), 422) from exc
        store.resolve_proposal(table, pid, "accepted", seq)
        return jsonify({"id": pid, "status": "accepted", "seq": seq, "state": new_state}), 201
    return jsonify({"id": pid, "status": "pending"}), 201


@bp.post("/tables/<table_id>/proposals/<int:proposal_id>/<action>")
def resolve_proposal(table_id: str, proposal_id: int, action: str) -> tuple[Response, int]:
    table = table_for(table_id)
    require(table, "keeper")
    store = get_store()
    proposal = store.proposal(table, proposal_id)
    data = body("accept") if action == "accept" else {}
    store.check_repeat(table, data.get("action_id"))  # a second tap on Accept: answered again
    if proposal["status"] != "pending":
        raise BadRequestError(f"proposal {proposal_id} is already {proposal['status']}")
    if action == "reject":
        store.resolve_proposal(table, proposal_id, "rejected")
        return jsonify({"id": proposal_id, "status": "rejected"}), 200
    if action != "accept" or proposal["kind"] != "event":
        raise BadRequestError(
            "a play proposal can be accepted or rejected; a hand proposal is used by End hand"
        )
    base_seq = int_field(data, "base_seq")
    seq, new_state = store.append(table, base_seq, proposal["payload"], proposal["player"],
                                  data.get("action_id"))
    store.resolve_proposal(table, proposal_id, "accepted", seq)
    return jsonify({"seq": seq, "state": new_state}), 201


@bp.post("/tables/<table_id>/confirm")
def confirm(table_id: str) -> Response:
    table = table_for(table_id)
    role = require(table, "player")
    assert role.player is not None
    hand_no = int_field(body("confirm"), "hand_no")
    finished = {h.get("hand_no") for h in table.state_json().get("hands", [])}
    if hand_no not in finished:
        raise BadRequestError(f"hand {hand_no} has not been tallied yet: confirm after End hand")
    get_store().confirm_hand(table, role.player, hand_no)
    return jsonify({"hand_no": hand_no, "player": role.player, "confirmed": True})


@bp.post("/tables/<table_id>/board-status")
def post_board_status(table_id: str) -> Response:
    table = table_for(table_id)
    require(table, "keeper", "display")
    data = body("board-status")
    status, detail = data.get("status"), data.get("detail", "")
    if not isinstance(status, str) or not status or len(status) > 40:
        raise BadRequestError(f'"status" must be a short word such as {", ".join(BOARD_STATUSES)}')
    if not isinstance(detail, str):
        raise BadRequestError('"detail" must be text')
    get_store().set_board_status(table, status, detail[:300])
    return jsonify(table.board_status)


@bp.get("/tables/<table_id>/board-status")
def get_board_status(table_id: str) -> Response:
    table = table_for(table_id)
    role_for(table)
    return jsonify(table.board_status)


# -- live stream -----------------------------------------------------------------------------

@bp.get("/tables/<table_id>/stream")
def stream(table_id: str) -> Response:
    """Server-Sent Events: ``state`` messages (id = seq) and ``table`` messages (seats,
    proposals, confirmations, board status). Resumes after ``Last-Event-ID``."""
    table = table_for(table_id)
    role, token = role_for(table), request_token(table_id)
    last_header = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    try:
        last = int(last_header) if last_header not in (None, "") else None
    except ValueError as exc:
        raise BadRequestError("Last-Event-ID must be a sequence number") from exc
    store = get_store()
    limit = int(current_app.config.get("MAX_STREAMS") or
                max(1, int(current_app.config["THREADS"]) - STREAM_RESERVE))
    if store.listeners >= limit:  # keep worker threads free for the keeper's writes
        store.probe_streams()  # free the slots of pages that have gone
        return Response(json.dumps({"error": f"too many live pages are open ({limit}): close "
                                             "some, this page retries by itself"}),
                        status=503, mimetype="application/json", headers={"Retry-After": "5"})
    heartbeat = float(current_app.config["HEARTBEAT_SECONDS"])
    coalesce = float(current_app.config["STREAM_COALESCE_SECONDS"])
    coalesce_max = float(current_app.config["STREAM_COALESCE_MAX_SECONDS"])

    def generate() -> Iterator[bytes]:
        store.add_listener(table, 1)
        try:
            yield from stream_messages()
        finally:
            store.add_listener(table, -1)

    def stream_messages() -> Iterator[bytes]:
        yield b"retry: 2000\n\n"
        if last is None or last > table.seq:
            sent, message = store.snapshot_message(table)
            yield message
        else:
            sent = last
            batch = store.messages_after(table, sent)
            if batch:
                sent = batch[-1][0]
                yield b"".join(m for _, m in batch)
        meta_seen, message = store.meta_message(table, sent)
        yield message
        probe_seen = store.probes
        while not store.closed.is_set():
            if not store.seat_token_valid(table, role, token):
                return  # the keeper freed or handed on this seat: its token has ended
            payload = b""
            with table.cond:  # one short hold per wake-up: wait, then take what is new
                # closed is read under the lock that stop_streams notifies under: a stop
                # that lands after the loop's test still wakes this wait, never missed
                if (table.seq == sent and table.meta_version == meta_seen
                        and store.probes == probe_seen and not store.closed.is_set()):
                    table.cond.wait(heartbeat)
                current, meta_changed = table.seq, table.meta_version != meta_seen
                if current > sent and sent + 1 in table.messages:
                    payload = b"".join([table.messages[s] for s in range(sent + 1, current + 1)])
                    sent = current
            if current > sent:  # older than the message cache: fold the log again
                batch = store.messages_after(table, sent)
                if batch:
                    sent = batch[-1][0]
                    payload = b"".join(m for _, m in batch)
            if store.probes != probe_seen:
                probe_seen = store.probes
                # the first write to a page that has gone draws its reset, the next one fails
                yield b": probe\n\n"
                time.sleep(PROBE_GAP_SECONDS)
                yield b": probe\n\n"
            if payload:
                yield payload
            elif not meta_changed:
                yield b": heartbeat\n\n"
                continue
            if meta_changed:
                meta_seen, message = store.meta_message(table, sent)
                yield message
            # Under a burst of writes, let events gather so that one wake-up carries several,
            # instead of every open page waking for every event and starving the writers:
            # the pause grows with the number of open pages on the server (a few ms at a
            # normal table).
            time.sleep(min(coalesce_max, coalesce * store.listeners))

    return Response(generate(), mimetype="text/event-stream", headers={
        "Cache-Control": "no-cache", "X-Accel-Buffering": "no", "Connection": "keep-alive",
    })


# -- rules check -----------------------------------------------------------------------------

@bp.post("/rules/check")
def rules_check() -> Response:
    """The meld verdict for some cards: ``{"cards": "7cl 7sp 7he", "options": {...}}``."""
    from scorekeeper import melds

    data = body("rules-check")
    options = TossOptions.from_json(options_field(data, 'like {"ruleset": "toss-rummy"}'))
    cards = parse_cards(card_codes(data.get("cards", []), '"cards"'))
    if not cards:
        raise BadRequestError("pick or type at least one card")
    check_cards(cards, options.decks)
    verdict = melds.judge_meld(cards, options)
    result = verdict.to_json()
    top = data.get("top")
    if top is not None and not isinstance(top, str):
        raise BadRequestError(f'"top" must be one card code like "7cl", not {top!r}')
    if top:
        result["top_check"] = melds.judge_top(cards, parse_cards([top])[0], options).to_json()
    return jsonify(result)

