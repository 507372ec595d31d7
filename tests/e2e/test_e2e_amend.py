"""Amending a past event from the history page: a meld in hand 1 of a three-hand Complex game
(refused first, naming the later lay-off; then amended another way, and every device and the
chart follow), and a Toss Hearts hand."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright import sync_api

from web.server import ServerThread

expect = sync_api.expect
Page = sync_api.Page

THREE = {"game": "complex-toss-rummy", "players": ["Ann", "Bob", "Cy"]}
HANDS: list[dict[str, Any]] = [
    {"type": "new-hand", "dealer": "Cy"},
    {"type": "meld", "player": "Ann", "cards": ["7cl", "8cl", "9cl"]},
    {"type": "next-turn"},
    {"type": "lay-off", "player": "Bob", "meld": 1, "cards": ["10cl"]},
    {"type": "next-turn"},
    {"type": "next-turn"},
    {"type": "end-hand", "went_out": "Ann",
     "hands": {"Ann": [], "Bob": ["2he", "3he"], "Cy": ["Kdi"]}},
    {"type": "new-hand", "dealer": None},
    {"type": "meld", "player": "Bob", "cards": ["4sp", "5sp", "6sp"]},
    {"type": "end-hand", "went_out": "Bob", "hands": {"Ann": ["2cl"], "Bob": [], "Cy": ["3di"]}},
    {"type": "new-hand", "dealer": None},
    {"type": "meld", "player": "Cy", "cards": ["Qhe", "Khe", "Ahe"]},
    {"type": "end-hand", "went_out": "Cy", "hands": {"Ann": ["4cl"], "Bob": ["5di"], "Cy": []}},
]


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1024, "height": 900})
    errors: list[str] = []
    context.on("weberror", lambda exc: errors.append(str(exc.error)))
    yield context
    assert errors == []
    context.close()


def table(page: Page, server: ServerThread, setup: dict[str, Any],
          events: list[dict[str, Any]]) -> dict[str, Any]:
    """A table made and played through the API on the keeper's context (its cookie)."""
    created: dict[str, Any] = page.request.post(f"{server.url}/api/tables", data=setup).json()
    for seq, event in enumerate(events):
        reply = page.request.post(f"{server.url}/api/tables/{created['table_id']}/events",
                                  data={"base_seq": seq, "event": event})
        assert reply.ok, reply.text()
    return created


def score(page: Page, owner: str) -> sync_api.Locator:
    return page.locator(f".board[data-owner='{owner}'] [data-score]").first


def test_amend_a_meld_in_hand_one_refused_then_amended_and_every_device_follows(
        server: ServerThread, context: Any, browser: Any) -> None:
    tablet = context.new_page()
    tablet.set_default_timeout(10_000)
    created = table(tablet, server, THREE, HANDS)
    tid = created["table_id"]
    phone_context = browser.new_context(viewport={"width": 390, "height": 844})
    phone = phone_context.new_page()
    phone.set_default_timeout(10_000)
    phone.goto(f"{server.url}/t/{tid}/play?token={created['seats']['Ann']}")
    phone.click("#confirm")  # Ann confirms hand 3, the last
    expect(phone.locator("[data-confirmed]")).to_be_visible()
    phone.request.post(f"{server.url}/api/tables/{tid}/confirm", data={"hand_no": 1})
    display_context = browser.new_context(viewport={"width": 1280, "height": 720})
    display = display_context.new_page()  # the TV: its own cookie
    display.goto(created["urls"]["display"])
    expect(score(display, "Ann")).to_have_text("42")
    expect(score(phone, "Ann")).to_have_text("42")

    tablet.goto(f"{server.url}/t/{tid}/history")
    expect(tablet.locator("#chart svg")).to_contain_text("Ann 42")
    hand = tablet.locator("#hands tr[data-hand='1'] [data-amend]")
    expect(hand).to_have_attribute("data-amend", "7")  # hand 1 is amended by its End hand
    tablet.click("#log tr[data-seq='2'] [data-amend]")
    cards = tablet.locator("#amend-box [data-path='[\"cards\"]']")
    expect(cards).to_have_value("7cl 8cl 9cl")
    cards.fill("7he 8he 9he")
    tablet.fill("#amend-reason", "the run was in hearts")
    tablet.click("#amend-commit")
    refusal = tablet.locator("#amend-result [data-amend-refusal]")
    expect(refusal).to_contain_text("update 4 (lay-off)")
    expect(refusal).to_contain_text("10cl does not fit 7he-8he-9he")
    expect(tablet.locator("#amend-result [data-broken-seq='4']")).to_be_visible()
    expect(score(display, "Ann")).to_have_text("42")  # nothing stored

    cards.fill("6cl 7cl 8cl 9cl")
    tablet.fill("#amend-reason", "the 6 of clubs was in the run")
    tablet.click("#amend-preview")
    expect(tablet.locator("[data-preview] tr[data-change='Ann']")).to_contain_text("+12")
    expect(tablet.locator("[data-rescored]")).to_contain_text("Hand 1 rescored")
    tablet.click("#amend-commit")
    expect(tablet.locator("#amend-box")).to_be_hidden()

    expect(score(display, "Ann")).to_have_text("54")
    expect(score(phone, "Ann")).to_have_text("54")
    expect(tablet.locator("#chart svg")).to_contain_text("Ann 54")
    original = tablet.locator("#log tr[data-seq='2']")
    expect(original).to_have_class(re.compile(r"\bamended\b"))
    expect(original).to_contain_text("(amended by #14)")
    amendment = tablet.locator("#log tr[data-seq='14']")
    expect(amendment).to_contain_text("Amendment of #2")
    expect(amendment).to_contain_text("why: the 6 of clubs was in the run")
    expect(amendment.locator("[data-points]")).to_have_text("Ann +12")
    notice = phone.locator("[data-amend-notice='14']")
    expect(notice).to_contain_text("The keeper amended #2: the 6 of clubs was in the run")
    phone.click("[data-reconfirm='1']")
    expect(phone.locator("#amend-notice")).to_be_hidden()
    phone_context.close()
    display_context.close()


