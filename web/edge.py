"""The edge of the app: what every request must be before any handler trusts it.

- JSON bodies: ``Content-Type: application/json``, valid UTF-8, no lone surrogates, no
  control or invisible formatting characters in text that people read, numbers within
  :data:`NUMBER_LIMIT`, nesting within :data:`MAX_DEPTH`, only the fields the endpoint knows.
- Writes from a browser must come from the app's own pages (``Origin`` and
  ``Sec-Fetch-Site``), never with a token in the address.
- Every response carries a Content-Security-Policy with a per-response nonce for the pages'
  own inline scripts, ``X-Frame-Options``, ``nosniff`` and ``Referrer-Policy``.
- Creating tables is rate-limited per client address.

>>> clean_name("  Ann ", "player 1")
'Ann'
"""

from __future__ import annotations

import json
import math
import re
import secrets
import threading
import time
import unicodedata
from collections import deque
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, g, request

from web.store import StoreError

#: The largest magnitude of any number in a request body.
NUMBER_LIMIT = 1_000_000_000
#: The deepest nesting of arrays and objects in a request body.
MAX_DEPTH = 16
#: Methods that change something (the others only read).
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_SURROGATE = re.compile("[\ud800-\udfff]")
#: Unicode categories refused in names: controls (NUL...), invisible formatting (zero-width
#: space, right-to-left override...), surrogates, private use and unassigned code points.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
_INLINE_SCRIPT = re.compile(rb"<script(?![^>]*\bsrc=)(?=[\s>])")


class BadInputError(StoreError):
    """A request body or field that is not what the endpoint takes; nothing is stored."""

    status = 400


class UnsupportedMediaError(StoreError):
    """A body that is not JSON where JSON is required."""

    status = 415


class BodyTooLargeError(StoreError):
    """A body over the app's limit (one sent without Content-Length is cut at the limit)."""

    status = 413


class CrossSiteError(StoreError):
    """A write from a page that is not one of this app's own."""

    status = 403


class TooManyTablesError(StoreError):
    """Too many tables created from one address in a short time."""

    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


# -- JSON bodies --------------------------------------------------------------------------------

def _refuse_constant(name: str) -> Any:
    raise BadInputError(f"{name} is not a number a scorekeeper can use: send a finite number")


def parse_json(raw: bytes) -> Any:
    """Decode a JSON document strictly (UTF-8, finite numbers, bounded nesting)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInputError(f"the request body is not valid UTF-8 (byte {exc.start}): send "
                            "UTF-8 JSON") from exc
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError as exc:
        raise BadInputError(f"the JSON is nested too deeply: at most {MAX_DEPTH} levels") from exc
    except ValueError as exc:
        if isinstance(exc, BadInputError):
            raise
        raise BadInputError(f"the request body is not valid JSON: {exc}") from exc
    check_value(data)
    return data


def check_value(value: Any, where: str = "the request", depth: int = 0) -> None:
    """Refuse lone surrogates, numbers out of range and over-deep nesting anywhere in a value."""
    if depth > MAX_DEPTH:
        raise BadInputError(f"the JSON is nested too deeply: at most {MAX_DEPTH} levels")
    if isinstance(value, str):
        if _SURROGATE.search(value):
            raise BadInputError(f"{where} holds a broken character (a lone UTF-16 surrogate): "
                                "send real text")
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, (int, float)):
        if not math.isfinite(value) or abs(value) > NUMBER_LIMIT:
            raise BadInputError(f"{where} holds the number {value:.3g}, out of range: numbers "
                                f"must be between -{NUMBER_LIMIT:,} and {NUMBER_LIMIT:,}")
    elif isinstance(value, dict):
        for key, item in value.items():
            check_value(key, where, depth + 1)
            check_value(item, f'"{key}"' if depth == 0 else where, depth + 1)
    elif isinstance(value, list):
        for item in value:
            check_value(item, where, depth + 1)


def json_body(allowed: Iterable[str] | None = None, example: str = "") -> dict[str, Any]:
    """The request's JSON object, checked at the edge (see the module's docstring)."""
    raw = request.get_data(cache=True)  # a body over the limit raises 413 here
    limit = request.max_content_length
    if request.content_length is None and limit is not None and len(raw) >= limit:
        raise BodyTooLargeError(f"the request body is too large: at most {limit // 1024} KiB")
    if request.mimetype != "application/json":
        shown = request.mimetype or "no Content-Type"
        raise UnsupportedMediaError(f"send the body as JSON with Content-Type: application/json "
                                    f"(this request sent {shown})")
    data = parse_json(raw) if raw.strip() else None
    if not isinstance(data, dict):
        raise BadInputError(f"the request body must be a JSON object{example}")
    if allowed is not None:
        check_fields(data, allowed, "the request")
    return data


def check_fields(data: dict[str, Any], allowed: Iterable[str], what: str) -> None:
    """Refuse fields the endpoint does not know (a typo would otherwise be silently ignored)."""
    known = set(allowed)
    unknown = sorted(str(key) for key in data if key not in known)
    if unknown:
        raise BadInputError(f"{what} has an unknown field {unknown[0]!r}: the fields are "
                            f"{', '.join(sorted(known))}")


def clean_name(value: Any, what: str, limit: int = 24) -> str:
    """A name people read: NFC text without controls or invisible characters, trimmed."""
    if not isinstance(value, str) or not value.strip():
        raise BadInputError(f"{what} needs a name")
    name = unicodedata.normalize("NFC", value).strip()
    for char in name:
        if unicodedata.category(char) in _HIDDEN_CATEGORIES:
            raise BadInputError(f"{what}'s name {name!r} holds a hidden or control character "
                                f"(U+{ord(char):04X}): use letters, digits, spaces and "
                                "punctuation")
    if len(name) > limit:
        raise BadInputError(f"{what}'s name is {len(name)} characters long; at most {limit}")
    return name


# -- cross-site writes ----------------------------------------------------------------------------

def check_same_origin() -> None:
    """Refuse a browser write that a page of another origin (another port included) sent."""
    if request.method not in WRITE_METHODS:
        return
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        raise CrossSiteError(f"this write came from another site's page ({site}): open the "
                             "scorekeeper's own page to do this")
    origin = request.headers.get("Origin")
    if origin is not None:
        parts = urlsplit(origin)
        if origin == "null" or parts.netloc.lower() != request.host.lower():
            raise CrossSiteError(f"this write came from a page of {origin}, not this "
                                 "scorekeeper: open the scorekeeper's own page to do this")
    if request.args.get("token") is not None:
        raise CrossSiteError("a write may not carry its token in the address (?token=): send "
                             "Authorization: Bearer TOKEN, or use the page's cookie")


# -- headers ------------------------------------------------------------------------------------

def csp_nonce() -> str:
    """This response's nonce for inline scripts."""
    nonce: str | None = g.get("csp_nonce")
    if nonce is None:
        nonce = g.csp_nonce = secrets.token_urlsafe(16)
    return nonce


