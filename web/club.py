"""Club nights on the web: the JSON API under ``/api/club`` and the pages under ``/club``
(club page, organiser page, room display for the TV, phone check-in, player page).

The organiser's token travels like a table token: a cookie set when the night is created
(or by the organiser link's ``?token=``), or ``Authorization: Bearer TOKEN``.
"""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Iterator
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup

from web import api, edge
from web.auth import COOKIE_MAX_AGE, get_store
from web.club_service import Club, ClubError, clock_due
from web.qr import qr_svg

bp = Blueprint("club", __name__)
#: The fields each club endpoint takes (any other is refused, so a typo is not ignored).
FIELDS: dict[str, tuple[str, ...]] = {
    "member": ("name", "colour"),
    "event": ("name", "game", "options", "games", "rounds", "seats", "teams", "odd", "scoring",
              "minutes"),
    "checkin": ("name", "colour", "member", "t"),
    "player": ("dropped",),
    "swap": ("a", "b"),
}
EXAMPLES = {
    "member": ', e.g. {"name": "Ann", "colour": "gold"}',
    "event": ', e.g. {"name": "Friday", "game": "complex-toss-rummy", "rounds": 3, "seats": 4}',
    "checkin": ', e.g. {"name": "Ann"} or {"member": "<personal link>"}',
    "player": ', e.g. {"dropped": true}',
    "swap": ', e.g. {"a": "Ann", "b": "Bo"}',
}
#: The longest a room stream waits before it looks whether the server is stopping, seconds.
ROOM_WAIT_SECONDS = 1.0
#: The least time between two room messages of one stream, seconds: a TV needs no more than
#: ten updates a second, and a busy room (every table writing) costs no more than that.
ROOM_MIN_SECONDS = 0.1


def body(endpoint: str) -> dict[str, Any]:
    """The request's JSON object, checked at the app's edge with only ``endpoint``'s fields."""
    return edge.json_body(FIELDS[endpoint], EXAMPLES[endpoint])


def init_app(app: Flask) -> None:
    """The club over the app's store (its tables are in the store's database, built by the
    store's migrations); register the blueprint."""
    app.extensions["scorekeeper.club"] = Club(app.extensions["scorekeeper.store"], probe)
    app.register_blueprint(bp)


def probe(data: dict[str, Any]) -> Any:
    """A table setup from the API's table JSON (refusals are ``ValueError``)."""
    setup, _ = api.setup_from_json(data)
    from scorekeeper import tables

    tables.initial_state(setup)
    return setup


def club() -> Club:
    found: Club = current_app.extensions["scorekeeper.club"]
    return found


def cookie_name(event_id: str) -> str:
    return f"club_{event_id}"


def organiser_token(event_id: str) -> str | None:
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return request.cookies.get(cookie_name(event_id))


def is_organiser(event_id: str) -> bool:
    try:
        club().check_organiser(event_id, organiser_token(event_id))
    except ClubError:
        return False
    return True


def require_organiser(event_id: str) -> None:
    club().check_organiser(event_id, organiser_token(event_id))


def set_organiser_cookie(response: Response, event_id: str, token: str) -> None:
    response.set_cookie(cookie_name(event_id), token, max_age=COOKIE_MAX_AGE, httponly=True,
                        samesite="Lax", secure=request.is_secure)


def event_urls(event_id: str, checkin_token: str | None = None) -> dict[str, str]:
    urls = {
        "organiser": url_for("club.organiser_page", event_id=event_id, _external=True),
        "room": url_for("club.room_page", event_id=event_id, _external=True),
    }
    if checkin_token:
        urls["checkin"] = url_for("club.checkin_page", event_id=event_id, t=checkin_token,
                                  _external=True)
    return urls


def organiser_link(event_id: str, token: str) -> str:
    """The organiser page's link with the token: opens it on another device (keep it private)."""
    return url_for("club.organiser_page", event_id=event_id, token=token, _external=True)


# -- members ---------------------------------------------------------------------------------

@bp.post("/api/club/members")
def add_member() -> tuple[Response, int]:
    data = body("member")
    member = club().add_member(data.get("name"), data.get("colour"))
    return jsonify({**member.to_json(with_link=True), "url": member_url(member.link)}), 201


def member_url(link: str) -> str:
    return url_for("club.member_page", link=link, _external=True)


@bp.get("/api/club/members")
def list_members() -> Response:
    return jsonify({"members": [m.to_json() for m in club().members()]})


@bp.get("/api/club/members/<link>")
def member_by_link(link: str) -> Response:
    member = club().member_by_link(link)
    return jsonify({**member.to_json(with_link=True), **club().player(member)})


