"""Meld adjudication for Toss Rummy and Complex Toss Rummy (docs/rules.md sections 2, 3 and 6).

Every judgement returns a :class:`Verdict` that says whether the play is legal, what kind of
meld it makes, its points under the table's card values, which cards may be shown as top,
and one sentence a player understands.

>>> from scorekeeper.cards import parse_cards
>>> judge_meld(parse_cards("Kcl jk-red Khe")).reason
'valid set of kings with jk-red standing in: 3 cards worth 60 points (Complex Toss Rummy values)'
>>> [str(c) for c in judge_meld(parse_cards("8di 9di 10di")).top_cards]
['8di', '10di']
>>> judge_meld(parse_cards("Kcl Acl 2cl")).reason
'Kcl-Acl-2cl wraps around the ace: K-A-2 is never a sequence'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from scorekeeper.cards import (
    ACE,
    BOSS,
    KING,
    PLAIN,
    RANK_NAMES,
    SUIT_COLOURS,
    SUIT_NAMES,
    SUIT_PLURALS,
    Card,
    TooManyCopiesError,
    decks_copies,
    toss_deck,
)
from scorekeeper.errors import RuleRefusalError
from scorekeeper.outline import JsonObject
from scorekeeper.rulesets import (
    COMPLEX,
    RULESET_TITLES,
    TOSS_RUMMY,
    Ruleset,
    TossOptions,
    card_value,
)

MIN_MELD: Final = 3
#: "Three or four Jokers can be melded as a set" (seed 000): five or more jokers meld nothing.
MAX_JOKER_SET: Final = 4
JOKER_SET_RULE: Final = '"Three or four Jokers can be melded as a set"'
#: A sequence holds each rank once, so at most 13 cards (A to K, or 2 to A).
MAX_SEQUENCE: Final = 13
#: Position of the ace when it plays high (above the king).
ACE_HIGH: Final = 14


class MeldKind(StrEnum):
    """The three kinds of meld (docs/rules.md 2): a set of one rank, a sequence of one suit, and a
    joker set of three or four jokers alone.

    >>> MeldKind("joker-set") is MeldKind.JOKER_SET
    True
    """

    SET = "set"
    SEQUENCE = "sequence"
    JOKER_SET = "joker-set"


@dataclass(frozen=True, slots=True)
class Verdict:
    """The adjudication of one meld, lay-off, Toss or top-card choice.

    ``points`` is the value of the judged cards under the table's ruleset (0 when invalid);
    ``rule`` names the rule and the options applied.

    >>> from scorekeeper.cards import parse_cards
    >>> judge_meld(parse_cards("7cl 7sp 7he 7di")).to_json()["points"]
    28
    """

    valid: bool
    kind: MeldKind | None
    points: int
    top_cards: tuple[Card, ...]
    reason: str
    rule: str

    def to_json(self) -> JsonObject:
        return {
            "valid": self.valid,
            "kind": None if self.kind is None else self.kind.value,
            "points": self.points,
            "top_cards": [c.code for c in self.top_cards],
            "reason": self.reason,
            "rule": self.rule,
        }


class IllegalPlay(RuleRefusalError):
    """Raised by callers that refuse a play; carries the :class:`Verdict` that refused it.

    >>> from scorekeeper.cards import parse_cards
    >>> str(IllegalPlay(judge_meld(parse_cards("Kcl Qcl"))))
    'Kcl-Qcl is too short: a meld needs at least 3 cards'
    """

    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict
        super().__init__(verdict.reason)


_DEFAULT_OPTIONS: Final = TossOptions()


_ACE_WORDS: Final[dict[str, str]] = {
    "both": "the ace plays high or low (option ace=both)",
    "high": "the ace plays high only (option ace=high)",
    "low": "the ace plays low only (option ace=low)",
}


def _worth(count: int, what: str, points: int, ruleset: str) -> str:
    """``3 cards worth 60 points (Complex Toss Rummy values)``: says which values applied."""
    return f"{count} {what} worth {points} points ({RULESET_TITLES[ruleset]} values)"


def _plural(rank: int) -> str:
    return f"{RANK_NAMES[rank]}s"


def _codes(cards: Sequence[Card], sep: str = "-") -> str:
    return sep.join([c.code for c in cards])


def _points(cards: Sequence[Card], ruleset: str) -> int:
    table = _VALUES_COMPLEX if ruleset == COMPLEX else _VALUES_TOSS
    total = 0
    for card in cards:
        total += table[card]
    return total


def _unique(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(dict.fromkeys(cards))


def _invalid(reason: str, rule: str) -> Verdict:
    return Verdict(False, None, 0, (), reason, rule)


def _check_copies(cards: Sequence[Card], decks: int) -> None:
    if len(set(cards)) == len(cards):
        return  # no duplicates: one deck always suffices
    seen: dict[Card, int] = {}
    for card in cards:
        seen[card] = seen.get(card, 0) + 1
    for card, count in seen.items():
        if count > decks_copies(card, decks):
            raise TooManyCopiesError(card, count, decks)


def judge_meld(cards: Sequence[Card], options: TossOptions = _DEFAULT_OPTIONS) -> Verdict:
    """Judge a new meld: a set, a sequence or a joker set (docs/rules.md 2 and 6).

    A card appearing more often than ``options.decks`` decks hold is an input error
    (:class:`~scorekeeper.cards.TooManyCopiesError`), never a verdict.

    >>> from scorekeeper.cards import parse_cards
    >>> v = judge_meld(parse_cards("Qhe Khe Ahe"))
    >>> v.valid, v.kind, v.points
    (True, <MeldKind.SEQUENCE: 'sequence'>, 40)
    >>> judge_meld(parse_cards("5he 6he jk-blue")).reason
    "jk-blue cannot stand in a heart sequence: a joker in a sequence must be the suit's colour"
    """
    count = len(cards)
    distinct = len(set(cards))
    if distinct != count:
        _check_copies(cards, options.decks)
    ruleset = options.ruleset
    if count < MIN_MELD:
        return _invalid(
            f"{_codes(cards)} is too short: a meld needs at least 3 cards" if cards
            else "no cards were given: a meld needs at least 3 cards",
            f"meld size ({ruleset} values)",
        )
    table = _VALUES_COMPLEX if ruleset == COMPLEX else _VALUES_TOSS
    naturals: list[Card] = []
    jokers: list[Card] = []
    points = 0
    same_rank = True
    first = 0
    for card in cards:
        points += table[card]
        if card.suit is not None:
            if not naturals:
                first = card.rank
            elif card.rank != first:
                same_rank = False
            naturals.append(card)
        elif card.joker is not None:
            jokers.append(card)
        else:
            return _invalid(
                f"{_codes(cards)} holds a null card: null cards never meld",
                f"null cards ({ruleset} values)",
            )
    if not naturals:
        if count > MAX_JOKER_SET:
            return _invalid(
                f"{_codes(cards)} is {count} jokers: a joker set is three or four jokers"
                f" (seed: {JOKER_SET_RULE}), so five or more jokers meld nothing",
                f"joker set ({ruleset} values)",
            )
        return Verdict(
            True, MeldKind.JOKER_SET, points, _unique(cards),
            f"valid joker set: {_worth(count, 'jokers', points, ruleset)}",
            f"joker set ({ruleset} values)",
        )
    if not same_rank:
        return _judge_sequence(cards, naturals, jokers, points, options)
    helpers = f" with {_codes(jokers, ', ')} standing in" if jokers else ""
    return Verdict(
        True, MeldKind.SET, points, _unique(cards) if count != distinct else tuple(cards),
        f"valid set of {_plural(first)}{helpers}: {_worth(count, 'cards', points, ruleset)}",
        f"set ({ruleset} values)",
    )


#: Lowest and highest positions a sequence may use per ace option: 1 is the ace low, 14 high.
_ACE_BOUNDS: Final[dict[str, tuple[int, int]]] = {
    "both": (1, ACE_HIGH), "high": (2, ACE_HIGH), "low": (1, KING),
}


def _placements(ranks: set[int], length: int, ace: str) -> list[tuple[int, int, int, int]]:
    """The ways a sequence of ``length`` cards can hold the natural ``ranks`` (distinct, 2+):
    (lowest start, highest start, lowest natural position, highest natural position) for each
    placement of a natural ace (low at 1 or high at 14); starts between the two are valid."""
    low, high = _ACE_BOUNDS[ace]
    found: list[tuple[int, int, int, int]] = []
    if ACE in ranks:
        others = [r for r in ranks if r != ACE]
        spans = []
        if low == 1:
            spans.append((1, max(others)))
        if high == ACE_HIGH:
            spans.append((min(others), ACE_HIGH))
    else:
        spans = [(min(ranks), max(ranks))]
    for mn, mx in spans:
        start = max(low, mx - length + 1)
        stop = min(mn, high - length + 1)
        if start <= stop:
            found.append((start, stop, mn, mx))
    return found


def _judge_sequence(
    cards: Sequence[Card], naturals: list[Card], jokers: list[Card], points: int,
    options: TossOptions,
) -> Verdict:
    ace = options.ace
    rule = f"sequence (ace={ace}, {options.ruleset} values)"
    suit = naturals[0].suit
    assert suit is not None
    for card in naturals:
        if card.suit != suit:
            return _invalid(
                f"{_codes(cards)} mixes {SUIT_PLURALS[suit]} and {SUIT_PLURALS[card.suit or '']}"
                " of different ranks: a set is one rank, a sequence one suit",
                rule,
            )
    colour = SUIT_COLOURS[suit]
    for joker in jokers:
        if joker.joker != BOSS and joker.joker != colour:
            return _invalid(
                f"{joker.code} cannot stand in a {SUIT_NAMES[suit]} sequence: a joker in a"
                " sequence must be the suit's colour",
                rule,
            )
    ranks = {c.rank for c in naturals}
    if len(ranks) != len(naturals):
        twice = next(c for i, c in enumerate(naturals) if c in naturals[:i])
        return _invalid(
            f"{twice.code} appears twice in {_codes(cards)}: a sequence holds each rank once",
            rule,
        )
    length = len(cards)
    if length > MAX_SEQUENCE:
        return _invalid(
            f"{_codes(cards)} has {length} cards: a sequence holds each rank once,"
            " so at most 13 cards",
            rule,
        )
    placements = _placements(ranks, length, ace)
    if not placements:
        return _invalid(_no_sequence_reason(cards, ranks, length, ace), rule)
    # An end holds a natural card when the run starts (or stops) exactly on it, else a joker.
    top_ranks = set()
    joker_top = False
    for start, stop, mn, mx in placements:
        if stop == mn:
            top_ranks.add(mn)
        if start < mn:
            joker_top = True
        if start == mx - length + 1:
            top_ranks.add(mx)
        if stop > mx - length + 1:
            joker_top = True
    if ACE_HIGH in top_ranks:
        top_ranks.add(ACE)
    top_cards = tuple(
        c for c in cards if (c.rank in top_ranks if c.suit is not None else joker_top)
    )
    if joker_top and len(jokers) > 1:
        top_cards = _unique(top_cards)
    helpers = f" with {_codes(jokers, ', ')} standing in" if jokers else ""
    # Name the ace option when it matters: when the run could reach an ace (natural or joker)
    # at either end under some ace rule.
    ace_used = any(start == 1 or stop + length - 1 == ACE_HIGH
                   for start, stop, _, _ in _placements(ranks, length, "both"))
    ace_words = f"; {_ACE_WORDS[ace]}" if ace_used else ""
    return Verdict(
        True, MeldKind.SEQUENCE, points, top_cards,
        f"valid {SUIT_NAMES[suit]} sequence{helpers}:"
        f" {_worth(length, 'cards', points, options.ruleset)}{ace_words}",
        rule,
    )


def _circular_span(ranks: set[int]) -> int:
    """Cards needed to cover ``ranks`` when K-A-2 is allowed to wrap (it never is)."""
    ordered = sorted(ranks)
    gaps = [b - a for a, b in zip(ordered, ordered[1:], strict=False)]
    gaps.append(ordered[0] + 13 - ordered[-1])
    return 13 - max(gaps) + 1


def _no_sequence_reason(cards: Sequence[Card], ranks: set[int], length: int, ace: str) -> str:
    codes = _codes(cards)
    if ace != "both" and _placements(ranks, length, "both"):
        needed = "low" if ace == "high" else "high"
        return (
            f"{codes} needs the ace {needed}, but this table plays aces {ace} only"
            f" (option ace={ace})"
        )
    if _circular_span(ranks) <= length:
        return f"{codes} wraps around the ace: K-A-2 is never a sequence"
    span = min(
        max(p) - min(p) + 1
        for p in (
            [ACE_HIGH if r == ACE else r for r in ranks],
            list(ranks),
        )
    )
    missing = span - len(ranks)
    have = length - len(ranks)
    jokers = "no joker" if have == 0 else ("1 joker" if have == 1 else f"{have} jokers")
    return (
        f"{codes} is not a sequence: its gaps need {missing} more"
        f" {'card' if missing == 1 else 'cards'} and it has {jokers} to fill them"
    )


def judge_layoff(
    meld: Sequence[Card],
    added: Sequence[Card],
    options: TossOptions = _DEFAULT_OPTIONS,
    *,
    own_meld: bool = True,
) -> Verdict:
    """Judge cards laid off onto a meld on the board: the meld must stay a valid meld of the
    same kind, and a joker laid off on another player's meld needs a natural card with it.

    ``points`` is the value of the added cards; ``top_cards`` the top choices of the result.

    >>> from scorekeeper.cards import parse_cards
    >>> judge_layoff(parse_cards("8he 9he 10he"), parse_cards("Jhe")).points
    10
    >>> judge_layoff(parse_cards("8he 9he 10he"), parse_cards("jk-red"), own_meld=False).valid
    False
    """
    if own_meld:
        rule = f"lay-off (own meld, ace={options.ace}, {options.ruleset} values)"
    else:
        rule = f"lay-off (another player's meld, ace={options.ace}, {options.ruleset} values)"
    if not added:
        return _invalid("nothing to lay off: name at least one card", rule)
    combined = [*meld, *added]
    _check_copies(combined, options.decks)
    for card in added:
        if card.is_null:
            return _invalid(f"{card.code} cannot be laid off: null cards never meld", rule)
    before = judge_meld(meld, options)
    if not before.valid:
        return _invalid(
            f"{_codes(meld)} is not a valid meld to lay off on: {before.reason}", rule
        )
    if not own_meld and not any(c.is_natural for c in added):
        return _invalid(
            f"{_codes(added, ', ')} cannot be laid off alone on another player's meld:"
            " a joker laid off there needs at least one natural card laid with it",
            rule,
        )
    after = judge_meld(combined, options)
    added_codes = _codes(added, ", ")
    if not after.valid:
        return _invalid(
            f"{added_codes} does not fit {_codes(meld)}: {after.reason}", rule
        )
    if after.kind is not before.kind:
        if before.kind is MeldKind.SET:
            what = f"a set of {_plural(_set_rank(meld))}"
        elif before.kind is MeldKind.SEQUENCE:
            what = "a sequence"
        else:
            what = "a joker set, which takes only jokers"
        return _invalid(
            f"{added_codes} does not fit {_codes(meld)}: that meld is {what}", rule
        )
    points = _points(added, options.ruleset)
    kind = after.kind.value.replace("-", " ") if after.kind else "meld"
    laid = _worth(len(added), "cards" if len(added) > 1 else "card", points, options.ruleset)
    return Verdict(
        True, after.kind, points, after.top_cards,
        f"{added_codes} fits {_codes(meld)}, making a {kind} of {len(combined)}"
        f" cards: {laid} laid off",
        rule,
    )


def _set_rank(meld: Sequence[Card]) -> int:
    return next(c.rank for c in meld if c.is_natural)


def judge_toss(joker: Card, target: Card, options: TossOptions = _DEFAULT_OPTIONS) -> Verdict:
    """May this joker capture that top card? A coloured joker takes a card of its own colour,
    the Boss any card; a joker top card only the Boss (Toss Rummy) or any joker (Complex).

    ``points`` is the value of the captured card (0 when the Toss is refused).

    >>> from scorekeeper.cards import Card
    >>> print(judge_toss(Card.parse("jk-red"), Card.parse("10di")).reason)
    jk-red may toss 10di: a coloured joker captures a card of its own colour; 10di is worth 10
    points (Complex Toss Rummy values)
    """
    rule = f"toss ({options.ruleset})"
    if not joker.is_joker:
        return _invalid(f"{joker.code} is not a joker: only a joker can toss", rule)
    if target.is_null:
        return _invalid(f"{target.code} cannot be tossed: null cards are never melded", rule)
    points = _points((target,), options.ruleset)
    if target.is_joker:
        if joker.is_boss:
            reason = f"{joker.code} may toss {target.code}: the Boss tosses any card"
        elif options.ruleset == COMPLEX:
            reason = (
                f"{joker.code} may toss {target.code}: in Complex Toss Rummy any joker tosses"
                " any joker"
            )
        else:
            return _invalid(
                f"{joker.code} cannot toss {target.code}: in Toss Rummy only the Boss tosses"
                " a joker top card",
                rule,
            )
        return _tossed(reason, target, points, options, rule)
    if joker.is_boss:
        return _tossed(f"{joker.code} may toss {target.code}: the Boss tosses any card",
                       target, points, options, rule)
    colour = target.colour
    if joker.colour == colour:
        return _tossed(
            f"{joker.code} may toss {target.code}: a coloured joker captures a card of its own"
            " colour",
            target, points, options, rule,
        )
    return _invalid(
        f"{joker.code} cannot toss {target.code}: {target.code} is {colour}, and a coloured"
        " joker captures only a card of its own colour",
        rule,
    )


def _tossed(reason: str, target: Card, points: int, options: TossOptions, rule: str) -> Verdict:
    worth = f"{target.code} is worth {points} points ({RULESET_TITLES[options.ruleset]} values)"
    return Verdict(True, None, points, (), f"{reason}; {worth}", rule)


def judge_top(
    cards: Sequence[Card], top: Card, options: TossOptions = _DEFAULT_OPTIONS
) -> Verdict:
    """Whether ``top`` may be shown as the top card of this meld: any card of a set, an end
    card of a sequence (a joker at an end may be the top).

    >>> from scorekeeper.cards import parse_cards, Card
    >>> print(judge_top(parse_cards("8di 9di 10di"), Card.parse("9di")).reason)
    9di cannot be the top card of 8di-9di-10di: a sequence shows one of its end cards
    (8di or 10di)
    """
    meld = judge_meld(cards, options)
    rule = f"top card, {meld.rule}"
    if not meld.valid:
        return _invalid(f"{_codes(cards)} is not a valid meld: {meld.reason}", rule)
    if top not in cards:
        return _invalid(f"{top.code} is not in {_codes(cards)}: the top card must be one of the"
                        " meld's cards", rule)
    if top in meld.top_cards:
        shown = {
            MeldKind.SET: "a set shows any one card",
            MeldKind.JOKER_SET: "a joker set shows any one card",
            MeldKind.SEQUENCE: "a sequence shows one of its end cards",
        }[meld.kind or MeldKind.SET]
        return Verdict(
            True, meld.kind, meld.points, meld.top_cards,
            f"{top.code} may be the top card of {_codes(cards)}: {shown}", rule,
        )
    ends = " or ".join(c.code for c in meld.top_cards)
    return Verdict(
        False, meld.kind, 0, meld.top_cards,
        f"{top.code} cannot be the top card of {_codes(cards)}: a sequence shows one of its"
        f" end cards ({ends})",
        rule,
    )


def _value_table(ruleset: Ruleset) -> dict[Card, int]:
    cards = set(toss_deck()) | {Card(joker=PLAIN)}
    return {c: card_value(c, ruleset) for c in cards}


_VALUES_COMPLEX: Final = _value_table(COMPLEX)
_VALUES_TOSS: Final = _value_table(TOSS_RUMMY)
