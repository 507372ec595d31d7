"""Cards, suits, colours and the card notation of the house rules (docs/rules.md section 1).

A card is a small immutable value. Its code is the notation players type:

>>> card = Card.parse("10di")
>>> card.rank, card.suit, card.colour
(10, 'di', 'red')
>>> str(Card.parse("qSH")), str(Card.parse("Tcl"))
('Qsh', '10cl')
>>> Card.parse("jk-blue").is_joker
True
>>> len(toss_deck()), len(standard_deck())
(111, 52)
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Final, Literal

from scorekeeper.errors import InvalidInputError

Colour = Literal["black", "red", "gold", "blue"]
DeckKind = Literal["toss", "standard"]

BLACK: Final = "black"
RED: Final = "red"
GOLD: Final = "gold"
BLUE: Final = "blue"
COLOURS: Final[tuple[Colour, ...]] = (BLACK, RED, GOLD, BLUE)

TOSS: Final = "toss"
STANDARD: Final = "standard"
DECK_KINDS: Final[tuple[DeckKind, ...]] = (TOSS, STANDARD)

#: The eight Toss suits in deck order, with their names and colours.
SUITS: Final[tuple[str, ...]] = ("cl", "sp", "he", "di", "cr", "or", "ca", "sh")
STANDARD_SUITS: Final[tuple[str, ...]] = ("cl", "sp", "he", "di")
SUIT_NAMES: Final[dict[str, str]] = {
    "cl": "club", "sp": "spade", "he": "heart", "di": "diamond",
    "cr": "cross", "or": "oracle", "ca": "castle", "sh": "shield",
}
#: The suits' names in the plural ("7 of crosses"), as the pages and the card names say them.
SUIT_PLURALS: Final[dict[str, str]] = {
    code: name + ("es" if name.endswith("s") else "s") for code, name in SUIT_NAMES.items()
}
SUIT_COLOURS: Final[dict[str, Colour]] = {
    "cl": BLACK, "sp": BLACK, "he": RED, "di": RED,
    "cr": GOLD, "or": GOLD, "ca": BLUE, "sh": BLUE,
}

ACE: Final = 1
JACK: Final = 11
QUEEN: Final = 12
KING: Final = 13
#: Ranks high to low, as printed on the cards.
RANKS: Final[tuple[int, ...]] = (ACE, KING, QUEEN, JACK, 10, 9, 8, 7, 6, 5, 4, 3, 2)
RANK_SYMBOLS: Final[dict[int, str]] = {
    ACE: "A", KING: "K", QUEEN: "Q", JACK: "J",
    **{n: str(n) for n in range(2, 11)},
}
RANK_NAMES: Final[dict[int, str]] = {
    ACE: "ace", KING: "king", QUEEN: "queen", JACK: "jack",
    **{n: str(n) for n in range(2, 11)},
}
_RANK_BY_SYMBOL: Final[dict[str, int]] = {
    **{s: r for r, s in RANK_SYMBOLS.items()},
    "T": 10,
}

BOSS: Final = "boss"
PLAIN: Final = "plain"
#: Joker kinds: the Boss, the four coloured jokers, and the plain joker of standard decks.
JOKER_KINDS: Final[tuple[str, ...]] = (BOSS, BLACK, RED, GOLD, BLUE, PLAIN)
NULL_CODE: Final = "null"

_SUITED_RE: Final = re.compile(r"^(10|[2-9]|[akqjt])([a-z]{2})$")
#: Typed suit symbols (with or without the emoji variation selector) read as the suit codes.
_SUIT_SYMBOLS: Final = str.maketrans({
    "\u2663": "cl", "\u2660": "sp", "\u2665": "he", "\u2666": "di",
    "\u2667": "cl", "\u2664": "sp", "\u2661": "he", "\u2662": "di", "\ufe0f": None})


class CardError(InvalidInputError):
    """Base class for every card input error."""


class CardParseError(CardError):
    """A token is not a card code. The message names the token and the nearest code."""

    def __init__(self, token: str, suggestion: str | None = None) -> None:
        self.token = token
        self.suggestion = suggestion
        hint = f": did you mean {suggestion!r}?" if suggestion else (
            ": write rank then suit, like 10di or Qsh, or a joker like boss or jk-red"
        )
        super().__init__(f"unknown card code {token!r}{hint}")


class EmptyCardTokenError(CardParseError):
    """An empty card code: an empty item of a list (or command-line argument), or nothing
    between two commas. It is refused, never skipped, so a lost card cannot go unnoticed."""

    def __init__(self, token: str, where: str) -> None:
        self.where = where
        CardError.__init__(self, f"empty card code {token!r} {where}: remove it, or write the"
                           " card's code there, like 10di or boss")
        self.token = token
        self.suggestion = None


class CardListError(CardError):
    """Card codes that are not one string or a list of strings."""


class CardNotInDeckError(CardError):
    """A valid code for a card that the table's deck does not hold (a cross in a standard deck)."""

    def __init__(self, card: Card, deck: DeckKind) -> None:
        self.card = card
        self.deck = deck
        super().__init__(f"{card} is not in a {deck} deck")


