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
    page.evaluate("SK.largePrint(true)")
    found = violations(page)
    page.evaluate("SK.largePrint(false)")
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
    for page in ("keeper", "display"):
        keeper.open(page)
        expect(tablet.locator("#standings-table tr[data-player]")).to_have_count(3)
        assert_accessible(tablet, f"{game} {page}")
    keeper.open("history")
    assert_accessible(tablet, f"{game} history")
    join(phone, keeper, "Cy")
    assert_accessible(phone, f"{game} player")


FOUR = ["Ann", "Bob", "Cy", "Dee"]
#: Scores carried over from paper: Ann 437, Bob 990, Cy 0, Dee -25.
CARRIED = [{"type": "new-hand", "dealer": "Ann"}] + [
    {"type": "correction", "target": who, "points": points, "reason": "carried over"}
    for who, points in (("Ann", 437), ("Bob", 990), ("Dee", -25))]


#: A peg's outline: its corners relative to its centre (a circle has none).
OUTLINE = """(el) => { const b = el.getBBox(), cx = b.x + b.width / 2, cy = b.y + b.height / 2;
  return el.tagName + (el.getAttribute("points") || "").trim().split(" ").map((p) => {
    const [x, y] = p.split(",").map(Number); return `${Math.round(x - cx)},${Math.round(y - cy)}`;
  }).join(" "); }"""


def test_boards_carry_a_shape_and_are_named_for_screen_readers(
        server: ServerThread, contexts: tuple[Page, Page]) -> None:
    tablet, _ = contexts
    keeper = Keeper(tablet, server, {"game": "complex-toss-rummy", "players": FOUR})
    keeper.enter(*CARRIED)
    keeper.open("display")
    for name in ("Ann, 437", "Bob, 990", "Cy, 0", "Dee, -25"):
        expect(tablet.get_by_role("img", name=name, exact=True)).to_be_visible()
    boards = tablet.locator(".board")
    expect(boards).to_have_count(4)
    marks = []
    for i in range(4):
        board = boards.nth(i)
        pegs = board.locator(".peg")
        expect(pegs).to_have_count(3)  # hundreds, tens and ones
        peg_marks = {pegs.nth(k).get_attribute("data-mark") for k in range(3)}
        header_mark = board.locator("header .swatch").get_attribute("data-mark")
        assert peg_marks == {header_mark}
        assert board.locator("header .swatch title").text_content() == header_mark
        marks.append(header_mark)
    assert marks == ["circle", "square", "triangle", "diamond"]
    # the shapes are drawn differently, not only named differently
    drawn = [boards.nth(i).locator(".peg").first.evaluate(OUTLINE) for i in range(4)]
    assert len(set(drawn)) == 4, drawn
    # the default colours follow the one definition in scorekeeper.pegboard
    from scorekeeper.pegboard import PEG_COLOURS
    fills = [boards.nth(i).locator(".peg").first.get_attribute("fill") for i in range(4)]
    assert fills == list(PEG_COLOURS.values())[:4]
    # the lights are read out in the board's name (-25), not as stray symbols
    assert boards.nth(0).locator(".lamps").get_attribute("aria-hidden") == "true"


