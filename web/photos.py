"""Photographed melds and the table's deck profile.

A phone (or the keeper's tablet) uploads a photo; the server names its cards with
``scorekeeper.vision`` and replies with each card's code, confidence and outline, storing
nothing. The page shows the photo back with the cards outlined, the player fixes any card, and
sends the cards as an ordinary proposal (or the keeper as an ordinary event). The keeper
teaches the table its own deck card by card (or from a zip of photos); the learned cards are
kept in SQLite and used for every later photo at that table.

>>> upload_limit_text(16 * 1024 * 1024)
'16 MB'
"""

from __future__ import annotations

import io
import threading
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Flask, Response, current_app, jsonify, request
from werkzeug.exceptions import RequestEntityTooLarge

from scorekeeper.cards import DECK_KINDS, Card, CardError, DeckKind, deck_codes, in_deck
from web.auth import get_store, require, role_for
from web.store import Store, StoreError, Table

if TYPE_CHECKING:
    from scorekeeper.vision import DeckProfile

bp = Blueprint("photos", __name__)

#: A zip of calibration photos holds at most this many files.
ZIP_MAX_FILES = 400
#: How long a photo waits for a free recognition worker before the server says it is busy.
WORKER_WAIT_SECONDS = 30.0
#: Below this confidence a card is outlined as doubtful (right readings score above 0.9).
DOUBT_BELOW = 0.8
#: Photo formats read, each with its size in its header (checked before any decoding).
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp")
#: Bytes read at a time when checking a zip member.
ZIP_CHUNK = 1024 * 1024


class PhotoError(StoreError):
    """A photo or calibration upload refused; nothing is stored."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def upload_limit_text(limit: int) -> str:
    return f"{limit / (1024 * 1024):.0f} MB"


def init_app(app: Flask) -> None:
    """Register the blueprint and its recognition workers (limits: ``web.config``)."""
    app.extensions["scorekeeper.vision_slots"] = threading.BoundedSemaphore(
        max(1, int(app.config["PHOTO_WORKERS"])))
    app.extensions["scorekeeper.decks"] = DeckStore(app.extensions["scorekeeper.store"])
    app.register_blueprint(bp)


# -- the table's deck profile in SQLite -----------------------------------------------------

class DeckStore:
    """Each table's learned cards (one row per card), assembled into a profile on use."""

    def __init__(self, store: Store) -> None:
        self.store = store
        # table id -> (stamp, profile, each card's stored model): a card whose stored model is
        # unchanged is not decoded again when another card is learned.
        self._cache: dict[str, tuple[tuple[int, float], DeckProfile, dict[str, bytes]]] = {}
        self._lock = threading.Lock()

    def info(self, table: Table) -> dict[str, Any]:
        """What the table's profile holds (``learned`` codes in deck order)."""
        head = self.store.deck_head(table)
        learned = self.store.learned_codes(table)
        deck: DeckKind = head["deck"] if head and head["deck"] in DECK_KINDS else "toss"
        codes = deck_codes(deck)
        return {
            "name": head["name"] if head else None,
            "deck": deck,
            "source": "table" if learned else "built-in",
            "learned": [c for c in codes if c in learned],
            "missing": [c for c in codes if c not in learned],
            "total": len(codes),
            "updated_at": head["updated_at"] if head else None,
        }

    def learn(self, table: Table, code: str, model_bytes: bytes, source: str,
              deck: str, name: str | None) -> None:
        head = self.store.deck_head(table)
        if head and head["deck"] != deck:
            raise PhotoError(f"this table's deck profile is a {head['deck']} deck: forget it "
                             f"first to learn a {deck} deck")
        self.store.save_learned_card(table, code, model_bytes, source, deck, name)

    def forget(self, table: Table, code: str | None = None) -> int:
        """Forget one card, or the whole profile; returns how many cards were forgotten."""
        learned = self.store.learned_codes(table)
        count = len(learned) if code is None else int(code in learned)
        self.store.forget_learned(table, code)
        return count

    def profile(self, table: Table) -> DeckProfile | None:
        """The table's learned profile, or None when it has learned no card."""
        from scorekeeper.vision import DeckProfile

        stamp = self.store.learned_stamp(table)
        if stamp is None:
            return None
        with self._lock:
            cached = self._cache.get(table.id)
            if cached and cached[0] == stamp:
                return cached[1]
        head = self.store.deck_head(table)
        assert head is not None  # a learned card always has its profile row
        blobs = self.store.learned_models(table)
        unchanged = {} if cached is None else {
            m.code: m for m in cached[1].models() if cached[2].get(m.code) == blobs.get(m.code)}
        models = []
        for code in deck_codes("standard" if head["deck"] == "standard" else "toss"):
            if code in unchanged:
                models.append(unchanged[code])
            elif code in blobs:
                models.extend(DeckProfile.from_bytes(blobs[code], f"card {code}").models())
        profile = DeckProfile.from_models(head["name"], head["deck"], models)
        with self._lock:
            self._cache[table.id] = (stamp, profile, blobs)
        return profile

    def profile_bytes(self, table: Table) -> bytes | None:
        profile = self.profile(table)
        return None if profile is None else profile.to_bytes()


