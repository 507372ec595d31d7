"""Configuration from environment variables, with defaults that work at a card table: the one
map of every ``SCOREKEEPER_*`` variable (the web app's, the photos', the LED board's)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from web.board import read_dtr, read_hooks

MEGABYTE = 1024 * 1024


def megabytes(text: str) -> int:
    """A size in megabytes (``1.5``) as bytes."""
    return int(float(text) * MEGABYTE)


def whole(text: str) -> int:
    """A count, written as a whole or decimal number."""
    return int(float(text))


#: Environment variable -> (config key, converter).
ENVIRONMENT: dict[str, tuple[str, Callable[[str], object]]] = {
    "SCOREKEEPER_DATABASE": ("DATABASE", str),
    "SCOREKEEPER_DATABASE_URL": ("DATABASE_URL", str),
    "SCOREKEEPER_HOST": ("HOST", str),
    "SCOREKEEPER_PORT": ("PORT", int),
    "SCOREKEEPER_SECRET_KEY": ("SECRET_KEY", str),
    "SCOREKEEPER_THREADS": ("THREADS", int),
    "SCOREKEEPER_SYNCHRONOUS": ("SYNCHRONOUS", str),
    "SCOREKEEPER_JOIN_TTL": ("JOIN_TOKEN_TTL", int),
    "SCOREKEEPER_HEARTBEAT": ("HEARTBEAT_SECONDS", float),
    "SCOREKEEPER_BOARD_MODE": ("BOARD_MODE", str),
    "SCOREKEEPER_BOARD_LAYOUT": ("BOARD_LAYOUT", str),
    "SCOREKEEPER_BOARD_TABLE": ("BOARD_TABLE", str),
    "SCOREKEEPER_BOARD_BRIGHTNESS": ("BOARD_BRIGHTNESS", int),
    "SCOREKEEPER_BOARD_DTR": ("BOARD_DTR", read_dtr),
    "SCOREKEEPER_BOARD_HOOKS": ("BOARD_HOOKS", read_hooks),
    "SCOREKEEPER_PHOTO_MAX_MB": ("PHOTO_MAX_BYTES", megabytes),
    "SCOREKEEPER_DECK_ZIP_MAX_MB": ("DECK_ZIP_MAX_BYTES", megabytes),
    "SCOREKEEPER_PHOTO_WORKERS": ("PHOTO_WORKERS", whole),
}

DEFAULTS: dict[str, Any] = {
    "HOST": "0.0.0.0",
    "PORT": 8000,
    # Worker threads of the WSGI server: every open live page holds one for as long as it is open.
    "THREADS": 400,
    # FULL: every acknowledged write is on disk before its 201 (safe against power loss too).
    "SYNCHRONOUS": "FULL",
    "JOIN_TOKEN_TTL": 12 * 3600,
    "HEARTBEAT_SECONDS": 15.0,
    # After sending, a stream pauses this long per open stream on the server (capped), so that
    # a burst of events goes out in one write: 200 open pages -> 100 ms, 10 pages -> 5 ms.
    "STREAM_COALESCE_SECONDS": 0.0005,
    "STREAM_COALESCE_MAX_SECONDS": 0.1,
    "MAX_CONTENT_LENGTH": 64 * 1024,
    # New tables one client address may create per window (then 429 with Retry-After).
    "TABLES_PER_WINDOW": 30,
    "TABLES_WINDOW_SECONDS": 600.0,
    "BOARD": None,
    # The board hooks (web.board): None finds them through the scorekeeper.board entry points.
    "BOARD_HOOKS": None,
    # Photos: the largest photo and calibration zip accepted, and the recognition workers.
    "PHOTO_MAX_BYTES": 16 * MEGABYTE,
    "DECK_ZIP_MAX_BYTES": 256 * MEGABYTE,
    "PHOTO_WORKERS": 2,
}


def from_environment(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Config values named by ``SCOREKEEPER_*`` variables, converted; bad values are refused.

    >>> from_environment({"SCOREKEEPER_PORT": "8080"})
    {'PORT': 8080}
    """
    environ = os.environ if environ is None else environ
    config: dict[str, Any] = {}
    for name, (key, convert) in ENVIRONMENT.items():
        if name in environ:
            try:
                config[key] = convert(environ[name])
            except ValueError as exc:
                raise ValueError(f"{name}={environ[name]!r} is not valid: {exc}") from exc
    return config


def secret_key() -> str:
    """A fresh random key when none is configured (tokens, not sessions, carry the roles)."""
    return secrets.token_hex(32)
