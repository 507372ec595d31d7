"""Recognition of decks this project neither drew nor tuned on: the "dondorf" theme of Debian's
Aisleriot cards (gnome-cards-data), and a Toss-like deck made from its "bellot" theme, each
learned from one photo per card and photographed on varied tables.

Without the package (or librsvg's rsvg-convert) the tests are skipped with the reason, unless
``SCOREKEEPER_REQUIRE_CARD_ART=1`` (CI), where they fail instead."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from scorekeeper.vision import calibrate_dir, recognize
from scorekeeper.vision.art import AISLERIOT_DIR, ArtDeck, aisleriot, toss_like
from scorekeeper.vision.profile import DeckProfile
from scorekeeper.vision.synth import calibration_photo, make_photo, match

#: Cards learned and photographed (a quarter of the deck keeps the test quick): every rank
#: once, every suit, both jokers.
CODES = ["Acl", "2di", "3he", "4sp", "5cl", "6di", "7he", "8sp", "9cl", "10di", "Jhe", "Qsp",
         "Kcl", "Kdi", "7sp", "10he", "jk-black", "jk-red"]
TOSS_CODES = ["Acr", "Aor", "Aca", "Ash", "Acl", "Adi", "7cr", "7ca", "7sp", "7he", "Qor", "Qsh",
              "jk-gold", "jk-blue", "jk-black", "boss", "null"]


def _need_art(theme: str) -> None:
    missing = [what for what, ok in (
        (f"{AISLERIOT_DIR}/{theme}.svgz (apt-get install gnome-cards-data)",
         (AISLERIOT_DIR / f"{theme}.svgz").exists()),
        ("rsvg-convert (apt-get install librsvg2-bin)", shutil.which("rsvg-convert") is not None),
    ) if not ok]
    if missing:
        message = "third-party card art is missing: " + ", ".join(missing)
        if os.environ.get("SCOREKEEPER_REQUIRE_CARD_ART") == "1":
            pytest.fail(message)
        pytest.skip(message)


def _learn(deck: ArtDeck, codes: list[str], folder: Path) -> tuple[DeckProfile, int]:
    """The profile learned from one photo per card, and how many photos it refused (each with
    its reason)."""
    rng = np.random.default_rng(7)
    for code in codes:
        (folder / f"{code}.jpg").write_bytes(calibration_photo(rng, code, deck, (1600, 1200)))
    result = calibrate_dir(folder, deck=deck.kind)  # type: ignore[arg-type]
    assert all(reason for reason in result.failed.values())
    return result.profile, len(result.failed)


def _read(deck: ArtDeck, profile: DeckProfile, codes: list[str], seed: int,
          photos: int) -> tuple[int, int, int, int]:
    """(cards, read right, extra detections, confident readings that are wrong)."""
    rng = np.random.default_rng(seed)
    total = right = extra = confident_wrong = 0
    for _ in range(photos):
        shot = make_photo(rng, codes, deck, size=(2400, 1800), table="wild")
        result = recognize(shot.jpeg, profile)
        pairs = match(shot.cards, [c.corners for c in result.cards])
        for i, truth in enumerate(shot.cards):
            total += 1
            if i in pairs:
                found = result.cards[pairs[i]]
                ok = found.code == truth.code
                right += ok
                confident_wrong += (not ok) and found.confidence >= 0.9
        extra += len(result.cards) - len(pairs)
    return total, right, extra, confident_wrong


def test_held_out_standard_deck_read_at_wild_tables(tmp_path: Path) -> None:
    _need_art("dondorf")
    deck = aisleriot("dondorf")
    profile, refused = _learn(deck, CODES, tmp_path)
    total, right, extra, confident_wrong = _read(deck, profile, CODES, 31, 10)
    print(f"dondorf: {refused} refused, {right}/{total} right, {extra} extra, "
          f"{confident_wrong} confident and wrong")
    # Floors near the measured level (37 of 48 right, 2 extra, 2 confident and wrong, 2 jokers
    # refused; 17 extra before a four-index card's turned bottom-left index was folded into
    # the card): a regression guard, not the target (bench/vision_bench.py prints the figures).
    assert refused <= 2
    assert right >= 0.75 * total, (right, total)
    assert extra <= 6
    assert confident_wrong <= 2


def test_held_out_toss_like_deck_read_at_wild_tables(tmp_path: Path) -> None:
    _need_art("bellot")
    deck = toss_like(aisleriot("bellot"), "deep")
    profile, refused = _learn(deck, TOSS_CODES, tmp_path)
    total, right, extra, confident_wrong = _read(deck, profile, TOSS_CODES, 32, 10)
    print(f"bellot Toss-like: {refused} refused, {right}/{total} right, {extra} extra, "
          f"{confident_wrong} confident and wrong")
    # Floors near the measured level (42 of 55 right, 44 before the changes of bench/DATA.md's
    # last held-out run; no extra, none confident and wrong, none refused): far from the
    # target, a regression guard only.
    assert refused == 0
    assert right >= 0.75 * total, (right, total)
    assert extra <= 2
    assert confident_wrong <= 1
