"""The club night API over a real SQLite file: members, check-in, seating, rounds of ordinary
tables, results, standings, records; and every bad input refused with nothing stored."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select, update

from scorekeeper.pegboard import PEG_COLOURS
from tests.club_helpers import finish_events, play
from web.store import club_schema as club_db

NINE = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"]


def night(client: FlaskClient, **settings: Any) -> str:
    data = {"name": "Friday", "game": "complex-toss-rummy", "rounds": 2, "seats": 3, **settings}
    reply = client.post("/api/club/events", json=data)
    assert reply.status_code == 201, reply.get_json()
    return str(reply.get_json()["event_id"])


def check_in(client: FlaskClient, event_id: str, *names: str) -> None:
    for name in names:
        reply = client.post(f"/api/club/events/{event_id}/checkins", json={"name": name})
        assert reply.status_code == 201, reply.get_json()


def seat(client: FlaskClient, event_id: str) -> dict[str, Any]:
    reply = client.post(f"/api/club/events/{event_id}/rounds")
    assert reply.status_code == 201, reply.get_json()
    return dict(reply.get_json())


def start(client: FlaskClient, event_id: str, round_no: int) -> dict[str, Any]:
    reply = client.post(f"/api/club/events/{event_id}/rounds/{round_no}/start")
    assert reply.status_code == 200, reply.get_json()
    return dict(reply.get_json())


def names(table: dict[str, Any]) -> list[str]:
    return [p["name"] for p in table["players"]]


def finish_round(client: FlaskClient, view: dict[str, Any]) -> None:
    """Every table's game played to its end: the first seat wins, then the second..."""
    for table in view["tables"]:
        play(client, table, finish_events(names(table), names(table)[0]))


def count(app: Flask, table: Any) -> int:
    with app.extensions["scorekeeper.club"].db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())


def error_of(reply: Any, status: int) -> str:
    assert reply.status_code == status, reply.get_json()
    return str(reply.get_json()["error"])


# -- a whole night ---------------------------------------------------------------------------

def test_two_round_night_seats_round_two_by_standings(client: FlaskClient, app: Flask) -> None:
    event_id = night(client)
    check_in(client, event_id, *NINE)
    seated = seat(client, event_id)
    assert sorted(p for t in seated["tables"] for p in names(t)) == sorted(NINE)
    view = start(client, event_id, 1)
    assert all(t["table_id"] and t["urls"]["keeper"] for t in view["tables"])
    round_one = [names(t) for t in view["tables"]]
    finish_round(client, view)

    room = client.get(f"/api/club/events/{event_id}/room").get_json()
    assert room["round"]["status"] == "finished" and room["round"]["ended_by"] == "games"
    points = {s["player"]: s["points"] for s in room["standings"]}
    winners = {t[0] for t in round_one}
    assert {p for p, v in points.items() if v == 4} == winners
    assert {p for p, v in points.items() if v == 2} == {t[1] for t in round_one}

    second = seat(client, event_id)
    top = set(names(second["tables"][0]))
    assert top == winners  # the strongest together, none of whom met in round 1
    met = {frozenset((a, b)) for t in round_one for a in t for b in t if a != b}
    assert all(frozenset((a, b)) not in met
               for t in second["tables"] for a in names(t) for b in names(t) if a != b)
    finish_round(client, start(client, event_id, 2))
    final = client.get(f"/api/club/events/{event_id}/room").get_json()
    assert final["finished"] is True
    assert final["standings"][0]["points"] == 8 and final["standings"][0]["rank"] == 1
    assert count(app, club_db.results) == 18

    records = {r["player"]: r for r in client.get("/api/club/records").get_json()["records"]}
    champion = final["standings"][0]["player"]
    assert records[champion]["games"] == 2 and records[champion]["wins"] == 2
    assert records[champion]["win_rate"] == 1.0 and records[champion]["placement_average"] == 1
    csv = client.get("/api/club/records.csv").get_data(as_text=True).splitlines()
    assert csv[0].startswith("player,events,games,wins,win_rate")
    assert len(csv) == 10
    player = client.get(f"/api/club/players/{records[champion]['member']}").get_json()
    h2h = {h["opponent"]: h for h in player["head_to_head"]}
    assert len(h2h) == 4 and all(h["ahead"] == 1 and h["behind"] == 0 for h in h2h.values())
    again = error_of(client.post(f"/api/club/events/{event_id}/rounds"), 400)
    assert "all 2 rounds are played" in again


