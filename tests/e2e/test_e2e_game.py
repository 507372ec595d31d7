"""A keeper on a tablet and a player on a phone play a short Complex Toss Rummy hand in real
headless Chromium against the real server; the phone follows every change live."""

from __future__ import annotations

import re
from pathlib import Path

from playwright import sync_api

from web.server import ServerThread

expect = sync_api.expect


def tap_cards(page: object, codes: list[str]) -> None:
    """Enter cards with the picker: a rank, then its suits."""
    for code in codes:
        rank, suit = code[:-2], code[-2:]
        page.click(f"#picker [data-rank='{rank}']")  # type: ignore[attr-defined]
        page.click(f"#picker [data-suit='{suit}']")  # type: ignore[attr-defined]


def test_keeper_and_player_play_a_hand_live(server: ServerThread, browser: object,
                                            tmp_path: Path) -> None:
    tablet = browser.new_context(viewport={"width": 1024, "height": 768})  # type: ignore[attr-defined]
    phone = browser.new_context(viewport={"width": 390, "height": 844},  # type: ignore[attr-defined]
                                is_mobile=True, has_touch=True)
    keeper = tablet.new_page()
    keeper.on("dialog", lambda dialog: dialog.accept())
    keeper.set_default_timeout(10_000)

    # Start page: the default game is Complex Toss Rummy with four players.
    keeper.goto(f"{server.url}/")
    expect(keeper.locator("input[name=game][value=complex-toss-rummy]")).to_be_checked()
    keeper.click("#remove-player")  # three players: Ann, Bob, Cy
    keeper.click("#create")
    keeper.wait_for_url(re.compile(r"/t/\w+/keeper$"))
    expect(keeper.locator(".board")).to_have_count(3)

    # The phone joins with the QR code's link and takes Bob's seat.
    join_url = keeper.get_attribute("#join-link", "href")
    assert join_url and "/join?t=" in join_url
    player = phone.new_page()
    player.set_default_timeout(10_000)
    player.goto(join_url)
    player.click("[data-seat='Bob']")
    player.wait_for_url(re.compile(r"/play$"))
    player.evaluate("window.__sameDocument = 'yes'")
    my_score = player.locator("#my-board .board[data-owner='Bob'] [data-score]")
    expect(player.locator("#live")).to_have_class(re.compile("on"))
    expect(keeper.locator("#seats")).to_contain_text("Bob \u2714")

    # New hand, Ann deals: Bob's turn, shown on the phone.
    keeper.click("[data-action=new-hand]")
    keeper.select_option("select[name=dealer]", "Ann")
    keeper.click("#submit")
    expect(player.locator(".yourturn")).to_have_text("Your turn!")

    # Bob melds four sevens in five taps: 7, then the suits.
    keeper.click("[data-action=meld]")
    keeper.click("#picker [data-rank='7']")
    for suit in ("cl", "sp", "he", "di"):
        keeper.click(f"#picker [data-suit='{suit}']")
    keeper.select_option("select[name=top]", "7cl")
    keeper.click("#submit")
    expect(keeper.locator("#status")).to_contain_text("update 2")
    expect(my_score).to_have_text("28")
    expect(player.locator("#ticker li").first).to_contain_text("Bob melded")

    # An illegal meld is refused with its reason, and nothing is stored.
    keeper.click("[data-action=meld]")
    keeper.select_option("select[name=player]", "Bob")
    tap_cards(keeper, ["2cr", "9sh", "Kor"])
    keeper.click("#submit")
    expect(keeper.locator("[data-refusal]")).to_contain_text("Refused")
    expect(keeper.locator("#status")).to_contain_text("update 2")

    # Next turn: Cy. Cy tosses Bob's top card (7cl) with the black joker.
    keeper.click("[data-action=next-turn]")
    keeper.click("#submit")
    expect(player.locator("[data-turn]")).to_have_text("Cy")
    keeper.click("[data-action=toss]")
    keeper.select_option("select[name=player]", "Cy")
    keeper.select_option("select[name=joker]", "jk-black")
    tap_cards(keeper, ["7cr", "7or"])
    keeper.click("#top-choice [data-top-pick='7cr']")  # a set: the top card is Cy's choice
    expect(my_score).to_have_text("21")
    expect(player.locator("#ticker li").first).to_contain_text("TOSSED")
    cy_board = player.locator("#boards .board[data-owner='Cy'] [data-score]")
    expect(cy_board).to_have_text("21")

    # Undo the Toss: the phone shows Bob's 28 again.
    keeper.click("[data-action=undo]")
    keeper.click("#submit")
    expect(my_score).to_have_text("28")
    expect(cy_board).to_have_text("0")
    expect(player.locator("#ticker li").first).to_contain_text("Undo")

    # End the hand: Bob went out; preview the tally, then commit.
    keeper.click("[data-action=end-hand]")
    keeper.select_option("select[name=went_out]", "Bob")
    keeper.fill("[data-hand='Ann']", "5he Kcl")
    keeper.fill("[data-hand='Cy']", "boss")
    keeper.click("#preview")
    expect(keeper.locator("#tally-table")).to_contain_text("-15")
    expect(keeper.locator("#tally-table")).to_contain_text("-50")
    keeper.click("#submit")
    expect(my_score).to_have_text("56")  # the meld scores again

    # Bob confirms his tally on the phone; the keeper sees it.
    player.click("#confirm")
    expect(player.locator("[data-confirmed]")).to_be_visible()
    expect(keeper.locator("#confirmations")).to_contain_text("\u2714 Bob")

    # Every change arrived without a reload.
    assert player.evaluate("window.__sameDocument") == "yes"
    tablet.close()
    phone.close()


def test_rules_check_page_gives_the_verdict(server: ServerThread, browser: object) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(f"{server.url}/rules")
    page.click("#r-picker [data-suit='he']")
    for rank in ("Q", "K", "A"):
        page.click(f"#r-picker [data-rank='{rank}']")
    page.click("#r-check")
    expect(page.locator("[data-verdict=valid]")).to_contain_text("sequence")
    page.click("#r-clear")
    page.fill("#r-picker [data-typed]", "Khe Ahe 2he")
    page.press("#r-picker [data-typed]", "Enter")
    page.click("#r-check")
    expect(page.locator("[data-verdict=invalid]")).to_be_visible()
    context.close()
