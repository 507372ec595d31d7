"""The deadwood solver for the games where melds may stay in hand (docs/rules.md section 5).

In Three Thirteen and Tong-Its a hand is scored by its best arrangement into melds: the deadwood
is the minimum total value of the unmatched cards over every way of arranging the hand into valid
melds. Melds are sets (cards of one rank) and runs (consecutive cards of one suit; the ace is low
only, so A-2-3 is a run and Q-K-A is not). Three Thirteen has a wild rank per hand; wild cards
stand for any card, melds of wild cards alone are valid, and an unmatched wild counts its own
value. Tong-Its has no wilds and sets of three or four.

The search is exact: it takes the natural cards in a fixed order, memoised on the bitmask of the
cards still to place and the number of wilds still free (all wilds of a hand share one rank, so
they are interchangeable and a count is enough).

>>> from scorekeeper.cards import parse_cards
>>> result = solve(parse_cards("5he 6he 7he Kcl Kdi 2sp"), TONG_ITS)
>>> result.deadwood, [str(c) for c in result.unmatched]
(22, ['Kcl', '2sp', 'Kdi'])
>>> solve(parse_cards("3cl 3he 8sp Kdi"), three_thirteen(1)).deadwood  # 3s wild: K-3-3
8
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import Final

from scorekeeper.cards import ACE, KING, RANK_SYMBOLS, SUITS, Card
from scorekeeper.errors import InvalidInputError
from scorekeeper.outline import JsonObject

#: The longest run: ace (low) to king.
MAX_RUN: Final = 13
MIN_MELD: Final = 3
#: No hand of these games holds more (13 dealt plus one drawn); bigger input is refused.
MAX_HAND: Final = 20
THREE_THIRTEEN_HANDS: Final = 11


class DeadwoodError(InvalidInputError):
    """A hand the solver cannot score: a joker or null card, or a bad wild rank or hand number."""


def face_value(card: Card) -> int:
    """Deadwood value of a suited card: ace 1, J Q K 10, others their pip.

    >>> face_value(Card.parse("Ahe")), face_value(Card.parse("7cl")), face_value(Card.parse("Qsp"))
    (1, 7, 10)
    """
    if not card.is_natural:
        raise DeadwoodError(f"{card} has no deadwood value: only suited cards are scored here")
    return min(card.rank, 10)


@dataclass(frozen=True, slots=True)
class MeldRules:
    """What counts as a meld for the solver.

    ``max_set`` caps the size of a set (Tong-Its: 4; None for no cap); ``wild_rank`` is the rank
    that is wild (Three Thirteen) or None. Runs are ace-low in both games.

    >>> TONG_ITS.describe()
    'tong-its: sets of 3-4, same-suit runs of 3 or more, ace low'
    """

    name: str
    max_set: int | None = None
    wild_rank: int | None = None

    def __post_init__(self) -> None:
        if self.wild_rank is not None and not ACE <= self.wild_rank <= KING:
            raise DeadwoodError(f"the wild rank must be 1 (ace) to 13 (king), not {self.wild_rank}")
        if self.max_set is not None and self.max_set < MIN_MELD:
            raise DeadwoodError(f"a set holds at least {MIN_MELD} cards, not {self.max_set}")

    def is_wild(self, card: Card) -> bool:
        return card.is_natural and card.rank == self.wild_rank

    def describe(self) -> str:
        wild = f", {RANK_SYMBOLS[self.wild_rank]}s wild" if self.wild_rank else ""
        sets = f"sets of 3-{self.max_set}" if self.max_set else "sets of 3 or more"
        return f"{self.name}: {sets}, same-suit runs of 3 or more, ace low{wild}"


#: Tong-Its: sets of three or four, ace-low runs, no wilds.
TONG_ITS: Final = MeldRules("tong-its", max_set=4)


def three_thirteen(hand_no: int) -> MeldRules:
    """Three Thirteen's rules for hand 1-11: 3s wild in hand 1 up to kings in hand 11.

    >>> RANK_SYMBOLS[three_thirteen(9).wild_rank or 0]
    'J'
    """
    if not 1 <= hand_no <= THREE_THIRTEEN_HANDS:
        raise DeadwoodError(
            f"Three Thirteen has hands 1 to {THREE_THIRTEEN_HANDS}, not {hand_no}"
        )
    return MeldRules("three-thirteen", wild_rank=hand_no + 2)


@dataclass(frozen=True, slots=True)
class Deadwood:
    """The best arrangement of a hand: its deadwood, its melds and its unmatched cards.

    >>> from scorekeeper.cards import parse_cards
    >>> solve(parse_cards("7cl 7sp 7he 9di"), TONG_ITS).to_json()
    {'deadwood': 9, 'melds': [['7cl', '7sp', '7he']], 'unmatched': ['9di']}
    """

    deadwood: int
    melds: tuple[tuple[Card, ...], ...]
    unmatched: tuple[Card, ...]

    def to_json(self) -> JsonObject:
        return {
            "deadwood": self.deadwood,
            "melds": [[c.code for c in meld] for meld in self.melds],
            "unmatched": [c.code for c in self.unmatched],
        }


@dataclass(frozen=True, slots=True)
class _Candidate:
    mask: int  # the natural cards of the meld
    wilds: int  # wilds it needs
    absorbs: bool  # whether it can take any number of further wilds


def _card_key(card: Card) -> tuple[int, int]:
    return (SUITS.index(card.suit or "cl"), card.rank)


def solve(cards: Iterable[Card], rules: MeldRules) -> Deadwood:
    """The minimum deadwood of a hand over every arrangement into valid melds.

    Raises :class:`DeadwoodError` for a joker or null card (these games use no jokers) and for
    more than :data:`MAX_HAND` cards.

    >>> from scorekeeper.cards import parse_cards
    >>> r = solve(parse_cards("Ahe 2he 3he 4he Qsp"), TONG_ITS)
    >>> r.deadwood, [[str(c) for c in m] for m in r.melds]
    (10, [['Ahe', '2he', '3he', '4he']])
    """
    hand = list(cards)
    if len(hand) > MAX_HAND:
        raise DeadwoodError(f"a hand of {len(hand)} cards is more than {rules.name} deals: at "
                            f"most {MAX_HAND} cards")
    for card in hand:
        if not card.is_natural:
            raise DeadwoodError(f"{card} cannot be scored: {rules.name} uses no jokers or nulls")
    wilds = [c for c in hand if rules.is_wild(c)]
    naturals = sorted((c for c in hand if not rules.is_wild(c)), key=_card_key)
    wild_value = face_value(wilds[0]) if wilds else 0
    n = len(naturals)
    values = [face_value(c) for c in naturals]
    by_low = _candidates(naturals, rules, len(wilds))

    memo: dict[tuple[int, int, bool], tuple[int, int]] = {}

    def best(mask: int, free: int, absorbing: bool) -> int:
        if mask == 0:
            if free == 0 or absorbing or free >= MIN_MELD:
                return 0
            return free * wild_value
        key = (mask, free, absorbing)
        hit = memo.get(key)
        if hit is not None:
            return hit[0]
        low = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << low)
        score = values[low] + best(rest, free, absorbing)
        choice = -1
        for i, cand in enumerate(by_low[low]):
            if cand.wilds <= free and cand.mask & mask == cand.mask:
                s = best(mask & ~cand.mask, free - cand.wilds, absorbing or cand.absorbs)
                if s < score:
                    score, choice = s, i
                    if s == 0:
                        break
        memo[key] = (score, choice)
        return score

    total = best((1 << n) - 1, len(wilds), False)

    # Walk the recorded choices to rebuild the arrangement.
    melds: list[list[Card]] = []
    unmatched: list[Card] = []
    spare = list(wilds)
    mask, free, absorbing = (1 << n) - 1, len(wilds), False
    absorber: int | None = None
    while mask:
        low = (mask & -mask).bit_length() - 1
        best(mask, free, absorbing)
        choice = memo[(mask, free, absorbing)][1]
        if choice < 0:
            unmatched.append(naturals[low])
            mask &= ~(1 << low)
            continue
        cand = by_low[low][choice]
        meld = [naturals[i] for i in range(n) if cand.mask >> i & 1]
        meld += [spare.pop() for _ in range(cand.wilds)]
        if cand.absorbs and absorber is None:
            absorber = len(melds)
        melds.append(meld)
        mask &= ~cand.mask
        free -= cand.wilds
        absorbing = absorbing or cand.absorbs
    if spare:
        if absorber is not None:
            melds[absorber].extend(spare)
        elif len(spare) >= MIN_MELD:
            melds.append(spare)
        else:
            unmatched.extend(spare)
    unmatched.sort(key=_card_key)
    return Deadwood(total, tuple(tuple(m) for m in melds), tuple(unmatched))


def _candidates(naturals: Sequence[Card], rules: MeldRules, wilds: int) -> list[list[_Candidate]]:
    """Every meld of natural cards (with the wilds it needs), indexed by its lowest card."""
    found: dict[tuple[int, int], bool] = {}

    by_rank: dict[int, list[int]] = {}
    by_suit_rank: dict[tuple[str, int], list[int]] = {}
    for i, card in enumerate(naturals):
        by_rank.setdefault(card.rank, []).append(i)
        by_suit_rank.setdefault((card.suit or "", card.rank), []).append(i)

    # Sets: any group of one rank, topped up to three with wilds.
    for group in by_rank.values():
        top = len(group) if rules.max_set is None else min(len(group), rules.max_set)
        for size in range(1, top + 1):
            need = max(0, MIN_MELD - size)
            if need > wilds:
                continue
            for combo in combinations(group, size):
                mask = sum(1 << i for i in combo)
                found[(mask, need)] = found.get((mask, need), False) or rules.max_set is None

    # Runs: natural end cards lo and hi of one suit, each rank between a natural copy or a wild.
    for suit in {c.suit or "" for c in naturals}:
        for lo in range(ACE, KING + 1):
            for hi in range(lo + 1, KING + 1):
                if (suit, lo) not in by_suit_rank or (suit, hi) not in by_suit_rank:
                    continue
                length = hi - lo + 1
                slots = [by_suit_rank.get((suit, r), []) + [-1] for r in range(lo + 1, hi)]
                for lo_i, hi_i in product(by_suit_rank[(suit, lo)], by_suit_rank[(suit, hi)]):
                    for inner in product(*slots):
                        need = inner.count(-1) + max(0, MIN_MELD - length)
                        if need > wilds:
                            continue
                        mask = (1 << lo_i) | (1 << hi_i)
                        for i in inner:
                            if i >= 0:
                                mask |= 1 << i
                        absorbs = max(length, MIN_MELD) < MAX_RUN
                        found[(mask, need)] = found.get((mask, need), False) or absorbs

    by_low: list[list[_Candidate]] = [[] for _ in naturals]
    for (mask, need), absorbs in found.items():
        low = (mask & -mask).bit_length() - 1
        by_low[low].append(_Candidate(mask, need, absorbs))
    for cands in by_low:
        # Bigger melds first: a zero-deadwood arrangement is found sooner.
        cands.sort(key=lambda c: (-c.mask.bit_count(), c.wilds))
    return by_low


def is_meld(cards: Sequence[Card], rules: MeldRules) -> bool:
    """Whether these cards, as they are, form one valid meld (a reference check, used by tests).

    >>> from scorekeeper.cards import parse_cards
    >>> is_meld(parse_cards("Qhe Khe Ahe"), TONG_ITS)
    False
    >>> is_meld(parse_cards("5cl 7cl 3he"), three_thirteen(1))
    True
    """
    if len(cards) < MIN_MELD or any(not c.is_natural for c in cards):
        return False
    naturals = [c for c in cards if not rules.is_wild(c)]
    if not naturals:
        return True
    if len({c.rank for c in naturals}) == 1 and (
        rules.max_set is None or len(cards) <= rules.max_set
    ):
        return True
    if len({c.suit for c in naturals}) != 1 or len(cards) > MAX_RUN:
        return False
    ranks = sorted(c.rank for c in naturals)
    if len(set(ranks)) != len(ranks):
        return False
    # The wilds fill the gaps; any wilds left over extend the run within A..K.
    return ranks[-1] - ranks[0] + 1 <= len(cards)