def test_records_follow_a_member_across_nights(client: FlaskClient) -> None:
    for _ in range(2):
        event_id = night(client, rounds=1, seats=2)
        check_in(client, event_id, "Ann", "Bo")
        seat(client, event_id)
        view = start(client, event_id, 1)
        table = view["tables"][0]
        play(client, table, finish_events(names(table), "Ann"))
    records = {r["player"]: r for r in client.get("/api/club/records").get_json()["records"]}
    assert records["Ann"]["events"] == 2 and records["Ann"]["wins"] == 2
    assert records["Bo"]["wins"] == 0 and records["Bo"]["placement_average"] == 2


# -- the four refusals of the issue ----------------------------------------------------------

def test_a_player_checked_in_twice_is_refused(client: FlaskClient, app: Flask) -> None:
    event_id = night(client)
    check_in(client, event_id, "Ann")
    message = error_of(client.post(f"/api/club/events/{event_id}/checkins",
                                   json={"name": " ann "}), 409)
    assert "Ann is already checked in" in message
    link = client.get("/api/club/members").get_json()["members"][0]
    assert link["name"] == "Ann"
    assert count(app, club_db.checkins) == 1 and count(app, club_db.members) == 1


def test_a_round_started_with_a_table_still_open_is_refused(client: FlaskClient,
                                                              app: Flask) -> None:
    event_id = night(client)
    check_in(client, event_id, *NINE)
    seat(client, event_id)
    view = start(client, event_id, 1)
    first = view["tables"][0]
    play(client, first, finish_events(names(first), names(first)[0]))
    assert count(app, club_db.results) == 3  # the finished table's, recorded as it finished
    message = error_of(client.post(f"/api/club/events/{event_id}/rounds"), 409)
    assert "round 1 is still being played (table 2, 3 not finished)" in message
    assert count(app, club_db.rounds) == 1 and count(app, club_db.results) == 3


def test_a_seat_swap_across_a_running_table_is_refused(client: FlaskClient, app: Flask) -> None:
    event_id = night(client)
    check_in(client, event_id, *NINE)
    seat(client, event_id)
    view = start(client, event_id, 1)
    a, b = names(view["tables"][0])[0], names(view["tables"][1])[0]
    message = error_of(client.post(f"/api/club/events/{event_id}/rounds/1/swap",
                                   json={"a": a, "b": b}), 409)
    assert "table 1 and table 2 are playing" in message and "nothing was swapped" in message
    after = client.get(f"/api/club/events/{event_id}").get_json()
    assert [names(t) for t in after["tables"]] == [names(t) for t in view["tables"]]


def test_an_unknown_member_link_is_refused(client: FlaskClient, app: Flask) -> None:
    event_id = night(client)
    message = error_of(client.get("/api/club/members/not-a-link"), 404)
    assert "no club member has this personal link" in message
    error_of(client.post(f"/api/club/events/{event_id}/checkins",
                         json={"member": "not-a-link"}), 404)
    assert count(app, club_db.checkins) == 0 and count(app, club_db.members) == 0
    assert client.get("/club/m/not-a-link").status_code == 404


# -- the organiser's changes before a round starts -------------------------------------------

def test_swap_before_the_round_starts(client: FlaskClient) -> None:
    event_id = night(client)
    check_in(client, event_id, *NINE)
    seated = seat(client, event_id)
    a, b = names(seated["tables"][0])[0], names(seated["tables"][2])[1]
    reply = client.post(f"/api/club/events/{event_id}/rounds/1/swap", json={"a": a, "b": b})
    assert reply.status_code == 200, reply.get_json()
    tables = [names(t) for t in reply.get_json()["tables"]]
    assert tables[0][0] == b and tables[2][1] == a
    view = start(client, event_id, 1)
    assert [names(t) for t in view["tables"]] == tables
    error_of(client.post(f"/api/club/events/{event_id}/rounds/1/swap",
                         json={"a": a, "b": "Nobody"}), 400)


def test_drop_out_and_late_arrival_reseat_a_round_not_started(client: FlaskClient) -> None:
    event_id = night(client)
    check_in(client, event_id, *NINE[:7])
    seated = seat(client, event_id)
    assert [len(t["players"]) for t in seated["tables"]] == [3, 2, 2]  # 7 at 3 seats
    players = client.get(f"/api/club/events/{event_id}").get_json()["players"]
    ann = next(p for p in players if p["name"] == "Ann")
    reply = client.post(f"/api/club/events/{event_id}/players/{ann['id']}", json={"dropped": True})
    assert reply.status_code == 200, reply.get_json()
    assert "Ann" not in [p for t in reply.get_json()["tables"] for p in names(t)]
    check_in(client, event_id, "Hal")  # a late arrival, seated at once
    view = client.get(f"/api/club/events/{event_id}").get_json()
    assert "Hal" in [p for t in view["tables"] for p in names(t)]
    assert next(s for s in view["standings"] if s["player"] == "Ann")["dropped"] is True


