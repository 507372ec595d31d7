"""The two Toss rummy rulesets, their card values and their per-table options (docs/rules.md 2-3).

>>> from scorekeeper.cards import parse_cards
>>> sum(card_value(c, TOSS_RUMMY) for c in parse_cards("7cl 7sp 7he 7di"))
20
>>> sum(card_value(c, COMPLEX) for c in parse_cards("7cl 7sp 7he 7di"))
28
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final, Literal

from scorekeeper.cards import ACE, Card
from scorekeeper.errors import InvalidInputError
from scorekeeper.outline import JsonObject

Ruleset = Literal["toss-rummy", "complex-toss-rummy"]
AceRule = Literal["both", "high", "low"]
TossJokerRule = Literal["shown", "melded"]
DoubleCrossTakes = Literal["whole-play", "toss-meld"]

TOSS_RUMMY: Final = "toss-rummy"
COMPLEX: Final = "complex-toss-rummy"
RULESETS: Final[tuple[Ruleset, ...]] = (COMPLEX, TOSS_RUMMY)
RULESET_TITLES: Final[dict[str, str]] = {COMPLEX: "Complex Toss Rummy", TOSS_RUMMY: "Toss Rummy"}
ACE_RULES: Final[tuple[AceRule, ...]] = ("both", "high", "low")
TOSS_JOKER_RULES: Final[tuple[TossJokerRule, ...]] = ("shown", "melded")
DOUBLE_CROSS_TAKES: Final[tuple[DoubleCrossTakes, ...]] = ("whole-play", "toss-meld")

BOSS_VALUE: Final = 50
JOKER_VALUE: Final = 40
ACE_VALUE: Final = 20
TEN_VALUE: Final = 10
SMALL_VALUE: Final = 5


class OptionError(InvalidInputError):
    """A table option has an unknown name or a value outside its range."""


def card_value(card: Card, ruleset: Ruleset = COMPLEX) -> int:
    """Points of one card: Boss 50, jokers 40, A 20, K Q J 10 = 10, null 0; 2-9 are 5 in
    Toss Rummy and their number in Complex Toss Rummy.

    >>> [card_value(Card.parse(code)) for code in ("boss", "Acr", "null")]
    [50, 20, 0]
    """
    if card.is_boss:
        return BOSS_VALUE
    if card.is_joker:
        return JOKER_VALUE
    if card.is_null:
        return 0
    if card.rank == ACE:
        return ACE_VALUE
    if card.rank >= 10:
        return TEN_VALUE
    return card.rank if ruleset == COMPLEX else SMALL_VALUE


def cards_value(cards: Any, ruleset: Ruleset = COMPLEX) -> int:
    """Sum of :func:`card_value` over an iterable of cards."""
    return sum(card_value(c, ruleset) for c in cards)


@dataclass(frozen=True, slots=True)
class TossOptions:
    """Per-table options of Toss Rummy and Complex Toss Rummy, with the house defaults.

    ``goal`` defaults to 1010 in Toss Rummy and 1000 in Complex Toss Rummy (None = ruleset
    default). ``wild_scoring`` makes Toss Rummy score melds as played. ``toss_joker``:
    ``"shown"`` (the tossing joker is shown from hand and joins the new meld only when listed
    among its cards) or ``"melded"`` (it must be one of the new meld's cards).
    ``double_cross_back``: in Complex Toss Rummy, whether a DoubleCross may itself be
    DoubleCrossed (a chain); no effect in Toss Rummy, where a DoubleCross is never answered.
    ``double_cross_takes``: what a DoubleCross takes, ``"whole-play"`` (every meld and lay-off
    of the play answered, the Toss meld included) or ``"toss-meld"`` (the Toss meld only).

    >>> TossOptions().resolved_goal, TossOptions(ruleset="toss-rummy").resolved_goal
    (1000, 1010)
    """

    ruleset: Ruleset = COMPLEX
    ace: AceRule = "both"
    goal: int | None = None
    wild_scoring: bool = False
    chips_per_points: int = 10
    decks: int = 1
    toss_joker: TossJokerRule = "shown"
    double_cross_back: bool = True
    double_cross_takes: DoubleCrossTakes = "whole-play"

    def __post_init__(self) -> None:
        if self.ruleset not in RULESETS:
            raise OptionError(f"unknown rules {self.ruleset!r}: use one of {', '.join(RULESETS)}")
        if self.ace not in ACE_RULES:
            raise OptionError(f"unknown ace option {self.ace!r}: use both, high or low")
        if self.goal is not None and self.goal < 1:
            raise OptionError(f"the goal must be a positive number of points, not {self.goal}")
        if self.chips_per_points < 1:
            raise OptionError("chips_per_points must be 1 or more")
        if not 1 <= self.decks <= 20:
            raise OptionError(f"the number of decks must be from 1 to 20, not {self.decks}")
        if self.toss_joker not in TOSS_JOKER_RULES:
            raise OptionError(f"unknown toss_joker option {self.toss_joker!r}: use shown (the"
                              " joker is shown from hand) or melded (it joins the new meld)")
        if not isinstance(self.double_cross_back, bool):
            raise OptionError("double_cross_back must be true or false, not"
                              f" {self.double_cross_back!r}")
        if self.double_cross_takes not in DOUBLE_CROSS_TAKES:
            raise OptionError(f"unknown double_cross_takes option {self.double_cross_takes!r}:"
                              " use whole-play (the Toss meld and every other meld or lay-off"
                              " of that turn) or toss-meld (the Toss meld only)")

    @property
    def resolved_goal(self) -> int:
        if self.goal is not None:
            return self.goal
        return 1000 if self.ruleset == COMPLEX else 1010

    @property
    def scores_as_played(self) -> bool:
        """Whether melds, Tosses and DoubleCrosses move the score during play."""
        return self.ruleset == COMPLEX or self.wild_scoring

    def value(self, card: Card) -> int:
        return card_value(card, self.ruleset)

    def to_json(self) -> JsonObject:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TossOptions:
        """Build options from a JSON object, refusing unknown names.

        >>> TossOptions.from_json({"ace": "high"}).ace
        'high'
        """
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise OptionError(
                f"unknown option {unknown[0]!r}: options are {', '.join(sorted(known))}"
            )
        return replace(cls(), **data)
