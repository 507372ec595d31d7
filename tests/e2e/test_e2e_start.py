"""The start page in real headless Chromium against the real server: it offers each game's
declared options (scorekeeper.options) and posts the one setup format that
``scorekeeper.game.read_setup`` reads, leaving default colours to the server."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright import sync_api

from scorekeeper.game import get_game, read_setup, setup_json
from scorekeeper.options import MAX_DECKS
from scorekeeper.pegboard import PEG_COLOURS
from web.server import ServerThread

expect = sync_api.expect
Page = sync_api.Page


@pytest.fixture
def tablet(browser: Any) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    assert errors == []
    context.close()


def create(page: Page) -> tuple[dict[str, Any], str]:
    """Click Create; the body the page posted and the new table's id."""
    with page.expect_request(lambda r: r.url.endswith("/api/tables")
                             and r.method == "POST") as posted:
        page.click("#create")
    page.wait_for_url(re.compile(r"/t/\w+/keeper$"))
    match = re.search(r"/t/(\w+)/keeper$", page.url)
    assert match
    body: dict[str, Any] = json.loads(posted.value.post_data or "{}")
    return body, match.group(1)


def stored_setup(page: Page, table_id: str) -> Any:
    """The setup the server stored, read with the keeper's cookie."""
    origin = re.sub(r"(https?://[^/]+).*", r"\1", page.url)
    return page.request.get(f"{origin}/api/tables/{table_id}").json()["setup"]


def test_a_team_table_is_posted_in_the_one_setup_format(server: ServerThread,
                                                        tablet: Page) -> None:
    tablet.goto(f"{server.url}/")
    offered = tablet.locator("#game-options [data-opt]").evaluate_all(
        "els => els.map(el => el.dataset.opt)")
    assert offered == [o.name for o in get_game("complex-toss-rummy").options]
    tablet.select_option("#teams", "2")
    tablet.locator("[name=team-colour]").first.select_option(PEG_COLOURS["green"])
    tablet.select_option("select[name=ace]", "high")
    tablet.fill("input[name=goal]", "500")
    body, table_id = create(tablet)
    assert body == {
        "game": "complex-toss-rummy", "players": ["Ann", "Bob", "Cy", "Dee"],
        "teams": {"North": ["Ann", "Cy"], "South": ["Bob", "Dee"]},
        "colours": {"North": PEG_COLOURS["green"]},  # South: the server's next free colour
        "options": {"ace": "high", "goal": 500, "decks": 1, "toss_joker": "shown",
                    "double_cross_back": True, "double_cross_takes": "whole-play"},
        "auto_accept": False}
    setup = {k: v for k, v in body.items() if k != "auto_accept"}
    assert stored_setup(tablet, table_id) == setup_json(read_setup(setup))
    assert stored_setup(tablet, table_id)["colours"] == {"North": PEG_COLOURS["green"],
                                                         "South": PEG_COLOURS["red"]}


def test_a_hand_by_hand_game_is_posted_in_the_one_setup_format(server: ServerThread,
                                                                tablet: Page) -> None:
    tablet.goto(f"{server.url}/")
    tablet.click(".game-choice[data-game=toss-hearts]")
    tablet.click("#remove-player")
    tablet.locator("select[name=colour]").nth(1).select_option(PEG_COLOURS["white"])
    expect(tablet.locator("#pack-decks")).to_have_attribute("max", str(MAX_DECKS))
    tablet.fill("#pack-decks", "2")
    body, table_id = create(tablet)
    assert body == {"game": "toss-hearts", "players": ["Ann", "Bob", "Cy"],
                    "colours": {"Bob": PEG_COLOURS["white"]}, "decks": 2,
                    "options": {"moon": "minus", "limit": 100,
                                "renege_hand": "penalty-only"}}
    stored = stored_setup(tablet, table_id)
    assert stored == setup_json(read_setup(body))
    assert stored["colours"] == {"Ann": PEG_COLOURS["red"], "Bob": PEG_COLOURS["white"],
                                 "Cy": PEG_COLOURS["blue"]}


def test_a_bad_option_value_is_refused_naming_the_allowed_values(server: ServerThread,
                                                                 tablet: Page) -> None:
    tablet.goto(f"{server.url}/")
    tablet.click(".game-choice[data-game=toss-rummy]")
    tablet.fill("input[name=chips_per_points]", "0")
    tablet.evaluate("document.querySelector('input[name=chips_per_points]').removeAttribute('min')")
    tablet.click("#create")
    expect(tablet.locator("#start-error")).to_contain_text(
        'option "chips_per_points" must be 1 or more, not 0')
