"""A club night in the browser: the organiser creates a two-round night of Complex Toss
Rummy on the club page, players check in from a phone and at the organiser's tablet, three
tables of three play (their games entered through the API, as their keepers would), and the
room display follows it all live: seating, hands, finished tables, the round seated by
standings, the final standings."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright import sync_api

from tests.club_helpers import finish_events
from web.server import ServerThread

expect = sync_api.expect
Page = sync_api.Page

TYPED = ["Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"]


@pytest.fixture
def pages(browser: Any) -> Iterator[dict[str, Page]]:
    """The organiser's tablet, the room's TV and a player's phone, each its own browser."""
    opened: dict[str, Page] = {}
    errors: list[str] = []
    sizes = {"tablet": (1024, 900), "tv": (1600, 900), "phone": (390, 800)}
    contexts = []
    for name, (width, height) in sizes.items():
        context = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        opened[name] = page
    yield opened
    assert errors == []
    for context in contexts:
        context.close()


def play_round(tablet: Page, server: ServerThread, event_id: str, tv: Page,
               round_no: int) -> list[list[str]]:
    """Every table plays its game to the end through the API (the first seat wins); the TV
    shows each table finished as it happens. Returns the round's tables."""
    view = tablet.request.get(f"{server.url}/api/club/events/{event_id}").json()
    tables = []
    for table in view["tables"]:
        players = [p["name"] for p in table["players"]]
        tables.append(players)
        headers = {"Authorization": f"Bearer {table['keeper_token']}"}
        seq = 0
        for event in finish_events(players, players[0]):
            reply = tablet.request.post(f"{server.url}/api/tables/{table['table_id']}/events",
                                        headers=headers, data={"base_seq": seq, "event": event})
            assert reply.ok, reply.text()
            seq = reply.json()["seq"]
            if event["type"] == "end-hand" and table["no"] == 1:  # live: hand 1 on the TV
                expect(tv.locator("[data-table='1'] .table-status")).to_contain_text(
                    f"leading: {players[0]}")
        expect(tv.locator(f"[data-table='{table['no']}']")).to_have_attribute(
            "data-finished", "true")
    expect(tv.locator("body")).to_have_attribute("data-round", f"{round_no}-finished")
    return tables