def test_a_late_arrival_during_a_round_plays_from_the_next(client: FlaskClient) -> None:
    event_id = night(client)
    check_in(client, event_id, *NINE[:6])
    seat(client, event_id)
    view = start(client, event_id, 1)
    check_in(client, event_id, "Gus")
    during = client.get(f"/api/club/events/{event_id}").get_json()
    assert next(p for p in during["players"] if p["name"] == "Gus")["late"] is True
    assert "Gus" not in [p for t in during["tables"] for p in names(t)]
    finish_round(client, view)
    second = seat(client, event_id)
    assert "Gus" in [p for t in second["tables"] for p in names(t)]


# -- rounds that end without every game finished ---------------------------------------------

def test_calling_time_counts_the_last_complete_hand(client: FlaskClient) -> None:
    event_id = night(client, rounds=1)
    check_in(client, event_id, "Ann", "Bo", "Cy")
    seat(client, event_id)
    table = start(client, event_id, 1)["tables"][0]
    players = names(table)
    events = finish_events(players, players[0])[:2]  # one hand, no winner
    events.append({"type": "new-hand", "dealer": players[0]})  # the next hand under way
    play(client, table, events)
    reply = client.post(f"/api/club/events/{event_id}/rounds/1/end")
    assert reply.status_code == 200, reply.get_json()
    room = reply.get_json()
    assert room["round"]["ended_by"] == "organiser" and room["finished"]
    points = {s["player"]: s["points"] for s in room["standings"]}
    assert points == {players[0]: 4, players[1]: 2, players[2]: 1}
    error_of(client.post(f"/api/club/events/{event_id}/rounds/1/end"), 400)


def test_the_clock_running_out_ends_the_round(client: FlaskClient, app: Flask) -> None:
    event_id = night(client, rounds=1, minutes=30)
    check_in(client, event_id, "Ann", "Bo", "Cy")
    seat(client, event_id)
    view = start(client, event_id, 1)
    table = view["tables"][0]
    players = names(table)
    assert view["round"]["ends_at"] == pytest.approx(view["round"]["started_at"] + 1800)
    play(client, table, finish_events(players, players[2])[:2])
    # the half hour passes: the deadline is now
    with app.extensions["scorekeeper.club"].db.write() as conn:
        conn.execute(update(club_db.rounds).values(ends_at=time.time()))
    time.sleep(0.01)
    # a hand completed after the deadline does not count
    headers = {"Authorization": f"Bearer {table['keeper_token']}"}
    for seq, event in enumerate([{"type": "new-hand", "dealer": players[0]},
                                 {"type": "end-hand", "went_out": players[2],
                                  "hands": {players[0]: ["Ksp", "Qsp", "Jhe", "10cl"],
                                            players[1]: [], players[2]: []}}], 2):
        reply = client.post(f"/api/tables/{table['table_id']}/events", headers=headers,
                            json={"base_seq": seq, "event": event})
        assert reply.status_code == 201, reply.get_json()
    room = client.get(f"/api/club/events/{event_id}/room").get_json()
    assert room["round"]["status"] == "finished" and room["round"]["ended_by"] == "clock"
    points = {s["player"]: s["points"] for s in room["standings"]}
    assert points == {players[0]: 4, players[1]: 2, players[2]: 1}


# -- night settings --------------------------------------------------------------------------

