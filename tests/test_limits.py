"""The table limits and the card-code reading each live in one place: the 2-6 players of a
Toss table and the 6 boards (scorekeeper.pegboard.MAX_BOARDS), each game's own player count
(its ``min_players``/``max_players``), the decks (scorekeeper.options.MAX_DECKS) and typed card
codes (scorekeeper.cards on the server, ``SK.cardTokens`` on the pages)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from firmware_bridge.layout import Layout, LayoutError, default_layout
from scorekeeper.engine import SetupError, TableSetup
from scorekeeper.game import GAMES, get_game
from scorekeeper.options import MAX_DECKS
from scorekeeper.pegboard import MAX_BOARDS

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "web" / "static"


def test_a_toss_table_and_the_led_board_share_the_board_limit() -> None:
    for name in ("toss-rummy", "complex-toss-rummy"):
        assert (get_game(name).min_players, get_game(name).max_players) == (2, MAX_BOARDS)
    names = [f"p{i}" for i in range(MAX_BOARDS + 1)]
    with pytest.raises(SetupError, match=f"2 to {MAX_BOARDS} players, not {MAX_BOARDS + 1}"):
        TableSetup.from_json({"players": names})
    assert len(default_layout().boards) == MAX_BOARDS
    with pytest.raises(LayoutError, match=f"1-{MAX_BOARDS} boards, got {MAX_BOARDS + 1}"):
        default_layout(MAX_BOARDS + 1)
    six = default_layout()
    with pytest.raises(LayoutError, match=f"a layout has 1-{MAX_BOARDS} boards"):
        Layout(six.led_count, (*six.boards, six.boards[0]))


def test_every_game_describes_its_players_and_decks_for_the_pages() -> None:
    for game in GAMES.values():
        described = game.describe()
        assert described["players"] == {"min": game.min_players, "max": game.max_players}
        if game.engine == "hands":
            assert described["decks"] == {"min": 1, "max": MAX_DECKS}


def test_the_api_caps_a_roster_at_the_largest_table_any_game_seats(
        app: Flask, client: FlaskClient) -> None:
    most = max(game.max_players for game in GAMES.values())
    names = [f"p{i}" for i in range(most + 1)]
    reply = client.post("/api/tables", json={"game": "rummy", "players": names})
    assert reply.status_code == 400
    assert reply.json["error"] == f"a table seats at most {most} players, not {most + 1}"
    assert app.extensions["scorekeeper.store"].table_ids() == []


def test_the_pages_hold_no_copies_of_the_limits() -> None:
    """The start page takes the player counts and decks from each game's description, the
    rules page its decks from the server: no number of players, boards or decks of their own."""
    start = (STATIC / "start.js").read_text(encoding="utf-8")
    assert not re.search(r"Math\.(min|max)\(\s*\d", start), "a player count in start.js"
    for page in ("start.js", "../templates/start.html", "../templates/rules.html"):
        assert 'max="20"' not in (STATIC / page).read_text(encoding="utf-8"), page
    layout = (ROOT / "firmware_bridge" / "layout.py").read_text(encoding="utf-8")
    assert "1-6" not in layout and "<= 6" not in layout


def test_every_page_splits_typed_card_codes_with_the_one_helper() -> None:
    for page in ("hands.js", "amend.js", "keeper.js", "sk.js"):
        text = (STATIC / page).read_text(encoding="utf-8")
        assert "SK.cardTokens(" in text, page
        copies = [line for line in text.splitlines()
                  if "split(/[\\s,]+/)" in line and "SK.cardTokens =" not in line]
        assert copies == [], page