def test_a_two_round_club_night(server: ServerThread, pages: dict[str, Page]) -> None:
    tablet, tv, phone = pages["tablet"], pages["tv"], pages["phone"]
    tablet.goto(f"{server.url}/club")
    tablet.fill("#new-night [name=name]", "Friday club")
    tablet.select_option("#new-night [name=game]", "complex-toss-rummy")
    tablet.fill("#new-night [name=rounds]", "2")
    tablet.fill("#new-night [name=seats]", "3")
    tablet.click("#create-night")
    tablet.wait_for_url("**/club/events/*")
    event_id = tablet.url.rstrip("/").split("/")[-1]
    expect(tablet.locator("#round-title")).to_contain_text("round 1 of 2 not seated yet")

    tv.goto(f"{server.url}/club/events/{event_id}/room")
    expect(tv.locator("#live")).to_have_class("live on")
    expect(tv.locator("#round-title")).to_contain_text("0 checked in")

    checkin_url = tablet.locator("#checkin-link").text_content()
    assert checkin_url and "/checkin?t=" in checkin_url
    for name in ("Ann", "Bo"):  # two players check in from the phone at the door
        phone.goto(checkin_url)
        if phone.locator("#not-me").is_visible():
            phone.click("#not-me")
        phone.fill("#name", name)
        phone.click("#checkin-new")
        expect(phone.locator("#done")).to_contain_text(f"{name}, you are checked in")
        assert "/club/m/" in (phone.locator("#done a").get_attribute("href") or "")
    phone.goto(checkin_url)  # the phone remembers Bo: one tap, refused the second time
    phone.click("#checkin-known")
    expect(phone.locator("#checkin-error")).to_contain_text("Bo is already checked in")

    for name in TYPED:  # the organiser types the others' names
        tablet.fill("#checkin-name", name)
        tablet.click("#checkin-add")
        expect(tablet.locator(f"#players [data-player='{name}']")).to_be_visible()
    expect(tv.locator("#round-title")).to_contain_text("9 checked in")

    tablet.click("#seat")
    expect(tv.locator(".club-table")).to_have_count(3)
    expect(tv.locator("#round-title")).to_contain_text("Round 1 of 2: seated")
    bo_table = tv.locator(".club-table", has=tv.locator("[data-seat='Bo']")).get_attribute(
        "data-table")
    expect(phone.locator("#my-table")).to_contain_text(f"Round 1: table {bo_table}")
    tablet.click("#start")
    expect(tablet.locator("#tables a", has_text="Keeper")).to_have_count(3)
    expect(tv.locator("#round-title")).to_contain_text("Round 1 of 2: playing")

    round_one = play_round(tablet, server, event_id, tv, 1)
    winners = {t[0] for t in round_one}
    top_three = tv.locator("#standings tr[data-player]").evaluate_all(
        "rows => rows.slice(0, 3).map(r => r.dataset.player)")
    assert set(top_three) == winners
    expect(tv.locator("#standings tr[data-player]").first.locator(".points")).to_have_text("4")

    expect(tablet.locator("#seat")).to_contain_text("Seat round 2")
    tablet.click("#seat")
    expect(tv.locator("#round-title")).to_contain_text("Round 2 of 2: seated")
    first_table = tv.locator("[data-table='1'] [data-seat]").evaluate_all(
        "els => els.map(e => e.dataset.seat)")
    assert set(first_table) == winners  # round 2 seated by standings: the leaders together
    tablet.click("#start")
    expect(tv.locator("#round-title")).to_contain_text("Round 2 of 2: playing")
    round_two = play_round(tablet, server, event_id, tv, 2)

    champion = round_two[0][0]
    expect(tv.locator("#winner")).to_contain_text(f"{champion} wins the night!")
    expect(tv.locator("#round-title")).to_contain_text("Final standings")
    expect(tv.locator("#standings tr[data-player]").first).to_have_attribute(
        "data-player", champion)
    expect(tv.locator("#standings tr[data-player]").first.locator(".points")).to_have_text("8")
    expect(tablet.locator("#round-actions")).to_contain_text("The night is over")

    tablet.goto(f"{server.url}/club")
    expect(tablet.locator("#records tr[data-player]")).to_have_count(9)
    tablet.click(f"#records tr[data-player='{champion}'] a")
    expect(tablet.locator("#record")).to_contain_text("100%")
    expect(tablet.locator("#h2h tr")).to_have_count(5)  # the header and four opponents


def test_a_night_with_a_game_per_round(server: ServerThread, pages: dict[str, Page]) -> None:
    tablet = pages["tablet"]
    tablet.goto(f"{server.url}/club")
    tablet.fill("#new-night [name=rounds]", "2")
    tablet.check("#per-round")
    expect(tablet.locator("[data-round-game]")).to_have_count(2)
    tablet.select_option("[data-round-game='2']", "toss-hearts")
    tablet.fill("#new-night [name=seats]", "4")
    tablet.fill("#new-night [name=minutes]", "25")
    tablet.fill("#new-night [name=options]", "ace=high goal=500")
    tablet.click("#create-night")
    tablet.wait_for_url("**/club/events/*")
    event_id = tablet.url.rstrip("/").split("/")[-1]
    room = tablet.request.get(f"{server.url}/api/club/events/{event_id}/room").json()
    assert [g["game"] for g in room["event"]["games"]] == ["complex-toss-rummy", "toss-hearts"]
    assert room["event"]["games"][0]["options"] == {"ace": "high", "goal": 500}
    assert room["event"]["minutes"] == 25
    base = f"{server.url}/api/club/events/{event_id}"
    for name in ("Ann", "Bo", "Cy", "Di"):
        assert tablet.request.post(f"{base}/checkins", data={"name": name}).ok
    assert tablet.request.post(f"{base}/rounds", data={}).ok
    assert tablet.request.post(f"{base}/rounds/1/start", data={}).ok
    tv = pages["tv"]
    tv.goto(f"{server.url}/club/events/{event_id}/room")
    expect(tv.locator("#clock")).to_have_text(re.compile(r"^2[45]:\d\d$"))  # the round clock
    tablet.reload()
    expect(tablet.locator("#clock")).to_have_text(re.compile(r"^2[45]:\d\d$"))