def test_large_print_is_kept_per_device(server: ServerThread, browser: Any,
                                        contexts: tuple[Page, Page]) -> None:
    tablet, phone = contexts
    keeper = Keeper(tablet, server, {"game": "complex-toss-rummy", "players": FOUR})
    keeper.enter(*CARRIED)
    join(phone, keeper, "Ann")
    big = phone.locator("#my-board .board .score")
    expect(big).to_have_text("437")
    normal = float(big.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)"))
    toggle = phone.locator("header [data-large-print]")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(phone.locator("html")).to_have_class(re.compile(r"\blarge-print\b"))
    expect(toggle).to_have_attribute("aria-pressed", "true")
    large = float(big.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)"))
    assert large >= normal * 1.3, (normal, large)
    phone.reload()
    expect(phone.locator("html")).to_have_class(re.compile(r"\blarge-print\b"))
    expect(phone.locator("header [data-large-print]")).to_have_attribute("aria-pressed", "true")
    # the same device's display page is in large print too; another device is not
    phone.goto(f"{server.url}/t/{keeper.id}/history")
    expect(phone.locator("html")).to_have_class(re.compile(r"\blarge-print\b"))
    keeper.open("display")
    expect(tablet.locator(".board")).to_have_count(4)
    expect(tablet.locator("html")).not_to_have_class(re.compile(r"\blarge-print\b"))
    tablet.locator(".display-top [data-large-print]").click()
    tablet.reload()
    expect(tablet.locator("html")).to_have_class(re.compile(r"\blarge-print\b"))
    tablet.locator(".display-top [data-large-print]").click()
    expect(tablet.locator("html")).not_to_have_class(re.compile(r"\blarge-print\b"))
    tablet.reload()
    expect(tablet.locator(".board")).to_have_count(4)
    expect(tablet.locator("html")).not_to_have_class(re.compile(r"\blarge-print\b"))


#: Marks every control a user can see and use, then tells how the focused one shows its focus.
CONTROLS = """() => {
  const sel = "a[href], button, input, select, textarea, [tabindex], [role=button]";
  const shown = (el) => el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== "hidden";
  const all = Array.from(document.querySelectorAll(sel)).filter((el) => shown(el) && !el.disabled
    && el.getAttribute("tabindex") !== "-1");
  all.forEach((el, i) => el.dataset.ctl = String(i));
  return all.length;
}"""
FOCUS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const ring = (x) => { const s = getComputedStyle(x);
    return (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2)
      || s.boxShadow !== "none"; };
  const box = el.type === "file" ? el.closest("label") : el;  // a photo button's label shows it
  return {ctl: el.dataset.ctl || null, tag: el.tagName, ring: ring(box),
          text: (el.textContent || el.name || "").trim().slice(0, 30)};
}"""


def tab_through(page: Page) -> None:
    """Tab reaches every control on the page, each showing a focus ring."""
    count = page.evaluate(CONTROLS)
    assert count > 0
    page.locator("body").click(position={"x": 1, "y": 1})
    reached: set[str] = set()
    for _ in range(count + 10):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUS)
        if focused is None:
            continue
        assert focused["ring"], f"no visible focus on {focused}"
        if focused["ctl"] is not None:
            reached.add(focused["ctl"])
    missed = page.evaluate("""(reached) => Array.from(document.querySelectorAll("[data-ctl]"))
        .filter((el) => !reached.includes(el.dataset.ctl))
        .map((el) => el.outerHTML.slice(0, 90))""", sorted(reached))
    assert not missed, missed


def test_every_control_is_reached_by_keyboard_with_a_visible_focus(
        server: ServerThread, contexts: tuple[Page, Page]) -> None:
    tablet, phone = contexts
    keeper = Keeper(tablet, server, {"game": "complex-toss-rummy", "players": THREE})
    keeper.enter(*PLAYS)
    keeper.open("keeper")
    expect(tablet.locator("[data-meld]")).to_have_count(1)
    tab_through(tablet)
    # the picker's suits are named for screen readers, with the code the keeper types
    expect(tablet.get_by_role("button", name=re.compile(r"he hearts$")).first).to_be_visible()
    expect(tablet.get_by_role("button", name=re.compile(r"or oracles$")).first).to_be_visible()
    # a meld is chosen with the keyboard as with a tap on one of its cards
    tablet.click("[data-action=lay-off]")
    tablet.focus("[data-meld='1'] [data-card]")
    tablet.keyboard.press("Enter")
    expect(tablet.locator("[data-meld='1']")).to_have_class(re.compile(r"\bsel\b"))
    expect(tablet.locator("#action-form [name=meld]")).to_have_value("1")
    keeper.open("display")
    tab_through(tablet)
    join(phone, keeper, "Bob")
    expect(phone.locator("#my-board .board")).to_have_count(1)
    tab_through(phone)


def test_pages_with_a_proposal_a_finished_hand_and_chips(
        server: ServerThread, contexts: tuple[Page, Page]) -> None:
    """The states with the most on screen: a phone's pending proposal on the keeper's page, a
    finished Toss hand on every page, and a chip game's standings, sheet and hand list."""
    tablet, phone = contexts
    keeper = Keeper(tablet, server, {"game": "complex-toss-rummy", "players": THREE})
    keeper.enter(*PLAYS)
    join(phone, keeper, "Bob")
    proposal = phone.request.post(f"{server.url}/api/tables/{keeper.id}/proposals",
                                  data={"kind": "event", "event": {
                                      "type": "meld", "cards": ["8cl", "8sp", "8he"],
                                      "top": "8he"}})
    assert proposal.ok, proposal.text()
    keeper.open("keeper")
    expect(tablet.locator("[data-accept]")).to_have_count(1)
    assert_accessible(tablet, "keeper with a pending proposal")
    keeper.enter({"type": "end-hand", "went_out": "Ann",
                  "hands": {"Bob": ["9sp"], "Cy": ["Jdi", "5cl"]}})
    for page in ("keeper", "display", "history"):
        keeper.open(page)
        assert_accessible(tablet, f"{page} after the hand")
    phone.reload()
    expect(phone.locator("#confirm")).to_be_visible()
    assert_accessible(phone, "player after the hand")

    colors = Keeper(tablet, server, {"game": "toss-colors", "players": THREE, "start_chips": 9})
    colors.enter({"type": "hand", "entry": {"bidder": "Ann", "partner": "Bob", "bid": 3,
                                            "tricks": {"Ann": 2, "Bob": 2, "Cy": 1}}})
    for page in ("keeper", "display", "history"):
        colors.open(page)
        assert_accessible(tablet, f"toss-colors {page} after a hand")
    join(phone, colors, "Cy")
    expect(phone.locator("#chips-box")).to_be_visible()
    assert_accessible(phone, "toss-colors player after a hand")


