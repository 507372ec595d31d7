"""Toss Scorekeeper's web app: one machine at the table serves the keeper's tablet, the
players' phones and the display, live, with no internet.

>>> app = create_app({"TESTING": True, "DATABASE": ":memory:"})
>>> sorted(bp for bp in app.blueprints)
['api', 'club', 'pages', 'photos']
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import click
from flask import Flask, Response, jsonify, render_template, request
from flask.sessions import SessionInterface, SessionMixin
from werkzeug.exceptions import HTTPException

from scorekeeper.errors import ScorekeeperError, http_status
from web.config import DEFAULTS, from_environment, secret_key
from web.store import RepeatedActionError, StaleWriteError, Store, StoreError


class NoSessions(SessionInterface):
    """No Flask session: nothing to decode or sign on each request."""

    def open_session(self, app: Flask, request: Any) -> SessionMixin | None:
        return self.make_null_session(app)

    def save_session(self, app: Flask, session: SessionMixin, response: Any) -> None:
        return None


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The app factory: config from ``SCOREKEEPER_*`` variables, then ``config``."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(DEFAULTS)
    app.config["DATABASE"] = os.path.join(app.instance_path, "scorekeeper.sqlite")
    app.config.update(from_environment())
    if config:
        app.config.update(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key()
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.session_interface = NoSessions()  # roles travel in table tokens, not sessions

    # DATABASE_URL (postgresql://...) wins over DATABASE (a SQLite file, or any address).
    if app.config.get("DATABASE_URL"):
        app.config["DATABASE"] = app.config["DATABASE_URL"]
    store = Store.from_config(app.config).init_app(app)

    from web import api, club, edge, pages, photos

    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    photos.init_app(app)
    club.init_app(app)
    edge.init_app(app)
    register_errors(app)

    @app.cli.command("init-db")
    def init_db() -> None:
        """Create or upgrade the database schema."""
        url = store.db.url
        shown = url.database if url.get_backend_name() == "sqlite" else url.render_as_string()
        click.echo(f"database ready: {shown}")  # a password shows as ***

    return app


def wants_json() -> bool:
    return request.path.startswith("/api/")


def register_errors(app: Flask) -> None:
    def error(message: str, status: int) -> tuple[Response | str, int]:
        if wants_json():
            return jsonify({"error": message}), status
        return render_template("error.html", message=message, status=status), status

    @app.errorhandler(StoreError)
    def store_error(exc: StoreError) -> tuple[Response | str, int] | Response:
        reply = error(str(exc), exc.status)
        retry_after = getattr(exc, "retry_after", None)
        if retry_after is None:
            return reply
        response = app.make_response(reply)
        response.headers["Retry-After"] = str(retry_after)
        return response

    @app.errorhandler(StaleWriteError)
    def stale(exc: StaleWriteError) -> tuple[Response | str, int]:
        if wants_json():
            return jsonify({"error": str(exc), "seq": exc.seq, "state": exc.state,
                            "missed": exc.missed}), 409
        return error(str(exc), 409)

    @app.errorhandler(ScorekeeperError)
    def refused(exc: ScorekeeperError) -> tuple[Response | str, int]:
        return error(str(exc), http_status(exc))

    @app.errorhandler(RepeatedActionError)
    def repeated(exc: RepeatedActionError) -> tuple[Response, int]:
        return jsonify({"seq": exc.seq, "repeat": True, "action_id": exc.action_id,
                        "event": exc.event, "table_seq": exc.table_seq, "state": exc.state}), 200

    @app.errorhandler(ValueError)
    def value_error(exc: ValueError) -> tuple[Response | str, int]:
        return error(str(exc), 400)

    @app.errorhandler(TimeoutError)
    def too_slow(exc: TimeoutError) -> tuple[Response | str, int]:
        return error("the request arrived too slowly: send it again", 408)

    @app.errorhandler(413)
    def too_large(exc: HTTPException) -> tuple[Response | str, int]:
        limit = app.config["MAX_CONTENT_LENGTH"] // 1024
        return error(f"the request body is too large: at most {limit} KiB", 413)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> tuple[Response | str, int]:
        return error(exc.description or exc.name, exc.code or 500)