class TooManyCopiesError(CardError):
    """A card appears more often than the table's decks hold."""

    def __init__(self, card: Card, count: int, decks: int) -> None:
        self.card = card
        self.count = count
        self.decks = decks
        held = "1 deck holds" if decks == 1 else f"{decks} decks hold"
        super().__init__(
            f"{card} appears {count} times but {held} only {decks_copies(card, decks)}"
        )


def decks_copies(card: Card, decks: int) -> int:
    """How many copies of ``card`` N whole decks hold (a Toss deck has two nulls)."""
    return decks * (2 if card.is_null else 1)


@dataclass(frozen=True, slots=True, repr=False)
class Card:
    """One playing card.

    ``rank`` is 1 (ace) to 13 (king) for a suited card and 0 otherwise; ``suit`` is a
    suit code or None; ``joker`` is a joker kind (``boss``, a colour, or ``plain``) or None.
    A card with neither suit nor joker is the null card.
    """

    rank: int = 0
    suit: str | None = None
    joker: str | None = None
    _hash: int = field(init=False, repr=False, compare=False, default=0)

    def __post_init__(self) -> None:
        if self.suit is not None:
            if self.suit not in SUITS or self.rank not in RANK_SYMBOLS or self.joker:
                raise CardParseError(f"{self.rank}{self.suit}")
        elif self.rank or (self.joker is not None and self.joker not in JOKER_KINDS):
            raise CardParseError(f"{self.rank}{self.joker or ''}")
        # Cards are dictionary keys in every hot loop: hash once.
        object.__setattr__(self, "_hash", hash((self.rank, self.suit, self.joker)))

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card code, case-insensitively (``T`` stands for 10).

        >>> Card.parse("AOR")
        Card.parse('Aor')
        >>> Card.parse("7\u2663").code
        '7cl'
        >>> Card.parse("10dia")
        Traceback (most recent call last):
        ...
        scorekeeper.cards.CardParseError: unknown card code '10dia': did you mean '10di'?
        """
        token = text.strip().lower().translate(_SUIT_SYMBOLS)
        if not token:
            raise EmptyCardTokenError(text, "where a card code was expected")
        card = _BY_CODE.get(token)
        if card is not None:
            return card
        match = _SUITED_RE.match(token)
        if match and match.group(2) in SUITS:
            return cls(_RANK_BY_SYMBOL[match.group(1).upper()], match.group(2))
        raise CardParseError(text, _suggest(token))

    @property
    def code(self) -> str:
        """The canonical code: rank upper-case, suit lower-case (``10di``, ``Qsh``, ``jk-red``)."""
        if self.suit is not None:
            return RANK_SYMBOLS[self.rank] + self.suit
        if self.joker == BOSS:
            return "boss"
        if self.joker == PLAIN:
            return "jk"
        if self.joker is not None:
            return f"jk-{self.joker}"
        return NULL_CODE

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        """The expression that gives this card back: ``Card.parse('Kcl')``."""
        return f"Card.parse({self.code!r})"

    @property
    def is_joker(self) -> bool:
        return self.joker is not None

    @property
    def is_boss(self) -> bool:
        return self.joker == BOSS

    @property
    def is_null(self) -> bool:
        return self.suit is None and self.joker is None

    @property
    def is_natural(self) -> bool:
        """A suited card: neither a joker nor the null."""
        return self.suit is not None

    @property
    def colour(self) -> Colour | None:
        """The suit's colour, or a coloured joker's colour; None for the Boss, jk and null."""
        if self.suit is not None:
            return SUIT_COLOURS[self.suit]
        return _JOKER_COLOURS.get(self.joker) if self.joker else None

    @property
    def name(self) -> str:
        """A name for people: ``10 of diamonds``, ``red joker``, ``Boss joker``.

        >>> Card.parse("Qsh").name, Card.parse("7cr").name
        ('queen of shields', '7 of crosses')
        """
        if self.suit is not None:
            return f"{RANK_NAMES[self.rank]} of {SUIT_PLURALS[self.suit]}"
        if self.joker == BOSS:
            return "Boss joker"
        if self.joker == PLAIN:
            return "joker"
        if self.joker is not None:
            return f"{self.joker} joker"
        return "null card"


def toss_deck() -> tuple[Card, ...]:
    """One Toss Double Deluxe deck: 104 suited cards, 5 jokers and 2 nulls (111 cards)."""
    return _TOSS_DECK


def standard_deck(jokers: Iterable[str] = ()) -> tuple[Card, ...]:
    """One standard 52-card deck, plus the named jokers (``"jk"``, ``"jk-red"``, ...)."""
    extra = tuple(Card.parse(code) for code in jokers)
    return _STANDARD_DECK + extra


def deck_codes(deck: DeckKind = TOSS) -> tuple[str, ...]:
    """Every distinct card code of a deck kind, in deck order."""
    cards = toss_deck() if deck == TOSS else standard_deck(("jk", "jk-red", "jk-black"))
    return tuple(dict.fromkeys(c.code for c in cards))


def parse_cards(tokens: str | Iterable[str]) -> list[Card]:
    """Parse cards from one string of codes separated by spaces or commas, or from a list whose
    items are such strings (command-line arguments, JSON lists of codes).

    An empty or blank string alone is no cards; an empty item of a list, or nothing between two
    commas, is an :class:`EmptyCardTokenError` naming where it is (never silently skipped).

    >>> [str(c) for c in parse_cards("Kcl, boss Khe")]
    ['Kcl', 'boss', 'Khe']
    >>> parse_cards(["", "Kcl", "Ksp"])
    Traceback (most recent call last):
    ...
    scorekeeper.cards.EmptyCardTokenError: empty card code '' at item 1 of 3: remove it, or \
