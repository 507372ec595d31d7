"""The keeper fills the End hand form from photos of each player's remaining cards, in real
headless Chromium against the real server: the photographed cards fill the player's field, the
warnings and the doubtful cards are shown, the keeper corrects a field, previews and commits."""

from __future__ import annotations

import json
import math
import urllib.request
from pathlib import Path
from typing import Any

import numpy as np
from playwright import sync_api

from web.server import ServerThread

expect = sync_api.expect

PHOTO: dict[str, Any] = {"size": (1600, 1200), "kind": "fan", "max_tilt": 20, "quality": (85, 90)}


def call(server: ServerThread, path: str, body: dict[str, Any] | bytes | None = None,
         token: str | None = None, content_type: str = "application/json") -> Any:
    data = body if isinstance(body, bytes) else None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{server.url}{path}", data=data,
                                     headers={"Content-Type": content_type})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read())


def test_keeper_fills_end_hand_from_photos(server: ServerThread, browser: Any,
                                           tmp_path: Path) -> None:
    from scorekeeper.vision.reference import ALTERNATE
    from scorekeeper.vision.synth import make_photo

    table = call(server, "/api/tables", {"players": ["Ann", "Bob", "Cy"]})
    tid, token = table["table_id"], table["keeper_token"]
    ann = tmp_path / "ann.jpg"
    ann.write_bytes(make_photo(np.random.default_rng(0), ["6he", "Kcl", "9cr"], **PHOTO).jpeg)
    # Cy's cards are of a deck the table never learned: read with doubt, one uncertain
    cy_jpeg = make_photo(np.random.default_rng(0), ["Qor", "5ca", "9sh"], ALTERNATE,
                         exif=False, **PHOTO).jpeg
    cy = tmp_path / "cy.jpg"
    cy.write_bytes(cy_jpeg)

    context = browser.new_context(viewport={"width": 1024, "height": 768})
    keeper = context.new_page()
    keeper.set_default_timeout(15_000)
    keeper.goto(f"{server.url}/t/{tid}/keeper?token={token}")
    keeper.click("[data-action=new-hand]")
    keeper.select_option("select[name=dealer]", "Ann")
    keeper.click("#submit")
    expect(keeper.locator("#status")).to_contain_text("update 1")

    keeper.click("[data-action=end-hand]")
    keeper.select_option("select[name=went_out]", "Bob")
    camera = keeper.locator("[data-hand-photo='Ann']")
    assert camera.get_attribute("type") == "file"
    assert camera.get_attribute("accept") == "image/*"
    assert camera.get_attribute("capture") == "environment"

    # Ann's photo: her field fills with the three codes, nothing to check.
    camera.set_input_files(str(ann))
    expect(keeper.locator("[data-hand-note='Ann']")).to_contain_text("3 cards read")
    assert sorted(keeper.input_value("[data-hand='Ann']").split()) == ["6he", "9cr", "Kcl"]
    expect(keeper.locator("[data-hand-note='Ann'] [data-hand-check]")).to_have_count(0)

    # Cy's photo: the warnings and every doubtful card's code and confidence are shown.
    keeper.set_input_files("[data-hand-photo='Cy']", str(cy))
    note = keeper.locator("[data-hand-note='Cy']")
    expect(note).to_contain_text("3 cards read")
    reply = call(server, f"/api/tables/{tid}/photos", cy_jpeg, token, "image/jpeg")
    read = [c["code"] for c in reply["cards"]]
    assert keeper.input_value("[data-hand='Cy']").split() == read
    assert reply["warnings"] and any(c["doubt"] for c in reply["cards"])
    warnings = note.locator(".ph-warning")
    for k, warning in enumerate(reply["warnings"]):
        expect(warnings.nth(k)).to_contain_text(warning)
    check = note.locator("[data-hand-check]")
    expect(check).to_contain_text("check: ")
    for card in reply["cards"]:
        # As the page's Math.round: halves round up (Python's round() would round 42.5 to 42).
        text = f"{card['code']} ({math.floor(card['confidence'] * 100 + 0.5)}%)"
        if card["doubt"]:
            expect(check).to_contain_text(text)
        else:
            expect(check).not_to_contain_text(card["code"])
    assert sorted(keeper.input_value("[data-hand='Ann']").split()) == ["6he", "9cr", "Kcl"]

    # A file that is not a photo is refused with its reason; Bob's field stays empty.
    junk = tmp_path / "junk.jpg"
    junk.write_bytes(b"\xff\xd8 not really a jpeg")
    keeper.set_input_files("[data-hand-photo='Bob']", str(junk))
    expect(keeper.locator("[data-hand-note='Bob'] [data-hand-error]")).to_contain_text(
        "not an image")
    assert keeper.input_value("[data-hand='Bob']") == ""

    # The keeper corrects Cy's cards by hand, previews and commits.
    keeper.fill("[data-hand='Cy']", "Qor 5ca 9sh")
    keeper.click("#preview")
    tally = keeper.locator("#tally-table")
    expect(tally.locator("tr", has_text="Ann").locator("b")).to_have_text("-25")
    expect(tally.locator("tr", has_text="Cy").locator("b")).to_have_text("-24")
    expect(tally.locator("tr", has_text="Bob").locator("b")).to_have_text("0")
    keeper.click("#submit")
    expect(keeper.locator("#status")).to_contain_text("update 2")
    expect(keeper.locator(".board[data-owner='Ann'] [data-score]")).to_have_text("-25")
    expect(keeper.locator(".board[data-owner='Cy'] [data-score]")).to_have_text("-24")
    expect(keeper.locator(".board[data-owner='Bob'] [data-score]")).to_have_text("0")
    state = call(server, f"/api/tables/{tid}?token={token}")["state"]
    committed = state["hands"][-1]
    assert committed["went_out"] == "Bob"
    assert committed["deltas"] == {"Ann": -25, "Bob": 0, "Cy": -24}
    assert committed["tally"]["players"]["Ann"]["hand_points"] == 25  # 6he + Kcl + 9cr
    context.close()
