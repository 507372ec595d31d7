"""The Toss engine's events, read once from JSON into typed values (the fold then applies them).

Reading checks the shape of an event and the names it uses against the table: a missing or
mistyped field, a card code that is no Toss card, a name of nobody at the table are
:class:`EventError` (malformed input). Whether the event is allowed now is the rules' question
(:mod:`scorekeeper.engine.rules`).

>>> from scorekeeper.engine.state import TableSetup
>>> read_event(TableSetup(players=("ann", "bob")), {"type": "meld", "player": "ann",
...                                                   "cards": ["7cl", "7sp", "7he"]})
Meld(player='ann', cards=(Card.parse('7cl'), Card.parse('7sp'), Card.parse('7he')), top=None)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from scorekeeper.cards import TOSS, Card, CardError, EmptyCardTokenError, in_deck, toss_deck
from scorekeeper.engine.state import EventError, TableSetup
from scorekeeper.outline import Incoming

Cards = tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class NewHand:
    """A new hand and its dealer (None: the dealer the deal rule gives)."""

    dealer: str | None


@dataclass(frozen=True, slots=True)
class Meld:
    """``player`` melds ``cards``, showing ``top`` on top (None: the engine chooses)."""

    player: str
    cards: Cards
    top: Card | None


@dataclass(frozen=True, slots=True)
class LayOff:
    """``player`` lays ``cards`` off on meld ``meld``."""

    player: str
    meld: int
    cards: Cards
    top: Card | None


@dataclass(frozen=True, slots=True)
class Toss:
    """``player`` tosses ``joker`` at the top card of meld ``meld`` and melds it with
    ``cards``; ``captured``, when given, is the card the player saw on top."""

    player: str
    meld: int
    joker: Card
    cards: Cards
    top: Card | None
    captured: Card | None = None


@dataclass(frozen=True, slots=True)
class DoubleCross:
    """``player`` lays down ``jokers`` to take back what the answered play took."""

    player: str
    jokers: Cards


@dataclass(frozen=True, slots=True)
class Steal:
    """``player``, out of turn, lays ``card`` off on meld ``meld``."""

    player: str
    meld: int
    card: Card


@dataclass(frozen=True, slots=True)
class NextTurn:
    """The turn passes (to ``player``, or to whom the rules give it)."""

    player: str | None


@dataclass(frozen=True, slots=True)
class EndHand:
    """The hand ends: who went out (None: abandoned) and the cards left in each hand."""

    went_out: str | None
    hands: Mapping[str, Cards]


@dataclass(frozen=True, slots=True)
class SetTop:
    """Meld ``meld`` shows ``top`` on top."""

    meld: int
    top: Card


TossEvent = NewHand | Meld | LayOff | Toss | DoubleCross | Steal | NextTurn | EndHand | SetTop


def read_event(setup: TableSetup, event: Incoming) -> TossEvent:
    """The typed event of a JSON object with a known ``"type"`` at this table."""
    kind = event.get("type")
    reader = _READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        raise EventError(f"unknown event type {kind!r}: use one of {', '.join(EVENT_TYPES)}")
    return reader(_Fields(setup, event))


class _Fields:
    """The fields of one event, each read and checked as the event needs it."""

    def __init__(self, setup: TableSetup, event: Incoming) -> None:
        self.setup, self.event = setup, event

    def field(self, name: str) -> object:
        if name not in self.event:
            raise EventError(f'the {self.event["type"]} event needs "{name}"')
        return self.event[name]

    def player(self, name: str = "player") -> str:
        value = self.field(name)
        if not isinstance(value, str) or value not in self.setup.team_of:
            raise EventError(f"{name} {value!r} is not a player at this table"
                             f" (players: {', '.join(self.setup.players)})")
        return value

    def maybe_player(self, name: str) -> str | None:
        return None if self.event.get(name) is None else self.player(name)

    def card(self, name: str) -> Card:
        return parse_card(self.field(name), name)

    def maybe_card(self, name: str) -> Card | None:
        return None if self.event.get(name) is None else self.card(name)

    def cards(self, name: str) -> Cards:
        value = self.field(name)
        if not isinstance(value, list | tuple):
            raise EventError(f'"{name}" must be a list of card codes')
        return card_list(value, name)

    def top(self) -> Card | None:
        value = self.event.get("top")
        return None if value is None else parse_card(value, "top")

    def meld(self) -> int:
        value = self.field("meld")
        if not isinstance(value, int) or isinstance(value, bool):
            raise EventError(f'"meld" must be the id number of a meld on the board, not'
                             f" {value!r}")
        return value

    def hands(self) -> dict[str, Cards]:
        value = self.field("hands")
        if not isinstance(value, Mapping):
            raise EventError('"hands" must map each player to the card codes left in hand')
        hands: dict[str, Cards] = {}
        for name, codes in value.items():
            if name not in self.setup.team_of:
                raise EventError(f"hands names {name!r}, who is not a player at this table")
            if not isinstance(codes, list | tuple):
                raise EventError(f"hands of {name} must be a list of card codes")
            hands[name] = card_list(codes, f"hands of {name}")
        return hands


def parse_card(value: object, name: str) -> Card:
    """One card of the Toss deck from its code; ``name`` says which field it is."""
    card = _CODES.get(value) if isinstance(value, str) else None
    if card is not None:
        return card
    if not isinstance(value, str):
        raise EventError(f'"{name}" must be a card code like "10di" or "boss", not {value!r}')
    try:
        card = Card.parse(value)
    except CardError as exc:
        raise EventError(f"{name}: {exc}") from exc
    if not in_deck(card, TOSS):
        raise EventError(f"{name}: {card} is not in a Toss Double Deluxe deck")
    return card


def card_list(value: Sequence[object], name: str) -> Cards:
    """The cards of a list of codes; an empty code is refused naming its place in the list."""
    cards = []
    for number, code in enumerate(value, 1):
        if isinstance(code, str) and not code.strip():
            empty = EmptyCardTokenError(code, f"at item {number} of {len(value)}")
            raise EventError(f"{name}: {empty}")
        cards.append(parse_card(code, name))
    return tuple(cards)


#: Exact codes of the Toss deck, canonical and lower-case, for the common case of parsing.
_CODES: Final[dict[str, Card]] = {
    **{c.code.lower(): c for c in toss_deck()}, **{c.code: c for c in toss_deck()}}

_READERS: Final[dict[str, Callable[[_Fields], TossEvent]]] = {
    "new-hand": lambda f: NewHand(f.maybe_player("dealer")),
    "meld": lambda f: Meld(f.player(), f.cards("cards"), f.top()),
    "lay-off": lambda f: LayOff(player=f.player(), cards=f.cards("cards"), top=f.top(),
                                meld=f.meld()),
    "toss": lambda f: Toss(f.player(), f.meld(), f.card("joker"), f.cards("cards"), f.top(),
                           f.maybe_card("captured")),
    "double-cross": lambda f: DoubleCross(f.player(), f.cards("jokers")),
    "steal": lambda f: Steal(player=f.player(), card=f.card("card"), meld=f.meld()),
    "next-turn": lambda f: NextTurn(f.maybe_player("player")),
    "end-hand": lambda f: EndHand(f.maybe_player("went_out"), f.hands()),
    "set-top": lambda f: SetTop(f.meld(), f.card("top")),
}

#: Every event type of the Toss engine (``correction``, ``undo`` and ``amend`` are the fold's:
#: :mod:`scorekeeper.log`).
EVENT_TYPES: Final[tuple[str, ...]] = tuple(_READERS)
