"""Fewer taps and no surprises on the keeper's tablet and the players' phones: Enter in the
typed-codes box, the tossing joker and the form after a turn change, Undo naming what it takes
back, drafts kept over a reload, the start page's summaries and options, typed suit symbols,
the phone's proposal status, the photo icon and thumb-sized header links."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from keeper_api import Keeper
from playwright import sync_api

from web.server import ServerThread

expect = sync_api.expect
Page = sync_api.Page

THREE = {"game": "complex-toss-rummy", "players": ["Ann", "Bob", "Cy"]}
DEAL = {"type": "new-hand", "dealer": "Ann"}  # Bob's turn
BOB_MELDS = {"type": "meld", "player": "Bob", "cards": ["2he", "3he", "4he"], "top": "4he"}


@pytest.fixture
def tablet(browser: Any) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    assert errors == []
    context.close()


def chosen(page: Page) -> list[str]:
    """The cards in the picker's chosen row, as their titles (the codes)."""
    return page.locator("#picker [data-chosen] .card").evaluate_all(
        "els => els.map(e => e.textContent)")


def test_enter_in_the_typed_codes_box_adds_the_cards(server: ServerThread,
                                                     tablet: Page) -> None:
    keeper = Keeper(tablet, server, THREE)
    keeper.enter(DEAL)
    keeper.open()
    posts: list[Any] = []
    tablet.on("request", lambda r: posts.append(r.post_data_json)
              if r.method == "POST" and r.url.endswith("/events") else None)
    tablet.fill("#picker [data-typed]", "7cl 7sp 7he")
    tablet.press("#picker [data-typed]", "Enter")
    assert chosen(tablet) == ["7\u2663", "7\u2660", "7\u2665"]
    expect(tablet.locator("#picker [data-typed]")).to_have_value("")
    with tablet.expect_response(lambda r: r.url.endswith("/events")
                                and r.request.method == "POST"):
        tablet.click("#top-choice [data-top-pick='7cl']")  # the keeper's own tap, after checking
    assert [p["event"]["cards"] for p in posts] == [["7cl", "7sp", "7he"]]  # one write only
    expect(tablet.locator("#status")).to_contain_text("update 2")


def test_typed_suit_symbols_are_read_as_cards(server: ServerThread, tablet: Page) -> None:
    keeper = Keeper(tablet, server, THREE)
    keeper.enter(DEAL)
    keeper.open()
    tablet.fill("#picker [data-typed]", "7\u2663 7\u2660\ufe0f 7\u2665 7zz")
    tablet.press("#picker [data-typed]", "Enter")
    cards = tablet.locator("#picker [data-chosen] .card")
    expect(cards.nth(0)).to_have_class(re.compile(r"\bblack\b"))
    expect(cards.nth(2)).to_have_class(re.compile(r"\bred\b"))
    expect(cards.nth(3)).to_have_class(re.compile(r"\bunknown\b"))  # a typo looks like one
    cards.nth(3).click()  # tap to remove the typo
    tablet.click("#top-choice [data-top-pick='7cl']")
    expect(tablet.locator("#status")).to_contain_text("update 2")
    expect(tablet.locator("#melds")).to_contain_text("7\u2663")


def test_tossing_joker_matches_the_captured_cards_colour(server: ServerThread,
                                                         tablet: Page) -> None:
    keeper = Keeper(tablet, server, THREE)
    keeper.enter(DEAL, BOB_MELDS, {"type": "next-turn"},
                 {"type": "meld", "player": "Cy", "cards": ["9cl", "9sp", "9di"], "top": "9cl"},
                 {"type": "next-turn"})  # Ann's turn: Bob's 4he and Cy's 9cl are tops
    keeper.open()
    tablet.click("[data-action=toss]")
    tablet.select_option("select[name=meld]", "1")
    expect(tablet.locator("select[name=joker]")).to_have_value("jk-red")
    tablet.click("#melds [data-meld='2']")  # tapping a meld picks it too
    expect(tablet.locator("select[name=joker]")).to_have_value("jk-black")
    tablet.select_option("select[name=joker]", "boss")  # the keeper's own choice stays
    tablet.select_option("select[name=meld]", "1")
    expect(tablet.locator("select[name=joker]")).to_have_value("boss")


