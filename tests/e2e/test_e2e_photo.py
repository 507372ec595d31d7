"""A player photographs a meld on the phone page in real headless Chromium against the real
server: the photo comes back with the cards outlined, the player fixes one card with the card
picker and sends the meld; the keeper accepts it and it is scored. The keeper calibrates a card.

Set ``SCOREKEEPER_SCREENSHOTS=docs/screenshots`` to keep the phone's review screen there.
"""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path
from typing import Any

import numpy as np
from playwright import sync_api

from web.server import ServerThread

expect = sync_api.expect


def api(server: ServerThread, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    request = urllib.request.Request(f"{server.url}{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.loads(reply.read())


def colour_pixels(page: Any, rgb: tuple[int, int, int] = (46, 230, 107)) -> int:
    """How many pixels of the review canvas have an outline colour (default: a sure card's)."""
    return int(page.evaluate("""([r, g, b]) => {
        const c = document.querySelector('#ph-canvas');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4)
            if (d[i] === r && d[i + 1] === g && d[i + 2] === b) n++;
        return n;
    }""", list(rgb)))


def upload_json(server: ServerThread, tid: str, token: str, jpeg: bytes) -> Any:
    request = urllib.request.Request(f"{server.url}/api/tables/{tid}/photos", data=jpeg,
                                     headers={"Content-Type": "image/jpeg",
                                              "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read())


def test_phone_photo_becomes_a_scored_meld(server: ServerThread, browser: Any,
                                           tmp_path: Path) -> None:
    from scorekeeper.vision.reference import ALTERNATE
    from scorekeeper.vision.synth import make_photo

    table = api(server, "/api/tables", {"players": ["Ann", "Bob", "Cy"]})
    tid = table["table_id"]
    api(server, f"/api/tables/{tid}/events",
        {"base_seq": 0, "event": {"type": "new-hand", "dealer": "Ann"}}, table["keeper_token"])
    shot = make_photo(np.random.default_rng(0), ["7cl", "7sp", "7he"], size=(1600, 1200),
                      kind="fan", max_tilt=20, quality=(85, 90))
    photo = tmp_path / "meld.jpg"
    photo.write_bytes(shot.jpeg)

    tablet = browser.new_context(viewport={"width": 1024, "height": 768})
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True, device_scale_factor=2)
    keeper = tablet.new_page()
    keeper.set_default_timeout(15_000)
    keeper.goto(f"{server.url}/t/{tid}/keeper?token={table['keeper_token']}")
    player = phone.new_page()
    player.set_default_timeout(15_000)
    player.goto(f"{server.url}/t/{tid}/play?token={table['seats']['Bob']}")

    # The phone page offers the camera through a plain file input.
    shoot = player.locator("#ph-file")
    assert shoot.get_attribute("accept") == "image/*"
    assert shoot.get_attribute("capture") == "environment"
    shoot.set_input_files(str(photo))
    chips = player.locator("#ph-cards [data-i]")
    expect(chips).to_have_count(3)
    assert sorted(chips.evaluate_all("els => els.map(e => e.dataset.code)")) == [
        "7cl", "7he", "7sp"]
    expect(player.locator("#ph-cards [data-check]")).to_have_count(0)
    assert colour_pixels(player) > 300  # the three outlines are drawn on the photo
    size = player.evaluate("[document.querySelector('#ph-canvas').width,"
                           " document.querySelector('#ph-canvas').height]")
    assert size == [1280, 960]  # the photo is drawn downscaled
    player.locator("#ph-review").scroll_into_view_if_needed()
    shots = Path(os.environ.get("SCOREKEEPER_SCREENSHOTS") or tmp_path)
    player.screenshot(path=str(shots / "phone-photo-review.png"))
    assert (shots / "phone-photo-review.png").stat().st_size > 10_000

    # The player says the 7he is really the 7di: tap it, pick 7 then diamonds.
    player.click("#ph-cards [data-code='7he']")
    expect(player.locator("#ph-fix")).to_be_visible()
    player.click("#ph-picker [data-rank='7']")
    player.click("#ph-picker [data-suit='di']")
    player.click("#ph-fix-ok")
    expect(player.locator("#ph-cards [data-code='7di'].fixed")).to_have_count(1)
    expect(player.locator("#ph-cards [data-code='7he']")).to_have_count(0)
    player.select_option("#ph-kind", "meld")
    player.click("#ph-send")
    expect(player.locator("[data-photo-sent]")).to_contain_text("keeper will accept")

    # The keeper sees the proposal live and accepts it: the meld is scored everywhere.
    keeper.click("#proposals [data-accept]")
    expect(keeper.locator(".board[data-owner='Bob'] [data-score]")).to_have_text("21")
    expect(player.locator("#my-board .board[data-owner='Bob'] [data-score]")).to_have_text("21")
    expect(player.locator("#melds")).to_contain_text("7")

    # The keeper may photograph a meld directly: entered at once, for the player whose turn it is.
    second = make_photo(np.random.default_rng(1), ["9cr", "9or", "9ca"], size=(1600, 1200),
                        kind="fan", max_tilt=20, quality=(85, 90))
    (tmp_path / "nines.jpg").write_bytes(second.jpeg)
    keeper.set_input_files("#ph-file", str(tmp_path / "nines.jpg"))
    expect(keeper.locator("#ph-cards [data-i]")).to_have_count(3)
    expect(keeper.locator("#ph-player")).to_have_value("Bob")
    keeper.click("#ph-send")
    expect(keeper.locator("[data-photo-sent]")).to_contain_text("Entered and scored")
    expect(player.locator("#my-board .board[data-owner='Bob'] [data-score]")).to_have_text("48")

    # A file that is not a photo gets a clear message on the phone, and nothing is sent.
    junk = tmp_path / "notes.jpg"
    junk.write_bytes(b"shopping list")
    shoot.set_input_files(str(junk))
    expect(player.locator("[data-photo-error]")).to_contain_text("not an image")
    expect(player.locator("#ph-review")).to_be_hidden()

    # Cards of an unknown deck read with doubt are outlined dashed red and marked with "?".
    doubtful = make_photo(np.random.default_rng(0), ["Qor", "5ca", "9sh"], ALTERNATE,
                          size=(1600, 1200), kind="fan", max_tilt=20, quality=(85, 90),
                          exif=False)
    (tmp_path / "other-deck.jpg").write_bytes(doubtful.jpeg)
    shoot.set_input_files(str(tmp_path / "other-deck.jpg"))
    expect(chips).to_have_count(3)
    reply = upload_json(server, tid, table["seats"]["Bob"], doubtful.jpeg)
    uncertain = sum(c["check"] for c in reply["cards"])
    expect(player.locator("#ph-cards [data-check]")).to_have_count(uncertain)
    doubtful_chips = sum(c["doubt"] and not c["check"] for c in reply["cards"])
    expect(player.locator("#ph-cards .doubt")).to_have_count(doubtful_chips)
    assert (colour_pixels(player, (255, 59, 48)) > 100) == (uncertain > 0)
    player.locator("#ph-review").scroll_into_view_if_needed()
    player.screenshot(path=str(shots / "phone-photo-uncertain.png"))
    player.click("#ph-discard")
    expect(player.locator("#ph-review")).to_be_hidden()

    big = tmp_path / "huge.jpg"  # over the 16 MB limit: refused before it is uploaded
    big.write_bytes(b"\xff\xd8" + bytes(17 * 1024 * 1024))
    shoot.set_input_files(str(big))
    expect(player.locator("[data-photo-error]")).to_contain_text("the limit is 16 MB")
    events = api(server, f"/api/tables/{tid}/preview-end-hand", {"hands": {}},
                 table["keeper_token"])
    assert events["seq"] == 3  # new hand and the two melds: nothing else was stored
    tablet.close()
    phone.close()


def test_keeper_calibrates_a_card_with_the_wizard(server: ServerThread, browser: Any,
                                                  tmp_path: Path) -> None:
    from scorekeeper.vision.reference import ALTERNATE
    from scorekeeper.vision.synth import calibration_photo

    table = api(server, "/api/tables", {"players": ["Ann", "Bob"]})
    tid = table["table_id"]
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server.url}/t/{tid}/keeper?token={table['keeper_token']}")
    page.click("#calibrate-link")
    expect(page.locator("#cal-count")).to_have_text("0 of 110 cards learned")
    page.click("#cal-grid [data-code='Qor']")
    expect(page.locator("#cal-name")).to_contain_text("Qor")
    photo = tmp_path / "Qor.jpg"
    photo.write_bytes(calibration_photo(np.random.default_rng(2), "Qor", ALTERNATE, (1200, 900)))
    page.set_input_files("#cal-photo", str(photo))
    expect(page.locator("[data-learned='Qor']")).to_be_visible()
    expect(page.locator("#cal-count")).to_have_text("1 of 110 cards learned")
    expect(page.locator("#cal-grid [data-code='Qor'].learned")).to_have_count(1)
    assert page.evaluate("document.querySelector('#cal-bar').style.width") != "0%"
    # a broken photo is refused with its reason and nothing is learned
    junk = tmp_path / "broken.jpg"
    junk.write_bytes(b"\xff\xd8 not really a jpeg")
    page.set_input_files("#cal-photo", str(junk))
    expect(page.locator("[data-cal-error]")).to_contain_text("not an image")
    expect(page.locator("#cal-count")).to_have_text("1 of 110 cards learned")
    context.close()


def test_the_wizard_shows_a_doubted_card(server: ServerThread, browser: Any,
                                         tmp_path: Path) -> None:
    # Guyenne courts show no rank in the corner: this queen's pip and a piece of her picture
    # were learned as an index, a quarter the size of the other oracles' (tests/test_vision_art).
    from test_vision_art import _oracles_and_guyenne_queen

    photos = _oracles_and_guyenne_queen()
    paths = []
    for code, jpeg in photos.items():  # the queen last: she is compared with the others
        paths.append(tmp_path / f"{code}.jpg")
        paths[-1].write_bytes(jpeg)
    table = api(server, "/api/tables", {"players": ["Ann", "Bob"]})
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(f"{server.url}/t/{table['table_id']}/calibrate?token={table['keeper_token']}")
    page.set_input_files("#cal-files", [str(p) for p in paths])
    expect(page.locator("#cal-bulk .okbox")).to_contain_text("6 of 6 photos learned")
    expect(page.locator("#cal-bulk [data-cal-doubt]")).to_have_count(1)
    expect(page.locator("#cal-bulk [data-cal-doubt]")).to_contain_text("Qor: the suit pip")
    context.close()
