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
    # doing it once more (what a keeper does after a confusing message) stores nothing either
    page.click("#submit")
    expect(page.locator("[data-repeat]")).to_contain_text("Already stored as update 2")
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