def decks() -> DeckStore:
    store: DeckStore = current_app.extensions["scorekeeper.decks"]
    return store


# -- uploads ---------------------------------------------------------------------------------

def limit_upload(limit: int, what: str) -> None:
    """Refuse a body over ``limit`` bytes with 413 before reading it."""
    length = request.content_length
    if length is not None and length > limit:
        advice = "send the phone's normal photo size" if what == "the photo" else "split it"
        raise PhotoError(f"{what} is {length / (1024 * 1024):.1f} MB; the limit is "
                         f"{upload_limit_text(limit)}: {advice}", 413)
    request.max_content_length = limit


def uploaded(field: str, what: str) -> tuple[bytes, str]:
    """The bytes and file name of one uploaded file (multipart ``field``, or the raw body)."""
    file = request.files.get(field)
    if file is not None:
        return file.read(), file.filename or field
    if request.mimetype.startswith("image/") or request.mimetype == "application/octet-stream":
        # a body without Content-Length (chunked) is cut at the limit, not refused: refuse it
        limit = request.max_content_length
        data = request.stream.read()
        if limit is not None and len(data) >= limit:
            raise PhotoError(f"the upload is too large: the limit is {upload_limit_text(limit)}",
                             413)
        return data, field
    raise PhotoError(f"send {what} as the multipart form field {field!r} (or as the raw request "
                     "body with an image Content-Type)")


@bp.errorhandler(RequestEntityTooLarge)
def too_large(exc: RequestEntityTooLarge) -> tuple[Response, int]:
    limit = request.max_content_length or current_app.config["PHOTO_MAX_BYTES"]
    return jsonify({"error": f"the upload is too large: the limit is "
                             f"{upload_limit_text(limit)}"}), 413


def check_photo(data: bytes) -> None:
    """Refuse, from its header alone, a file that is not a JPEG, PNG, WebP or BMP photo or that
    is larger than the pixel limit (a small file may claim a huge image)."""
    from scorekeeper.vision.images import MAX_PIXELS, image_size

    if not data:
        raise PhotoError("the photo is empty (0 bytes): take or choose the photo again")
    size = image_size(data)
    if size is None:
        raise PhotoError("the file is not an image this app reads: send a JPEG, PNG, WebP or BMP "
                         "image (the camera's normal photo)")
    width, height = size
    if width * height > MAX_PIXELS:
        raise PhotoError(f"the image is {width}x{height} ({width * height / 1e6:.0f} megapixels); "
                         f"the limit is {MAX_PIXELS // 1_000_000} megapixels: send the phone's "
                         "normal photo size", 413)


def vision_failure(exc: ValueError) -> PhotoError:
    from scorekeeper.vision import ImageTooLargeError

    return PhotoError(str(exc), 413 if isinstance(exc, ImageTooLargeError) else 400)


@contextmanager
def worker_slot() -> Iterator[None]:
    """Hold one of the app's recognition workers (503 when all stay busy)."""
    slots: threading.BoundedSemaphore = current_app.extensions["scorekeeper.vision_slots"]
    if not slots.acquire(timeout=WORKER_WAIT_SECONDS):
        raise PhotoError("the scorekeeper is busy reading other photos: try again", 503)
    try:
        yield
    finally:
        slots.release()


# -- recognition -----------------------------------------------------------------------------

