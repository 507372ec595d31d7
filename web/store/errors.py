"""What the store refuses, each with the HTTP status it maps to."""

from __future__ import annotations

from typing import Any

from scorekeeper.errors import http_status
from scorekeeper.outline import StateOutline

#: A page's action id: 8 to 64 letters, digits, ``-`` or ``_`` (a random id per tap).
ACTION_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


class StoreError(ValueError):
    """A request the store refuses; ``status`` is the HTTP status it maps to."""

    status = 400


class TableNotFoundError(StoreError):
    status = 404

    def __init__(self, table_id: str) -> None:
        super().__init__(
            f"no table {table_id!r}: check the link or create a table on the start page"
        )


class ProposalNotFoundError(StoreError):
    status = 404


class TokenError(StoreError):
    """A missing, wrong or expired token."""

    status = 403


class ForbiddenError(StoreError):
    """The token is right but its role may not do this."""

    status = 403


class SeatRequestNotFoundError(StoreError):
    status = 404


class SeatRequestsFullError(StoreError):
    """Too many phones wait for the keeper's answer: nothing is stored."""

    status = 429


class RefusedError(StoreError):
    """The rules core refused the event: nothing is stored. ``status`` 422 for a rule,
    400 for a malformed event."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class StaleWriteError(Exception):
    """The write was based on an older sequence number than the table's. ``missed`` lists
    the events stored since ``base_seq`` (what another device just did)."""

    def __init__(self, seq: int, state: StateOutline, base_seq: int,
                 missed: list[dict[str, Any]] | None = None) -> None:
        super().__init__(
            f"nothing was stored: this action was based on update {base_seq} but the table is "
            f"at update {seq} (another device wrote meanwhile): see what it did before "
            "entering anything"
        )
        self.seq = seq
        self.state = state
        self.missed = missed or []


class RepeatedActionError(Exception):
    """A write whose action id is already stored: the first answer is given again and
    nothing new is stored (a double tap, or a page that retried)."""

    def __init__(self, action_id: str, seq: int, event: dict[str, Any], table_seq: int,
                 state: StateOutline) -> None:
        super().__init__(f"action {action_id} was already stored as update {seq}")
        self.action_id, self.seq, self.event = action_id, seq, event
        self.table_seq, self.state = table_seq, state


def check_action_id(action_id: Any) -> str | None:
    """The write's action id, None when absent, or a clear :class:`StoreError`."""
    if action_id is None:
        return None
    if (not isinstance(action_id, str) or not 8 <= len(action_id) <= 64
            or not set(action_id) <= ACTION_ID_CHARS):
        raise StoreError('"action_id" must be 8 to 64 letters, digits, "-" or "_" (a random id '
                         "the page makes once per action, sent again on a retry)")
    return action_id


def refusal(exc: Exception) -> RefusedError:
    """A refusal of the rules core as the store's error, its status by the error's class: 422
    for a rule refusing the play, 400 for malformed input."""
    return RefusedError(str(exc), http_status(exc))
