"""The keeper's tablet plays a Toss Hearts table and a Tong-Its table for two hands each in real
headless Chromium against the real server; a phone follows the standings live."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright import sync_api

from web.server import ServerThread

expect = sync_api.expect
Page = sync_api.Page


@pytest.fixture
def devices(browser: object) -> Iterator[tuple[Page, Page]]:
    tablet = browser.new_context(viewport={"width": 1024, "height": 768})  # type: ignore[attr-defined]
    phone = browser.new_context(viewport={"width": 390, "height": 844},  # type: ignore[attr-defined]
                                is_mobile=True, has_touch=True)
    keeper, player = tablet.new_page(), phone.new_page()
    for page in (keeper, player):
        page.set_default_timeout(10_000)
    keeper.on("dialog", lambda dialog: dialog.accept())
    errors: list[str] = []
    keeper.on("pageerror", lambda exc: errors.append(str(exc)))
    player.on("pageerror", lambda exc: errors.append(str(exc)))
    yield keeper, player
    assert errors == []
    tablet.close()
    phone.close()


def create_table(keeper: Page, server: ServerThread, game: str) -> None:
    keeper.goto(f"{server.url}/")
    keeper.click(f".game-choice[data-game={game}]")
    expect(keeper.locator("#pack-options")).to_be_visible()
    expect(keeper.locator("#toss-only")).to_be_hidden()
    keeper.click("#create")
    keeper.wait_for_url(re.compile(r"/t/\w+/keeper$"))


def join_as(player: Page, keeper: Page, seat: str) -> None:
    join_url = keeper.get_attribute("#join-link", "href")
    assert join_url
    player.goto(join_url)
    player.click(f"[data-seat='{seat}']")
    player.wait_for_url(re.compile(r"/play$"))


def standings(page: Page) -> list[tuple[str, str]]:
    """The phone's standings, top row first: (player, total)."""
    rows = page.locator("#standings-table tr[data-player]")
    return [(rows.nth(i).get_attribute("data-player") or "",
             rows.nth(i).locator("[data-total]").inner_text()) for i in range(rows.count())]


def tap(keeper: Page, codes: list[str]) -> None:
    for code in codes:
        keeper.click(f"#h-picker [data-rank='{code[:-2]}']")
        keeper.click(f"#h-picker [data-suit='{code[-2:]}']")


def test_toss_hearts_two_hands_from_the_tablet(server: ServerThread,
                                               devices: tuple[Page, Page]) -> None:
    keeper, player = devices
    create_table(keeper, server, "toss-hearts")
    expect(keeper.locator("#standings-table tr[data-player]")).to_have_count(4)
    join_as(player, keeper, "Bob")
    player.evaluate("window.__sameDocument = 'yes'")

    # Hand 1: Ann took the Queen of Spades, Bob two hearts (picked with the card picker).
    keeper.click("input[data-cards=taken][data-p=Ann]")
    tap(keeper, ["Qsp"])
    keeper.click("input[data-cards=taken][data-p=Bob]")
    tap(keeper, ["2he", "3he"])
    expect(keeper.locator("[data-count='taken:Bob']")).to_have_text("2 pts")
    keeper.click("#preview")
    expect(keeper.locator("#preview-table")).to_contain_text("+13")
    keeper.click("#submit")
    expect(keeper.locator("#status")).to_contain_text("Hand 1 played")

    # A typo is refused with the reason; nothing is stored.
    keeper.fill("input[data-cards=taken][data-p=Ann]", "Qzz")
    keeper.click("#submit")
    expect(keeper.locator("[data-refusal]")).to_contain_text("Qzz")
    expect(keeper.locator("#status")).to_contain_text("update 1")
    keeper.fill("input[data-cards=taken][data-p=Ann]", "")

    # Hand 2: Cy shoots the moon (option moon=minus: Cy -26).
    keeper.select_option("#moon", "Cy")
    expect(keeper.locator("[data-count='taken:Cy']")).to_have_text("26 pts")
    keeper.click("#submit")
    expect(keeper.locator("#status")).to_contain_text("Hand 2 played")

    # The phone shows the standings, lowest first, without a reload.
    expect(player.locator("#standings-table tr[data-player]").first).to_have_attribute(
        "data-player", "Cy")
    assert standings(player) == [("Cy", "-26"), ("Dee", "0"), ("Bob", "2"), ("Ann", "13")]
    expect(player.locator("#standings-table tr.me")).to_have_attribute("data-player", "Bob")
    assert player.evaluate("window.__sameDocument") == "yes"


#: Ann calls tongit with four 7s concealed and an ace; Cy had not opened.
TONGIT_BY_ANN = ("tongit", "Ann", {"Ann": "7cl 7sp 7he 7di Ahe 2he 3he", "Bob": "Kcl Qdi",
                                   "Cy": "9sp"}, ["Cy"])


def fill_tong_its_hand(keeper: Page, win: str, caller: str, hands: dict[str, str],
                       not_opened: list[str] | None = None) -> None:
    """Fill the keeper's Tong-Its hand form: how the hand ended, who called, each hand."""
    keeper.select_option("select[name=win]", win)
    keeper.select_option("select[name=caller]", caller)
    for player, cards in hands.items():
        keeper.fill(f"input[data-cards=hands][data-p={player}]", cards)
    for player in not_opened or []:
        keeper.check(f"[data-many=not_opened][value={player}]")