write the card's code there, like 10di or boss
    """
    if isinstance(tokens, str):
        return _parse_text(tokens, None) if tokens.strip() else []
    items = list(tokens)
    cards: list[Card] = []
    for number, item in enumerate(items, 1):
        where = f"at item {number} of {len(items)}"
        if not item.strip():
            raise EmptyCardTokenError(item, where)
        cards.extend(_parse_text(item, where))
    return cards


def read_cards(value: object, what: str,
               error: Callable[[str], ValueError] | None = None) -> list[Card]:
    """The one reader of card codes from input: one string of codes, or a list of them, as
    :func:`parse_cards` reads them. A fault is raised as ``error`` with ``what`` in front,
    saying where the codes came from (without ``error``: the card error itself).

    >>> read_cards(["Kcl", "boss"], "ann's hand")
    [Card.parse('Kcl'), Card.parse('boss')]
    >>> read_cards(7, "hand")
    Traceback (most recent call last):
    ...
    scorekeeper.cards.CardListError: hand must be a list of card codes like ["7cl", "boss"], not 7
    """
    make = error or CardListError
    if not isinstance(value, str) and not (
            isinstance(value, list | tuple) and all(isinstance(v, str) for v in value)):
        raise make(f'{what} must be a list of card codes like ["7cl", "boss"], not {value!r}')
    try:
        return parse_cards(value)
    except CardError as exc:
        if error is None:
            raise
        raise error(f"{what}: {exc}") from exc


def _parse_text(text: str, where: str | None) -> list[Card]:
    """The codes of one string, separated by spaces or commas: every comma follows a code (a
    comma after the last code is a separator, as in ``8di, 9di, 10di`` typed in a shell)."""
    pieces = text.split(",")
    if len(pieces) > 1 and not pieces[-1].strip():
        pieces.pop()
    cards: list[Card] = []
    for number, piece in enumerate(pieces, 1):
        words = piece.split()
        if not words:
            place = "before the first comma" if number == 1 else "between two commas"
            raise EmptyCardTokenError(piece, f"{place} in {text!r}"
                                      + (f" ({where})" if where else ""))
        cards.extend(Card.parse(word) for word in words)
    return cards


def in_deck(card: Card, deck: DeckKind) -> bool:
    """Whether a deck kind holds this card (standard decks hold the four plain suits and jokers
    ``jk``, ``jk-red`` and ``jk-black``)."""
    if deck == TOSS:
        return card.joker != PLAIN
    if card.suit is not None:
        return card.suit in STANDARD_SUITS
    return card.joker in (PLAIN, RED, BLACK)


def check_cards(cards: Iterable[Card], decks: int = 1, deck: DeckKind = TOSS) -> None:
    """Raise if a card is not in the deck kind or appears more often than ``decks`` decks hold.

    >>> check_cards(parse_cards("Kcl Kcl"), decks=1)
    Traceback (most recent call last):
    ...
    scorekeeper.cards.TooManyCopiesError: Kcl appears 2 times but 1 deck holds only 1
    """
    if decks < 1:
        raise CardError(f"the number of decks must be 1 or more, not {decks}")
    counts = Counter(cards)
    for card, count in counts.items():
        if not in_deck(card, deck):
            raise CardNotInDeckError(card, deck)
        if count > decks_copies(card, decks):
            raise TooManyCopiesError(card, count, decks)


def _suggest(token: str) -> str | None:
    matches = difflib.get_close_matches(token, _LOWER_CODES, n=1, cutoff=0.5)
    return _LOWER_CODES[matches[0]] if matches else None


_JOKER_COLOURS: Final[dict[str, Colour]] = {colour: colour for colour in COLOURS}
_TOSS_DECK: Final[tuple[Card, ...]] = (
    tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
    + tuple(Card(joker=kind) for kind in (BOSS, BLACK, RED, GOLD, BLUE))
    + (Card(), Card())
)
_STANDARD_DECK: Final[tuple[Card, ...]] = tuple(
    Card(rank, suit) for suit in STANDARD_SUITS for rank in RANKS
)
_BY_CODE: Final[dict[str, Card]] = {
    c.code.lower(): c for c in _TOSS_DECK + (Card(joker=PLAIN),)
}
_LOWER_CODES: Final[dict[str, str]] = {card.code.lower(): card.code for card in _BY_CODE.values()}