def answer_dialog(page: Page, button: str, *, accept: bool) -> str:
    """Click a button that opens a confirm box, answer it, and return its question. The box is
    answered by a handler, since it may open before the click itself has returned."""
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        if accept:
            dialog.accept()
        else:
            dialog.dismiss()

    page.once("dialog", answer)
    page.click(button)
    for _ in range(100):
        if asked:
            break
        page.wait_for_timeout(50)
    assert asked, f"{button} opened no confirm box"
    return asked[0]


def test_next_turn_returns_to_meld_and_undo_names_the_action(server: ServerThread,
                                                             tablet: Page) -> None:
    keeper = Keeper(tablet, server, THREE)
    keeper.enter(DEAL, BOB_MELDS)
    keeper.open()
    tablet.click("[data-action=next-turn]")
    tablet.click("#submit")
    expect(tablet.locator("#status")).to_contain_text("update 3")
    expect(tablet.locator("#action-title")).to_have_text("Meld")
    expect(tablet.locator("[data-action=meld]")).to_have_class(re.compile(r"\bon\b"))
    tablet.click("[data-action=undo]")
    expect(tablet.locator("#action-title")).to_have_text("Undo #3: Next turn")
    assert answer_dialog(tablet, "#submit", accept=False) == "Undo #3: Next turn?"
    expect(tablet.locator("#status")).to_contain_text("update 3")  # dismissed: nothing stored
    assert answer_dialog(tablet, "#submit", accept=True) == "Undo #3: Next turn?"
    expect(tablet.locator("#status")).to_contain_text("update 4")
    expect(tablet.locator("#action-title")).to_contain_text("Undo #2: Bob melded")


def test_pack_undo_names_the_hand(server: ServerThread, tablet: Page) -> None:
    keeper = Keeper(tablet, server, {"game": "tossni", "players": ["Ann", "Bob", "Cy"]})
    keeper.enter({"type": "hand", "entry": {"order": ["Ann", "Bob", "Cy"]}},
                 {"type": "hand", "entry": {"order": ["Cy", "Bob", "Ann"]}})
    keeper.open()
    tablet.click("[data-action=undo]")
    assert answer_dialog(tablet, "#submit", accept=True) == "Undo #2: hand 2 as entered?"
    expect(tablet.locator("#status")).to_contain_text("Hand 1 played")


def test_picked_cards_and_typed_hands_survive_a_reload(server: ServerThread,
                                                       tablet: Page) -> None:
    keeper = Keeper(tablet, server, THREE)
    keeper.enter(DEAL)
    keeper.open()
    for key in ("[data-rank='7']", "[data-suit='cl']", "[data-suit='sp']"):
        tablet.click(f"#picker {key}")
    tablet.reload()
    expect(tablet.locator("#action-title")).to_have_text("Meld")
    assert chosen(tablet) == ["7\u2663", "7\u2660"]
    tablet.click("[data-action=end-hand]")
    tablet.fill("[data-hand='Ann']", "5he Kcl")
    tablet.select_option("select[name=went_out]", "Cy")
    tablet.click("nav a:has-text('History')")  # leave the page, then open it again
    tablet.wait_for_url(re.compile(r"/history$"))
    keeper.open()
    expect(tablet.locator("#action-title")).to_have_text("End hand")
    expect(tablet.locator("[data-hand='Ann']")).to_have_value("5he Kcl")
    expect(tablet.locator("select[name=went_out]")).to_have_value("Cy")
    tablet.fill("[data-hand='Cy']", "")
    tablet.click("#preview")
    tablet.click("#submit")
    expect(tablet.locator("#status")).to_contain_text("Hand 1 is over")
    tablet.reload()  # stored: the draft is gone
    expect(tablet.locator("#action-title")).to_have_text("New hand")
    assert tablet.evaluate("Object.keys(localStorage).filter(k => k.startsWith('sk-draft'))"
                           ".map(k => localStorage.getItem(k))") == []


def test_start_page_summaries_and_options_per_ruleset(server: ServerThread,
                                                      tablet: Page) -> None:
    tablet.goto(f"{server.url}/")
    for game in ("toss-rummy", "complex-toss-rummy"):
        summary = tablet.locator(f".game-choice[data-game={game}] small")
        expect(summary).to_contain_text("Toss top cards")
    chips = tablet.locator("input[name=chips_per_points]")
    wild = tablet.locator("input[name=wild_scoring]")
    back = tablet.locator("input[name=double_cross_back]")
    expect(chips).to_be_hidden()  # Complex is the default: no Toss Rummy-only options
    expect(wild).to_be_hidden()
    expect(back).to_be_visible()
    tablet.click(".game-choice[data-game=toss-rummy]")
    expect(chips).to_be_visible()
    expect(wild).to_be_visible()
    expect(back).to_be_hidden()
    expect(tablet.locator("input[name=goal]")).to_have_attribute("placeholder", "1010")
    tablet.click(".game-choice[data-game=tong-its]")
    expect(tablet.locator("[data-chips-help]")).to_contain_text("below 0 is what that player owes")


