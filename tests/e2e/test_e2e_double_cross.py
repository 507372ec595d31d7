"""The DoubleCross option on the start page and on the keeper's tablet, in real headless
Chromium against the real server: the keeper sees what a DoubleCross would take (the whole
previous play by default, the Toss meld only with ``toss-meld``) and enters it."""

from __future__ import annotations

import re
from typing import Any

from playwright import sync_api

from web.server import ServerThread

expect = sync_api.expect

#: Ann melds 8-9-10 of diamonds; Bob tosses the 10 with the Red Joker and, in the same turn,
#: melds Kcl Ksp Kdi; after Bob's discard it is Ann's turn, who may DoubleCross.
PLAY: list[dict[str, Any]] = [
    {"type": "new-hand", "dealer": "Cy"},
    {"type": "meld", "player": "Ann", "cards": ["8di", "9di", "10di"], "top": "10di"},
    {"type": "next-turn"},
    {"type": "toss", "player": "Bob", "meld": 1, "joker": "jk-red", "cards": ["10cl", "10sp"]},
    {"type": "meld", "player": "Bob", "cards": ["Kcl", "Ksp", "Kdi"]},
    {"type": "next-turn"},
]


def start_table(page: Any, server: ServerThread, takes: str | None) -> str:
    """Create a three-player Complex table from the start page; returns its id."""
    page.goto(f"{server.url}/")
    option = page.locator("select[name=double_cross_takes]")
    expect(option).to_have_value("whole-play")  # the default, named on the start page
    if takes is not None:
        option.select_option(takes)
    page.click("#remove-player")  # three players: Ann, Bob, Cy
    page.click("#create")
    page.wait_for_url(re.compile(r"/t/\w+/keeper$"))
    match = re.search(r"/t/(\w+)/keeper$", page.url)
    assert match
    return match.group(1)


def play_until_the_double_cross(page: Any, table_id: str) -> None:
    for seq, event in enumerate(PLAY):
        reply = page.request.post(f"/api/tables/{table_id}/events",
                                  data={"base_seq": seq, "event": event})
        assert reply.status == 201, reply.text()


def test_the_keeper_sees_and_enters_a_double_cross_of_the_whole_play(
        server: ServerThread, browser: Any) -> None:
    tablet = browser.new_context(viewport={"width": 1024, "height": 768}, base_url=server.url)
    keeper = tablet.new_page()
    keeper.set_default_timeout(10_000)
    table_id = start_table(keeper, server, None)
    expect(keeper.locator("#double-cross")).to_be_hidden()
    play_until_the_double_cross(keeper, table_id)

    view = keeper.locator("#double-cross")
    expect(view).to_be_visible()
    expect(view).to_contain_text("Ann may DoubleCross Bob now")
    expect(view).to_contain_text("double_cross_takes: whole-play")
    expect(view.locator("[data-dc-take]")).to_have_count(2)
    expect(view.locator("[data-dc-take='3'] .card")).to_have_count(3)

    keeper.click("[data-action=double-cross]")
    expect(keeper.locator("select[name=player]")).to_have_value("Ann")
    keeper.click("#picker [data-card='boss']")
    keeper.click("#submit")
    expect(keeper.locator("#status")).to_contain_text("update 7")
    ann = keeper.locator("#boards .board[data-owner='Ann'] [data-score]")
    bob = keeper.locator("#boards .board[data-owner='Bob'] [data-score]")
    expect(ann).to_have_text(str(17 + 30 + 30 + 50))  # the kings came with the Toss meld
    expect(bob).to_have_text("0")
    # Bob may DoubleCross back once the turn is his: the view follows the chain
    expect(view).to_contain_text("Bob may DoubleCross Ann after Ann discards")
    tablet.close()


def test_the_toss_meld_option_shows_and_takes_the_toss_meld_only(
        server: ServerThread, browser: Any) -> None:
    tablet = browser.new_context(viewport={"width": 1024, "height": 768}, base_url=server.url)
    keeper = tablet.new_page()
    keeper.set_default_timeout(10_000)
    table_id = start_table(keeper, server, "toss-meld")
    play_until_the_double_cross(keeper, table_id)
    view = keeper.locator("#double-cross")
    expect(view).to_contain_text("double_cross_takes: toss-meld")
    expect(view.locator("[data-dc-take]")).to_have_count(1)
    expect(view.locator("[data-dc-take='2']")).to_be_visible()
    tablet.close()