def test_a_bad_night_is_refused_on_the_page(server: ServerThread,
                                            pages: dict[str, Page]) -> None:
    tablet = pages["tablet"]
    tablet.goto(f"{server.url}/club")
    tablet.fill("#new-night [name=points]", "1 4")
    tablet.click("#create-night")
    expect(tablet.locator("#night-error")).to_contain_text("a better place never scores less")
    assert tablet.url.endswith("/club")


def test_club_pages_are_accessible(server: ServerThread, pages: dict[str, Page]) -> None:
    from test_e2e_accessibility import assert_accessible

    tablet, tv, phone = pages["tablet"], pages["tv"], pages["phone"]
    tablet.goto(f"{server.url}/club")
    created = tablet.request.post(f"{server.url}/api/club/events",
                                  data={"name": "Readable", "rounds": 2, "seats": 3,
                                        "minutes": 30}).json()
    base = f"{server.url}/api/club/events/{created['event_id']}"
    for name in ("Kit", "Lu", "Mo", "Ned", "Oz", "Pip"):  # new members on the shared server
        assert tablet.request.post(f"{base}/checkins", data={"name": name}).ok
    assert tablet.request.post(f"{base}/rounds", data={}).ok
    tablet.goto(created["urls"]["organiser"])
    expect(tablet.locator("#swap")).to_be_visible()
    assert_accessible(tablet, "organiser page, round seated")
    view = tablet.request.post(f"{base}/rounds/1/start", data={}).json()
    table = view["tables"][0]
    players = [p["name"] for p in table["players"]]
    seq = 0
    for event in finish_events(players, players[0]):
        seq = tablet.request.post(
            f"{server.url}/api/tables/{table['table_id']}/events", data={
                "base_seq": seq, "event": event},
            headers={"Authorization": f"Bearer {table['keeper_token']}"}).json()["seq"]
    tablet.reload()
    expect(tablet.locator("#end")).to_be_visible()
    assert_accessible(tablet, "organiser page, round playing")
    tv.goto(created["urls"]["room"])
    expect(tv.locator("[data-table='1']")).to_have_attribute("data-finished", "true")
    assert_accessible(tv, "room display")
    phone.goto(created["urls"]["checkin"])
    assert_accessible(phone, "phone check-in")
    phone.fill("#name", "Quin")
    phone.click("#checkin-new")
    expect(phone.locator("#done")).to_contain_text("Quin, you are checked in")
    assert_accessible(phone, "phone checked in")
    tablet.request.post(f"{base}/rounds/1/end", data={})
    tablet.goto(f"{server.url}/club")
    assert_accessible(tablet, "club page")
    tablet.click(f"#records tr[data-player='{players[0]}'] a")
    expect(tablet.locator("#record")).to_contain_text("100%")
    assert_accessible(tablet, "player page")


def test_a_peg_colour_too_dark_to_show_is_warned_of_when_picked(
        server: ServerThread, pages: dict[str, Page]) -> None:
    from scorekeeper.pegboard import MIN_CHANNEL, dark_colour_warning

    tablet, phone = pages["tablet"], pages["phone"]
    created = tablet.request.post(f"{server.url}/api/club/events",
                                  data={"name": "Dim", "rounds": 1, "seats": 3,
                                        "minutes": 30}).json()
    phone.goto(created["urls"]["checkin"])
    picker, warning = phone.locator("#colour"), phone.locator("#colour-warning")
    expect(picker).to_have_attribute("data-peg-colour", str(MIN_CHANNEL))  # one threshold
    expect(warning).to_be_hidden()  # the default colour shows
    dim, just_bright = f"#{MIN_CHANNEL - 1:02x}0000", f"#{MIN_CHANNEL:02x}0000"
    assert dark_colour_warning(dim) and dark_colour_warning(just_bright) is None
    picker.fill(dim)
    expect(warning).to_be_visible()
    expect(warning).to_contain_text(f"{dim} is too dark to show")
    expect(warning).to_contain_text("Pick a brighter colour")
    picker.fill(just_bright)  # the board lights it as chosen: no warning
    expect(warning).to_be_hidden()
    picker.fill("#101010")
    expect(warning).to_be_visible()
