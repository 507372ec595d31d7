"""Take the screenshots in docs/screenshots/ with headless Chromium: the keeper's tablet, a
player's phone and the table display (four boards on a 1280x720 TV, six on a 1920x1080 one;
the phone and the TV also in large print),
during a Complex Toss Rummy game; the keeper's tablet and a phone's standings during a Toss
Hearts game. Fails if the display page scrolls or puts a board outside the screen.

    python docs/make_screenshots.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import requests
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from web import create_app  # noqa: E402
from web.server import ServerThread  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
OUT = ROOT / "docs" / "screenshots"

PAPER = "carried over from the paper score"
GAME: list[dict[str, Any]] = [
    {"type": "new-hand", "dealer": "Ann"},
    {"type": "correction", "target": "Ann", "points": 412, "reason": PAPER},
    {"type": "correction", "target": "Bob", "points": 287, "reason": PAPER},
    {"type": "correction", "target": "Cy", "points": 530, "reason": PAPER},
    {"type": "correction", "target": "Dee", "points": -75, "reason": PAPER},
    {"type": "meld", "player": "Bob", "cards": ["7cl", "7sp", "7he", "7di"], "top": "7cl"},
    {"type": "next-turn"},
    {"type": "meld", "player": "Cy", "cards": ["9ca", "10ca", "Jca"], "top": "Jca"},
    {"type": "next-turn"},
    {"type": "meld", "player": "Dee", "cards": ["Kcl", "Kcr", "Ksh"], "top": "Kcl"},
    {"type": "next-turn"},
    {"type": "toss", "player": "Ann", "meld": 1, "joker": "jk-black", "cards": ["7cr", "7or"],
     "top": None},
]


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": f"{tmp}/screens.sqlite"})
        server = ServerThread(app)
        server.start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                shoot(browser, server.url)
                shoot_display_six(browser, server.url)
                shoot_hearts(browser, server.url)
                browser.close()
        finally:
            server.stop()
    print(f"screenshots written to {OUT}")
    return 0


def new_table(url: str, setup: dict[str, Any],
              events: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, str], int]:
    """Create a table and play ``events`` on it as its keeper: the creation reply, the
    keeper's auth header and the table's sequence number."""
    created = requests.post(f"{url}/api/tables", json=setup, timeout=10).json()
    auth = {"Authorization": f"Bearer {created['keeper_token']}"}
    seq = 0
    for event in events:
        reply = requests.post(f"{url}/api/tables/{created['table_id']}/events", headers=auth,
                              timeout=10, json={"base_seq": seq, "event": event})
        reply.raise_for_status()
        seq = reply.json()["seq"]
    return created, auth, seq


#: The players, in the default peg colours (each board also carries its shape).
FOUR_PLAYERS: list[dict[str, Any]] = [{"name": name} for name in ("Ann", "Bob", "Cy", "Dee")]
LARGE_PRINT = "localStorage.setItem('sk-large-print', '1')"


def shoot(browser: Any, url: str) -> None:
    created, auth, seq = new_table(url, {"game": "complex-toss-rummy", "players": FOUR_PLAYERS},
                                   GAME)
    table, keeper = created["table_id"], created["keeper_token"]
    tablet = browser.new_context(viewport={"width": 1024, "height": 768}, device_scale_factor=1)
    page = tablet.new_page()
    page.goto(f"{url}/t/{table}/keeper?token={keeper}")
    page.wait_for_selector(".board")
    page.click("[data-action=meld]")
    for tap in ("[data-rank='Q']", "[data-suit='he']", "[data-suit='di']", "[data-suit='or']"):
        page.click(f"#picker {tap}")
    time.sleep(0.5)
    page.screenshot(path=str(OUT / "keeper-tablet.png"))

    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                is_mobile=True, has_touch=True)
    ppage = phone.new_page()
    ppage.goto(created["urls"]["join"])
    ppage.click("[data-seat='Bob']")
    ppage.wait_for_selector("#my-board .board")
    time.sleep(0.5)
    ppage.screenshot(path=str(OUT / "player-phone.png"))
    phone_large = browser.new_context(viewport={"width": 390, "height": 844},
                                      device_scale_factor=2, is_mobile=True, has_touch=True)
    phone_large.add_init_script(LARGE_PRINT)
    lpage = phone_large.new_page()
    lpage.goto(created["urls"]["join"])
    lpage.click("[data-seat='Cy']")
    lpage.wait_for_selector("#my-board .board")
    time.sleep(0.5)
    lpage.screenshot(path=str(OUT / "player-phone-large-print.png"))
    phone_large.close()

    shoot_display(browser, created["urls"]["display"], 1280, 720, "display.png")
    shoot_display(browser, created["urls"]["display"], 1280, 720, "display-large-print.png",
                  large_print=True)

    end = {"type": "end-hand", "went_out": "Ann",
           "hands": {"Ann": [], "Bob": ["5he", "Khe"], "Cy": ["boss"], "Dee": ["2sp"]}}
    requests.post(f"{url}/api/tables/{table}/events", headers=auth, timeout=10,
                  json={"base_seq": seq, "event": end}).raise_for_status()
    hpage = tablet.new_page()
    hpage.goto(f"{url}/t/{table}/history")
    hpage.wait_for_selector("#chart svg")
    time.sleep(0.3)
    hpage.screenshot(path=str(OUT / "history.png"), full_page=False)
    tablet.close()
    phone.close()


SIX_PLAYERS: list[dict[str, Any]] = [
    *FOUR_PLAYERS, {"name": "Evangeline"}, {"name": "Fritz"}]
SIX_SCORES = {"Ann": 412, "Bob": 287, "Cy": 530, "Dee": -75, "Evangeline": 905, "Fritz": 660}


def shoot_display_six(browser: Any, url: str) -> None:
    """Six boards on a 1920x1080 display, mid-game."""
    events: list[dict[str, Any]] = [{"type": "new-hand", "dealer": "Fritz"}]
    events += [{"type": "correction", "target": name, "points": points, "reason": PAPER}
               for name, points in SIX_SCORES.items()]
    events += [{"type": "meld", "player": "Ann", "cards": ["Kcl", "Kcr", "Ksh"], "top": "Kcl"},
               {"type": "next-turn"}]
    created, _, _ = new_table(url, {"game": "complex-toss-rummy", "players": SIX_PLAYERS}, events)
    shoot_display(browser, created["urls"]["display"], 1920, 1080, "display-6.png")


def shoot_display(browser: Any, display_url: str, width: int, height: int, name: str,
                  large_print: bool = False) -> None:
    """Screenshot the display page at one TV size (in large print if asked); every board, the
    status line and the ticker must be on screen without scrolling."""
    tv = browser.new_context(viewport={"width": width, "height": height})
    if large_print:
        tv.add_init_script(LARGE_PRINT)
    page = tv.new_page()
    page.goto(display_url)
    page.wait_for_selector(".board")
    time.sleep(0.5)
    off_screen = page.evaluate("""() => [...document.querySelectorAll(
        '.board, #status, .ticker li, .winner-banner')].filter((e) => e.offsetParent !== null)
        .filter((e) => { const r = e.getBoundingClientRect();
          return r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth; })
        .map((e) => e.dataset.owner || e.id || e.className)""")
    scrolls = page.evaluate("document.documentElement.scrollHeight > innerHeight"
                            " || document.documentElement.scrollWidth > innerWidth")
    page.screenshot(path=str(OUT / name))
    tv.close()
    if off_screen or scrolls:
        raise SystemExit(f"{name}: the display does not fit {width}x{height}:"
                         f" off screen {off_screen}, scrolls {scrolls}")


HEARTS_HANDS: list[dict[str, Any]] = [
    {"taken": {"Ann": ["Qsp", "2he"], "Bob": ["3he", "4he", "5he"], "Cy": ["6he"],
               "Dee": ["7he", "8he", "9he", "10he", "Jhe", "Qhe", "Khe", "Ahe"]}},
    {"taken": {"Ann": ["2he", "3he"], "Bob": ["Qsp", "4he"], "Cy": [],
               "Dee": ["5he", "6he", "7he", "8he", "9he", "10he", "Jhe", "Qhe", "Khe", "Ahe"]}},
    {"taken": {"Ann": ["2he"], "Bob": ["3he", "4he", "5he", "6he"], "Cy": ["Qsp", "7he"],
               "Dee": ["8he", "9he", "10he", "Jhe", "Qhe", "Khe", "Ahe"]}},
]


def shoot_hearts(browser: Any, url: str) -> None:
    """A Toss Hearts table after three hands: the keeper entering the fourth on the tablet (with
    the preview), and the standings on Bob's phone."""
    created, _, _ = new_table(url, {"game": "toss-hearts", "players": FOUR_PLAYERS},
                              [{"type": "hand", "entry": entry} for entry in HEARTS_HANDS])
    table, keeper = created["table_id"], created["keeper_token"]
    tablet = browser.new_context(viewport={"width": 1024, "height": 900})
    page = tablet.new_page()
    page.goto(f"{url}/t/{table}/keeper?token={keeper}")
    page.wait_for_selector("#standings-table")
    page.fill("input[data-cards=taken][data-p=Ann]", "4he 5he")
    page.fill("input[data-cards=taken][data-p=Cy]", "6he 7he 8he")
    page.fill("input[data-cards=taken][data-p=Dee]", "9he 10he Jhe Qhe Khe Ahe 2he 3he")
    page.click("input[data-cards=taken][data-p=Bob]")
    page.click("#h-picker [data-rank='Q']")
    page.click("#h-picker [data-suit='sp']")
    page.click("#preview")
    page.wait_for_selector("#preview-table")
    time.sleep(0.4)
    page.screenshot(path=str(OUT / "hearts-keeper-tablet.png"), full_page=True)

    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                is_mobile=True, has_touch=True)
    ppage = phone.new_page()
    ppage.goto(created["urls"]["join"])
    ppage.click("[data-seat='Bob']")
    ppage.wait_for_selector("#standings-table")
    time.sleep(0.4)
    ppage.screenshot(path=str(OUT / "hearts-phone-standings.png"))
    tablet.close()
    phone.close()


if __name__ == "__main__":
    raise SystemExit(main())
