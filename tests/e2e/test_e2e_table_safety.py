"""What would lose or block scores at a real table, each done in real headless Chromium against
the real server: a double tap, two keeper tablets, the top card of a Toss, a Tongit, a TV opening
the display, and a phone taking a seat that someone already holds."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright import sync_api

from web.server import ServerThread

expect = sync_api.expect
TABLET = {"viewport": {"width": 1024, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture
def tablet(browser: Any) -> Iterator[Any]:
    context = browser.new_context(**TABLET)
    yield context
    context.close()


def new_table(context: Any, server: ServerThread, **body: Any) -> dict[str, Any]:
    """A table made through the API with the context's cookie jar (the keeper's cookie)."""
    body.setdefault("players", ["Ann", "Bob", "Cy"])
    reply = context.request.post(f"{server.url}/api/tables", data=body)
    assert reply.status == 201, reply.text()
    table: dict[str, Any] = reply.json()
    return table


def keeper_page(context: Any, server: ServerThread, table: dict[str, Any]) -> Any:
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{server.url}/t/{table['table_id']}/keeper")
    expect(page.locator("#live")).to_have_class(re.compile("on"))
    return page


def logged(context: Any, server: ServerThread, table: dict[str, Any]) -> list[dict[str, Any]]:
    reply = context.request.get(f"{server.url}/api/tables/{table['table_id']}/events")
    events: list[dict[str, Any]] = reply.json()["events"]
    return events


def types(context: Any, server: ServerThread, table: dict[str, Any]) -> list[str]:
    return [e["event"]["type"] for e in logged(context, server, table)]


def deal(page: Any, dealer: str = "Ann") -> None:
    page.click("[data-action=new-hand]")
    page.select_option("select[name=dealer]", dealer)
    page.click("#submit")
    expect(page.locator("#status")).to_contain_text("update 1")


# -- a double tap, two tablets ---------------------------------------------------------------

def test_a_double_tap_on_next_turn_skips_nobody(server: ServerThread, tablet: Any) -> None:
    table = new_table(tablet, server, players=["Ann", "Bob", "Cy", "Dee"])
    page = keeper_page(tablet, server, table)
    deal(page, "Cy")  # Dee's turn
    page.click("[data-action=next-turn]")
    page.dblclick("#submit")
    expect(page.locator("#status [data-turn]")).to_have_text("Ann")
    # the form is back on Meld for Ann: one more tap of Enter stores nothing and passes nothing
    expect(page.locator("#action-title")).to_have_text("Meld")
    page.click("#submit")
    expect(page.locator("[data-refusal]")).to_contain_text("no cards were given")
    expect(page.locator("#status [data-turn]")).to_have_text("Ann")
    assert types(tablet, server, table) == ["new-hand", "next-turn"]
    # a deliberate second Next turn is a new action: choose it again
    page.click("[data-action=next-turn]")
    page.click("#submit")
    expect(page.locator("#status [data-turn]")).to_have_text("Bob")


def test_two_keeper_tablets_both_entering_next_turn_store_it_once(server: ServerThread,
                                                                   tablet: Any) -> None:
    table = new_table(tablet, server, players=["Ann", "Bob", "Cy", "Dee"])
    first = keeper_page(tablet, server, table)
    deal(first, "Cy")
    second = keeper_page(tablet, server, table)
    second.click("[data-action=next-turn]")
    first.click("[data-action=next-turn]")
    first.click("#submit")
    expect(second.locator("#status [data-turn]")).to_have_text("Ann")  # live on the other tablet
    second.click("#submit")
    stale = second.locator("[data-stale]")
    expect(stale).to_contain_text("another device")
    expect(stale).to_contain_text("#2")
    expect(stale).to_contain_text("Next turn")
    expect(stale).to_contain_text("It is now Ann's turn")
    expect(stale).not_to_contain_text("enter again")
    assert types(tablet, server, table) == ["new-hand", "next-turn"]


# -- Tong-Its: a Tongit ---------------------------------------------------------------------

def test_a_tongit_is_recorded_with_the_callers_empty_hand(server: ServerThread,
                                                          tablet: Any) -> None:
    table = new_table(tablet, server, game="tong-its")
    page = keeper_page(tablet, server, table)
    page.select_option("select[name=win]", "tongit")
    page.select_option("select[name=caller]", "Ann")
    page.fill("input[data-cards=hands][data-p=Bob]", "Kcl Qsp")
    page.fill("input[data-cards=hands][data-p=Cy]", "5he")
    page.click("#submit")
    expect(page.locator("#hand-list")).to_contain_text("won by Ann")
    expect(page.locator("#refusal")).to_be_empty()
    [stored] = logged(tablet, server, table)
    assert stored["event"]["entry"]["hands"] == {"Ann": [], "Bob": ["Kcl", "Qsp"], "Cy": ["5he"]}
    # a draw's caller holds cards: a blank row for the caller is still refused, not scored 0
    page.select_option("select[name=win]", "draw")
    page.select_option("select[name=caller]", "Bob")
    page.fill("input[data-cards=hands][data-p=Ann]", "Kcl Qsp")
    page.fill("input[data-cards=hands][data-p=Cy]", "5he")
    page.click("#submit")
    expect(page.locator("[data-refusal]")).to_contain_text("Bob")
    assert len(logged(tablet, server, table)) == 1


# -- a TV opens the display --------------------------------------------------------------

@pytest.mark.parametrize("game", ["complex-toss-rummy", "toss-hearts"])
def test_a_tv_opens_the_display_from_the_keepers_qr_link(server: ServerThread, browser: Any,
                                                         tablet: Any, game: str) -> None:
    table = new_table(tablet, server, game=game)
    page = keeper_page(tablet, server, table)
    qr = page.locator("#display-qr img")
    expect(qr).to_be_visible()
    assert page.evaluate("document.querySelector('#display-qr img').naturalWidth") > 0
    address = page.locator("#display-url").inner_text().strip()
    assert address.startswith(server.url) and "token=" in address
    assert qr.get_attribute("src") and "display-qr.svg" in str(qr.get_attribute("src"))
    tv = browser.new_context(viewport={"width": 1920, "height": 1080})  # no cookie at all
    try:
        screen = tv.new_page()
        screen.goto(address)
        screen.wait_for_url(re.compile(r"/display$"))
        expect(screen.locator("#live")).to_have_class(re.compile("on"))
        expect(screen.locator(".board, #standings-table").first).to_be_visible()
        # the display reads, but it cannot enter anything
        reply = tv.request.post(f"{server.url}/api/tables/{table['table_id']}/events",
                                data={"base_seq": 0, "event": {"type": "undo"}})
        assert reply.status == 403
    finally:
        tv.close()


# -- a claimed seat ---------------------------------------------------------------------------

def phone_taps(browser: Any, join_url: str, seat: str) -> tuple[Any, Any]:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(join_url)
    page.click(f"[data-seat='{seat}']")
    return context, page


def test_a_claimed_seat_needs_the_keepers_approval(server: ServerThread, browser: Any,
                                                   tablet: Any) -> None:
    table = new_table(tablet, server)
    keeper = keeper_page(tablet, server, table)
    join_url = keeper.get_attribute("#join-link", "href")
    state_url = f"{server.url}/api/tables/{table['table_id']}/state"
    phones = []
    try:
        first, bob = phone_taps(browser, join_url, "Bob")
        phones.append(first)
        bob.wait_for_url(re.compile(r"/play$"))
        expect(keeper.locator("#seats")).to_contain_text("Bob \u2714")
        # another phone with the same QR code asks for Bob's seat: it waits, seatless
        second, other = phone_taps(browser, join_url, "Bob")
        phones.append(second)
        expect(other.locator("[data-seat-waiting]")).to_contain_text("keeper")
        assert other.url.endswith(f"/join?t={table['join_token']}")
        assert second.request.get(state_url).status == 403
        ask = keeper.locator("[data-seat-request]")
        expect(ask).to_contain_text("Bob")
        keeper.click("[data-approve-seat]")
        other.wait_for_url(re.compile(r"/play$"))
        assert second.request.get(state_url).status == 200
        ended = first.request.get(state_url)  # the first phone's token has ended
        assert ended.status == 403 and "seat" in ended.json()["error"]
        expect(keeper.locator("[data-seat-request]")).to_have_count(0)
        # a third phone is refused
        third, late = phone_taps(browser, join_url, "Bob")
        phones.append(third)
        expect(late.locator("[data-seat-waiting]")).to_be_visible()
        keeper.click("[data-refuse-seat]")
        expect(late.locator("[data-seat-refused]")).to_contain_text("refused")
        assert third.request.get(state_url).status == 403
        # the keeper frees the seat: the second phone's token ends, the next tap takes it
        keeper.click("[data-free-seat='Bob']")
        expect(keeper.locator("#seats")).not_to_contain_text("Bob \u2714")
        assert second.request.get(state_url).status == 403
        fourth, last = phone_taps(browser, join_url, "Bob")
        phones.append(fourth)
        last.wait_for_url(re.compile(r"/play$"))
        # the seat's own link (its QR code on the keeper's page) opens the seat as is
        keeper.click("[data-seat-link='Cy']")
        expect(keeper.locator("#seat-qr img")).to_be_visible()
    finally:
        for context in phones:
            context.close()


# -- the top card -----------------------------------------------------------------------------

def top_of(page: Any, meld: int) -> str:
    return str(page.get_attribute(f"#melds [data-meld='{meld}'] [data-top-card]", "data-card"))


def test_the_melding_player_chooses_the_top_and_the_toss_captures_it(server: ServerThread,
                                                                     tablet: Any) -> None:
    table = new_table(tablet, server)
    page = keeper_page(tablet, server, table)
    deal(page)  # Bob's turn; the form is back on Meld
    clicks = 0

    def tap(selector: str) -> None:
        nonlocal clicks
        clicks += 1
        page.click(selector)

    # 2-3-4 of hearts has two ends: the page asks which is on top, and that tap enters it
    for key in ("[data-suit='he']", "[data-rank='2']", "[data-rank='3']", "[data-rank='4']"):
        tap(f"#picker {key}")
    expect(page.locator("#top-choice [data-top-pick]")).to_have_count(2)
    tap("#top-choice [data-top-pick='4he']")
    expect(page.locator("#status")).to_contain_text("update 2")
    assert clicks == 5 and top_of(page, 1) == "4he"
    page.click("[data-action=next-turn]")
    page.click("#submit")
    expect(page.locator("#status [data-turn]")).to_have_text("Cy")

    # Cy tosses Bob's top card: tap it on the board, then the joker, the cards and the new top
    clicks = 0
    tap("[data-action=toss]")
    tap("#melds [data-meld='1'] [data-top-card]")
    expect(page.locator("#captured")).to_contain_text("meld #1")
    clicks += 1
    page.select_option("select[name=joker]", "jk-red")
    for key in ("[data-suit='he']", "[data-rank='5']", "[data-rank='6']"):
        tap(f"#picker {key}")
    tap("#top-choice [data-top-pick='6he']")
    expect(page.locator("#status")).to_contain_text("update 4")
    assert clicks == 7
    toss = logged(tablet, server, table)[-1]["event"]
    assert (toss["type"], toss["captured"], toss["top"]) == ("toss", "4he", "6he")
    assert page.locator("#melds [data-meld='1'] [data-card]").count() == 2  # 2-3 of hearts left

    # the keeper records that Cy's meld shows the 4 on top: tap Top card, tap the 4, Enter
    page.click("[data-action=set-top]")
    page.click("#melds [data-meld='2'] [data-card='4he']")
    page.click("#submit")
    expect(page.locator("#melds [data-meld='2'] [data-top-card]")).to_have_attribute("data-card",
                                                                                     "4he")
    assert logged(tablet, server, table)[-1]["event"] == {"type": "set-top", "meld": 2,
                                                          "top": "4he", "by": "keeper"}
    page.click("[data-action=undo]")
    page.click("#submit")
    expect(page.locator("#melds [data-meld='2'] [data-top-card]")).to_have_attribute("data-card",
                                                                                     "6he")


def test_a_player_proposing_a_meld_chooses_its_top(server: ServerThread, browser: Any,
                                                   tablet: Any) -> None:
    table = new_table(tablet, server, auto_accept=True)
    keeper = keeper_page(tablet, server, table)
    deal(keeper)  # Bob's turn
    phone, bob = phone_taps(browser, keeper.get_attribute("#join-link", "href"), "Bob")
    try:
        bob.wait_for_url(re.compile(r"/play$"))
        for key in ("[data-suit='he']", "[data-rank='2']", "[data-rank='3']", "[data-rank='4']"):
            bob.click(f"#p-picker {key}")
        bob.click("#p-top [data-p-top='4he']")
        expect(bob.locator("#p-result")).to_contain_text("Accepted")
        expect(keeper.locator("#melds [data-meld='1'] [data-top-card]")).to_have_attribute(
            "data-card", "4he")
    finally:
        phone.close()


def test_the_form_after_a_stored_hand_enters_its_own_action(server: ServerThread,
                                                            tablet: Any) -> None:
    table = new_table(tablet, server)
    page = keeper_page(tablet, server, table)
    deal(page)
    page.click("[data-action=end-hand]")
    page.select_option("select[name=went_out]", "Bob")
    page.click("#submit")  # the preview
    expect(page.locator("#tally-table")).to_be_visible()
    page.click("#submit")  # the commit: the form moves on to New hand
    expect(page.locator("#action-title")).to_have_text("New hand")
    expect(page.locator("select[name=dealer]")).to_have_value("Bob")  # the deal passes left
    page.click("#submit")
    expect(page.locator("#status")).to_contain_text("update 3")
    assert types(tablet, server, table) == ["new-hand", "end-hand", "new-hand"]


def test_a_double_tap_on_commit_hand_stores_one_hand(server: ServerThread, tablet: Any) -> None:
    table = new_table(tablet, server, game="tong-its")
    page = keeper_page(tablet, server, table)
    page.select_option("select[name=win]", "tongit")
    page.select_option("select[name=caller]", "Cy")
    page.fill("input[data-cards=hands][data-p=Ann]", "Kcl")
    page.fill("input[data-cards=hands][data-p=Bob]", "5he")
    page.dblclick("#submit")
    expect(page.locator("#hand-list")).to_contain_text("won by Cy")
    page.click("#submit")  # once more, on the form the hand left behind
    expect(page.locator("[data-repeat]")).to_contain_text("Already stored as update 1")
    assert types(tablet, server, table) == ["hand"]
