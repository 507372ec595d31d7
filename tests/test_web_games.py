"""Tables of the rules-pack games through the real app and SQLite file: Toss Hearts, Tong-Its and
Three Thirteen tables created, played hand by hand, refused with a reason (nothing stored),
undone, previewed with a dry run, reloaded from the log, and their pages served."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web.store import Store

HEARTS_MOON = [f"{r}he" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q",
                                   "K")] + ["Qsp"]


def create(client: FlaskClient, game: str, players: list[str], **extra: Any) -> dict[str, Any]:
    reply = client.post("/api/tables", json={"game": game, "players": players, **extra})
    assert reply.status_code == 201, reply.json
    data: dict[str, Any] = reply.json
    return data


def keeper(table: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {table['keeper_token']}"}


def post(client: FlaskClient, table: dict[str, Any], base_seq: int,
         event: dict[str, Any]) -> Any:
    return client.post(f"/api/tables/{table['table_id']}/events", headers=keeper(table),
                       json={"base_seq": base_seq, "event": event})


def hand(client: FlaskClient, table: dict[str, Any], base_seq: int, **entry: Any) -> Any:
    return post(client, table, base_seq, {"type": "hand", "entry": entry})


def state(client: FlaskClient, table: dict[str, Any]) -> dict[str, Any]:
    reply = client.get(f"/api/tables/{table['table_id']}/state", headers=keeper(table))
    data: dict[str, Any] = reply.json
    return data


def totals(st: dict[str, Any]) -> dict[str, int]:
    return {p["name"]: p["score"] for p in st["state"]["players"]}


def test_the_game_list_offers_every_game_with_options_and_hand_form(client: FlaskClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json["games"]}
    assert {"complex-toss-rummy", "toss-rummy", "toss-hearts", "tong-its", "three-thirteen",
            "toss-colors", "tossni", "indian-chief", "carousel", "rummy"} <= set(games)
    hearts = games["toss-hearts"]
    assert hearts["lower_wins"] is True
    assert {o["name"]: o["default"] for o in hearts["options"]}["moon"] == "minus"
    assert [f["name"] for f in hearts["hand_form"]][0] == "taken"
    page = client.get("/").get_data(as_text=True)
    assert 'value="tong-its"' in page and "Tong-Its" in page and "lowest wins" in page


def test_a_hearts_table_is_played_undone_and_reloaded(client: FlaskClient, app: Flask) -> None:
    table = create(client, "toss-hearts", ["ann", "bob", "cy"], options={"moon": "plus"})
    assert table["state"]["game"] == "toss-hearts" and table["state"]["hand_no"] == 0
    reply = hand(client, table, 0, taken={"ann": ["Qsp", "2he"], "bob": ["3he"], "cy": []})
    assert reply.status_code == 201, reply.json
    assert totals(reply.json | {"state": reply.json["state"]}) == {"ann": 14, "bob": 1, "cy": 0}
    # shooting the moon with option moon=plus: everyone else +26
    reply = hand(client, table, 1, taken={"cy": HEARTS_MOON})
    assert reply.status_code == 201, reply.json
    assert totals(reply.json) == {"ann": 40, "bob": 27, "cy": 0}
    assert reply.json["state"]["hands"][-1]["deltas"] == {"ann": 26, "bob": 26, "cy": 0}
    # undo takes the moon back
    reply = post(client, table, 2, {"type": "undo"})
    assert reply.status_code == 201
    assert totals(reply.json) == {"ann": 14, "bob": 1, "cy": 0}
    # the setup is stored with its game, and a fresh store folds the same standings
    setup = client.get(f"/api/tables/{table['table_id']}", headers=keeper(table)).json["setup"]
    assert setup["game"] == "toss-hearts" and setup["options"]["moon"] == "plus"
    fresh = Store(app.config["DATABASE"])
    try:
        again = fresh.table(table["table_id"]).state_json()
    finally:
        fresh.close()
    assert {p["name"]: p["score"] for p in again["players"]} == {"ann": 14, "bob": 1, "cy": 0}
    assert again["hand_no"] == 1


@pytest.mark.parametrize(("entry", "words"), [
    ({"taken": {"ann": ["Qzz"]}}, "Qzz"),
    ({"taken": {"dan": ["2he"]}}, "dan"),
    ({"taken": {"ann": ["Qsp"], "bob": ["Qsp"]}}, "Qsp"),
    ({"taken": "everything"}, "taken"),
])
def test_bad_hearts_entries_are_refused_and_nothing_is_stored(
        client: FlaskClient, entry: dict[str, Any], words: str) -> None:
    table = create(client, "toss-hearts", ["ann", "bob", "cy"])
    reply = hand(client, table, 0, **entry)
    assert reply.status_code in (400, 422), reply.json  # a bad card code is 400, a rule 422
    assert words in reply.json["error"]
    assert state(client, table)["seq"] == 0
    events = client.get(f"/api/tables/{table['table_id']}/events", headers=keeper(table)).json
    assert events["events"] == []


def test_a_tong_its_table_pays_chips_and_carries_the_pot(client: FlaskClient) -> None:
    table = create(client, "tong-its", ["ann", "bob", "cy"])
    assert table["state"]["chips"]["counts"] == {"ann": 0, "bob": 0, "cy": 0}
    # ann calls tongit with a concealed four of 7s and an ace run; cy had not opened
    reply = hand(client, table, 0, win="tongit", caller="ann",
                 hands={"ann": ["7cl", "7sp", "7he", "7di", "Ahe", "2he", "3he"],
                        "bob": ["Kcl", "Qdi"], "cy": ["9sp"]},
                 not_opened=["cy"])
    assert reply.status_code == 201, reply.json
    st = reply.json["state"]
    # each loser pays 3 (tongit) + 3 (a concealed four) + 1 (an ace); cy +1 for not opening
    assert st["hands"][-1]["deltas"] == {"ann": 15, "bob": -7, "cy": -8}
    assert st["chips"]["counts"] == {"ann": 13, "bob": -9, "cy": -10}
    assert st["chips"]["pot"] == 6
    # bob wins the stock hand on lowest deadwood; the pot carries (no second win in a row)
    reply = hand(client, table, 1, win="stock", caller="cy",
                 hands={"ann": ["Kcl", "Kdi"], "bob": ["2cl"], "cy": ["5sp", "9he"]})
    assert reply.status_code == 201, reply.json
    st = reply.json["state"]
    assert st["hands"][-1]["details"]["hand_winner"] == "bob"
    assert st["chips"]["pot"] == 12
    assert sum(st["chips"]["counts"].values()) == -12  # the antes sit in the pot


def test_a_bad_tong_its_hand_is_refused_with_the_reason(client: FlaskClient) -> None:
    table = create(client, "tong-its", ["ann", "bob", "cy"])
    reply = hand(client, table, 0, win="tongit", caller="ann", hands={"ann": ["Kcl", "2he"]})
    assert reply.status_code == 422
    assert "deadwood" in reply.json["error"]
    reply = hand(client, table, 0, win="draw", caller="ann", hands={"ann": ["Kcl"]},
                 not_opened=["ann"])
    assert reply.status_code == 422 and "opened" in reply.json["error"]
    assert state(client, table)["seq"] == 0


def test_tong_its_needs_three_players(client: FlaskClient) -> None:
    reply = client.post("/api/tables", json={"game": "tong-its", "players": ["ann", "bob"]})
    assert reply.status_code == 400
    assert "3 players" in reply.json["error"]


def test_three_thirteen_counts_the_wild_rank_of_each_hand(client: FlaskClient) -> None:
    table = create(client, "three-thirteen", ["ann", "bob"])
    # hand 1: 3s are wild, so ann's 3 completes a run; bob holds a King and a 2
    reply = hand(client, table, 0, went_out="ann",
                 hands={"ann": ["4cl", "5cl", "3he"], "bob": ["Kcl", "2di", "9sp"]})
    assert reply.status_code == 201, reply.json
    st = reply.json["state"]
    assert st["hands"][-1]["entry"]["hand_no"] == 1
    assert totals(reply.json) == {"ann": 0, "bob": 21}
    # hand 2: 4s are wild now; the hand number comes from the session
    reply = hand(client, table, 1, hands={"ann": ["4cl", "9di", "9sp", "9he"],
                                          "bob": ["3cl", "5di", "7sp", "Jhe"]})
    assert reply.status_code == 201, reply.json
    assert reply.json["state"]["hands"][-1]["entry"]["hand_no"] == 2
    assert totals(reply.json) == {"ann": 0, "bob": 46}
    # one who went out with deadwood is refused; nothing is stored
    reply = hand(client, table, 2, hands={"ann": ["Kcl", "2di", "9sp", "Qhe", "Jhe"],
                                          "bob": ["5cl", "5di", "5sp", "5he", "Ahe"]},
                 went_out="ann")
    assert reply.status_code == 422 and "deadwood" in reply.json["error"]
    assert state(client, table)["seq"] == 2
    reply = post(client, table, 2, {"type": "undo"})
    assert reply.status_code == 201 and reply.json["state"]["hand_no"] == 1


def test_dry_run_previews_a_hand_without_storing_it(client: FlaskClient) -> None:
    table = create(client, "toss-hearts", ["ann", "bob"])
    url = f"/api/tables/{table['table_id']}/dry-run"
    reply = client.post(url, headers=keeper(table),
                        json={"event": {"type": "hand", "entry": {"taken": {"bob": ["Qsp"]}}}})
    assert reply.status_code == 200
    assert reply.json["state"]["hands"][-1]["deltas"] == {"ann": 0, "bob": 13}
    assert state(client, table)["seq"] == 0
    bad = client.post(url, headers=keeper(table),
                      json={"event": {"type": "hand", "entry": {"taken": {"bob": ["Qxx"]}}}})
    assert bad.status_code == 422 and "Qxx" in bad.json["error"]
    seat = {"Authorization": f"Bearer {table['seats']['ann']}"}
    assert client.post(url, headers=seat, json={"event": {"type": "undo"}}).status_code == 403


def test_corrections_and_the_game_end_with_the_winner(client: FlaskClient) -> None:
    table = create(client, "toss-hearts", ["ann", "bob"], options={"limit": 20})
    reply = post(client, table, 0, {"type": "correction", "target": "bob", "points": 15,
                                    "reason": "carried over"})
    assert reply.status_code == 201
    reply = hand(client, table, 1, taken={"bob": ["Qsp"]})
    st = reply.json["state"]
    assert st["phase"] == "game-over" and st["winner"] == "ann"
    again = hand(client, table, 2, taken={"bob": ["2he"]})
    assert again.status_code == 422 and "game is over" in again.json["error"]
    bad = post(client, table, 2, {"type": "correction", "target": "zed", "points": 1,
                                  "reason": "x"})
    # nobody of that name: an input error, as at a Toss table (the fold reads corrections)
    assert bad.status_code == 400
    assert bad.json["error"] == ("correction target 'zed' is neither a player nor a team at "
                                 'this table: "target" is one of ann, bob')


def test_players_cannot_propose_at_a_rules_pack_table(client: FlaskClient) -> None:
    table = create(client, "toss-hearts", ["ann", "bob"])
    seat = {"Authorization": f"Bearer {table['seats']['ann']}"}
    reply = client.post(f"/api/tables/{table['table_id']}/proposals", headers=seat,
                        json={"kind": "hand", "cards": ["2he"]})
    assert reply.status_code == 400 and "keeper" in reply.json["error"]


def test_game_pages_are_served_for_keeper_phone_display_and_history(client: FlaskClient) -> None:
    table = create(client, "tong-its", ["ann", "bob", "cy"])
    tid = table["table_id"]
    keeper_page = client.get(f"/t/{tid}/keeper").get_data(as_text=True)
    assert "hands.js" in keeper_page and "Tong-Its" in keeper_page and "hand_form" in keeper_page
    client.get(f"/t/{tid}/play?token={table['seats']['bob']}")
    phone = client.get(f"/t/{tid}/play").get_data(as_text=True)
    assert 'id="standings"' in phone and "hands.js" in phone
    display = client.get(f"/t/{tid}/display?token={table['display_token']}", follow_redirects=True)
    assert 'id="standings"' in display.get_data(as_text=True)
    history = client.get(f"/api/tables/{tid}/history", headers=keeper(table)).json
    assert [b["owner"] for b in history["boards"]] == ["ann", "bob", "cy"]
    # a Toss table still gets the peg-board pages
    toss = create(client, "toss-rummy", ["ann", "bob"])
    assert "keeper.js" in client.get(f"/t/{toss['table_id']}/keeper").get_data(as_text=True)


def test_bad_game_setups_are_refused(client: FlaskClient) -> None:
    reply = client.post("/api/tables", json={"game": "toss-hearts", "players": ["ann", "bob"],
                                             "options": {"moon": "sideways"}})
    assert reply.status_code == 400 and "moon" in reply.json["error"]
    reply = client.post("/api/tables", json={"game": "toss-colors",
                                             "players": ["ann", "bob", "cy"],
                                             "start_chips": "lots"})
    assert reply.status_code == 400 and "start_chips" in reply.json["error"]


def test_a_hand_form_refuses_an_empty_card_code(client: FlaskClient) -> None:
    table = create(client, "toss-hearts", ["ann", "bob", "cy"])
    reply = hand(client, table, 0, taken={"bob": ["", "2he", "3he"]})
    unknown = hand(client, table, 0, taken={"bob": ["2hx", "2he", "3he"]})
    assert reply.status_code == unknown.status_code == 422  # as any bad card of a hand form
    assert "empty card code '' at item 1 of 3" in reply.json["error"]
    assert state(client, table)["seq"] == 0

