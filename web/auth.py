"""Which table token a request carries, and what its role may do.

A token travels in the table's cookie (set by the join link, HttpOnly, SameSite=Lax), in
``Authorization: Bearer TOKEN``, or in ``?token=`` (reads and the page links only).
"""

from __future__ import annotations

from flask import Response, current_app, request

from web.store import EXTENSION, ForbiddenError, Role, Store, Table

COOKIE_MAX_AGE = 30 * 24 * 3600


def cookie_name(table_id: str) -> str:
    return f"sk_{table_id}"


def get_store() -> Store:
    store: Store = current_app.extensions[EXTENSION]
    return store


def request_token(table_id: str) -> str | None:
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return request.args.get("token") or request.cookies.get(cookie_name(table_id))


def role_for(table: Table) -> Role:
    """The role of the request's token at this table (raises ``TokenError``)."""
    return get_store().role(table, request_token(table.id))


def require(table: Table, *kinds: str) -> Role:
    """The request's role, which must be one of ``kinds``."""
    role = role_for(table)
    if role.kind not in kinds:
        wanted = " or ".join(kinds)
        raise ForbiddenError(f"only the {wanted} may do this; your link is the {role.kind}'s")
    return role


def set_token_cookie(response: Response, table_id: str, token: str) -> None:
    response.set_cookie(
        cookie_name(table_id), token, max_age=COOKIE_MAX_AGE, httponly=True, samesite="Lax",
        secure=request.is_secure,
    )