def test_tong_its_chips_below_zero_are_explained(server: ServerThread, tablet: Page) -> None:
    keeper = Keeper(tablet, server, {"game": "tong-its", "players": ["Ann", "Bob", "Cy"]})
    keeper.enter({"type": "hand", "entry": {"win": "tongit", "caller": "Ann", "hands": {
        "Ann": [], "Bob": ["Kcl", "Qdi"], "Cy": ["9sp"]}}})
    keeper.open()
    expect(tablet.locator("[data-chip-count='Bob'] b")).to_have_text(re.compile(r"^-\d+$"))
    expect(tablet.locator("#chips")).to_contain_text("a count below 0 is the chips that player"
                                                     " owes")


def test_phone_proposal_status_follows_the_keeper(server: ServerThread, tablet: Page,
                                                  browser: Any) -> None:
    keeper = Keeper(tablet, server, THREE)
    keeper.enter(DEAL)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    phone = context.new_page()
    phone.set_default_timeout(10_000)
    phone.goto(keeper.urls["join"])
    phone.click("[data-seat='Bob']")
    phone.wait_for_url(re.compile(r"/play$"))
    for link in phone.locator("header.bar a").all():  # thumb-sized header links
        box = link.bounding_box()
        assert box and box["height"] >= 44, link.inner_text()
    phone.fill("#p-picker [data-typed]", "8cl 8sp 8he")
    phone.press("#p-picker [data-typed]", "Enter")
    phone.click("#p-top [data-p-top='8cl']")  # a set: the player taps the top card to send
    expect(phone.locator("#p-result")).to_contain_text("Sent: waiting for the keeper")
    keeper.open()
    tablet.click("[data-accept]")
    expect(phone.locator("[data-proposal-done]")).to_have_text(
        "The keeper accepted it: stored as #2.")
    expect(phone.locator("#p-result")).not_to_contain_text("Sent")
    context.close()


def test_end_hand_photo_buttons_draw_an_image_icon(server: ServerThread, tablet: Page) -> None:
    keeper = Keeper(tablet, server, THREE)
    keeper.enter(DEAL)
    keeper.open()
    tablet.click("[data-action=end-hand]")
    buttons = tablet.locator("#hands label.btn")
    expect(buttons).to_have_count(3)
    for i in range(3):
        expect(buttons.nth(i).locator("svg")).to_have_count(1)
        assert "\U0001F4F7" not in buttons.nth(i).inner_text()


def test_a_pack_hand_being_entered_survives_a_reload(server: ServerThread,
                                                     tablet: Page) -> None:
    keeper = Keeper(tablet, server, {"game": "tossni", "players": ["Ann", "Bob", "Cy"]})
    keeper.open()
    tablet.click("[data-order='Bob']")
    tablet.click("[data-order='Ann']")
    tablet.reload()
    expect(tablet.locator("[data-order-shown]")).to_have_text("1. Bob \u00a0 2. Ann")
    expect(tablet.locator("[data-order='Bob']")).to_be_disabled()
    tablet.click("[data-order='Cy']")
    tablet.click("#submit")
    expect(tablet.locator("#status")).to_contain_text("Hand 1 played")
    tablet.reload()  # stored: the next hand starts empty
    expect(tablet.locator("[data-order-shown]")).to_have_text("nobody yet")


def test_hearts_points_typed_survive_a_reload(server: ServerThread, tablet: Page) -> None:
    keeper = Keeper(tablet, server, {"game": "toss-hearts", "players": ["Ann", "Bob", "Cy"]})
    keeper.open()
    tablet.fill("input[data-cards=taken][data-p=Ann]", "Qsp 2he")
    tablet.reload()
    expect(tablet.locator("input[data-cards=taken][data-p=Ann]")).to_have_value("Qsp 2he")
    expect(tablet.locator("[data-count='taken:Ann']")).to_have_text("14 pts")
