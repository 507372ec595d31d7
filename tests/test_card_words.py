"""The cards' words: one vocabulary (scorekeeper.cards) for the card names, the meld verdicts
and the pages, which carry it for their scripts (the chips' names for screen readers)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from scorekeeper.cards import SUIT_NAMES, Card, parse_cards
from scorekeeper.melds import judge_meld
from web import create_app


def test_a_cross_is_named_in_the_plural_as_crosses() -> None:
    assert Card.parse("7cr").name == "7 of crosses"
    assert Card.parse("Qor").name == "queen of oracles"
    assert "mixes crosses and shields" in judge_meld(parse_cards("7cr 8cr 9sh")).reason


def test_every_page_carries_the_cards_words_from_scorekeeper_cards(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.sqlite")})
    for path in ("/", "/rules"):
        page = app.test_client().get(path).data.decode()
        found = re.search(r'<script[^>]* id="card-words" type="application/json">(.*?)</script>',
                          page)
        assert found, path
        words = json.loads(found.group(1))
        assert words["suits"] == SUIT_NAMES and words["suit_plurals"]["cr"] == "crosses"
        assert words["names"]["10he"] == "10 of hearts" and words["names"]["boss"] == "Boss joker"
        assert words["names"]["jk"] == "joker"  # the standard deck's plain joker too
    app.extensions["scorekeeper.store"].close()
