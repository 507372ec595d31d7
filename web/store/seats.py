"""Tokens and roles: who a token belongs to, the join link, claiming a seat, and the keeper's
answers to requests for a claimed seat.

Each change is one transaction that also tells the other processes (PostgreSQL), then the
table in memory changes and its streams send the new side information.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from web.store import live, schema
from web.store.errors import (
    SeatRequestNotFoundError,
    SeatRequestsFullError,
    StoreError,
    TokenError,
)
from web.store.log import LogStore, new_token
from web.store.table import Role, SeatClaim, Table

#: Requests for taken seats that may wait for the keeper's answer at once, per table.
MAX_SEAT_REQUESTS = 6

SEATS, REQUESTS = schema.seats, schema.seat_requests


class SeatStore(LogStore):
    """Tokens, roles and seats."""

    def role(self, table: Table, token: str | None) -> Role:
        """The role of a token at this table, or :class:`TokenError`."""
        if not token:
            raise TokenError(
                "this table needs a token: open the join link (scan the QR code) or send "
                "Authorization: Bearer TOKEN"
            )
        if not isinstance(token, str) or not token.isascii():
            raise TokenError("this token is not one this app makes (tokens are plain ASCII): "
                             "scan the table's QR code again")
        if secrets.compare_digest(token, table.keeper_token):
            return Role("keeper")
        if secrets.compare_digest(token, table.display_token):
            return Role("display")
        for player, seat_token in table.seats.items():
            if secrets.compare_digest(token, seat_token):
                return Role("player", player)
        if token in table.revoked:
            raise TokenError(
                f"the keeper freed or handed on {table.revoked[token]}'s seat, so this link no "
                "longer works: scan the table's QR code and ask the keeper for the seat again"
            )
        raise TokenError("this token does not belong to this table: scan the table's QR code again")

    def check_join_token(self, table: Table, join_token: str | None) -> None:
        if (not isinstance(join_token, str) or not join_token or not join_token.isascii()
                or not secrets.compare_digest(join_token, table.join_token)):
            raise TokenError(
                "this join link is wrong or has been replaced: "
                "ask the keeper to show the QR code again"
            )
        if time.time() > table.join_expires_at:
            raise TokenError(
                "this join link has expired: ask the keeper to make a new one (Rotate join code)"
            )

    def _announce_meta(self, conn: Connection, table: Table) -> None:
        self.fanout.announce(conn, table.id, live.META, table.seq)

    def claim_seat(self, table: Table, join_token: str | None, player: str) -> SeatClaim:
        """Give a free seat's token to whoever holds the join token. A seat someone already
        claimed is not handed out: the claim becomes a request the keeper approves or refuses
        (its ``secret`` lets this phone, and only it, collect the seat once approved)."""
        self.check_join_token(table, join_token)
        self._check_seat(table, player)
        with table.cond:
            if player not in table.claimed:
                with self.db.write() as conn:
                    conn.execute(SEATS.update().values(claimed_at=time.time())
                                 .where(SEATS.c.table_id == table.id, SEATS.c.player == player))
                    self._announce_meta(conn, table)
                table.claimed.add(player)
                live.meta_changed(table)
                return SeatClaim(player, token=table.seats[player])
            secret = new_token()
            with self.db.write() as conn:
                waiting = conn.execute(
                    sa.select(sa.func.count()).select_from(REQUESTS)
                    .where(REQUESTS.c.table_id == table.id, REQUESTS.c.status == "pending")
                ).scalar_one()
                if waiting >= MAX_SEAT_REQUESTS:
                    raise SeatRequestsFullError(
                        f"{waiting} phones are already waiting for a seat: ask the keeper to "
                        "answer them on the keeper page first")
                request_id = conn.execute(
                    REQUESTS.insert().values(table_id=table.id, player=player, secret=secret,
                                             created_at=time.time())
                    .returning(REQUESTS.c.id)).scalar_one()
                self._announce_meta(conn, table)
            live.meta_changed(table)
            return SeatClaim(player, request_id=int(request_id), secret=secret)

    @staticmethod
    def _check_seat(table: Table, player: str) -> None:
        if player not in table.seats:
            raise StoreError(
                f"there is no seat {player!r} at this table: pick one of {', '.join(table.seats)}"
            )

    def _seat_request(self, table: Table, request_id: int) -> sa.Row[Any]:
        rows = self.db.rows(sa.select(REQUESTS).where(
            REQUESTS.c.table_id == table.id, REQUESTS.c.id == request_id,
        )) if 0 < request_id < 2**31 else []
        if not rows:
            raise SeatRequestNotFoundError(
                f"there is no request {request_id} for a seat at this table: tap your name "
                "on the join page again")
        return rows[0]

    def collect_seat(self, table: Table, request_id: int, secret: Any) -> SeatClaim:
        """What became of a request for a claimed seat, asked by the phone that made it: the
        seat's token once the keeper approved (``token`` None while it waits)."""
        row = self._seat_request(table, request_id)
        if not isinstance(secret, str) or not secrets.compare_digest(secret, row.secret):
            raise TokenError("this request for a seat was made by another phone")
        status, player = row.status, row.player
        if status == "pending":
            return SeatClaim(player, request_id=request_id)
        if status == "approved" and table.seats.get(player) == row.token:
            return SeatClaim(player, token=row.token, request_id=request_id)
        why = {"refused": "the keeper refused it", "approved": "the seat was handed on since",
               "cancelled": "the keeper freed the seat meanwhile"}.get(status, status)
        raise TokenError(f"your request for {player}'s seat is over ({why}): tap your name "
                         "again, or ask the keeper")

    def resolve_seat_request(self, table: Table, request_id: int, approve: bool) -> str:
        """The keeper approves a request (the seat gets a new token, given to the requesting
        phone; the seat's old token ends) or refuses it; returns the new status."""
        with table.cond:
            row = self._seat_request(table, request_id)
            if row.status != "pending":
                raise StoreError(f"request {request_id} for {row.player}'s seat is already "
                                 f"{row.status}")
            if not approve:
                with self.db.write() as conn:
                    conn.execute(REQUESTS.update().values(status="refused")
                                 .where(REQUESTS.c.id == request_id))
                    self._announce_meta(conn, table)
                live.meta_changed(table)
                return "refused"
            token = new_token()
            self._reissue(table, row.player, token, claimed=True, extra=[
                REQUESTS.update().values(status="refused")
                .where(REQUESTS.c.table_id == table.id, REQUESTS.c.player == row.player,
                       REQUESTS.c.status == "pending", REQUESTS.c.id != request_id),
                REQUESTS.update().values(status="approved", token=token)
                .where(REQUESTS.c.id == request_id),
            ])
            return "approved"

    def free_seat(self, table: Table, player: str) -> None:
        """The keeper frees a seat: its token ends, and the next phone to tap it takes it."""
        self._check_seat(table, player)
        with table.cond:
            self._reissue(table, player, new_token(), claimed=False, extra=[
                REQUESTS.update().values(status="cancelled")
                .where(REQUESTS.c.table_id == table.id, REQUESTS.c.player == player,
                       REQUESTS.c.status == "pending"),
            ])

    def _reissue(self, table: Table, player: str, token: str, *, claimed: bool,
                 extra: list[Any]) -> None:
        """Give the seat a new token (the old one ends), in one transaction with ``extra``."""
        old = table.seats[player]
        with self.db.write() as conn:
            conn.execute(SEATS.update()
                         .values(token=token, claimed_at=time.time() if claimed else None)
                         .where(SEATS.c.table_id == table.id, SEATS.c.player == player))
            for statement in extra:
                conn.execute(statement)
            self._announce_meta(conn, table)
        table.seats[player] = token
        table.revoked[old] = player
        if claimed:
            table.claimed.add(player)
        else:
            table.claimed.discard(player)
        live.meta_changed(table)

    def seat_token_valid(self, table: Table, role: Role, token: str | None) -> bool:
        """Whether a player's token is still their seat's (a freed seat's stream ends)."""
        return role.kind != "player" or table.seats.get(role.player or "") == token

    def rotate_join_token(self, table: Table) -> str:
        """A new join token (the old QR code stops working), valid for ``join_ttl`` seconds."""
        with table.cond:
            token, expires = new_token(), time.time() + self.join_ttl
            with self.db.write() as conn:
                conn.execute(schema.tables.update()
                             .values(join_token=token, join_expires_at=expires)
                             .where(schema.tables.c.id == table.id))
                self._announce_meta(conn, table)
            table.join_token, table.join_expires_at = token, expires
        return token

    def set_auto_accept(self, table: Table, value: bool) -> None:
        with table.cond:
            with self.db.write() as conn:
                conn.execute(schema.tables.update().values(auto_accept=int(value))
                             .where(schema.tables.c.id == table.id))
                self._announce_meta(conn, table)
            table.auto_accept = value
            live.meta_changed(table)