@bp.post("/api/tables/<table_id>/photos")
def recognize_photo(table_id: str) -> Response:
    """Name the cards in an uploaded photo (player or keeper); nothing is stored."""
    from scorekeeper.vision import VisionError, recognize
    from scorekeeper.vision.recognition import CHECK_BELOW

    table = get_store().table(table_id)
    require(table, "player", "keeper")
    limit_upload(int(current_app.config["PHOTO_MAX_BYTES"]), "the photo")
    data, _ = uploaded("photo", "the photo")
    check_photo(data)
    profile = decks().profile(table)
    started = time.perf_counter()
    with worker_slot():
        try:
            result = recognize(data, profile)
        except VisionError as exc:
            raise vision_failure(exc) from exc
    cards = []
    for card in result.cards:
        item = card.to_json()
        item["name"] = Card.parse(card.code).name
        item["alternatives"] = list(card.alternatives)
        item["check"] = card.confidence < CHECK_BELOW
        item["doubt"] = card.confidence < DOUBT_BELOW
        cards.append(item)
    return jsonify({
        "width": result.width, "height": result.height, "cards": cards,
        "warnings": list(result.warnings), "check_below": CHECK_BELOW,
        "doubt_below": DOUBT_BELOW,
        "profile": {"source": "built-in" if profile is None else "table",
                    "name": "reference Toss deck" if profile is None else profile.name,
                    "cards": 110 if profile is None else len(profile)},
        "ms": round((time.perf_counter() - started) * 1000),
    })


# -- calibration -----------------------------------------------------------------------------

def deck_kind(table: Table) -> DeckKind:
    requested = request.args.get("deck") or request.form.get("deck")
    if requested is None:
        stored: DeckKind = decks().info(table)["deck"]
        return stored
    for kind in DECK_KINDS:
        if requested == kind:
            return kind
    raise PhotoError(f"unknown deck kind {requested!r}: use {' or '.join(DECK_KINDS)}")


def card_code(text: str, deck: DeckKind) -> str:
    try:
        card = Card.parse(text)
    except CardError as exc:
        raise PhotoError(f"{text!r} is not a card code: {exc}") from exc
    if not in_deck(card, deck):
        raise PhotoError(f"{card} is not a card of a {deck} deck")
    return card.code


def learn_one(table: Table, code: str, data: bytes, source: str, deck: str,
              name: str | None) -> str | None:
    """Learn one card from its photo and store it (raises PhotoError with the reason); return
    a warning when its corner index looks unlike the table's other learned cards'."""
    from scorekeeper.vision import DeckProfile, VisionError, learn_photo
    from scorekeeper.vision.calibration import learned_doubt

    check_photo(data)
    learned = decks().profile(table)
    peers = [] if learned is None else learned.models()
    with worker_slot():
        try:
            model = learn_photo(data, code, peers)
        except VisionError as exc:
            raise vision_failure(exc) from exc
    doubt = learned_doubt(model, peers)
    one = DeckProfile.from_models(name or f"table {table.id}", deck, [model]).to_bytes()
    decks().learn(table, code, one, source, deck, name)
    return doubt


@bp.get("/api/tables/<table_id>/deck")
def deck_info(table_id: str) -> Response:
    table = get_store().table(table_id)
    role_for(table)
    return jsonify(decks().info(table))


@bp.post("/api/tables/<table_id>/deck/cards/<code>")
def learn_card(table_id: str, code: str) -> tuple[Response, int]:
    """The keeper teaches one card from its photo."""
    table = get_store().table(table_id)
    require(table, "keeper")
    limit_upload(int(current_app.config["PHOTO_MAX_BYTES"]), "the photo")
    deck = deck_kind(table)
    code = card_code(code, deck)
    data, name = uploaded("photo", "the card's photo")
    warning = learn_one(table, code, data, name, deck, request.form.get("name") or None)
    info = decks().info(table)
    return jsonify({"code": code, "learned": len(info["learned"]), "total": info["total"],
                    "warning": warning, "deck": info}), 201


@bp.delete("/api/tables/<table_id>/deck/cards/<code>")
def forget_card(table_id: str, code: str) -> Response:
    table = get_store().table(table_id)
    require(table, "keeper")
    deck: DeckKind = decks().info(table)["deck"]
    forgotten = decks().forget(table, card_code(code, deck))
    return jsonify({"forgotten": forgotten, "deck": decks().info(table)})


@bp.delete("/api/tables/<table_id>/deck")
def forget_deck(table_id: str) -> Response:
    table = get_store().table(table_id)
    require(table, "keeper")
    forgotten = decks().forget(table)
    return jsonify({"forgotten": forgotten, "deck": decks().info(table)})


