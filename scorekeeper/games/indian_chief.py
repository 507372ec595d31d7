"""Indian Chief (seed 004; docs/rules.md section 5): seven melds, each scored from its cards.

Face value: A=1, J Q K=10, others their pip. The seven melds (the card count names the meld):

- Rich Man (5): minus the face values added.
- Poor Man (3): the face values of its spades.
- Beggar Man (2): 2 for each card in the opponents' melds matching a Beggar Man card's rank.
- Thief (1): its face value.
- Doctor (6): six different ranks with a heart and an ace among them: 10 per card of the suit
  the player names; otherwise 0.
- Lawyer (4): 25 when the face values add up to exactly 25; otherwise 0.
- Indian Chief (7): a five-card poker hand plus a two-card baccarat hand (the two face values
  added, tens digit dropped), over the best split of the seven cards. Poker: five of a kind 50,
  straight flush 45, four of a kind 40, full house 35, flush 30, straight 25, three of a kind 20,
  two pair 15, pair 10, high card 5; the ace is high or low in straights.

>>> from scorekeeper.cards import parse_cards
>>> score_meld("indian-chief", parse_cards("Khe Qhe Jhe 10he Ahe 9cl 8sp")).points
52
>>> score_meld("doctor", parse_cards("Ahe 2he 3cl 4he 5sp 6he"), suit="he").points
40
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from scorekeeper.cards import (
    ACE,
    STANDARD,
    STANDARD_SUITS,
    SUIT_NAMES,
    Card,
)
from scorekeeper.deadwood import face_value
from scorekeeper.games.base import (
    Field,
    GameEnd,
    HandEntryError,
    HandInput,
    HandScore,
    Roster,
    RulesPack,
    add_totals,
    check_deck,
    read_cards,
    read_int,
    require,
)
from scorekeeper.outline import Incoming, JsonObject

#: The seven melds and their card counts, in score-sheet order.
MELDS: Final[dict[str, int]] = {
    "rich-man": 5, "poor-man": 3, "beggar-man": 2, "thief": 1,
    "doctor": 6, "lawyer": 4, "indian-chief": 7,
}
MELD_TITLES: Final[dict[str, str]] = {
    "rich-man": "Rich Man", "poor-man": "Poor Man", "beggar-man": "Beggar Man",
    "thief": "Thief", "doctor": "Doctor", "lawyer": "Lawyer", "indian-chief": "Indian Chief",
}
TURNS: Final = 7
BEGGAR_MATCH: Final = 2
DOCTOR_PER_CARD: Final = 10
LAWYER_SUM: Final = 25
LAWYER_POINTS: Final = 25
#: Poker hands, best first, with their points.
POKER_HANDS: Final[tuple[tuple[str, int], ...]] = (
    ("five of a kind", 50), ("straight flush", 45), ("four of a kind", 40),
    ("full house", 35), ("flush", 30), ("straight", 25), ("three of a kind", 20),
    ("two pair", 15), ("pair", 10), ("high card", 5),
)
_POKER_POINTS: Final = dict(POKER_HANDS)


class MeldNameError(HandEntryError):
    """Not one of the seven melds."""


@dataclass(frozen=True, slots=True)
class MeldScore:
    """The points of one Indian Chief meld and the reason, in words.

    >>> from scorekeeper.cards import parse_cards
    >>> score_meld("thief", parse_cards("Qdi")).to_json()
    {'points': 10, 'reason': "Thief scores its card's face value: Qdi is 10"}
    """

    meld: str
    points: int
    reason: str

    def to_json(self) -> JsonObject:
        return {"points": self.points, "reason": self.reason}


def poker_hand(cards: Sequence[Card]) -> tuple[str, int]:
    """The name and points of a five-card poker hand (ace high or low in straights).

    >>> from scorekeeper.cards import parse_cards
    >>> poker_hand(parse_cards("Acl 2he 3sp 4di 5cl"))
    ('straight', 25)
    """
    if len(cards) != 5:
        raise HandEntryError(f"a poker hand is five cards, not {len(cards)}")
    ranks = sorted(c.rank for c in cards)
    counts = sorted(Counter(ranks).values(), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    distinct = len(set(ranks)) == 5
    straight = distinct and (ranks[-1] - ranks[0] == 4 or ranks == [ACE, 10, 11, 12, 13])
    found = {
        "five of a kind": counts[0] == 5,
        "straight flush": straight and flush,
        "four of a kind": counts[0] == 4,
        "full house": counts[:2] == [3, 2],
        "flush": flush,
        "straight": straight,
        "three of a kind": counts[0] == 3,
        "two pair": counts[:2] == [2, 2],
        "pair": counts[0] == 2,
        "high card": True,
    }
    name = next(n for n, _ in POKER_HANDS if found[n])
    return name, _POKER_POINTS[name]


def baccarat_digit(cards: Sequence[Card]) -> int:
    """Two face values added, tens digit dropped.

    >>> from scorekeeper.cards import parse_cards
    >>> baccarat_digit(parse_cards("7he 8cl"))
    5
    """
    return sum(face_value(c) for c in cards) % 10


def meld_name(text: str) -> str:
    """The meld's key from what a player types (case, spaces and underscores forgiven).

    >>> meld_name("Beggar Man")
    'beggar-man'
    """
    key = text.strip().lower().replace(" ", "-").replace("_", "-")
    if key not in MELDS:
        raise MeldNameError(f"unknown meld {text!r}: use one of {', '.join(MELDS)}")
    return key


def score_meld(
    meld: str,
    cards: Sequence[Card],
    suit: str | None = None,
    opponents: Sequence[Card] = (),
) -> MeldScore:
    """Score one meld from its cards (and the Doctor's named suit, the opponents' melded cards
    for the Beggar Man). A wrong number of cards is an input error; cards that do not qualify
    (a Doctor, a Lawyer) score 0 with the reason."""
    meld = meld_name(meld)
    title = MELD_TITLES[meld]
    if len(cards) != MELDS[meld]:
        raise HandEntryError(f"the {title} is {MELDS[meld]} card(s), not {len(cards)}")
    for card in [*cards, *opponents]:
        if not card.is_natural or card.suit not in STANDARD_SUITS:
            raise HandEntryError(f"{card} is not in the standard deck Indian Chief uses")
    if suit is not None and meld != "doctor":
        raise HandEntryError(f"only the Doctor names a suit, not the {title}")
    values = [face_value(c) for c in cards]
    added = "+".join(map(str, values))
    if meld == "rich-man":
        return MeldScore(meld, -sum(values), f"Rich Man scores its face values negative:"
                                             f" -({added}) = {-sum(values)}")
    if meld == "poor-man":
        spades = [c for c in cards if c.suit == "sp"]
        worth = sum(face_value(c) for c in spades)
        which = (f"{' + '.join(map(str, spades))} = {worth} points" if spades
                 else "no spade, 0 points")
        return MeldScore(meld, worth, f"Poor Man scores the face values of its spades: {which}")
    if meld == "beggar-man":
        ranks = {c.rank for c in cards}
        matches = [c for c in opponents if c.rank in ranks]
        return MeldScore(meld, BEGGAR_MATCH * len(matches),
                         f"Beggar Man scores 2 per opponents' card of its ranks: {len(matches)}"
                         f" {'card matches' if len(matches) == 1 else 'cards match'},"
                         f" {BEGGAR_MATCH * len(matches)} points")
    if meld == "thief":
        return MeldScore(meld, values[0], f"Thief scores its card's face value: {cards[0]} is"
                                          f" {values[0]}")
    if meld == "doctor":
        return _doctor(cards, suit)
    if meld == "lawyer":
        total = sum(values)
        if total == LAWYER_SUM:
            return MeldScore(meld, LAWYER_POINTS,
                             f"Lawyer scores 25: the face values {added} add up to exactly 25")
        return MeldScore(meld, 0, f"Lawyer scores 0: the face values {added} add up to {total},"
                                  " not exactly 25")
    best: tuple[int, str] = (-1, "")
    for pair in combinations(range(7), 2):
        two = [cards[i] for i in pair]
        five = [c for i, c in enumerate(cards) if i not in pair]
        name, points = poker_hand(five)
        digit = baccarat_digit(two)
        if points + digit > best[0]:
            reason = (f"Indian Chief scores the best split: {name} {' '.join(map(str, five))}"
                      f" ({points}) + baccarat {' '.join(map(str, two))} ({digit}),"
                      f" {points + digit} points")
            best = (points + digit, reason)
    return MeldScore(meld, best[0], best[1])


def _doctor(cards: Sequence[Card], suit: str | None) -> MeldScore:
    if len({c.rank for c in cards}) != len(cards):
        return MeldScore("doctor", 0, "Doctor scores 0: it needs six different ranks")
    if not any(c.suit == "he" for c in cards):
        return MeldScore("doctor", 0, "Doctor scores 0: it needs a heart")
    if not any(c.rank == ACE for c in cards):
        return MeldScore("doctor", 0, "Doctor scores 0: it needs an ace")
    named = "the named"
    if suit is None:
        counts = Counter(c.suit for c in cards)
        suit = max(STANDARD_SUITS, key=lambda s: counts[s])
        named = "the best"
    else:
        suit = suit.strip().lower()
        if suit not in STANDARD_SUITS:
            raise HandEntryError(f"the Doctor names a suit of {', '.join(STANDARD_SUITS)}, not "
                                 f"{suit!r}")
    count = sum(c.suit == suit for c in cards)
    return MeldScore("doctor", DOCTOR_PER_CARD * count,
                     f"Doctor scores 10 per card of {named} suit, {SUIT_NAMES[suit]}s:"
                     f" {count} {'card' if count == 1 else 'cards'}, {DOCTOR_PER_CARD * count}"
                     " points")


class IndianChief(RulesPack):
    name = "indian-chief"
    title = "Indian Chief"
    seed = "004"
    deck = STANDARD
    min_players = 2
    max_players = 8
    summary = "Seven turns, seven melds (Rich Man to Indian Chief); highest total wins."
    end = GameEnd(hands=TURNS)
    hand_form = (
        Field("turn", "int", "Turn (1-7)", minimum=1, maximum=TURNS),
        Field("melds", "group", "Each player's meld", per_player=True, fields=(
            Field("meld", "choice", "Meld", choices=tuple(MELDS)),
            Field("cards", "cards", "Cards"),
            Field("suit", "suit", "Doctor's named suit", required=False,
                  choices=STANDARD_SUITS),
        )),
        Field("used", "choice", "Melds already on each player's sheet", per_player=True,
              many=True, required=False, choices=tuple(MELDS),
              help="a meld already scored cannot be made again"),
    )

    def card_value(self, card: Card) -> int:
        return face_value(card)

    def ui_hints(self) -> JsonObject:
        return {**super().ui_hints(), "progress": {"label": "turn", "of": TURNS},
                "meld_names": dict(MELD_TITLES)}

    def hand_summary(self, entry: Incoming, details: Incoming) -> str:
        return f"turn {entry.get('turn')}"

    def score_hand(self, given: HandInput) -> HandScore:
        totals, entry, opts, decks = given
        turn = read_int(require(entry, "turn", self.title), '"turn"', 1, TURNS)
        roster = Roster(totals)
        melds_raw = roster.mapping(require(entry, "melds", self.title), '"melds"')
        used_raw = roster.mapping(entry.get("used", {}), '"used"')
        plays: dict[str, tuple[str, list[Card], str | None]] = {}
        for name, play in melds_raw.items():
            if not isinstance(play, Mapping):
                raise HandEntryError(f'the meld of {name} must be {{"meld", "cards", "suit"}}')
            meld = meld_name(str(require(play, "meld", f"the meld of {name}")))
            cards = read_cards(require(play, "cards", f"the meld of {name}"), f"{name}'s cards")
            suit = play.get("suit")
            if suit is not None and not isinstance(suit, str):
                raise HandEntryError(f"{name}'s Doctor suit must be a suit code")
            used = used_raw.get(name, [])
            if not isinstance(used, list):
                raise HandEntryError(f"the melds used by {name} must be a list of meld names")
            if meld in {meld_name(str(u)) for u in used}:
                raise HandEntryError(f"{name} already has a score for the {MELD_TITLES[meld]}")
            plays[name] = (meld, cards, suit)
        check_deck([c for _, cards, _ in plays.values() for c in cards], decks, self.deck)
        names = roster.names
        missing = [n for n in names if n not in plays]
        if missing:
            raise HandEntryError(f'"melds" needs the meld of {", ".join(missing)}')
        scores: dict[str, MeldScore] = {}
        for name, (meld, cards, suit) in plays.items():
            others = [c for other, (_, cs, _) in plays.items() if other != name for c in cs]
            scores[name] = score_meld(meld, cards, suit, others)
        hand = {n: scores[n].points for n in names}
        new_totals = add_totals(totals, hand, names)
        game_over, winner = self.game_end(new_totals, None, turn)
        details = {"melds": {n: {"meld": scores[n].meld, **scores[n].to_json()} for n in names}}
        return HandScore(hand, new_totals, game_over, winner,
                         f"indian-chief: turn {turn} of {TURNS}", details)
