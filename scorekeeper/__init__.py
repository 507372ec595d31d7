"""Toss Scorekeeper's domain: cards, notation, melds, rules packs, tallies, chips and the game
engine. Pure Python with no I/O (except ``scorekeeper.vision`` reading images).

>>> from scorekeeper import Card
>>> str(Card.parse("qsh"))
'Qsh'
"""

from scorekeeper.cards import Card, CardError, CardParseError, parse_cards, toss_deck
from scorekeeper.pegboard import PegBoard, PegPosition
from scorekeeper.rulesets import TossOptions, card_value

__all__ = [
    "Card",
    "CardError",
    "CardParseError",
    "PegBoard",
    "PegPosition",
    "TossOptions",
    "card_value",
    "parse_cards",
    "toss_deck",
]
__version__ = "0.1.0"
