"""Cards, notation, decks and card values (RULES.md 1, 2 and 3)."""

from __future__ import annotations

import pytest

from scorekeeper.cards import (
    ACE,
    BOSS,
    COLOURS,
    KING,
    SUIT_COLOURS,
    SUITS,
    Card,
    CardError,
    CardNotInDeckError,
    CardParseError,
    EmptyCardTokenError,
    TooManyCopiesError,
    check_cards,
    deck_codes,
    parse_cards,
    standard_deck,
    toss_deck,
)
from scorekeeper.rulesets import COMPLEX, TOSS_RUMMY, card_value, cards_value


@pytest.mark.parametrize("deck", ["toss", "standard"])
def test_every_code_of_both_decks_round_trips(deck: str) -> None:
    codes = deck_codes(deck)  # type: ignore[arg-type]
    assert len(codes) == len(set(codes))
    for code in codes:
        card = Card.parse(code)
        assert card.code == code
        assert str(card) == code
        assert Card.parse(code.upper()) == card
        assert Card.parse(code.lower()) == card
        assert Card.parse(f"  {code} ") == card


def test_toss_deck_has_111_cards_eight_suits_five_jokers_two_nulls() -> None:
    deck = toss_deck()
    assert len(deck) == 111
    assert sum(c.is_natural for c in deck) == 104
    assert sorted(c.code for c in deck if c.is_joker) == sorted(
        ["boss", "jk-black", "jk-red", "jk-gold", "jk-blue"]
    )
    assert sum(c.is_null for c in deck) == 2
    for suit in SUITS:
        assert sorted(c.rank for c in deck if c.suit == suit) == list(range(1, 14))
    assert len(deck_codes("toss")) == 110  # the two nulls share one code


def test_suit_colours_follow_the_table() -> None:
    assert SUIT_COLOURS == {
        "cl": "black", "sp": "black", "he": "red", "di": "red",
        "cr": "gold", "or": "gold", "ca": "blue", "sh": "blue",
    }
    assert Card.parse("7or").colour == "gold"
    assert Card.parse("Qsh").colour == "blue"
    assert Card.parse("boss").colour is None
    assert Card.parse("null").colour is None
    for colour in COLOURS:
        assert Card.parse(f"jk-{colour}").colour == colour


def test_standard_deck_uses_four_suits_and_named_jokers() -> None:
    assert len(standard_deck()) == 52
    assert {c.suit for c in standard_deck()} == {"cl", "sp", "he", "di"}
    extra = standard_deck(("jk", "jk-red"))
    assert [c.code for c in extra[-2:]] == ["jk", "jk-red"]


@pytest.mark.parametrize(
    ("text", "code"),
    [("Tdi", "10di"), ("tcl", "10cl"), ("aor", "Aor"), ("QSH", "Qsh"), ("BOSS", "boss"),
     ("Jk-Red", "jk-red"), ("NULL", "null"), ("10CA", "10ca"), ("2cr", "2cr")],
)
def test_parsing_is_case_insensitive_and_accepts_t_for_ten(text: str, code: str) -> None:
    assert Card.parse(text).code == code


def test_card_fields() -> None:
    ace = Card.parse("Acl")
    assert (ace.rank, ace.suit, ace.joker) == (ACE, "cl", None)
    assert Card.parse("Kdi").rank == KING
    boss = Card.parse("boss")
    assert boss.is_boss and boss.is_joker and not boss.is_natural and boss.joker == BOSS
    null = Card.parse("null")
    assert null.is_null and not null.is_joker and not null.is_natural
    assert Card.parse("10di").name == "10 of diamonds"


@pytest.mark.parametrize(
    ("token", "suggestion"),
    [("10dia", "10di"), ("Kcx", None), ("jk-rd", "jk-red"), ("bos", "boss"), ("11he", None)],
)
def test_parse_errors_name_the_token_and_suggest(token: str, suggestion: str | None) -> None:
    with pytest.raises(CardParseError) as info:
        Card.parse(token)
    message = str(info.value)
    assert repr(token) in message
    assert info.value.token == token
    if suggestion is not None:
        assert info.value.suggestion == suggestion
        assert f"did you mean {suggestion!r}" in message
    assert isinstance(info.value, ValueError)


def test_10dia_suggests_10di() -> None:
    with pytest.raises(CardParseError, match=r"'10dia': did you mean '10di'\?"):
        parse_cards(["Kcl", "10dia"])