def test_amend_a_toss_hearts_hand_from_the_history_page(server: ServerThread, context: Any,
                                                        browser: Any) -> None:
    tablet = context.new_page()
    tablet.set_default_timeout(10_000)
    hands = [{"type": "hand", "entry": {"taken": {"Ann": ["Qsp"], "Bob": ["2he"]}}},
             {"type": "hand", "entry": {"taken": {"Bob": ["Qsp", "3he"]}}}]
    created = table(tablet, server, {"game": "toss-hearts", "players": ["Ann", "Bob", "Cy"]},
                    hands)
    display_context = browser.new_context()
    display = display_context.new_page()
    display.goto(created["urls"]["display"])
    phone_context = browser.new_context(viewport={"width": 390, "height": 844})
    phone = phone_context.new_page()
    phone.goto(f"{server.url}/t/{created['table_id']}/play?token={created['seats']['Bob']}")
    ann = display.locator("#standings-table tr[data-player='Ann'] [data-total]")
    expect(ann).to_have_text("13")
    tablet.goto(f"{server.url}/t/{created['table_id']}/history")
    tablet.click("#hands tr[data-hand='1'] [data-amend]")  # the hand, from the Hands table
    expect(tablet.locator("#amend-box h2")).to_have_text("Amend #1")
    tablet.locator("#amend-box [data-path='[\"entry\",\"taken\",\"Ann\"]']").fill("2he")
    tablet.locator("#amend-box [data-path='[\"entry\",\"taken\",\"Bob\"]']").fill("Qsp")
    tablet.fill("#amend-reason", "the queen went to Bob")
    tablet.click("#amend-preview")
    expect(tablet.locator("[data-preview] tr[data-change='Ann']")).to_contain_text("-12")
    tablet.click("#amend-commit")
    expect(tablet.locator("#log tr[data-seq='3']")).to_contain_text("Amendment of #1")
    expect(ann).to_have_text("1")
    first = tablet.locator("#hands tr").nth(1).locator("td")
    expect(first.nth(1)).to_have_text("+1")
    expect(first.nth(2)).to_have_text("+13")
    expect(phone.locator("[data-amend-notice='3']")).to_contain_text("the queen went to Bob")
    phone.click("[data-reconfirm='1']")
    expect(phone.locator("#amend-notice")).to_be_hidden()
    expect(display.locator("#amend-notice")).to_be_hidden()
    phone_context.close()
    display_context.close()


def test_amend_from_the_keepers_hand_list_opens_the_same_amendment(
        server: ServerThread, context: Any) -> None:
    tablet = context.new_page()
    tablet.set_default_timeout(10_000)
    created = table(tablet, server, THREE, HANDS)
    tid = created["table_id"]
    tablet.goto(f"{server.url}/t/{tid}/keeper")
    link = tablet.locator("#confirmations [data-hand-row='1'] [data-amend-hand-link]")
    expect(link).to_have_text("Amend")
    link.click()  # hand 1 of the Toss game: its End hand, update 7
    expect(tablet).to_have_url(re.compile(rf"/t/{tid}/history$"))
    expect(tablet.locator("#amend-box h2")).to_have_text("Amend #7")
    tablet.locator("#amend-box [data-path='[\"hands\",\"Cy\"]']").fill("Kdi 2di")
    tablet.fill("#amend-reason", "Cy held the 2 of diamonds too")
    tablet.click("#amend-commit")
    expect(tablet.locator("#amend-box")).to_be_hidden()
    expect(tablet.locator("#log tr[data-seq='14']")).to_contain_text("Amendment of #7")
    # a rules-pack game: the keeper's Hands table, to the hand's own entry
    hands = [{"type": "hand", "entry": {"taken": {"Ann": ["Qsp"], "Bob": ["2he"]}}},
             {"type": "hand", "entry": {"taken": {"Bob": ["Qsp", "3he"]}}}]
    created = table(tablet, server, {"game": "toss-hearts", "players": ["Ann", "Bob", "Cy"]},
                    hands)
    tablet.goto(f"{server.url}/t/{created['table_id']}/keeper")
    tablet.click("#hand-list tr[data-hand='2'] [data-amend-hand-link]")
    expect(tablet.locator("#amend-box h2")).to_have_text("Amend #2")
    expect(tablet.locator("#amend-box [data-path='[\"entry\",\"taken\",\"Bob\"]']")
           ).to_have_value("Qsp 3he")
    # a player's page lists the hands with no Amend
    phone = context.browser.new_context().new_page()
    phone.goto(f"{server.url}/t/{created['table_id']}/play?token={created['seats']['Ann']}")
    expect(phone.locator("#hand-list tr[data-hand='2']")).to_be_visible()
    expect(phone.locator("[data-amend-hand-link]")).to_have_count(0)
    phone.context.close()
