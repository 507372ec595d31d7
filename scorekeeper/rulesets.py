"""The two Toss rummy rulesets, their card values and their per-table options (docs/rules.md 2-3).

>>> from scorekeeper.cards import parse_cards
>>> sum(card_value(c, TOSS_RUMMY) for c in parse_cards("7cl 7sp 7he 7di"))
20
>>> sum(card_value(c, COMPLEX) for c in parse_cards("7cl 7sp 7he 7di"))
28
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, Final, Literal

from scorekeeper.cards import ACE, Card
from scorekeeper.options import MAX_DECKS, Option, resolve
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


#: The options of both Toss rulesets, declared once (docs/rules.md 2-3,
#: docs/rules-readings.md): the start page, ``scorekeeper games``, the game's description and
#: the error a bad value gets all read these.
TOSS_OPTIONS: Final[tuple[Option, ...]] = (
    Option("ruleset", "choice", COMPLEX, "the ruleset: the game played sets it",
           choices=RULESETS, offered=False),
    Option("ace", "choice", "both", "both: Q-K-A and A-2-3 (K-A-2 never); high: Q-K-A only;"
           " low: A-2-3 only", choices=ACE_RULES),
    Option("goal", "int", None, "points that win the game; unset: 1000 in Complex Toss Rummy,"
           " 1010 in Toss Rummy", minimum=1, nullable=True, label="the points that win"),
    Option("wild_scoring", "bool", False, "score melds as played, as in Complex Toss Rummy",
           only=(TOSS_RUMMY,)),
    Option("chips_per_points", "int", 10, "points per chip when the game is settled in chips",
           minimum=1, only=(TOSS_RUMMY,)),
    Option("decks", "int", 1, "whole decks shuffled together", minimum=1, maximum=MAX_DECKS,
           label="the number of decks"),
    Option("toss_joker", "choice", "shown", "shown: the tossing joker is shown from hand and"
           " joins the new meld only when listed among its cards; melded: it must be one of the"
           " new meld's cards", choices=TOSS_JOKER_RULES),
    Option("double_cross_back", "bool", True, "a DoubleCross may itself be DoubleCrossed back",
           only=(COMPLEX,)),
    Option("double_cross_takes", "choice", "whole-play", "whole-play: the Toss meld and every"
           " other meld or lay-off of that turn; toss-meld: the Toss meld only",
           choices=DOUBLE_CROSS_TAKES),
)
#: Each Toss option by name.
TOSS_OPTION: Final[dict[str, Option]] = {option.name: option for option in TOSS_OPTIONS}


@dataclass(frozen=True, slots=True)
class TossOptions:
    """Per-table options of Toss Rummy and Complex Toss Rummy: one field per option of
    :data:`TOSS_OPTIONS`, which declares each one's values, default and meaning.

    ``goal`` None is the ruleset's default (:attr:`resolved_goal`). ``double_cross_back`` has
    no effect in Toss Rummy, where a DoubleCross is never answered.

    >>> TossOptions().resolved_goal, TossOptions(ruleset="toss-rummy").resolved_goal
    (1000, 1010)
    >>> TossOptions(ace="sideways")
    Traceback (most recent call last):
    ...
    scorekeeper.options.OptionError: option "ace" must be one of both, high, low, not 'sideways' \
(both: Q-K-A and A-2-3 (K-A-2 never); high: Q-K-A only; low: A-2-3 only)
    """

    ruleset: Ruleset = TOSS_OPTION["ruleset"].default
    ace: AceRule = TOSS_OPTION["ace"].default
    goal: int | None = TOSS_OPTION["goal"].default
    wild_scoring: bool = TOSS_OPTION["wild_scoring"].default
    chips_per_points: int = TOSS_OPTION["chips_per_points"].default
    decks: int = TOSS_OPTION["decks"].default
    toss_joker: TossJokerRule = TOSS_OPTION["toss_joker"].default
    double_cross_back: bool = TOSS_OPTION["double_cross_back"].default
    double_cross_takes: DoubleCrossTakes = TOSS_OPTION["double_cross_takes"].default

    def __post_init__(self) -> None:
        for option in TOSS_OPTIONS:
            option.check(getattr(self, option.name))

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
    def from_json(cls, data: Mapping[str, object]) -> TossOptions:
        """Build options from a JSON object, refusing unknown names and ill-typed values.

        >>> TossOptions.from_json({"ace": "high"}).ace
        'high'
        >>> TossOptions.from_json({"decks": "2"})
        Traceback (most recent call last):
        ...
        scorekeeper.options.OptionError: option "decks" (the number of decks) must be a whole \
number, not '2'
        """
        title = RULESET_TITLES.get(str(data.get("ruleset", COMPLEX)), "Toss Rummy")
        return cls(**resolve(TOSS_OPTIONS, data, title))  # type: ignore[arg-type]