@bp.get("/api/club/players/<int:member_id>")
def player(member_id: int) -> Response:
    return jsonify(club().player(club().member(member_id)))


# -- records ---------------------------------------------------------------------------------

RECORD_COLUMNS = ("player", "events", "games", "wins", "win_rate", "placement_average",
                  "best_hand", "best_hand_game")


@bp.get("/api/club/records")
def records() -> Response:
    return jsonify({"records": club().records()})


@bp.get("/api/club/records.csv")
def records_csv() -> Response:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(RECORD_COLUMNS)
    for record in club().records():
        writer.writerow(["" if record[c] is None else record[c] for c in RECORD_COLUMNS])
    return Response(out.getvalue(), mimetype="text/csv", headers={
        "Content-Disposition": "attachment; filename=club-records.csv"})


@bp.get("/api/club/results.csv")
def results_csv() -> Response:
    """Every game of every night, one line per player (for a spreadsheet)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(("event", "round", "table", "game", "player", "score", "place",
                     "best_hand"))
    for r in club().game_results():
        writer.writerow((r.event, r.round_no, r.table_no, r.game, r.player, r.score, r.place,
                         "" if r.best_hand is None else r.best_hand))
    return Response(out.getvalue(), mimetype="text/csv", headers={
        "Content-Disposition": "attachment; filename=club-results.csv"})


# -- nights ----------------------------------------------------------------------------------

@bp.post("/api/club/events")
def create_event() -> tuple[Response, int]:
    event_id, token = club().create_event(body("event"))
    checkin = club().event(event_id).checkin_token
    urls = {**event_urls(event_id, checkin), "organiser_link": organiser_link(event_id, token)}
    response = jsonify({"event_id": event_id, "organiser_token": token, "urls": urls})
    set_organiser_cookie(response, event_id, token)
    return response, 201


@bp.get("/api/club/events")
def list_events() -> Response:
    return jsonify({"events": club().events()})


@bp.get("/api/club/events/<event_id>")
def event_view(event_id: str) -> Response:
    """The organiser's view of the night (check-in code, players, each table's links)."""
    require_organiser(event_id)
    view = club().organiser_view(event_id)
    view["urls"] = event_urls(event_id, view["checkin_token"])
    token = organiser_token(event_id)
    assert token is not None  # checked above
    view["urls"]["organiser_link"] = organiser_link(event_id, token)
    view["now"] = time.time()
    for table in view["tables"]:
        if table.get("keeper_token"):
            table["urls"] = {
                "keeper": url_for("pages.keeper", table_id=table["table_id"],
                                  token=table["keeper_token"], _external=True),
                "display": url_for("pages.display", table_id=table["table_id"],
                                   token=table["display_token"], _external=True)}
    return jsonify(view)


@bp.get("/api/club/events/<event_id>/room")
def room(event_id: str) -> Response:
    return jsonify({**club().room(event_id), "now": time.time()})


@bp.get("/api/club/events/<event_id>/checkin.svg")
def checkin_qr(event_id: str) -> Response:
    event = club().event(event_id)
    url = url_for("club.checkin_page", event_id=event_id, t=event.checkin_token,
                  _external=True)
    return Response(qr_svg(url), mimetype="image/svg+xml")


@bp.post("/api/club/events/<event_id>/checkins")
def check_in(event_id: str) -> tuple[Response, int]:
    """Check a player in: the organiser by name, or a phone with the door's code."""
    member = club().check_in(event_id, body("checkin"), organiser=is_organiser(event_id))
    return jsonify({**member.to_json(with_link=True), "url": member_url(member.link)}), 201


@bp.post("/api/club/events/<event_id>/players/<int:member_id>")
def set_player(event_id: str, member_id: int) -> Response:
    """Mark a player dropped out (``{"dropped": true}``) or playing again."""
    require_organiser(event_id)
    club().set_dropped(event_id, member_id, body("player").get("dropped"))
    return jsonify(club().room(event_id))


@bp.delete("/api/club/events/<event_id>/players/<int:member_id>")
def remove_player(event_id: str, member_id: int) -> Response:
    """Take back a check-in made by mistake (before the player has played)."""
    require_organiser(event_id)
    club().remove_checkin(event_id, member_id)
    return jsonify(club().room(event_id))


@bp.post("/api/club/events/<event_id>/rounds")
def seat_round(event_id: str) -> tuple[Response, int]:
    """Seat the next round (or seat again a round not yet started)."""
    require_organiser(event_id)
    round_no = club().seat_next(event_id)
    return jsonify({"round": round_no, **club().room(event_id)}), 201