@pytest.mark.parametrize(("settings", "message"), [
    ({"seats": 7}, '"seats" must be a whole number from 2 to 6'),
    ({"rounds": 0}, '"rounds" must be a whole number from 1 to 20'),
    ({"game": "snap"}, "unknown game 'snap'"),
    ({"games": ["toss-hearts"]}, '"games" must list one game per round (2)'),
    ({"scoring": {"points": [1, 4]}}, "a better place never scores less"),
    ({"scoring": {"mode": "chips"}}, 'scoring "mode" must be "placement" or "total"'),
    ({"teams": True}, "use 4 or 6 seats"),
    ({"minutes": 0}, '"minutes" must be a whole number from 1 to 600'),
    ({"odd": "drop"}, '"odd" must be "table"'),
    ({"scoring": {"point": [4, 2]}}, "scoring has an unknown field 'point'"),
    ({"round": 3}, "unknown field 'round'"),
    ({"name": ["Friday"]}, '"name" must be text'),
    ({"options": {"ace": "sideways"}}, "round 1 (complex-toss-rummy, 3 seats)"),
])
def test_bad_night_settings_are_refused(client: FlaskClient, app: Flask,
                                        settings: dict[str, Any], message: str) -> None:
    data = {"name": "Friday", "game": "complex-toss-rummy", "rounds": 2, "seats": 3, **settings}
    assert message in error_of(client.post("/api/club/events", json=data), 400)
    assert count(app, club_db.events) == 0


def test_byes_when_tables_must_be_full(client: FlaskClient) -> None:
    event_id = night(client, rounds=1, odd="bye", scoring={"bye_points": 2})
    check_in(client, event_id, *NINE[:7])
    seated = seat(client, event_id)
    assert [len(t["players"]) for t in seated["tables"]] == [3, 3] and len(seated["byes"]) == 1
    view = start(client, event_id, 1)
    finish_round(client, view)
    room = client.get(f"/api/club/events/{event_id}/room").get_json()
    bye = next(s for s in room["standings"] if s["player"] == seated["byes"][0])
    assert bye["points"] == 2 and bye["games"] == 0


def test_partners_sit_opposite(client: FlaskClient) -> None:
    event_id = night(client, rounds=1, seats=4, teams=True)
    check_in(client, event_id, *NINE[:8])
    seat(client, event_id)
    view = start(client, event_id, 1)
    table = view["tables"][0]
    state = client.get(f"/api/tables/{table['table_id']}",
                       headers={"Authorization": f"Bearer {table['keeper_token']}"}).get_json()
    seats = names(table)
    teams = {tuple(b["members"]) for b in state["state"]["boards"]}
    assert teams == {(seats[0], seats[2]), (seats[1], seats[3])}


def test_a_game_per_round_and_total_points(client: FlaskClient) -> None:
    event_id = night(client, games=["complex-toss-rummy", {"game": "toss-hearts"}],
                     scoring={"mode": "total"})
    check_in(client, event_id, "Ann", "Bo", "Cy")
    seat(client, event_id)
    view = start(client, event_id, 1)
    table = view["tables"][0]
    play(client, table, finish_events(names(table), names(table)[0]))
    room = client.get(f"/api/club/events/{event_id}/room").get_json()
    points = {s["player"]: s["points"] for s in room["standings"]}
    assert points[names(table)[0]] == 1100 and points[names(table)[2]] == -20
    seat(client, event_id)
    second = start(client, event_id, 2)
    assert second["round"]["game"]["game"] == "toss-hearts"
    state = client.get(f"/api/tables/{second['tables'][0]['table_id']}",
                       headers={"Authorization": f"Bearer {second['tables'][0]['keeper_token']}"}
                       ).get_json()["state"]
    assert state["game"] == "toss-hearts"


# -- members, the organiser and phones -------------------------------------------------------

def test_members_and_their_links(client: FlaskClient) -> None:
    reply = client.post("/api/club/members", json={"name": "Ann", "colour": "gold"})
    assert reply.status_code == 201
    member = reply.get_json()
    assert member["colour"] == PEG_COLOURS["gold"]
    assert member["url"].endswith(f"/club/m/{member['link']}")
    assert "already called 'Ann'" in error_of(
        client.post("/api/club/members", json={"name": "ANN"}), 409)
    assert "hidden or control character" in error_of(
        client.post("/api/club/members", json={"name": "Bo\u200b"}), 400)
    assert "at most 24" in error_of(client.post("/api/club/members", json={"name": "B" * 30}), 400)
    assert "not a peg colour" in error_of(
        client.post("/api/club/members", json={"name": "Bo", "colour": "mauve"}), 400)
    assert client.get(f"/api/club/members/{member['link']}").get_json()["name"] == "Ann"
    assert "link" not in client.get("/api/club/members").get_json()["members"][0]
    assert client.get(f"/club/m/{member['link']}").status_code == 200


