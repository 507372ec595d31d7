"""The pages: start, join, keeper (tablet), player (phone), display, history, rules check.

Each page is a Jinja template and a small script; the script reads the page's boot data, then
follows the table's live stream and calls the JSON API.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, make_response, redirect, render_template, request, url_for
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup

from scorekeeper.cards import DECK_KINDS, SUIT_NAMES, SUIT_PLURALS, Card, deck_codes
from scorekeeper.game import available_games, game_of, setup_json
from scorekeeper.options import MAX_DECKS
from scorekeeper.pegboard import MIN_CHANNEL, PEG_COLOURS
from scorekeeper.rulesets import RULESETS, TOSS_OPTION
from web.auth import get_store, request_token, role_for, set_token_cookie
from web.store import ForbiddenError, Role, Table, TokenError

bp = Blueprint("pages", __name__)


def card_words() -> dict[str, Any]:
    """The cards' words for the pages' scripts, from :mod:`scorekeeper.cards`: each suit's name
    (and plural) and each card code's name for people ("7 of hearts", "red joker"), read by
    screen readers in place of the chips' symbols."""
    codes = dict.fromkeys(code for kind in DECK_KINDS for code in deck_codes(kind))
    return {"suits": dict(SUIT_NAMES), "suit_plurals": dict(SUIT_PLURALS),
            "names": {code: Card.parse(code).name for code in codes}}


#: :func:`card_words` as the JSON of the ``<script id="card-words">`` on every page.
CARD_WORDS = htmlsafe_json_dumps(card_words(), dumps=json.dumps)


@bp.app_context_processor
def card_words_context() -> dict[str, Any]:
    """Every page (base.html) carries the cards' words for its scripts, and a peg colour
    picker the dimmest channel that still shows (scorekeeper.pegboard.MIN_CHANNEL)."""
    return {"card_words": CARD_WORDS, "peg_min_channel": MIN_CHANNEL}


def boot(table: Table, role: Role, **extra: Any) -> Markup:
    """The page's starting data as JSON for a ``<script type="application/json">``."""
    store = get_store()
    with table.cond:
        data = {"table_id": table.id, "seq": table.seq, "state": table.state_json(),
                "role": {"kind": role.kind, "player": role.player},
                "setup": setup_json(table.setup), "table": store.meta(table), **extra}
    # "<", ">", "&" and "'" become \u003c... (as Flask's tojson): no name or note can end the
    # script element or open a comment in it; ASCII-only, so no text can fail to encode.
    return htmlsafe_json_dumps(data, dumps=json.dumps)


def is_pack(table: Table) -> bool:
    """Whether the table plays a rules-pack game (entered hand by hand) rather than Toss."""
    return game_of(table.setup).engine == "hands"


def table_page(table_id: str, template: str, *kinds: str, pack_template: str | None = None,
               **extra: Any) -> Response | str:
    table = get_store().table(table_id)
    game = None
    if pack_template and is_pack(table):
        template = pack_template
        game = game_of(table.setup).describe()
    token = request.args.get("token")
    if token:  # a link with ?token= sets the cookie, then shows the clean address
        link_role = get_store().role(table, token)  # refuses a wrong token before setting it
        response = make_response(redirect(request.path))
        set_token_cookie(response, table.id, token, link_role.kind)
        return response
    if request_token(table_id) is None:
        raise TokenError("open this table from its join link or QR code first")
    role = role_for(table)
    if kinds and role.kind not in kinds:
        raise ForbiddenError(f"this page is for the {' or '.join(kinds)}; your link is the "
                             f"{role.kind}'s")
    join_url = (url_for("pages.join", table_id=table.id, t=table.join_token, _external=True)
                if role.kind == "keeper" else None)
    return render_template(template, table=table, role=role, boot=boot(table, role, **extra),
                           deck=deck_codes(), join_url=join_url, game=game,
                           display_url=display_url(table) if role.kind == "keeper" else None)


def display_url(table: Table) -> str:
    """The display's own link, with its token: a TV or a spare tablet opens it as is."""
    return url_for("pages.display", table_id=table.id, token=table.display_token,
                   _external=True)


@bp.get("/")
def start() -> str:
    return render_template("start.html", colours=PEG_COLOURS, games=available_games())


@bp.get("/rules")
def rules() -> str:
    return render_template("rules.html", deck=deck_codes(), rulesets=RULESETS,
                           ace_rules=TOSS_OPTION["ace"].choices, max_decks=MAX_DECKS)


@bp.get("/t/<table_id>/join")
def join(table_id: str) -> str:
    table = get_store().table(table_id)
    join_token = request.args.get("t")
    get_store().check_join_token(table, join_token)
    return render_template("join.html", table=table, join_token=join_token,
                           claimed=table.claimed)


@bp.get("/t/<table_id>/keeper")
def keeper(table_id: str) -> Response | str:
    return table_page(table_id, "keeper.html", "keeper", pack_template="keeper_hands.html")


@bp.get("/t/<table_id>/play")
def player(table_id: str) -> Response | str:
    return table_page(table_id, "player.html", "player", "keeper",
                      pack_template="standings.html")


@bp.get("/t/<table_id>/display")
def display(table_id: str) -> Response | str:
    return table_page(table_id, "display.html", pack_template="standings.html")


@bp.get("/t/<table_id>/history")
def history(table_id: str) -> Response | str:
    return table_page(table_id, "history.html")
