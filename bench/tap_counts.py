"""The keeper's taps for the commonest entries, counted on the real pages.

Starts the app on the real server (127.0.0.1, a temporary SQLite file), opens the keeper's
page in headless Chromium (Debian's /usr/bin/chromium, a 1024x768 tablet) and enters each
action as a keeper would, tapping only what the form does not already show:

- a 3-card meld right after the deal, and after a Next turn (7cl 7sp 7he: a rank, then suits,
  then the top card, whose tap enters the meld);
- a Toss (Cy captures Bob's 4he with the red joker and melds 5he 6he: a suit, then ranks, then
  the top card);
- the end of a 4-player hand (Cy went out; three players' cards typed, Preview, Commit).

A tap is a button or key pressed; choosing in a drop-down counts 2 (open it, pick); typing
counts 1 tap to put the cursor in the field, plus its characters. Each entry is checked to be
stored before it is counted.

    python bench/tap_counts.py
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import Page, expect, sync_playwright  # noqa: E402

from web import create_app  # noqa: E402
from web.server import ServerThread  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


@dataclass
class Counter:
    """The keeper's taps and typed characters for one entry."""

    page: Page
    taps: int = 0
    typed: int = 0
    fields: list[str] = field(default_factory=list)

    def tap(self, selector: str) -> None:
        self.page.click(selector)
        self.taps += 1

    def action(self, name: str) -> None:
        """Tap an action button, unless its form is already the one shown."""
        button = self.page.locator(f"[data-action={name}]")
        if "on" not in (button.get_attribute("class") or "").split():
            self.tap(f"[data-action={name}]")

    def choose(self, selector: str, value: str) -> None:
        """Pick in a drop-down, unless it already shows that value."""
        if self.page.input_value(selector) != value:
            self.page.select_option(selector, value)
            self.taps += 2

    def type(self, selector: str, text: str) -> None:
        self.tap(selector)
        self.page.keyboard.type(text)
        self.typed += len(text)
        self.fields.append(selector)


class Table:
    """A table on the keeper's browser context, set up through the API."""

    def __init__(self, page: Page, url: str, players: list[str]):
        self.page, self.url = page, url
        created = self.post("/api/tables", {"game": "complex-toss-rummy", "players": players})
        self.id, self.seq = created["table_id"], created["seq"]

    def post(self, path: str, body: dict[str, Any]) -> Any:
        reply = self.page.request.post(self.url + path, data=body)
        if not reply.ok:
            raise SystemExit(f"set-up refused: {reply.text()}")
        return reply.json()

    def enter(self, *events: dict[str, Any]) -> None:
        for event in events:
            self.seq = self.post(f"/api/tables/{self.id}/events",
                                 {"base_seq": self.seq, "event": event})["seq"]

    def open(self) -> None:
        self.page.goto(f"{self.url}/t/{self.id}/keeper")
        self.page.evaluate("localStorage.clear()")
        self.page.reload()

    def stored(self) -> None:
        """Wait until the page shows the next update stored."""
        self.seq += 1
        expect(self.page.locator("#status")).to_contain_text(f"update {self.seq}")


DEAL = {"type": "new-hand", "dealer": "Ann"}
BOB_MELDS = {"type": "meld", "player": "Bob", "cards": ["2he", "3he", "4he"], "top": "4he"}


def meld_after_deal(page: Page, url: str) -> Counter:
    table = Table(page, url, PLAYERS)
    table.open()
    count = Counter(page)
    count.action("new-hand")
    count.choose("select[name=dealer]", "Ann")
    count.tap("#submit")
    table.stored()
    count = Counter(page)  # the meld alone
    meld(count)
    table.stored()
    return count


def meld_after_next_turn(page: Page, url: str) -> Counter:
    table = Table(page, url, PLAYERS)
    table.enter(DEAL)
    table.open()
    Counter(page).action("next-turn")
    page.click("#submit")
    table.stored()
    count = Counter(page)
    meld(count)
    table.stored()
    return count


def meld(count: Counter) -> None:
    count.action("meld")
    for key in ("[data-rank='7']", "[data-suit='cl']", "[data-suit='sp']", "[data-suit='he']"):
        count.tap(f"#picker {key}")
    enter_with_top(count, "7cl")


def enter_with_top(count: Counter, top: str) -> None:
    """A meld that could show more than one top card is entered by tapping the top chosen."""
    pick = f"#top-choice [data-top-pick='{top}']"
    count.page.locator(pick).wait_for()
    count.tap(pick)


def toss(page: Page, url: str) -> Counter:
    table = Table(page, url, PLAYERS)
    table.enter(DEAL, BOB_MELDS, {"type": "next-turn"})
    table.open()
    count = Counter(page)
    count.action("toss")
    if page.input_value("select[name=meld]") != "1":
        count.tap("#melds [data-meld='1']")
    count.choose("select[name=joker]", "jk-red")
    for key in ("[data-suit='he']", "[data-rank='5']", "[data-rank='6']"):
        count.tap(f"#picker {key}")
    enter_with_top(count, "6he")
    table.stored()
    return count


def end_of_hand(page: Page, url: str) -> Counter:
    table = Table(page, url, PLAYERS)
    table.enter(DEAL, BOB_MELDS, {"type": "next-turn"})  # Cy's turn; Cy goes out
    table.open()
    count = Counter(page)
    count.action("end-hand")
    count.choose("select[name=went_out]", "Cy")
    for player, cards in (("Ann", "5he Kcl"), ("Bob", "9sp Qdi 3cl"), ("Dee", "Ahe 2sp")):
        count.type(f"[data-hand='{player}']", cards)
    count.tap("#preview")
    expect(page.locator("#tally-table")).to_be_visible()
    count.tap("#submit")
    table.stored()
    return count


def main() -> None:
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"needs Debian's chromium at {CHROMIUM} (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "taps.sqlite")})
        server = ServerThread(app, threads=20)
        server.start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM,
                                            args=["--no-sandbox", "--disable-gpu"])
                rows = []
                for name, run in (("3-card meld, after the deal", meld_after_deal),
                                  ("3-card meld, after Next turn", meld_after_next_turn),
                                  ("Toss (captured card + 2 from hand)", toss),
                                  ("end of a 4-player hand", end_of_hand)):
                    context = browser.new_context(viewport={"width": 1024, "height": 768})
                    page = context.new_page()
                    page.set_default_timeout(10_000)
                    page.on("dialog", lambda dialog: dialog.accept())
                    rows.append((name, run(page, server.url)))
                    context.close()
                browser.close()
        finally:
            server.stop()
            app.extensions["scorekeeper.store"].close()
    print(f"{'entry':<38} {'taps':>5} {'of them fields':>15} {'typed chars':>12}")
    for name, count in rows:
        print(f"{name:<38} {count.taps:>5} {len(count.fields):>15} {count.typed:>12}")


if __name__ == "__main__":
    main()