def test_phones_check_in_with_the_door_code_only(client: FlaskClient, app: Flask) -> None:
    event_id = night(client)
    code = client.get(f"/api/club/events/{event_id}").get_json()["checkin_token"]
    phone = app.test_client()
    assert "scan the QR code" in error_of(
        phone.post(f"/api/club/events/{event_id}/checkins", json={"name": "Ann"}), 403)
    reply = phone.post(f"/api/club/events/{event_id}/checkins", json={"name": "Ann", "t": code})
    assert reply.status_code == 201
    link = reply.get_json()["link"]
    other = night(client)
    other_code = client.get(f"/api/club/events/{other}").get_json()["checkin_token"]
    again = phone.post(f"/api/club/events/{other}/checkins", json={"member": link, "t": other_code})
    assert again.status_code == 201 and again.get_json()["name"] == "Ann"
    assert "only the night's organiser" in error_of(
        phone.post(f"/api/club/events/{event_id}/rounds"), 403)
    assert phone.get(f"/api/club/events/{event_id}").status_code == 403
    assert phone.get(f"/api/club/events/{event_id}/room").status_code == 200
    assert phone.get(f"/club/events/{event_id}/checkin?t={code}").status_code == 200
    assert phone.get(f"/api/club/events/{event_id}/checkin.svg").mimetype == "image/svg+xml"


def test_unknown_night_is_a_404(client: FlaskClient) -> None:
    assert "no club night 'nope'" in error_of(client.get("/api/club/events/nope/room"), 404)
    assert client.get("/club/events/nope/room").status_code == 404


def test_the_room_stream_sends_the_room(client: FlaskClient) -> None:
    event_id = night(client)
    check_in(client, event_id, "Ann", "Bo")
    reply = client.get(f"/api/club/events/{event_id}/stream", buffered=False)
    chunks = reply.response
    assert next(chunks) == b"retry: 2000\n\n"
    message = next(chunks).decode()
    assert message.startswith("event: room\ndata: ") and '"checked_in": 2' in message
    reply.close()


def test_pages_render(client: FlaskClient) -> None:
    event_id = night(client)
    check_in(client, event_id, "Ann")
    assert b"New club night" in client.get("/club").data
    assert client.get(f"/club/events/{event_id}").status_code == 200
    assert client.get(f"/club/events/{event_id}/room").status_code == 200
    assert client.get("/club/players/1").status_code == 200


def test_a_lowest_wins_game_places_and_records_the_right_way_round(client: FlaskClient) -> None:
    event_id = night(client, rounds=1, game="toss-hearts")
    check_in(client, event_id, "Ann", "Bo", "Cy")
    seat(client, event_id)
    table = start(client, event_id, 1)["tables"][0]
    first, second, third = names(table)
    play(client, table, [{"type": "hand", "entry": {
        "taken": {first: ["Qsp", "2he"], second: ["3he"], third: []}}}])
    room = client.post(f"/api/club/events/{event_id}/rounds/1/end").get_json()
    points = {s["player"]: s["points"] for s in room["standings"]}
    assert points == {third: 4, second: 2, first: 1}  # 0 points is best at hearts
    records = {r["player"]: r for r in client.get("/api/club/records").get_json()["records"]}
    assert records[first]["best_by_game"] == {"toss-hearts": 14}
    assert records[first]["best_hand"] is None  # not comparable with highest-wins hands
    assert records[third]["wins"] == 1


def test_a_check_in_made_by_mistake_is_taken_back_until_the_player_has_played(
        client: FlaskClient, app: Flask) -> None:
    event_id = night(client)
    check_in(client, event_id, *NINE[:6], "Anne")
    seat(client, event_id)
    players = {p["name"]: p["id"] for p in
               client.get(f"/api/club/events/{event_id}").get_json()["players"]}
    reply = client.delete(f"/api/club/events/{event_id}/players/{players['Anne']}")
    assert reply.status_code == 200, reply.get_json()
    room = reply.get_json()
    assert "Anne" not in [p for t in room["tables"] for p in names(t)]
    assert "Anne" not in [s["player"] for s in room["standings"]]
    error_of(client.delete(f"/api/club/events/{event_id}/players/{players['Anne']}"), 404)
    start(client, event_id, 1)
    message = error_of(client.delete(f"/api/club/events/{event_id}/players/{players['Ann']}"),
                       409)
    assert "has played round 1" in message and "mark them dropped out" in message
    assert count(app, club_db.checkins) == 6


