"""Which table token a request carries, and what its role may do.

A token travels in the table's cookie for its role (``sk_<table>_keeper``, ``sk_<table>_player``
or ``sk_<table>_display``, HttpOnly, SameSite=Lax: opening the display link on the keeper's
tablet keeps the keeper's cookie), in ``Authorization: Bearer TOKEN``, or in ``?token=`` (reads
and the page links only). When a browser holds several of a table's cookies, a page uses its
own role's first (the API calls a page makes are told apart by their ``Referer``).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Response, current_app, request

from web.store import EXTENSION, ROLES, ForbiddenError, Role, Store, Table

COOKIE_MAX_AGE = 30 * 24 * 3600
#: Which cookie a page reads first, by the last part of its path (``/t/<id>/play``).
PAGE_ROLES = {"keeper": "keeper", "calibrate": "keeper", "play": "player", "display": "display"}


def cookie_name(table_id: str, kind: str | None = None) -> str:
    """The cookie of ``kind``'s token at the table (None: the single cookie of older versions)."""
    return f"sk_{table_id}" if kind is None else f"sk_{table_id}_{kind}"


def get_store() -> Store:
    store: Store = current_app.extensions[EXTENSION]
    return store


def page_role(table_id: str) -> str | None:
    """The role whose page made this request: the page itself, or its ``Referer``."""
    parts = [request.path]
    referrer = request.headers.get("Referer")
    if referrer and not request.path.startswith("/t/"):
        ref = urlsplit(referrer)
        if ref.netloc == request.host:
            parts = [ref.path]
    pieces = parts[0].strip("/").split("/")
    if len(pieces) == 3 and pieces[0] == "t" and pieces[1] == table_id:
        return PAGE_ROLES.get(pieces[2])
    return None


def cookie_token(table_id: str) -> str | None:
    """The token from the table's cookies: the page's own role first, then the others."""
    first = page_role(table_id)
    kinds = ([first] if first else []) + [k for k in ROLES if k != first]
    for kind in [*kinds, None]:
        token = request.cookies.get(cookie_name(table_id, kind))
        if token:
            return token
    return None


def request_token(table_id: str) -> str | None:
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return request.args.get("token") or cookie_token(table_id)


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


def set_token_cookie(response: Response, table_id: str, token: str,
                     kind: str | None = None) -> None:
    """Set the cookie of the token's role (``kind``, found from the token when not given)."""
    if kind is None:
        store = get_store()
        kind = store.role(store.table(table_id), token).kind
    response.set_cookie(
        cookie_name(table_id, kind), token, max_age=COOKIE_MAX_AGE, httponly=True,
        samesite="Lax", secure=request.is_secure,
    )