def test_parse_cards_accepts_commas_and_spaces() -> None:
    assert [c.code for c in parse_cards("Kcl,boss  Khe, 10di")] == ["Kcl", "boss", "Khe", "10di"]


def test_check_cards_counts_copies_per_deck() -> None:
    check_cards(parse_cards("Kcl Khe null null"), decks=1)
    with pytest.raises(TooManyCopiesError, match="Kcl appears 2 times but 1 deck holds only 1"):
        check_cards(parse_cards("Kcl Kcl"), decks=1)
    check_cards(parse_cards("Kcl Kcl"), decks=2)
    with pytest.raises(TooManyCopiesError, match="null appears 3 times"):
        check_cards(parse_cards("null null null"), decks=1)
    with pytest.raises(CardNotInDeckError, match="jk is not in a toss deck"):
        check_cards(parse_cards("jk"), decks=1)
    with pytest.raises(CardNotInDeckError):
        check_cards(parse_cards("Kcr"), deck="standard")
    with pytest.raises(CardError):
        check_cards(parse_cards("Kcl"), decks=0)


def test_card_values_in_toss_rummy() -> None:
    assert card_value(Card.parse("boss"), TOSS_RUMMY) == 50
    for colour in COLOURS:
        assert card_value(Card.parse(f"jk-{colour}"), TOSS_RUMMY) == 40
    assert card_value(Card.parse("Ash"), TOSS_RUMMY) == 20
    for code in ("Kcl", "Qhe", "Jor", "10ca"):
        assert card_value(Card.parse(code), TOSS_RUMMY) == 10
    for rank in range(2, 10):
        assert card_value(Card.parse(f"{rank}di"), TOSS_RUMMY) == 5
    assert card_value(Card.parse("null"), TOSS_RUMMY) == 0


def test_card_values_in_complex_count_small_cards_by_number() -> None:
    for rank in range(2, 10):
        assert card_value(Card.parse(f"{rank}cr"), COMPLEX) == rank
    assert card_value(Card.parse("10cr"), COMPLEX) == 10
    assert card_value(Card.parse("Acr"), COMPLEX) == 20
    assert card_value(Card.parse("boss"), COMPLEX) == 50


def test_one_toss_deck_totals_1010_under_toss_rummy_values() -> None:
    assert cards_value(toss_deck(), TOSS_RUMMY) == 1010
    # Complex counts 2-9 by number: 8 suits x (2+...+9 = 44) instead of 8 x 40.
    assert cards_value(toss_deck(), COMPLEX) == 1010 - 8 * 40 + 8 * 44


# --- empty card codes are refused, never skipped ------------------------------------------

@pytest.mark.parametrize(("tokens", "words"), [
    (["", "Kcl", "Ksp"], "empty card code '' at item 1 of 3"),
    (["Kcl", "  ", "Ksp"], "empty card code '  ' at item 2 of 3"),
    ("Kcl,,Ksp", "empty card code '' between two commas in 'Kcl,,Ksp'"),
    (", Kcl Ksp", "before the first comma"),
    (["Kcl", ","], "before the first comma in ',' (at item 2 of 2)"),
])
def test_an_empty_card_code_is_refused_naming_it(tokens: str | list[str], words: str) -> None:
    with pytest.raises(EmptyCardTokenError) as caught:
        parse_cards(tokens)
    assert words in str(caught.value)
    assert isinstance(caught.value, CardParseError) and caught.value.token.strip() == ""


def test_no_cards_and_separating_commas_still_read() -> None:
    assert parse_cards("") == [] and parse_cards("   ") == [] and parse_cards([]) == []
    assert [c.code for c in parse_cards(["8di,", "9di,10di"])] == ["8di", "9di", "10di"]
    assert [c.code for c in parse_cards("8di, 9di, 10di,")] == ["8di", "9di", "10di"]
    with pytest.raises(EmptyCardTokenError, match="where a card code was expected"):
        Card.parse(" ")


def test_repr_is_the_expression_that_gives_the_card_back() -> None:
    from scorekeeper.cards import STANDARD, Card, deck_codes

    assert repr(Card.parse("kcl")) == "Card.parse('Kcl')"
    cards = [Card.parse(code) for code in deck_codes()] + [Card.parse(c) for c in
                                                           deck_codes(STANDARD)]
    for card in cards:
        assert eval(repr(card), {"Card": Card}) == card