def test_the_organiser_link_opens_the_organiser_page_on_another_device(
        client: FlaskClient, app: Flask) -> None:
    reply = client.post("/api/club/events", json={"rounds": 1, "seats": 3})
    link = reply.get_json()["urls"]["organiser_link"]
    other = app.test_client()
    path = link.replace("http://localhost", "")
    assert other.get(path.split("?")[0]).status_code == 403
    opened = other.get(path)
    assert opened.status_code == 302 and "?" not in opened.headers["Location"]
    assert other.get(path.split("?")[0]).status_code == 200
    assert other.get(path.split("?")[0] + "?token=wrong").status_code == 403


def round_row(app: Flask, event_id: str) -> Any:
    with app.extensions["scorekeeper.club"].db.read() as conn:
        return conn.execute(select(club_db.rounds).where(
            club_db.rounds.c.event_id == event_id)).one()


def test_a_table_records_its_results_as_its_game_ends(client: FlaskClient, app: Flask) -> None:
    """Nothing reads the room or the records here: the finishing write records the table's
    results itself, and the last table's ends the round."""
    event_id = night(client, rounds=1)
    check_in(client, event_id, "Ann", "Bo", "Cy", "Di", "Ed", "Flo")
    seat(client, event_id)
    first, second = start(client, event_id, 1)["tables"]
    play(client, first, finish_events(names(first), names(first)[1])[:2])
    assert count(app, club_db.results) == 0  # a hand played, the game goes on
    play_on(client, first, 2, finish_events(names(first), names(first)[1])[2:])
    with app.extensions["scorekeeper.club"].db.read() as conn:
        rows = {r.member_id: r for r in conn.execute(select(club_db.results))}
        members = {r.name: r.id for r in conn.execute(select(club_db.members))}
    assert len(rows) == 3 and all(r.finished and r.table_no == 1 for r in rows.values())
    assert rows[members[names(first)[1]]].place == 1
    assert round_row(app, event_id).status == "running"
    play(client, second, finish_events(names(second), names(second)[0]))
    row = round_row(app, event_id)
    assert (row.status, row.ended_by) == ("finished", "games")
    assert count(app, club_db.results) == 6


def test_the_room_stream_sends_a_table_finishing_with_its_result(client: FlaskClient) -> None:
    event_id = night(client, rounds=1)
    check_in(client, event_id, "Ann", "Bo", "Cy")
    seat(client, event_id)
    table = start(client, event_id, 1)["tables"][0]
    reply = client.get(f"/api/club/events/{event_id}/stream", buffered=False)
    chunks = reply.response
    assert next(chunks) == b"retry: 2000\n\n"
    assert '"status": "running"' in next(chunks).decode()
    play(client, table, finish_events(names(table), names(table)[2]))
    for _ in range(50):  # room messages (and heartbeats) until the one with the result
        text = next(chunks).decode()
        if text.startswith("event: room"):
            last = json.loads(text.split("data: ", 1)[1])
            if last["round"]["status"] == "finished":
                break
    assert last["round"]["ended_by"] == "games" and last["tables"][0]["finished"] is True
    assert last["standings"][0]["player"] == names(table)[2]
    assert last["standings"][0]["points"] == 4
    reply.close()


def play_on(client: FlaskClient, table: dict[str, Any], seq: int,
            events: list[dict[str, Any]]) -> None:
    """Enter ``events`` at a table whose log is at ``seq``."""
    headers = {"Authorization": f"Bearer {table['keeper_token']}"}
    for event in events:
        reply = client.post(f"/api/tables/{table['table_id']}/events", headers=headers,
                            json={"base_seq": seq, "event": event})
        assert reply.status_code == 201, reply.get_json()
        seq = reply.get_json()["seq"]


def test_an_undo_reopening_a_finished_table_takes_its_results_back(
        client: FlaskClient, app: Flask) -> None:
    event_id = night(client, rounds=1)
    check_in(client, event_id, "Ann", "Bo", "Cy", "Di", "Ed", "Flo")
    seat(client, event_id)
    first = start(client, event_id, 1)["tables"][0]
    seq = play(client, first, finish_events(names(first), names(first)[1]))
    assert count(app, club_db.results) == 3
    play_on(client, first, seq, [{"type": "undo"}])  # the winning correction taken back
    assert count(app, club_db.results) == 0
    play_on(client, first, seq + 1, finish_events(names(first), names(first)[2])[2:])
    with app.extensions["scorekeeper.club"].db.read() as conn:
        places = {r.name: r.place for r in conn.execute(
            select(club_db.members.c.name, club_db.results.c.place).join(club_db.results))}
    assert places[names(first)[2]] == 1 and len(places) == 3
    assert round_row(app, event_id).status == "running"
