"""Proposals and decks: what players propose for the keeper, hand confirmations, the LED
board's status, the side information the pages show beside the game state, and each table's
learned deck profile (web/photos.py)."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

from web.store import live, schema
from web.store.errors import ProposalNotFoundError, check_action_id
from web.store.seats import REQUESTS, SeatStore
from web.store.table import Table

PROPOSALS, CONFIRMATIONS = schema.proposals, schema.confirmations
PROFILES, CARDS = schema.deck_profiles, schema.deck_cards
TABLE_ID: sa.BindParameter[str] = sa.bindparam("table_id", type_=sa.Text)
# The side information's statements, built once (each stream reads them on a change).
PENDING = (sa.select(PROPOSALS).where(PROPOSALS.c.table_id == TABLE_ID,
                                      PROPOSALS.c.status == "pending").order_by(PROPOSALS.c.id))
CONFIRMED = (sa.select(CONFIRMATIONS.c.hand_no, CONFIRMATIONS.c.player)
             .where(CONFIRMATIONS.c.table_id == TABLE_ID).order_by(CONFIRMATIONS.c.at))
WAITING = (sa.select(REQUESTS.c.id, REQUESTS.c.player, REQUESTS.c.created_at)
           .where(REQUESTS.c.table_id == TABLE_ID, REQUESTS.c.status == "pending")
           .order_by(REQUESTS.c.id))
#: Largest id a row can have on both databases (PostgreSQL's INTEGER).
MAX_ID = 2**31 - 1


def proposal_json(row: sa.Row[Any]) -> dict[str, Any]:
    return {"id": row.id, "player": row.player, "kind": row.kind,
            "payload": json.loads(row.payload_json), "status": row.status,
            "created_at": row.created_at, "resolved_seq": row.resolved_seq}


class ProposalStore(SeatStore):
    """Proposals, confirmations, the board's status, the side information and decks."""

    def _meta_write(self, table: Table, *statements: Any) -> Any:
        """Run ``statements`` in one transaction that tells the other processes, then wake
        this table's streams; returns the first value the last statement returned."""
        with self.db.write() as conn:
            for statement in statements:
                result = conn.execute(statement)
            value = result.scalar() if result.returns_rows else None
            self.fanout.announce(conn, table.id, live.META, table.seq)
        live.meta_changed(table)
        return value

    # -- proposals and confirmations ---------------------------------------------------

    def repeated_proposal(self, table: Table, action_id: str | None) -> dict[str, Any] | None:
        """The proposal already stored under this action id (a double tap), or None."""
        if check_action_id(action_id) is None:
            return None
        rows = self.db.rows(sa.select(PROPOSALS).where(PROPOSALS.c.table_id == table.id,
                                                       PROPOSALS.c.action_id == action_id))
        return proposal_json(rows[0]) if rows else None

    def propose(self, table: Table, player: str, kind: str, payload: Any,
                action_id: str | None = None) -> int:
        """Store a player's proposal (an event, or the cards left in hand) for the keeper; a
        new hand proposal replaces the player's pending one."""
        action_id = check_action_id(action_id)
        statements: list[Any] = []
        if kind == "hand":
            statements.append(PROPOSALS.update().values(status="replaced").where(
                PROPOSALS.c.table_id == table.id, PROPOSALS.c.player == player,
                PROPOSALS.c.kind == "hand", PROPOSALS.c.status == "pending"))
        statements.append(PROPOSALS.insert().values(
            table_id=table.id, player=player, kind=kind, payload_json=json.dumps(payload),
            created_at=time.time(), action_id=action_id).returning(PROPOSALS.c.id))
        with table.cond:
            return int(self._meta_write(table, *statements))

    def proposal(self, table: Table, proposal_id: int) -> dict[str, Any]:
        rows = self.db.rows(sa.select(PROPOSALS).where(
            PROPOSALS.c.table_id == table.id, PROPOSALS.c.id == proposal_id,
        )) if 0 < proposal_id <= MAX_ID else []
        if not rows:
            raise ProposalNotFoundError(f"there is no proposal {proposal_id} at this table")
        return proposal_json(rows[0])

    def resolve_proposal(self, table: Table, proposal_id: int, status: str,
                         seq: int | None = None) -> None:
        with table.cond:
            self._meta_write(table, PROPOSALS.update().values(status=status, resolved_seq=seq)
                             .where(PROPOSALS.c.table_id == table.id,
                                    PROPOSALS.c.id == proposal_id))

    def confirm_hand(self, table: Table, player: str, hand_no: int) -> None:
        """A player confirms the hand's tally (a second confirmation changes nothing)."""
        with table.cond:
            self._meta_write(table, self.db.insert_or_ignore(CONFIRMATIONS).values(
                table_id=table.id, hand_no=hand_no, player=player, at=time.time()))

    def set_board_status(self, table: Table, status: str, detail: str) -> None:
        """What the LED board attached to this process reports."""
        with table.cond:
            table.board_status = {"status": status, "detail": detail, "at": time.time()}
        live.meta_changed(table)

    def meta(self, table: Table) -> dict[str, Any]:
        """What the pages show beside the game state: seats, proposals, confirmations, board."""
        key = {"table_id": table.id}
        with self.db.read() as conn:
            pending = list(conn.execute(PENDING, key))
            confirmations = list(conn.execute(CONFIRMED, key))
            requests = list(conn.execute(WAITING, key))
        confirmed: dict[str, list[str]] = {}
        for row in confirmations:
            confirmed.setdefault(str(row.hand_no), []).append(row.player)
        return {
            "seats": [{"player": p, "claimed": p in table.claimed} for p in table.seats],
            "seat_requests": [{"id": r.id, "player": r.player, "at": r.created_at}
                              for r in requests],
            "auto_accept": table.auto_accept,
            "proposals": [proposal_json(r) for r in pending],
            "confirmations": confirmed,
            "board_status": table.board_status,
            "join_expires_at": table.join_expires_at,
            "amendments": self.amendment_notices(table),
        }

    def amendment_notices(self, table: Table, latest: int = 5) -> list[dict[str, Any]]:
        """The latest amendments in effect, for the notice on the players' phones: which
        update they amend, who, when, why, and the hands they rescored."""
        numbers = self._fold_of(table).amendments[-latest:]
        if not numbers:
            return []
        events = schema.events
        rows = self.db.rows(sa.select(events.c.seq, events.c.event_json, events.c.by,
                                      events.c.at)
                            .where(events.c.table_id == table.id, events.c.seq.in_(numbers))
                            .order_by(events.c.seq))
        notices = []
        for row in rows:
            event = json.loads(row.event_json)
            notices.append({"seq": row.seq, "target": event.get("target"), "by": row.by,
                            "at": row.at, "reason": event.get("reason"),
                            "hands": event.get("rescored_hands", []),
                            "removed": event.get("remove", [])})
        return notices

    # -- learned deck profiles (web/photos.py) -----------------------------------------

    def deck_head(self, table: Table) -> Mapping[str, Any] | None:
        """The table's deck profile (``name``, ``deck``, ``updated_at``), or None."""
        rows = self.db.rows(sa.select(PROFILES.c.name, PROFILES.c.deck, PROFILES.c.updated_at)
                            .where(PROFILES.c.table_id == table.id))
        return dict(rows[0]._mapping) if rows else None

    def learned_codes(self, table: Table) -> set[str]:
        return {r.code for r in self.db.rows(sa.select(CARDS.c.code)
                                             .where(CARDS.c.table_id == table.id))}

    def learned_models(self, table: Table) -> dict[str, bytes]:
        """Each learned card's model, by code."""
        return {r.code: bytes(r.model) for r in self.db.rows(
            sa.select(CARDS.c.code, CARDS.c.model).where(CARDS.c.table_id == table.id))}

    def learned_stamp(self, table: Table) -> tuple[int, float] | None:
        """How many cards the table has learned and when the last was, or None for none."""
        row = self.db.rows(sa.select(sa.func.count().label("n"),
                                     sa.func.max(CARDS.c.learned_at).label("at"))
                           .where(CARDS.c.table_id == table.id))[0]
        return (int(row.n), float(row.at)) if row.n else None

    def save_learned_card(self, table: Table, code: str, model: bytes, source: str, deck: str,
                          name: str | None) -> None:
        """Keep one learned card's model (a card learned again replaces its model)."""
        now = time.time()
        with self.db.write() as conn:
            updated = conn.execute(
                PROFILES.update().values(updated_at=now, name=sa.func.coalesce(name,
                                                                             PROFILES.c.name))
                .where(PROFILES.c.table_id == table.id)).rowcount
            if not updated:
                conn.execute(PROFILES.insert().values(
                    table_id=table.id, name=name or f"table {table.id}", deck=deck,
                    updated_at=now))
            conn.execute(CARDS.delete().where(CARDS.c.table_id == table.id,
                                              CARDS.c.code == code))
            conn.execute(CARDS.insert().values(table_id=table.id, code=code, model=model,
                                               source=source[:200], learned_at=now))

    def forget_learned(self, table: Table, code: str | None = None) -> None:
        """Forget one learned card, or the table's whole deck profile."""
        with self.db.write() as conn:
            if code is None:
                conn.execute(CARDS.delete().where(CARDS.c.table_id == table.id))
                conn.execute(PROFILES.delete().where(PROFILES.c.table_id == table.id))
            else:
                conn.execute(CARDS.delete().where(CARDS.c.table_id == table.id,
                                                  CARDS.c.code == code))
                conn.execute(PROFILES.update().values(updated_at=time.time())
                             .where(PROFILES.c.table_id == table.id))