def test_card_chips_are_named_for_screen_readers_from_the_one_vocabulary(
        server: ServerThread, contexts: tuple[Page, Page]) -> None:
    from scorekeeper.cards import SUIT_NAMES
    tablet, phone = contexts
    keeper = Keeper(tablet, server, {"game": "complex-toss-rummy", "players": THREE})
    keeper.enter(*PLAYS)
    join(phone, keeper, "Bob")
    # the melded Queens are read by name, not as "Q, black heart suit"
    for name in ("queen of hearts", "queen of diamonds", "queen of oracles"):
        expect(phone.get_by_role("img", name=name, exact=True).first).to_be_visible()
    chip = phone.locator("#melds .card[title='Qor']")
    expect(chip).to_have_attribute("aria-label", "queen of oracles")
    expect(chip).to_have_text("Q\u25c9")  # the symbols are still what the eye sees
    # the picker's suits and its chosen cards are named from the same words
    keeper.open("keeper")
    for name in ("\u25c9 or oracles", "\u271a cr crosses"):
        expect(tablet.get_by_role("button", name=name, exact=True)).to_be_visible()
    tablet.fill("#picker [data-typed]", "7cr jk-red")
    tablet.press("#picker [data-typed]", "Enter")
    for name in ("7 of crosses, tap to remove", "red joker, tap to remove"):
        expect(tablet.get_by_role("button", name=name, exact=True)).to_be_visible()
    # the words come from scorekeeper.cards, served by the page: the script holds no copy
    assert tablet.evaluate("SK.SUIT_NAMES") == SUIT_NAMES
    script = (Path(__file__).parents[2] / "web" / "static" / "sk.js").read_text(encoding="utf-8")
    assert "oracle" not in script
