"""The LED board follows an amendment of a past event live, like every other write."""

from __future__ import annotations

from typing import Any

from flask import Flask
from test_board_link import HAND_EVENTS, SETUP, expected_leds, wait_until

from firmware_bridge.webapp import BOARD
from scorekeeper import engine


def test_the_board_shows_the_scores_an_amendment_gives(app: Flask) -> None:
    store = app.extensions["scorekeeper.store"]
    table = store.create_table(engine.TableSetup.from_json(SETUP))
    follower = BOARD.start(app, "sim", store)
    try:
        emulator = app.extensions["scorekeeper.board_sim"]
        state: dict[str, Any] = {}
        for seq, event in enumerate(HAND_EVENTS):
            state = store.append(table, seq, event, by="keeper")[1]
        assert emulator.wait_for(lambda e: e.lit() == expected_leds(state["boards"]), 5.0)
        meld = {**HAND_EVENTS[11], "cards": ["Aor", "Kor", "Qor", "Jor"]}
        amendment = {"type": "amend", "target": 12, "event": meld, "reason": "the jack too"}
        amended = store.append(table, len(HAND_EVENTS), amendment, by="keeper")[1]
        assert amended["boards"] != state["boards"]
        assert emulator.wait_for(lambda e: e.lit() == expected_leds(amended["boards"]), 5.0)
        assert wait_until(lambda: table.board_status["status"] == "connected")
    finally:
        follower.stop()
        app.extensions["scorekeeper.board_sim"].stop()
