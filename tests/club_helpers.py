"""Helpers of the club tests: a night made and played through the JSON API."""

from __future__ import annotations

from typing import Any

PENALTY_CARDS = [[], ["7cl"], ["Kcl", "Qhe"], ["Kcl", "Qhe", "Jsp"], ["Ksp", "Qsp", "Jhe", "10cl"],
                 ["Ksp", "Qsp", "Jhe", "10cl", "9di"]]


def finish_events(players: list[str], winner: str) -> list[dict[str, Any]]:
    """Events that play one hand (players' scores in seat order, highest first) and then end
    the game with a correction that takes ``winner`` past 1000."""
    hands = {p: PENALTY_CARDS[i] for i, p in enumerate(players)}
    return [
        {"type": "new-hand", "dealer": players[-1]},
        {"type": "end-hand", "went_out": players[0], "hands": hands},
        {"type": "correction", "target": winner, "points": 1100, "reason": "the night's test"},
    ]


def play(client: Any, table: dict[str, Any], events: list[dict[str, Any]]) -> int:
    """Enter ``events`` at a club table as its keeper; returns the table's sequence number."""
    headers = {"Authorization": f"Bearer {table['keeper_token']}"}
    seq = 0
    for event in events:
        reply = client.post(f"/api/tables/{table['table_id']}/events", headers=headers,
                            json={"base_seq": seq, "event": event})
        assert reply.status_code == 201, reply.get_json()
        seq = reply.get_json()["seq"]
    return seq