@bp.post("/api/tables/<table_id>/deck/import")
def import_zip(table_id: str) -> Response:
    """Learn every photo in a zip (file name = card code, like ``Qsh.jpg``)."""
    table = get_store().table(table_id)
    require(table, "keeper")
    limit_upload(int(current_app.config["DECK_ZIP_MAX_BYTES"]), "the zip")
    deck = deck_kind(table)
    file = request.files.get("archive")  # spooled to a temporary file, not held in memory
    stream = file.stream if file is not None else io.BytesIO(
        uploaded("archive", "the zip of card photos")[0])
    try:
        archive = zipfile.ZipFile(stream)
        members = [m for m in archive.infolist() if not m.is_dir()
                   and PurePosixPath(m.filename).suffix.lower() in IMAGE_SUFFIXES
                   and not PurePosixPath(m.filename).name.startswith(".")]
    except (zipfile.BadZipFile, ValueError, EOFError, OSError, NotImplementedError) as exc:
        raise PhotoError("the file is not a zip archive: zip the folder of card photos") from exc
    if not members:
        raise PhotoError("the zip holds no photos (.jpg, .png, ...): one photo per card, named "
                         "by its code, like Qsh.jpg or 10di.png")
    if len(members) > ZIP_MAX_FILES:
        raise PhotoError(f"the zip holds {len(members)} photos; at most {ZIP_MAX_FILES}")
    photo_limit = int(current_app.config["PHOTO_MAX_BYTES"])
    for member in members:
        check_member(archive, member, photo_limit)
    learned: list[str] = []
    failed: dict[str, str] = {}
    doubts: dict[str, str] = {}
    for member in members:
        file_name = PurePosixPath(member.filename).name
        try:
            code = card_code(PurePosixPath(file_name).stem, deck)
            if code in learned:
                raise PhotoError(f"{code} has two photos in the zip")
            if member.file_size > photo_limit:
                raise PhotoError(f"the photo is over {upload_limit_text(photo_limit)}")
            doubt = learn_one(table, code, read_member(archive, member, photo_limit),
                              file_name, deck, request.form.get("name") or None)
            learned.append(code)
            if doubt is not None:
                doubts[file_name] = doubt
        except PhotoError as exc:
            if exc.status == 503:
                raise
            failed[file_name] = str(exc)
    return jsonify({"learned": learned, "failed": failed, "doubts": doubts,
                    "deck": decks().info(table)})


def read_member(archive: zipfile.ZipFile, member: zipfile.ZipInfo, limit: int) -> bytes:
    """A member's bytes, at most ``limit`` (its header may understate its size)."""
    with archive.open(member) as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise PhotoError(f"the photo is over {upload_limit_text(limit)}")
    return data


def check_member(archive: zipfile.ZipFile, member: zipfile.ZipInfo, limit: int) -> None:
    """Read a member through once, checking its CRC, before anything is learned: a damaged
    zip is refused whole (nothing stored). Members over ``limit`` are left to the learning
    pass, which names them among the failed photos."""
    if member.file_size > limit:
        return
    try:
        with archive.open(member) as file:
            total = 0
            while chunk := file.read(ZIP_CHUNK):
                total += len(chunk)
                if total > limit:
                    return
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, RuntimeError,
            EOFError, OSError, ValueError) as exc:
        raise PhotoError(f"the zip is damaged at {member.filename!r} ({exc}): zip the card "
                         "photos again and send the new file") from exc


@bp.get("/api/tables/<table_id>/deck/profile.npz")
def download_profile(table_id: str) -> Response:
    """The table's learned profile, for ``scorekeeper recognize --deck``."""
    table = get_store().table(table_id)
    require(table, "keeper")
    data = decks().profile_bytes(table)
    if data is None:
        raise PhotoError("this table has learned no card yet: calibrate the deck first", 404)
    return Response(data, mimetype="application/octet-stream", headers={
        "Content-Disposition": f'attachment; filename="deck-{table.id}.npz"'})


@bp.get("/t/<table_id>/calibrate")
def calibrate_page(table_id: str) -> Response | str:
    from web.pages import table_page

    table = get_store().table(table_id)
    return table_page(table_id, "calibrate.html", "keeper", deck=decks().info(table),
                      deck_codes={kind: list(deck_codes(kind)) for kind in DECK_KINDS})
