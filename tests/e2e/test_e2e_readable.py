"""Every number on the pages can be read and checked: the end-of-hand preview and the phone's
tally, the Went out default, colours of lower-is-better games, the display on a TV, and the
history with points, undone events and captured cards. Real server, real headless Chromium."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from keeper_api import Keeper
from playwright import sync_api

from web.server import ServerThread

expect = sync_api.expect
Page = sync_api.Page

TEAMS = {"game": "complex-toss-rummy", "players": ["Ann", "Bob", "Cy", "Dee"],
         "teams": [{"name": "North", "members": ["Ann", "Cy"]},
                   {"name": "South", "members": ["Bob", "Dee"]}]}
#: Bob melds 2-3-4 of hearts (top 4he), Cy tosses the 4he with the red joker, the keeper undoes
#: it and enters it again: Cy's turn, North 15, South 5.
PLAYS = [{"type": "new-hand", "dealer": "Ann"},
         {"type": "meld", "player": "Bob", "cards": ["2he", "3he", "4he"], "top": "4he"},
         {"type": "next-turn"},
         {"type": "toss", "player": "Cy", "meld": 1, "joker": "jk-red", "cards": ["5he", "6he"]},
         {"type": "undo"},
         {"type": "toss", "player": "Cy", "meld": 1, "joker": "jk-red", "cards": ["5he", "6he"]}]
#: The cards left in hand at the end: Ann 15 (exempt: Cy went out), Bob 9, Dee 10.
HANDS = {"Ann": "5cl Kcl", "Bob": "9sp", "Dee": "Qdi"}


@pytest.fixture
def tablet(browser: Any) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: dialog.accept())
    yield page
    assert errors == []
    context.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def end_hand_form(keeper: Keeper) -> None:
    keeper.open()
    keeper.page.click("[data-action=end-hand]")
    for player, cards in HANDS.items():
        keeper.page.fill(f"[data-hand='{player}']", cards)


def test_preview_shows_each_team_net(server: ServerThread, tablet: Page) -> None:
    keeper = Keeper(tablet, server, TEAMS)
    keeper.enter(*PLAYS)
    end_hand_form(keeper)
    tablet.click("#preview")
    expect(tablet.locator("#tally")).to_contain_text("North: +15")
    expect(tablet.locator("#tally")).to_contain_text("South: -14")
    expect(tablet.locator("#tally")).not_to_contain_text("[object Object]")


def test_went_out_defaults_to_the_player_whose_turn_it_is(server: ServerThread,
                                                          tablet: Page) -> None:
    keeper = Keeper(tablet, server, TEAMS)
    keeper.enter(*PLAYS)
    end_hand_form(keeper)
    expect(tablet.locator("select[name=went_out]")).to_have_value("Cy")
    tablet.click("#preview")  # so Ann's hand is exempt: her team-mate went out
    expect(tablet.locator("#tally-table")).to_contain_text("team exemption")


def test_phone_tally_breaks_the_net_down(server: ServerThread, tablet: Page,
                                         phone: Page) -> None:
    keeper = Keeper(tablet, server, TEAMS)
    keeper.enter(*PLAYS)
    phone.goto(keeper.urls["join"])
    phone.click("[data-seat='Bob']")
    phone.wait_for_url(re.compile(r"/play$"))
    keeper.enter({"type": "end-hand", "went_out": "Cy",
                  "hands": {p: c.split() for p, c in HANDS.items()}})
    mine = phone.locator("[data-my-tally]")
    expect(mine).to_have_text("Melded 5, in hand \u22129 (9\u2660), net -4.")
    ann = phone.locator("[data-tally='Ann']")
    expect(ann.locator("[data-in-hand] s")).to_have_text("\u221215")  # exempt, struck out
    expect(ann.locator("[data-net]")).to_have_text("0")
    expect(phone.locator("[data-team-net='South']")).to_have_text("South tally -14")
    expect(phone.locator("#confirm-box")).to_contain_text("North +30, South -9")
    expect(phone.locator("#confirm")).to_have_text("My hand tally is right")


def hearts_moon(keeper: Keeper) -> None:
    """Ann shoots the moon (option moon=minus): Ann -26, everyone else 0."""
    moon = [f"{rank}he" for rank in ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4",
                                      "3", "2")] + ["Qsp"]
    keeper.enter({"type": "hand", "entry": {"taken": {"Ann": moon, "Bob": [], "Cy": [],
                                                      "Dee": []}}})


def test_lower_is_better_colours_agree(server: ServerThread, tablet: Page) -> None:
    keeper = Keeper(tablet, server, {"game": "toss-hearts",
                                     "players": ["Ann", "Bob", "Cy", "Dee"]})
    hearts_moon(keeper)
    keeper.open()
    ann_hand = tablet.locator("#standings-table tr[data-player='Ann'] td.num").first
    bob_hand = tablet.locator("#standings-table tr[data-player='Bob'] td.num").first
    expect(ann_hand).to_have_text("-26")
    expect(ann_hand).to_have_class(re.compile(r"\bpos\b"))  # -26 is good news in Hearts
    expect(bob_hand).not_to_have_class(re.compile(r"\b(pos|neg)\b"))  # 0 is no news
    row = tablet.locator("#hand-list tr").nth(1)
    expect(row.locator("td.num").nth(0)).to_have_class(re.compile(r"\bpos\b"))
    expect(row.locator("td.num").nth(1)).not_to_have_class(re.compile(r"\b(pos|neg)\b"))
    keeper.open("history")
    history_row = tablet.locator("#hands tr").nth(1)
    expect(history_row.locator("td.num").nth(0)).to_have_class(re.compile(r"\bpos\b"))


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_pack_display_fills_a_tv_from_the_keepers_link(server: ServerThread, browser: Any,
                                                       tmp_path: Path,
                                                       size: tuple[int, int]) -> None:
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(10_000)
    keeper = Keeper(page, server, {"game": "toss-hearts", "players": ["Ann", "Bob", "Cy", "Dee"]})
    hearts_moon(keeper)
    keeper.open()
    with context.expect_page() as opened:
        page.click("nav a:has-text('Display')")  # the keeper page's own Display link
    display = opened.value
    expect(display.locator("#standings-table tr[data-player]")).to_have_count(4)
    display.screenshot(path=str(tmp_path / f"display-{width}.png"))
    expect(display.locator("body")).to_have_class(re.compile(r"\bdisplay-pack\b"))
    name_px = display.evaluate("parseFloat(getComputedStyle(document.querySelector("
                               "'#standings-table tr[data-player] td:nth-child(2)')).fontSize)")
    assert name_px >= height / 25, f"player names are {name_px}px on a {width}x{height} screen"
    box = display.locator("#standings-table").bounding_box()
    assert box and box["width"] >= width * 0.4 and box["y"] + box["height"] <= height
    assert display.evaluate("document.documentElement.scrollHeight") <= height
    context.close()


def test_history_shows_points_undone_events_and_captured_card(server: ServerThread,
                                                              tablet: Page) -> None:
    keeper = Keeper(tablet, server, TEAMS)
    keeper.enter(*PLAYS)
    keeper.open("history")
    undone = tablet.locator("#log tr[data-seq='4']")
    expect(undone).to_have_class(re.compile(r"\bundone\b"))
    expect(undone).to_contain_text("(undone by #5)")
    expect(tablet.locator("#log tr[data-seq='5']")).to_contain_text("Undo of #4")
    toss = tablet.locator("#log tr[data-seq='6']")
    expect(toss).not_to_have_class(re.compile(r"\bundone\b"))
    expect(toss).to_contain_text("TOSSED 4\u2665 from meld #1")
    expect(toss.locator("[data-points]")).to_have_text("North +15, South -4")
    expect(tablet.locator("#log tr[data-seq='2'] [data-points]")).to_have_text("South +9")


def test_csv_exports_local_iso_times_and_one_table_per_file(server: ServerThread,
                                                            tablet: Page) -> None:
    keeper = Keeper(tablet, server, TEAMS)
    keeper.enter(*PLAYS)
    keeper.enter({"type": "end-hand", "went_out": "Cy",
                  "hands": {p: c.split() for p, c in HANDS.items()}})
    keeper.open("history")
    with tablet.expect_download() as got:
        tablet.click("a:has-text('CSV events')")
    events = list(csv.DictReader(io.StringIO(Path(got.value.path()).read_text())))
    logged = tablet.request.get(f"{server.url}/api/tables/{keeper.id}/events").json()["events"]
    assert [int(r["seq"]) for r in events] == [e["seq"] for e in logged]  # the log, nothing else
    at = datetime.fromisoformat(events[0]["at"])
    assert at.tzinfo is not None and abs(at.timestamp() - logged[0]["at"]) < 1
    assert at.utcoffset() == datetime.fromtimestamp(logged[0]["at"]).astimezone().utcoffset()
    assert [r["undone by"] for r in events] == ["", "", "", "5", "", "", ""]
    with tablet.expect_download() as got:
        tablet.click("a:has-text('CSV hands')")
    hands = list(csv.reader(io.StringIO(Path(got.value.path()).read_text())))
    assert hands == [["hand", "North", "South"], ["1", "30", "-9"]]