def content_security_policy(nonce: str) -> str:
    return "; ".join([
        "default-src 'self'",
        f"script-src 'self' 'nonce-{nonce}'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "media-src 'self' blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ])


#: The policy of everything that is not a page (JSON, streams, files): nothing runs in it.
NOT_A_PAGE_POLICY = "default-src 'none'; frame-ancestors 'none'"


def add_security_headers(response: Response) -> Response:
    """CSP (the page's inline scripts get this response's nonce), framing, sniffing, referrer."""
    policy = NOT_A_PAGE_POLICY
    if response.mimetype == "text/html" and not response.is_streamed:
        nonce = csp_nonce()
        html = response.get_data()
        response.set_data(_INLINE_SCRIPT.sub(f'<script nonce="{nonce}"'.encode(), html))
        policy = content_security_policy(nonce)
    headers = response.headers
    headers.setdefault("Content-Security-Policy", policy)
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "same-origin")
    headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    return response


# -- rate limits --------------------------------------------------------------------------------

class RateLimiter:
    """At most ``limit`` actions per ``window`` seconds per key (a sliding window)."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit, self.window = limit, window
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: str, now: float | None = None) -> int:
        """Count one action; returns 0, or the seconds to wait when over the limit."""
        now = time.monotonic() if now is None else now
        with self._lock:
            if len(self._hits) > 10_000:  # forget idle addresses
                self._hits = {k: v for k, v in self._hits.items()
                              if v and v[-1] > now - self.window}
            hits = self._hits.setdefault(key, deque())
            while hits and hits[0] <= now - self.window:
                hits.popleft()
            if len(hits) >= self.limit:
                return max(1, math.ceil(hits[0] + self.window - now))
            hits.append(now)
            return 0


def limit_table_creation() -> None:
    """Refuse a new table when this address made too many lately."""
    limiter: RateLimiter = current_app.extensions["scorekeeper.table_limiter"]
    wait = limiter.hit(request.remote_addr or "unknown")
    if wait:
        raise TooManyTablesError(
            f"too many new tables from this device ({limiter.limit} in "
            f"{limiter.window / 60:.0f} minutes): wait {wait} s or reuse a table", wait)


def init_app(app: Flask) -> None:
    """Install the checks and headers on ``app``."""
    app.extensions["scorekeeper.table_limiter"] = RateLimiter(
        int(app.config["TABLES_PER_WINDOW"]), float(app.config["TABLES_WINDOW_SECONDS"]))
    app.jinja_env.globals["csp_nonce"] = csp_nonce

    @app.before_request
    def same_origin_writes() -> None:
        if request.path.startswith("/api/"):
            check_same_origin()

    app.after_request(add_security_headers)