def test_tong_its_two_hands_with_chips(server: ServerThread,
                                       devices: tuple[Page, Page]) -> None:
    keeper, player = devices
    create_table(keeper, server, "tong-its")
    expect(keeper.locator("#standings-table tr[data-player]")).to_have_count(3)
    join_as(player, keeper, "Cy")

    # Hand 1: Ann calls tongit with four 7s concealed and an ace; Cy had not opened.
    fill_tong_its_hand(keeper, *TONGIT_BY_ANN)
    keeper.click("#preview")
    expect(keeper.locator("#preview-box")).to_contain_text("Hand won by Ann")
    keeper.click("#submit")
    expect(keeper.locator("[data-chip-count=Ann] b")).to_have_text("13")

    # Undo and enter it again: the same chips.
    keeper.click("[data-action=undo]")
    keeper.click("#submit")
    expect(keeper.locator("#status")).to_contain_text("Hand 0 played")
    fill_tong_its_hand(keeper, *TONGIT_BY_ANN)
    keeper.click("#submit")
    expect(keeper.locator("#status")).to_contain_text("Hand 1 played")

    # Hand 2: the stock runs out; Bob has the lowest deadwood.
    fill_tong_its_hand(keeper, "stock", "Cy",
                       {"Ann": "Kcl Kdi", "Bob": "2cl", "Cy": "5sp 9he"})
    keeper.click("#submit")
    expect(keeper.locator("#status")).to_contain_text("Hand 2 played")

    # The phone: chips paid (most first) and everyone's chip count after antes and the pot.
    expect(player.locator("[data-pot]")).to_have_text("12")
    assert standings(player) == [("Ann", "14"), ("Bob", "-5"), ("Cy", "-9")]
    counts = {p: player.locator(f"[data-chip-count={p}] b").inner_text()
              for p in ("Ann", "Bob", "Cy")}
    assert counts == {"Ann": "10", "Bob": "-9", "Cy": "-13"}


def test_a_photo_fills_a_players_cards_on_the_hand_form(server: ServerThread,
                                                        devices: tuple[Page, Page],
                                                        tmp_path: Path) -> None:
    np = pytest.importorskip("numpy")
    synth = pytest.importorskip("scorekeeper.vision.synth")
    shot = synth.make_photo(np.random.default_rng(0), ["Qsp", "2he", "3he"], size=(1600, 1200),
                            kind="fan", max_tilt=20, quality=(85, 90))
    photo = tmp_path / "taken.jpg"
    photo.write_bytes(shot.jpeg)
    keeper, _ = devices
    create_table(keeper, server, "toss-hearts")
    keeper.set_input_files("input[data-photo=taken][data-p=Ann]", str(photo))
    row = keeper.locator("input[data-cards=taken][data-p=Ann]")
    expect(row).not_to_have_value("", timeout=20_000)
    assert sorted(row.input_value().split()) == ["2he", "3he", "Qsp"]
    expect(keeper.locator("[data-count='taken:Ann']")).to_have_text("15 pts")
    keeper.click("#submit")
    expect(keeper.locator("#standings-table tr[data-player=Ann] [data-total]")).to_have_text("15")


def test_the_pages_follow_what_each_game_describes(server: ServerThread,
                                                   devices: tuple[Page, Page]) -> None:
    """No page names a game: Three Thirteen's wild rank and progress, Tossní's keeper
    counters and Indian Chief's score sheet all come from the game's own description."""
    keeper, _ = devices
    create_table(keeper, server, "three-thirteen")
    expect(keeper.locator("#status [data-wild]")).to_have_text("3s wild")
    expect(keeper.locator("#status")).to_contain_text("Next: hand 1 of 11")
    expect(keeper.locator("#aid-box")).to_be_hidden()
    expect(keeper.locator("#sheet-box")).to_be_hidden()
    keeper.fill("input[data-cards='hands'][data-p='Ann']", "4cl 5cl 3he")
    keeper.fill("input[data-cards='hands'][data-p='Bob']", "Kcl 2di 9sp")
    keeper.fill("input[data-cards='hands'][data-p='Cy']", "Qcl Qdi Qsp")
    keeper.fill("input[data-cards='hands'][data-p='Dee']", "Jcl Jdi Jsp")
    keeper.select_option("select[name=went_out]", "Ann")
    keeper.click("#submit")
    expect(keeper.locator("#status")).to_contain_text("Hand 1 played")
    expect(keeper.locator("#status [data-wild]")).to_have_text("4s wild")
    expect(keeper.locator("#hand-list")).to_contain_text("3s wild")

    create_table(keeper, server, "tossni")
    expect(keeper.locator("#aid-box")).to_be_visible()
    keeper.click("[data-aid='queens+']")
    keeper.click("[data-aid='queens+']")
    keeper.click("[data-aid='aces+']")
    expect(keeper.locator("[data-queens]")).to_have_text("4")
    expect(keeper.locator("[data-aces]")).to_have_text("1")
    keeper.click("[data-aid=reset]")
    expect(keeper.locator("[data-queens]")).to_have_text("0")

    create_table(keeper, server, "indian-chief")
    expect(keeper.locator("#sheet-box")).to_be_visible()
    expect(keeper.locator("#sheet")).to_contain_text("Lawyer")
    expect(keeper.locator("#status")).to_contain_text("Next: turn 1 of 7")


def test_no_page_script_names_a_game() -> None:
    from scorekeeper.game import GAMES

    static = Path(__file__).resolve().parents[2] / "web" / "static"
    for script in ("hands.js", "start.js"):
        text = (static / script).read_text(encoding="utf-8")
        assert "GAME.name" not in text
        named = [name for name in GAMES if f'"{name}"' in text]
        assert named == [], (script, named)
