"""A page whose live stream is refused (503: too many pages open) goes live again by itself
once a slot frees, in real headless Chromium against the real server, with no reload."""

from __future__ import annotations

import re
from typing import Any

import requests
from playwright import sync_api
from sse_client import SSEReader

from web.server import ServerThread

expect = sync_api.expect


def test_a_refused_stream_is_opened_again_with_backoff(server: ServerThread,
                                                       browser: Any) -> None:
    reply = requests.post(f"{server.url}/api/tables", json={"players": ["Ann", "Bob"]}, timeout=5)
    assert reply.status_code == 201
    table = reply.json()
    store = server.app.extensions["scorekeeper.store"]
    server.app.config["MAX_STREAMS"] = store.listeners + 1
    holder = SSEReader(f"{server.url}/api/tables/{table['table_id']}/stream"
                       f"?token={table['display_token']}")
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        assert holder.status == 200
        refused: list[int] = []
        page.on("response", lambda r: refused.append(r.status) if "/stream" in r.url else None)
        page.goto(f"{server.url}/t/{table['table_id']}/display?token={table['display_token']}")
        expect(page.locator(".board")).to_have_count(2)
        for _ in range(100):  # the first try and at least one retry (after 1 s) are refused
            if refused.count(503) >= 2:
                break
            page.wait_for_timeout(100)
        assert refused.count(503) >= 2, refused
        expect(page.locator("#live")).not_to_have_class(re.compile(r"\bon\b"))
        holder.close()  # a slot frees: one of the page's next tries (1 s, 2 s, 4 s...) gets it
        expect(page.locator("#live")).to_have_class(re.compile(r"\bon\b"), timeout=30_000)
        assert refused.count(503) >= 2 and refused[-1] == 200, refused
        # and it follows the table again
        event = {"base_seq": 0, "event": {"type": "correction", "target": "Ann", "points": 5,
                                          "reason": "test"}}
        reply = requests.post(f"{server.url}/api/tables/{table['table_id']}/events", json=event,
                              headers={"Authorization": f"Bearer {table['keeper_token']}"},
                              timeout=5)
        assert reply.status_code == 201
        expect(page.locator(".board[data-owner='Ann'] [data-score]")).to_have_text("5")
    finally:
        server.app.config.pop("MAX_STREAMS", None)
        holder.close()
        context.close()
