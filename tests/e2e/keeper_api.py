"""A table set up through the JSON API from a browser context, so that the context's cookie is
the keeper's and the pages it opens are the keeper's (the browser tests' shortcut to a table
in a given state)."""

from __future__ import annotations

from typing import Any

from playwright import sync_api

from web.server import ServerThread


class Keeper:
    """A table made through the API on the keeper's browser context (its cookie is the
    keeper's), and the events entered through the API before the page is looked at."""

    def __init__(self, page: sync_api.Page, server: ServerThread, setup: dict[str, Any]):
        self.page, self.url = page, server.url
        created = self.post("/api/tables", setup)
        self.id, self.seq, self.urls = created["table_id"], created["seq"], created["urls"]

    def post(self, path: str, body: dict[str, Any]) -> Any:
        reply = self.page.request.post(self.url + path, data=body)
        assert reply.ok, reply.text()
        return reply.json()

    def enter(self, *events: dict[str, Any]) -> None:
        for event in events:
            self.seq = self.post(f"/api/tables/{self.id}/events",
                                 {"base_seq": self.seq, "event": event})["seq"]

    def open(self, page: str = "keeper") -> None:
        self.page.goto(f"{self.url}/t/{self.id}/{page}")
