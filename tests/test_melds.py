"""Meld adjudication (RULES.md 2, 3 and 6): sets, sequences, joker sets, top cards, lay-offs,
Toss legality, and the worked examples of the seed."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scorekeeper.cards import (
    ACE,
    SUIT_COLOURS,
    SUIT_NAMES,
    SUITS,
    Card,
    TooManyCopiesError,
    parse_cards,
    toss_deck,
)
from scorekeeper.melds import (
    IllegalPlay,
    MeldKind,
    Verdict,
    judge_layoff,
    judge_meld,
    judge_top,
    judge_toss,
)
from scorekeeper.rulesets import COMPLEX, TOSS_RUMMY, TossOptions, cards_value

TOSS = TossOptions(ruleset=TOSS_RUMMY)
HIGH = TossOptions(ace="high")
LOW = TossOptions(ace="low")


DEFAULT = TossOptions()


def meld(text: str, options: TossOptions = DEFAULT) -> Verdict:
    return judge_meld(parse_cards(text), options)


def codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


# --- the seed's worked examples -------------------------------------------------------------

def test_seed_king_joker_king_is_three_kings() -> None:
    for joker in ("boss", "jk-black", "jk-red", "jk-gold", "jk-blue"):
        verdict = meld(f"Kcl {joker} Khe")
        assert verdict.valid and verdict.kind is MeldKind.SET
        assert "set of kings" in verdict.reason and joker in verdict.reason


def test_seed_three_kings_show_any_one_as_top() -> None:
    cards = parse_cards("Kcl Ksp Khe")
    assert codes(judge_meld(cards).top_cards) == ["Kcl", "Ksp", "Khe"]
    for card in cards:
        assert judge_top(cards, card).valid


def test_seed_8_9_10_shows_the_8_or_the_10_never_the_9() -> None:
    cards = parse_cards("8di 9di 10di")
    verdict = judge_meld(cards)
    assert verdict.kind is MeldKind.SEQUENCE
    assert codes(verdict.top_cards) == ["8di", "10di"]
    assert judge_top(cards, Card.parse("8di")).valid
    assert judge_top(cards, Card.parse("10di")).valid
    nine = judge_top(cards, Card.parse("9di"))
    assert not nine.valid
    assert nine.reason == (
        "9di cannot be the top card of 8di-9di-10di: a sequence shows one of its end cards"
        " (8di or 10di)"
    )


def test_seed_red_joker_tosses_the_10_of_diamonds_into_a_set_of_tens() -> None:
    toss = judge_toss(Card.parse("jk-red"), Card.parse("10di"))
    assert toss.valid and toss.points == 10
    assert toss.reason == (
        "jk-red may toss 10di: a coloured joker captures a card of its own colour;"
        " 10di is worth 10 points (Complex Toss Rummy values)"
    )
    # ... and melds it with the 10 of clubs and the 10 of spades as three of a kind.
    new = meld("10di 10cl 10sp")
    assert new.valid and new.kind is MeldKind.SET


def test_seed_four_sevens_are_28_in_complex_and_20_in_toss_rummy() -> None:
    assert meld("7cl 7sp 7he 7di").points == 28
    assert meld("7cl 7sp 7he 7di", TOSS).points == 20


def test_seed_same_coloured_joker_extends_a_sequence_as_jack_and_queen() -> None:
    layoff = judge_layoff(parse_cards("10di 9di 8di"), parse_cards("Jdi jk-red"), own_meld=False)
    assert layoff.valid


# --- sets -----------------------------------------------------------------------------------

def test_set_reason_names_rank_cards_points_and_the_values_applied() -> None:
    # K = 10 in both rulesets: 3 kings are 30; the reason says which values were applied.
    verdict = meld("Kcl Ksp Khe")
    reason = "valid set of kings: 3 cards worth 30 points (Complex Toss Rummy values)"
    assert verdict.reason == reason
    assert verdict.rule == "set (complex-toss-rummy values)"
    assert verdict.to_json() == {
        "valid": True, "kind": "set", "points": 30, "top_cards": ["Kcl", "Ksp", "Khe"],
        "reason": reason, "rule": "set (complex-toss-rummy values)",
    }
    # 2-9 count 5 in Toss Rummy: three 7s are 15 there, 21 in Complex
    assert meld("7cl 7sp 7he", TOSS).reason == (
        "valid set of 7s: 3 cards worth 15 points (Toss Rummy values)"
    )
    assert meld("7cl 7sp 7he").reason.endswith("worth 21 points (Complex Toss Rummy values)")


def test_set_of_eight_suits_and_any_jokers() -> None:
    verdict = meld("5cl 5sp 5he 5di 5cr 5or 5ca 5sh boss jk-blue")
    assert verdict.valid and verdict.kind is MeldKind.SET
    assert verdict.points == 8 * 5 + 50 + 40


def test_any_joker_stands_in_a_set_whatever_its_colour() -> None:
    assert meld("2he 2di jk-blue").valid
    assert meld("2he jk-gold 2di jk-black").valid


def test_multiple_decks_allow_duplicate_cards_in_a_set() -> None:
    two = TossOptions(decks=2)
    verdict = judge_meld(parse_cards("Qhe Qhe Qcl"), two)
    assert verdict.valid and verdict.kind is MeldKind.SET
    assert codes(verdict.top_cards) == ["Qhe", "Qcl"]


def test_more_copies_than_the_decks_hold_is_an_input_error() -> None:
    with pytest.raises(TooManyCopiesError, match="Qhe appears 2 times but 1 deck holds only 1"):
        meld("Qhe Qhe Qcl")


def test_one_natural_card_with_jokers_is_a_set() -> None:
    verdict = meld("5he jk-red boss")
    assert verdict.valid and verdict.kind is MeldKind.SET
    assert "set of 5s" in verdict.reason
    verdict = meld("5he jk-blue jk-gold")  # colours do not matter in a set
    assert verdict.valid and verdict.kind is MeldKind.SET


# --- joker sets -----------------------------------------------------------------------------

# Boss 50, other jokers 40 (RULES.md 2)
@pytest.mark.parametrize(("text", "points"), [("boss jk-red jk-blue", 130),
                                              ("jk-black jk-red jk-gold jk-blue", 160),
                                              ("boss jk-black jk-red jk-gold", 170)])
def test_three_or_four_jokers_alone_form_a_joker_set(text: str, points: int) -> None:
    verdict = meld(text)
    assert verdict.valid and verdict.kind is MeldKind.JOKER_SET
    assert verdict.points == points
    assert set(verdict.top_cards) == set(parse_cards(text))
    assert verdict.rule.startswith("joker set")


@pytest.mark.parametrize(("text", "decks"), [("boss jk-black jk-red jk-gold jk-blue", 1),
                                             ("boss jk-black jk-red jk-gold jk-blue boss", 2)])
def test_five_or_more_jokers_are_refused_quoting_the_seed(text: str, decks: int) -> None:
    verdict = judge_meld(parse_cards(text), TossOptions(decks=decks))
    assert not verdict.valid and verdict.points == 0 and verdict.kind is None
    count = len(text.split())
    assert verdict.reason == (
        f"{'-'.join(text.split())} is {count} jokers: a joker set is three or four jokers"
        ' (seed: "Three or four Jokers can be melded as a set"), so five or more jokers meld'
        " nothing")


def test_a_fifth_joker_cannot_be_laid_off_on_a_joker_set() -> None:
    four = parse_cards("boss jk-black jk-red jk-gold")
    verdict = judge_layoff(four, parse_cards("jk-blue"))
    assert not verdict.valid
    assert "a joker set is three or four jokers" in verdict.reason


def test_two_jokers_are_not_a_meld() -> None:
    verdict = meld("boss jk-red")
    assert not verdict.valid and verdict.points == 0
    assert verdict.reason == "boss-jk-red is too short: a meld needs at least 3 cards"


# --- sequences ------------------------------------------------------------------------------

@pytest.mark.parametrize("suit", SUITS)
def test_three_consecutive_cards_of_one_suit_are_a_sequence(suit: str) -> None:
    verdict = meld(f"4{suit} 5{suit} 6{suit}")
    assert verdict.valid and verdict.kind is MeldKind.SEQUENCE
    assert verdict.reason == (
        f"valid {SUIT_NAMES[suit]} sequence: 3 cards worth 15 points (Complex Toss Rummy values)"
    )
    assert verdict.rule == "sequence (ace=both, complex-toss-rummy values)"


def test_sequence_order_of_input_does_not_matter() -> None:
    assert meld("Jca 9ca 10ca").valid


def test_sequence_of_different_suits_of_one_colour_is_not_a_meld() -> None:
    verdict = meld("5he 6di 7he")
    assert not verdict.valid and verdict.kind is None and verdict.points == 0
    assert "mixes hearts and diamonds" in verdict.reason


def test_sequence_with_a_gap_and_too_few_jokers() -> None:
    verdict = meld("5he 9he jk-red")
    assert not verdict.valid
    assert verdict.reason.startswith("5he-9he-jk-red is not a sequence")
    assert meld("5he 7he jk-red").valid


def test_sequence_cannot_hold_a_rank_twice() -> None:
    verdict = judge_meld(parse_cards("5he 5he 6he"), TossOptions(decks=2))
    assert not verdict.valid
    assert "5he appears twice" in verdict.reason


def test_ace_both_allows_queen_king_ace_and_ace_two_three() -> None:
    assert meld("Qhe Khe Ahe").valid
    assert meld("Ahe 2he 3he").valid


def test_a_sequence_reaching_the_ace_names_the_ace_option() -> None:
    # A 20 + K 10 + Q 10 = 40; the ace option decided the verdict, so the reason names it.
    assert meld("Qhe Khe Ahe").reason == (
        "valid heart sequence: 3 cards worth 40 points (Complex Toss Rummy values);"
        " the ace plays high or low (option ace=both)"
    )
    assert judge_meld(parse_cards("Ahe 2he 3he"), LOW).reason.endswith(
        "the ace plays low only (option ace=low)")
    # a joker that may stand for the ace high brings the option in too
    assert judge_meld(parse_cards("Qhe Khe boss"), HIGH).reason.endswith(
        "the ace plays high only (option ace=high)")
    # the option that keeps a joker from standing for a low ace is named too
    assert judge_meld(parse_cards("jk-red 2he 3he"), HIGH).reason.endswith(
        "the ace plays high only (option ace=high)")
    # a run far from the ace does not mention it
    assert "ace" not in meld("4he 5he 6he").reason


def test_king_ace_two_is_never_a_sequence() -> None:
    for options in (TossOptions(), HIGH, LOW):
        verdict = judge_meld(parse_cards("Kcl Acl 2cl"), options)
        assert not verdict.valid
        assert verdict.reason == "Kcl-Acl-2cl wraps around the ace: K-A-2 is never a sequence"


def test_a_joker_cannot_bridge_king_and_two_around_the_ace() -> None:
    verdict = meld("Kcl boss 2cl")
    assert not verdict.valid and "wraps around the ace" in verdict.reason


def test_ace_high_option() -> None:
    assert judge_meld(parse_cards("Qhe Khe Ahe"), HIGH).valid
    verdict = judge_meld(parse_cards("Ahe 2he 3he"), HIGH)
    assert not verdict.valid
    assert verdict.reason == (
        "Ahe-2he-3he needs the ace low, but this table plays aces high only (option ace=high)"
    )
    assert verdict.rule == "sequence (ace=high, complex-toss-rummy values)"
    # a joker cannot stand in as a low ace either: it must be the 4
    jokered = judge_meld(parse_cards("jk-red 2he 3he"), HIGH)
    assert jokered.valid and codes(jokered.top_cards) == ["jk-red", "2he"]


def test_ace_low_option() -> None:
    assert judge_meld(parse_cards("Ahe 2he 3he"), LOW).valid
    verdict = judge_meld(parse_cards("Qhe Khe Ahe"), LOW)
    assert not verdict.valid and "needs the ace high" in verdict.reason
    jokered = judge_meld(parse_cards("Qhe Khe boss"), LOW)
    assert jokered.valid and codes(jokered.top_cards) == ["Khe", "boss"]


def test_a_thirteen_card_sequence_is_the_longest() -> None:
    full = "Asp 2sp 3sp 4sp 5sp 6sp 7sp 8sp 9sp 10sp Jsp Qsp Ksp"
    assert meld(full).valid
    verdict = meld(full + " boss")
    assert not verdict.valid and "at most 13 cards" in verdict.reason


@pytest.mark.parametrize("suit", SUITS)
def test_joker_in_a_sequence_must_be_the_suits_colour(suit: str) -> None:
    colour = SUIT_COLOURS[suit]
    assert meld(f"5{suit} 6{suit} jk-{colour}").valid
    assert meld(f"5{suit} 6{suit} boss").valid
    for other in {"black", "red", "gold", "blue"} - {colour}:
        verdict = meld(f"5{suit} 6{suit} jk-{other}")
        assert not verdict.valid
        assert verdict.reason == (
            f"jk-{other} cannot stand in a {SUIT_NAMES[suit]} sequence: a joker in a sequence"
            " must be the suit's colour"
        )


def test_jk_blue_in_a_heart_sequence_reason() -> None:
    assert meld("5he 6he jk-blue").reason == (
        "jk-blue cannot stand in a heart sequence: a joker in a sequence must be the suit's colour"
    )


def test_boss_is_wild_for_any_suit_in_a_sequence() -> None:
    for suit in SUITS:
        assert meld(f"9{suit} boss J{suit}").valid


# --- naturals, nulls, sizes -----------------------------------------------------------------

def test_nulls_never_meld() -> None:
    for text in ("null 5he 5di", "null null 5he", "5he 6he null 7he", "boss jk-red null"):
        verdict = meld(text)
        assert not verdict.valid and verdict.points == 0
        assert "null cards never meld" in verdict.reason


def test_a_meld_needs_three_cards() -> None:
    assert not meld("Khe Kcl").valid
    assert not judge_meld([]).valid
    assert judge_meld([]).reason == "no cards were given: a meld needs at least 3 cards"


def test_mixed_ranks_and_suits_are_no_meld() -> None:
    verdict = meld("Kcl Qhe 5sp")
    assert not verdict.valid and verdict.kind is None and verdict.top_cards == ()


# --- top cards of sequences with jokers ----------------------------------------------------

def test_top_cards_list_every_card_that_can_stand_at_an_end() -> None:
    # jk-red may be the 7 (ends 7 and 9) or the 10 (ends 8 and 10)
    verdict = meld("8he 9he jk-red")
    assert codes(verdict.top_cards) == ["8he", "9he", "jk-red"]
    # a joker inside a gap can never be at an end
    verdict = meld("8he jk-red 10he")
    assert codes(verdict.top_cards) == ["8he", "10he"]
    # two jokers and a natural: one natural with jokers is a set; any card is top
    assert meld("8he jk-red boss").kind is MeldKind.SET


def test_joker_at_an_end_may_be_the_top() -> None:
    cards = parse_cards("jk-gold 3cr 4cr 5cr 6cr")
    assert judge_top(cards, Card.parse("jk-gold")).valid
    assert judge_top(cards, Card.parse("6cr")).valid
    assert not judge_top(cards, Card.parse("4cr")).valid


def test_top_must_be_one_of_the_melds_cards() -> None:
    verdict = judge_top(parse_cards("8di 9di 10di"), Card.parse("Jdi"))
    assert not verdict.valid and "Jdi is not in 8di-9di-10di" in verdict.reason


def test_top_of_an_invalid_meld() -> None:
    verdict = judge_top(parse_cards("8di 9di 10he"), Card.parse("8di"))
    assert not verdict.valid and verdict.points == 0


# --- lay-offs -------------------------------------------------------------------------------

def test_lay_off_extends_a_set_and_scores_only_the_added_cards() -> None:
    verdict = judge_layoff(parse_cards("2cl 2sp 2he"), parse_cards("2di"))
    assert verdict.valid and verdict.kind is MeldKind.SET and verdict.points == 2
    assert len(verdict.top_cards) == 4
    assert judge_layoff(parse_cards("2cl 2sp 2he"), parse_cards("2di"), TOSS).points == 5
    assert verdict.reason == (
        "2di fits 2cl-2sp-2he, making a set of 4 cards: 1 card worth 2 points"
        " (Complex Toss Rummy values) laid off"
    )


def test_lay_off_extends_a_sequence_at_either_end() -> None:
    base = parse_cards("10di 9di 8di")
    assert judge_layoff(base, parse_cards("Jdi")).valid
    assert judge_layoff(base, parse_cards("7di")).valid
    verdict = judge_layoff(base, parse_cards("Qdi"))
    assert not verdict.valid and verdict.points == 0
    assert judge_layoff(base, parse_cards("7he")).valid is False


def test_lay_off_top_cards_are_those_of_the_result() -> None:
    verdict = judge_layoff(parse_cards("10di 9di 8di"), parse_cards("Jdi"))
    assert codes(verdict.top_cards) == ["8di", "Jdi"]


def test_lay_off_must_keep_the_melds_kind() -> None:
    # 5he with two jokers is a set of 5s: a 6 of hearts does not fit it
    verdict = judge_layoff(parse_cards("5he boss jk-red"), parse_cards("6he"))
    assert not verdict.valid and "that meld is a set of 5s" in verdict.reason
    assert judge_layoff(parse_cards("5he boss jk-red"), parse_cards("5sp")).valid
    # a joker set takes only jokers
    joker_set = parse_cards("boss jk-red jk-gold")
    assert judge_layoff(joker_set, parse_cards("jk-blue")).valid
    verdict = judge_layoff(joker_set, parse_cards("Qhe"))
    assert not verdict.valid and "joker set, which takes only jokers" in verdict.reason


def test_joker_laid_off_on_another_players_meld_needs_a_natural_card() -> None:
    base = parse_cards("Kcl Ksp Khe")
    alone = judge_layoff(base, parse_cards("jk-blue"), own_meld=False)
    assert not alone.valid
    assert alone.reason == (
        "jk-blue cannot be laid off alone on another player's meld: a joker laid off there"
        " needs at least one natural card laid with it"
    )
    assert judge_layoff(base, parse_cards("jk-blue"), own_meld=True).valid
    assert judge_layoff(base, parse_cards("jk-blue Kdi"), own_meld=False).valid
    assert not judge_layoff(parse_cards("boss jk-red jk-gold"), parse_cards("jk-blue"),
                            own_meld=False).valid


def test_lay_off_of_a_wrong_coloured_joker_onto_a_sequence() -> None:
    verdict = judge_layoff(parse_cards("8he 9he 10he"), parse_cards("jk-blue"))
    assert not verdict.valid and "jk-blue cannot stand in a heart sequence" in verdict.reason


def test_lay_off_needs_cards_a_valid_meld_and_no_nulls() -> None:
    base = parse_cards("8he 9he 10he")
    assert not judge_layoff(base, []).valid
    assert "null cards never meld" in judge_layoff(base, parse_cards("null")).reason
    assert not judge_layoff(parse_cards("8he 9he"), parse_cards("10he")).valid


def test_lay_off_counts_copies_across_meld_and_added_cards() -> None:
    with pytest.raises(TooManyCopiesError):
        judge_layoff(parse_cards("8he 9he 10he"), parse_cards("8he"))


# --- Toss legality --------------------------------------------------------------------------

@pytest.mark.parametrize("suit", SUITS)
def test_coloured_joker_tosses_only_its_own_colour(suit: str) -> None:
    target = Card.parse(f"Q{suit}")
    for colour in ("black", "red", "gold", "blue"):
        verdict = judge_toss(Card.parse(f"jk-{colour}"), target)
        assert verdict.valid is (colour == SUIT_COLOURS[suit])
        assert verdict.points == (10 if verdict.valid else 0)
        assert verdict.kind is None


def test_boss_tosses_any_card() -> None:
    for card in toss_deck():
        if not card.is_null:
            assert judge_toss(Card.parse("boss"), card, TOSS).valid


def test_joker_top_card_only_by_the_boss_in_toss_rummy() -> None:
    target = Card.parse("jk-red")
    assert judge_toss(Card.parse("boss"), target, TOSS).valid
    refused = judge_toss(Card.parse("jk-red"), target, TOSS)
    assert not refused.valid
    assert refused.reason == (
        "jk-red cannot toss jk-red: in Toss Rummy only the Boss tosses a joker top card"
    )
    assert refused.rule == "toss (toss-rummy)"
    assert not judge_toss(Card.parse("jk-blue"), Card.parse("boss"), TOSS).valid


def test_any_joker_tosses_any_joker_in_complex() -> None:
    for joker in ("jk-black", "jk-red", "jk-gold", "jk-blue", "boss"):
        for target in ("jk-black", "jk-red", "jk-gold", "jk-blue", "boss"):
            verdict = judge_toss(Card.parse(joker), Card.parse(target))
            assert verdict.valid
            assert verdict.points == (50 if target == "boss" else 40)


def test_only_a_joker_tosses_and_nulls_are_never_tossed() -> None:
    assert judge_toss(Card.parse("Kcl"), Card.parse("Ksp")).reason == (
        "Kcl is not a joker: only a joker can toss"
    )
    assert not judge_toss(Card.parse("boss"), Card.parse("null")).valid


def test_toss_points_use_the_rulesets_values() -> None:
    assert judge_toss(Card.parse("jk-red"), Card.parse("7he")).points == 7
    toss = judge_toss(Card.parse("jk-red"), Card.parse("7he"), TOSS)
    assert toss.points == 5
    assert toss.reason.endswith("7he is worth 5 points (Toss Rummy values)")


def test_wrong_colour_toss_reason() -> None:
    assert judge_toss(Card.parse("jk-blue"), Card.parse("10di")).reason == (
        "jk-blue cannot toss 10di: 10di is red, and a coloured joker captures only a card of"
        " its own colour"
    )


def test_illegal_play_carries_its_verdict() -> None:
    verdict = meld("Kcl Acl 2cl")
    error = IllegalPlay(verdict)
    assert isinstance(error, ValueError)
    assert error.verdict is verdict and str(error) == verdict.reason


# --- properties -----------------------------------------------------------------------------

ALL_CARDS = [c for c in dict.fromkeys(toss_deck())]
RANK_ORDER = [ACE, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, ACE]


def _fits(cards: Sequence[Card], first: int, length: int) -> dict[int, Card] | None:
    """Place the naturals of ``cards`` in the run of positions first..first+length-1 (position
    1 is the ace low, 14 the ace high) with the jokers filling the rest, or None."""
    placed: dict[int, Card] = {}
    for card in cards:
        if card.is_natural:
            spots = [p for p in range(first, first + length) if RANK_ORDER[p - 1] == card.rank]
            if len(spots) != 1 or spots[0] in placed:
                return None
            placed[spots[0]] = card
    return placed


def brute_force_sequence(cards: Sequence[Card], ace: str) -> set[Card] | None:
    """An independent reading of RULES 2 and 6: try every run of positions; return the cards
    that can stand at an end, or None when no run holds the cards."""
    naturals = [c for c in cards if c.is_natural]
    suits = {c.suit for c in naturals}
    if len(suits) != 1 or len({c.rank for c in naturals}) < 2:
        return None
    colour = SUIT_COLOURS[next(iter(suits))]  # type: ignore[index]
    jokers = [c for c in cards if c.is_joker]
    if any(not (j.is_boss or j.colour == colour) for j in jokers):
        return None
    lowest = 2 if ace == "high" else 1
    highest = 13 if ace == "low" else 14
    tops: set[Card] = set()
    found = False
    for first in range(lowest, highest - len(cards) + 2):
        if len(cards) > 13:
            break
        placed = _fits(cards, first, len(cards))
        if placed is None:
            continue
        found = True
        for end in (first, first + len(cards) - 1):
            if end in placed:
                tops.add(placed[end])
            else:
                tops.update(jokers)
    return tops if found else None


sequence_cards = st.builds(
    lambda suit, start, offsets, jokers: [Card((start + o) % 13 + 1, suit) for o in offsets]
    + jokers,
    st.sampled_from(SUITS),
    st.integers(0, 12),
    # ranks close together (wrapping past the king), so that most samples nearly fit
    st.lists(st.integers(0, 6), min_size=1, max_size=7, unique=True),
    st.lists(st.sampled_from([Card.parse(c) for c in
                              ("boss", "jk-black", "jk-red", "jk-gold", "jk-blue")]),
             max_size=3, unique=True),
).filter(lambda cards: len(cards) >= 3)


@settings(max_examples=300, deadline=None)
@given(sequence_cards, st.sampled_from(["both", "high", "low"]))
@example(parse_cards("Qhe Khe Ahe"), "low")
@example(parse_cards("Ahe 2he 3he"), "high")
@example(parse_cards("jk-red 2he 3he"), "high")
@example(parse_cards("Qhe Khe boss"), "low")
@example(parse_cards("Khe boss 2he"), "both")
@example(parse_cards("8he 9he jk-red"), "both")
def test_sequences_match_a_brute_force_reading(cards: list[Card], ace: str) -> None:
    options = TossOptions(ace=ace)  # type: ignore[arg-type]
    verdict = judge_meld(cards, options)
    if verdict.kind in (MeldKind.SET, MeldKind.JOKER_SET):
        return  # one natural card with jokers is a set
    expected = brute_force_sequence(cards, ace)
    assert verdict.valid is (expected is not None), verdict.reason
    if expected is not None:
        assert verdict.kind is MeldKind.SEQUENCE
        assert set(verdict.top_cards) == expected


@st.composite
def valid_sequences(draw: st.DrawFn) -> tuple[list[Card], str]:
    ace = draw(st.sampled_from(["both", "high", "low"]))
    suit = draw(st.sampled_from(SUITS))
    length = draw(st.integers(3, 13))
    lowest = 2 if ace == "high" else 1
    highest = 13 if ace == "low" else 14
    first = draw(st.integers(lowest, highest - length + 1))
    cards = [Card(RANK_ORDER[p - 1], suit) for p in range(first, first + length)]
    jokers = [Card(joker="boss"), Card(joker=SUIT_COLOURS[suit])]
    spots = draw(st.lists(st.integers(0, length - 1), max_size=2, unique=True))
    for joker, spot in zip(jokers, spots, strict=False):
        cards[spot] = joker
    if sum(c.is_natural for c in cards) < 2:
        cards = [Card(RANK_ORDER[p - 1], suit) for p in range(first, first + length)]
    return cards, ace


@settings(max_examples=200, deadline=None)
@given(valid_sequences(), st.data())
def test_a_valid_sequence_stays_valid_in_any_order(
    sample: tuple[list[Card], str], data: st.DataObject
) -> None:
    cards, ace = sample
    options = TossOptions(ace=ace)  # type: ignore[arg-type]
    verdict = judge_meld(cards, options)
    assert verdict.valid and verdict.kind is MeldKind.SEQUENCE, verdict.reason
    shuffled = data.draw(st.permutations(cards))
    again = judge_meld(shuffled, options)
    assert again.valid and again.kind is MeldKind.SEQUENCE
    assert again.points == verdict.points
    assert set(again.top_cards) == set(verdict.top_cards)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(ALL_CARDS), min_size=0, max_size=8, unique=True),
       st.sampled_from([COMPLEX, TOSS_RUMMY]))
def test_points_are_the_sum_of_card_values_or_zero(cards: list[Card], ruleset: str) -> None:
    options = TossOptions(ruleset=ruleset)  # type: ignore[arg-type]
    verdict = judge_meld(cards, options)
    if verdict.valid:
        assert verdict.points == cards_value(cards, ruleset)  # type: ignore[arg-type]
        assert verdict.top_cards and set(verdict.top_cards) <= set(cards)
        assert verdict.kind is not None
    else:
        assert verdict.points == 0 and verdict.kind is None and verdict.top_cards == ()
    assert verdict.reason and "\n" not in verdict.reason
    assert set(verdict.to_json()) == {"valid", "kind", "points", "top_cards", "reason", "rule"}


def test_captured_card_melds_with_at_least_two_cards_from_hand() -> None:
    captured = Card.parse("Qhe")
    assert judge_meld([captured, *parse_cards("Qcl jk-gold")]).valid  # a joker may be one
    assert not judge_meld([captured, Card.parse("Qcl")]).valid
    # seed: a joker top card demanded with the Boss and matched with two other jokers
    assert judge_toss(Card.parse("boss"), Card.parse("jk-red"), TOSS).valid
    assert judge_meld(parse_cards("jk-red jk-gold jk-blue"), TOSS).kind is MeldKind.JOKER_SET