@bp.post("/api/club/events/<event_id>/rounds/<int:round_no>/swap")
def swap(event_id: str, round_no: int) -> Response:
    require_organiser(event_id)
    data = body("swap")
    club().swap(event_id, round_no, data.get("a"), data.get("b"))
    return jsonify(club().room(event_id))


@bp.post("/api/club/events/<event_id>/rounds/<int:round_no>/start")
def start_round(event_id: str, round_no: int) -> Response:
    require_organiser(event_id)
    club().start_round(event_id, round_no)
    return event_view(event_id)


@bp.post("/api/club/events/<event_id>/rounds/<int:round_no>/end")
def end_round(event_id: str, round_no: int) -> Response:
    """Call time: each table's last complete hand counts."""
    require_organiser(event_id)
    club().end_round(event_id, round_no)
    return jsonify(club().room(event_id))


@bp.get("/api/club/events/<event_id>/stream")
def room_stream(event_id: str) -> Response:
    """Server-Sent Events: a ``room`` message (the room JSON) whenever anything on it changes
    (a check-in, a seating, a hand at any table, a result, a round ending), made through this
    process or any other (the store's fan-out), and when the round's clock runs out."""
    the_club, store = club(), get_store()
    version = the_club.rooms.version(event_id)
    first = the_club.live_room(event_id)
    heartbeat = float(current_app.config["HEARTBEAT_SECONDS"])

    def generate() -> Iterator[bytes]:
        yield b"retry: 2000\n\n"
        nonlocal version
        last, quiet, room, sent = None, 0.0, first, time.monotonic()
        while not store.closed.is_set():
            text = json.dumps(room, sort_keys=True)
            if text != last:
                payload = json.dumps({**room, "now": time.time()})
                yield f"event: room\ndata: {payload}\n\n".encode()
                last, quiet, sent = text, 0.0, time.monotonic()
            elif quiet >= heartbeat:
                yield b": heartbeat\n\n"
                quiet = 0.0
            due = clock_due(room)
            began = time.monotonic()
            seen = the_club.rooms.wait(event_id, version, min(ROOM_WAIT_SECONDS, heartbeat))
            if seen != version or (due is not None and time.time() >= due):
                store.closed.wait(max(0.0, sent + ROOM_MIN_SECONDS - time.monotonic()))
                version = the_club.rooms.version(event_id)
                room = the_club.live_room(event_id)
            quiet += time.monotonic() - began

    return Response(generate(), mimetype="text/event-stream", headers={
        "Cache-Control": "no-cache", "X-Accel-Buffering": "no", "Connection": "keep-alive"})


# -- pages -----------------------------------------------------------------------------------

def boot(**data: Any) -> Markup:
    return Markup(json.dumps(data, ensure_ascii=False).replace("</", "<\\/"))


@bp.get("/club")
def club_page() -> str:
    from scorekeeper import tables

    games = [{"name": g["name"], "title": g["title"], "players": g["players"]}
             for g in tables.available_games()]
    return render_template("club.html", games=games, boot=boot(
        records=club().records(), events=club().events()))


@bp.get("/club/events/<event_id>")
def organiser_page(event_id: str) -> Response | str:
    token = request.args.get("token")
    if token:  # the organiser link with ?token= sets the cookie, then shows the clean address
        club().check_organiser(event_id, token)
        response = make_response(redirect(request.path))
        set_organiser_cookie(response, event_id, token)
        return response
    require_organiser(event_id)
    return render_template("club_event.html", event=club().event(event_id),
                           boot=boot(event_id=event_id))


@bp.get("/club/events/<event_id>/room")
def room_page(event_id: str) -> str:
    event = club().event(event_id)
    return render_template("club_room.html", event=event, boot=boot(event_id=event_id))


@bp.get("/club/events/<event_id>/checkin")
def checkin_page(event_id: str) -> str:
    event = club().event(event_id)
    from scorekeeper.pegboard import PEG_COLOURS

    return render_template("club_checkin.html", event=event,
                           default_colour=PEG_COLOURS["blue"], boot=boot(
        event_id=event_id, t=request.args.get("t", "")))


@bp.get("/club/players/<int:member_id>")
def player_page(member_id: int) -> str:
    data = club().player(club().member(member_id))
    return render_template("club_player.html", data=data, boot=boot(**data), personal=None)


@bp.get("/club/m/<link>")
def member_page(link: str) -> str:
    member = club().member_by_link(link)
    data = club().player(member)
    return render_template("club_player.html", data=data, boot=boot(**data), personal=link)
