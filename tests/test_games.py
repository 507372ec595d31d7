"""Rules packs: each game scored from the seed's own words and the house reading (RULES.md 4-6)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorekeeper.cards import CardError, parse_cards
from scorekeeper.games import GAMES, HandEntryError, OptionError, UnknownGameError, get_game
from scorekeeper.games.base import FIELD_KINDS, Field, RulesPack
from scorekeeper.games.indian_chief import baccarat_digit, poker_hand, score_meld
from scorekeeper.games.tong_its import concealed_fours, hand_winner, tong_its_payment
from scorekeeper.games.tossni import QueenStack


def score(game: str, data: dict[str, Any]) -> dict[str, Any]:
    return get_game(game).score_json({"game": game, **data})


# --- the interface ------------------------------------------------------------------------------

def test_registry_holds_every_game_of_the_seeds() -> None:
    assert set(GAMES) == {
        "toss-colors", "toss-hearts", "tossni", "tong-its", "indian-chief", "carousel",
        "three-thirteen", "rummy",
    }
    assert get_game("Tossní") is GAMES["tossni"]
    with pytest.raises(UnknownGameError, match="unknown game 'poker'"):
        get_game("poker")


def _check_field(f: Field) -> None:
    assert f.kind in FIELD_KINDS
    if f.kind == "choice":
        assert f.choices
    for sub in f.fields:
        _check_field(sub)


@pytest.mark.parametrize("pack", list(GAMES.values()), ids=list(GAMES))
def test_every_pack_describes_itself_as_json(pack: RulesPack) -> None:
    described = json.loads(json.dumps(pack.describe()))
    assert described["name"] == pack.name
    assert described["hand_form"], "the keeper needs a form for each hand"
    for f in pack.hand_form:
        _check_field(f)
    defaults = pack.resolve_options()
    assert set(defaults) == {o["name"] for o in described["options"]}


def test_chip_games_are_flagged() -> None:
    assert {name for name, pack in GAMES.items() if pack.has_chips} == {"tong-its", "toss-colors"}


def test_unknown_option_and_field_are_refused() -> None:
    with pytest.raises(OptionError, match="no option 'moon'"):
        get_game("rummy").resolve_options({"moon": "plus"})
    with pytest.raises(OptionError, match="minus, plus"):
        score("toss-hearts", {"taken": {}, "moon": "sideways"})
    with pytest.raises(HandEntryError, match="no field 'taker'"):
        score("toss-hearts", {"totals": {"ann": 0}, "taker": {"ann": ["2he"]}})


def test_players_fix_the_roster_of_a_first_hand() -> None:
    result = score("toss-hearts", {"players": ["ann", "bob"], "taken": {"ann": ["Qsp"]}})
    assert result["totals"] == {"ann": 13, "bob": 0}
    with pytest.raises(HandEntryError, match="unknown player 'cy'"):
        score("toss-hearts", {"players": ["ann", "bob"], "taken": {"cy": ["Qsp"]}})


@pytest.mark.parametrize(("game", "data", "message"), [
    # seed 004: "Tong-Its is a rummy game for three players"
    ("tong-its", {"players": ["ann", "bob"], "win": "draw", "caller": "ann",
                  "hands": {"ann": ["2he"]}}, "Tong-Its is for 3 players, not 2"),
    # seed 001: "Three to five people may play"
    ("toss-colors", {"totals": {"ann": 0, "bob": 0}, "bidder": "ann", "partner": "bob",
                     "bid": 3, "tricks": {"ann": 3}}, "Toss Colors is for 3 to 5 players, not 2"),
    ("rummy", {"winner": "ann", "hands": {"ann": []}}, "Rummy is for 2 to 6 players, not 1"),
])
def test_the_number_of_players_is_checked(game: str, data: dict[str, Any], message: str) -> None:
    with pytest.raises(HandEntryError, match=message):
        score(game, data)


def test_decks_must_be_a_sensible_number() -> None:
    with pytest.raises(HandEntryError, match='"decks"'):
        score("rummy", {"decks": 0, "winner": "ann", "hands": {}})


# --- Toss Hearts --------------------------------------------------------------------------------

def test_hearts_card_points() -> None:
    result = score("toss-hearts", {
        "totals": {"ann": 0, "bob": 0, "cy": 0},
        "taken": {"ann": ["2he", "Ahe", "boss", "null"], "bob": ["Qsp", "Qcl", "jk-red"]},
    })
    assert result["hand"] == {"ann": 2, "bob": 13, "cy": 0}
    assert result["game_over"] is False and result["winner"] is None


def test_hearts_exactly_100_goes_back_to_zero_and_does_not_end_the_game() -> None:
    result = score("toss-hearts", {
        "totals": {"ann": 87, "bob": 50},
        "taken": {"ann": ["Qsp"], "bob": ["2he"]},
    })
    assert result["totals"] == {"ann": 0, "bob": 51}
    assert result["game_over"] is False


def test_hearts_a_hand_that_adds_nothing_leaves_a_total_of_100_alone() -> None:
    left = score("toss-hearts", {
        "totals": {"ann": 74, "bob": 10},
        "renege": {"caller": "bob", "accused": "ann", "proved": True},
    })
    assert left["totals"] == {"ann": 100, "bob": 10}
    after = score("toss-hearts", {"totals": left["totals"], "taken": {"bob": ["2he"]}})
    assert after["totals"] == {"ann": 100, "bob": 11}
    assert after["game_over"] is False


def test_hearts_the_moon_bringing_a_total_down_to_100_resets_it() -> None:
    result = score("toss-hearts", {"totals": {"ann": 126, "bob": 20},
                                   "limit": 200, "taken": {"ann": ALL_POINTS}})
    assert result["hand"]["ann"] == -26 and result["totals"]["ann"] == 0


def test_hearts_reset_is_at_100_whatever_the_limit() -> None:
    result = score("toss-hearts", {
        "totals": {"ann": 99, "bob": 150}, "limit": 200, "taken": {"ann": ["5he"]},
    })
    assert result["totals"] == {"ann": 0, "bob": 150}
    assert result["game_over"] is False


def test_hearts_passing_100_ends_the_game_lowest_wins() -> None:
    result = score("toss-hearts", {
        "totals": {"ann": 95, "bob": 40, "cy": 60},
        "taken": {"ann": ["Qsp"], "cy": ["2he", "3he"]},
    })
    assert result["totals"] == {"ann": 108, "bob": 40, "cy": 62}
    assert result["game_over"] is True and result["winner"] == "bob"


def test_hearts_tie_for_lowest_plays_on() -> None:
    result = score("toss-hearts", {
        "totals": {"ann": 95, "bob": 40, "cy": 40}, "taken": {"ann": ["Qsp"]},
    })
    assert result["game_over"] is False and result["winner"] is None


RANK_CODES = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
ALL_POINTS = [f"{r}he" for r in RANK_CODES] + ["Qsp"]


def test_hearts_shooting_the_moon_minus_and_plus() -> None:
    base = {"totals": {"ann": 30, "bob": 20, "cy": 10}, "taken": {"bob": ALL_POINTS}}
    minus = score("toss-hearts", base)
    assert minus["hand"] == {"ann": 0, "bob": -26, "cy": 0}
    plus = score("toss-hearts", {**base, "moon": "plus"})
    assert plus["hand"] == {"ann": 26, "bob": 0, "cy": 26}
    assert plus["rule"].startswith("toss-hearts") and "moon=plus" in plus["rule"]


def test_hearts_all_but_one_heart_is_not_the_moon() -> None:
    result = score("toss-hearts", {"totals": {"ann": 0, "bob": 0},
                                   "taken": {"bob": ALL_POINTS[1:], "ann": ALL_POINTS[:1]}})
    assert result["hand"] == {"ann": 1, "bob": 25}


def test_hearts_proved_renege_costs_the_offender_26_and_cannot_end_the_game() -> None:
    result = score("toss-hearts", {
        "totals": {"ann": 90, "bob": 74, "cy": 10},
        "taken": {"ann": ["Qsp"]},
        "renege": {"caller": "cy", "accused": "ann", "proved": True},
    })
    assert result["hand"] == {"ann": 26, "bob": 0, "cy": 0}
    assert result["totals"]["ann"] == 116
    assert result["game_over"] is False and result["winner"] is None


def test_hearts_false_renege_call_costs_the_caller_and_cannot_reset_at_100() -> None:
    result = score("toss-hearts", {
        "totals": {"ann": 90, "bob": 74},
        "renege": {"caller": "bob", "accused": "ann", "proved": False},
    })
    assert result["totals"] == {"ann": 90, "bob": 100}


def test_hearts_renege_penalty_plus_cards_option() -> None:
    result = score("toss-hearts", {
        "totals": {"ann": 0, "bob": 0}, "renege_hand": "penalty-plus-cards",
        "taken": {"ann": ["Qsp"], "bob": ["2he"]},
        "renege": {"caller": "bob", "accused": "ann", "proved": True},
    })
    assert result["hand"] == {"ann": 39, "bob": 1}


def test_hearts_teams_credit_every_member_with_the_team_points() -> None:
    result = score("toss-hearts", {
        "totals": {"ann": 0, "bob": 0, "cy": 0, "dee": 0},
        "teams": {"North": ["ann", "cy"], "South": ["bob", "dee"]},
        "taken": {"ann": ["Qsp"], "cy": ["2he", "3he"], "dee": ["4he"]},
    })
    assert result["hand"] == {"ann": 15, "bob": 1, "cy": 15, "dee": 1}


def test_hearts_moon_is_one_player_taking_every_point_card() -> None:
    # RULES.md 5: "all hearts and the Queen of Spades taken by one player". Team-mates who
    # share them between them have not shot the moon: the team is credited its 26 points.
    teams = {"North": ["ann", "cy"], "South": ["bob", "dee"]}
    split = score("toss-hearts", {
        "totals": {"ann": 0, "bob": 0, "cy": 0, "dee": 0}, "teams": teams,
        "taken": {"ann": ALL_POINTS[:-1], "cy": ["Qsp"]},
    })
    assert split["hand"] == {"ann": 26, "bob": 0, "cy": 26, "dee": 0}
    assert not any("moon" in note for note in split["notes"])
    # one member taking them all shoots the moon; the team is credited the -26
    moon = score("toss-hearts", {
        "totals": {"ann": 0, "bob": 0, "cy": 0, "dee": 0}, "teams": teams,
        "taken": {"ann": ALL_POINTS},
    })
    assert moon["hand"] == {"ann": -26, "bob": 0, "cy": -26, "dee": 0}
    assert "ann shot the moon" in moon["notes"][0]


def test_hearts_card_counts_are_checked_against_the_decks() -> None:
    data = {"totals": {"ann": 0, "bob": 0}, "taken": {"ann": ["Qsp"], "bob": ["Qsp"]}}
    with pytest.raises(CardError, match="Qsp appears 2 times"):
        score("toss-hearts", data)
    assert score("toss-hearts", {**data, "decks": 2})["hand"] == {"ann": 13, "bob": 13}


def test_hearts_typo_in_a_name_is_refused() -> None:
    with pytest.raises(HandEntryError, match="unknown player 'bbo'"):
        score("toss-hearts", {"totals": {"ann": 0, "bob": 0}, "taken": {"bbo": ["2he"]}})


# --- Toss Colors --------------------------------------------------------------------------------

COLORS_TOTALS = {"ann": 0, "bob": 0, "cy": 0, "dee": 0}


def colors(**entry: Any) -> dict[str, Any]:
    return score("toss-colors", {"totals": COLORS_TOTALS, "nil": False, "alone": False, **entry})


def test_colors_made_bid() -> None:
    result = colors(bidder="ann", partner="cy", bid=7, tricks={"ann": 5, "cy": 4, "bob": 3,
                                                                "dee": 2})
    # team 9 tricks on a bid of 7: 70 + 10; rivals took 5 tricks: 25 each
    assert result["hand"] == {"ann": 80, "bob": 25, "cy": 80, "dee": 25}
    assert result["rule"] == (
        "toss-colors: bid made: each member of the bidder's team +10 per bid trick and +5 per"
        " other trick, each rival +5 per trick the rivals took; goal=500"
    )


def test_colors_failed_bid_loses_10_per_bid_trick() -> None:
    result = colors(bidder="ann", partner="cy", bid=8, tricks={"ann": 5, "cy": 2, "bob": 5,
                                                                "dee": 2})
    assert result["hand"] == {"ann": -80, "bob": 35, "cy": -80, "dee": 35}


def test_colors_nil_made_and_failed() -> None:
    made = colors(bidder="ann", partner="cy", bid=0, nil=True,
                  tricks={"bob": 9, "dee": 8})
    assert made["hand"] == {"ann": 150, "bob": 85, "cy": 150, "dee": 85}
    failed = colors(bidder="ann", partner="cy", bid=0, nil=True,
                    tricks={"ann": 1, "cy": 1, "bob": 8, "dee": 7})
    assert failed["hand"]["ann"] == -140 and failed["hand"]["cy"] == -140
    assert failed["made"] is False


def test_colors_going_alone() -> None:
    made = colors(bidder="ann", partner=None, alone=True, bid=5,
                  tricks={"ann": 6, "bob": 4, "cy": 4, "dee": 3})
    assert made["hand"] == {"ann": 105, "bob": 55, "cy": 55, "dee": 55}
    failed = colors(bidder="ann", partner=None, alone=True, bid=9,
                    tricks={"ann": 6, "bob": 4, "cy": 4, "dee": 3})
    assert failed["hand"] == {"ann": -150, "bob": 155, "cy": 155, "dee": 155}
    assert failed["rule"].startswith("toss-colors: bid failed going alone: the bidder -150")


def test_colors_first_to_500_and_the_highest_of_several() -> None:
    one = score("toss-colors", {"totals": {"ann": 450, "bob": 300, "cy": 480}, "bidder": "ann",
                                "partner": "bob", "bid": 5, "tricks": {"ann": 5}})
    assert one["totals"]["ann"] == 500 and one["game_over"] and one["winner"] == "ann"
    several = score("toss-colors", {"totals": {"ann": 450, "bob": 470, "cy": 300},
                                    "bidder": "ann", "partner": "bob", "bid": 6,
                                    "tricks": {"ann": 4, "bob": 3}})
    assert several["totals"] == {"ann": 515, "bob": 535, "cy": 300}
    assert several["winner"] == "bob"


def test_colors_tie_at_the_top_plays_on() -> None:
    result = score("toss-colors", {"totals": {"ann": 450, "bob": 450, "cy": 0}, "bidder": "ann",
                                   "partner": "bob", "bid": 5, "tricks": {"ann": 5}})
    assert result["totals"]["ann"] == result["totals"]["bob"] == 500
    assert result["game_over"] is False


@pytest.mark.parametrize("entry, message", [
    ({"bidder": "ann", "partner": "cy", "alone": True, "bid": 5}, "going alone has no partner"),
    ({"bidder": "ann", "partner": None, "bid": 5}, "goes alone"),
    ({"bidder": "ann", "partner": "ann", "bid": 5}, "cannot be the bidder"),
    ({"bidder": "ann", "partner": "cy", "nil": True, "bid": 3}, "Nil bid is a bid of no"),
    ({"bidder": "ann", "partner": "cy", "bid": 0}, "1 or more"),
    ({"bidder": "ann", "partner": "cy", "bid": 5, "tricks": {"ann": -1}}, "0 or more"),
])
def test_colors_bad_entries(entry: dict[str, Any], message: str) -> None:
    with pytest.raises(HandEntryError, match=message):
        score("toss-colors", {"totals": COLORS_TOTALS, **entry})


def chips_colors(**data: Any) -> dict[str, Any]:
    return get_game("toss-colors").chips({"game": "toss-colors", **data})


def test_colors_chips_pot_carries_over_three_hands() -> None:
    result = chips_colors(players=["ann", "bob", "cy", "dee"], start_chips=20, hands=[
        {"bidder": "ann", "partner": "bob", "made": False},
        {"bidder": "bob", "partner": "cy", "made": False},
        {"bidder": "cy", "partner": "dee", "made": False},
        {"bidder": "dee", "partner": "ann", "made": True},
    ])
    assert [h["pot"] for h in result["hands"]] == [12, 24, 36, 0]
    assert result["chips"] == {"ann": 32, "bob": 8, "cy": 8, "dee": 32}
    assert result["game_over"] is False


def test_colors_chips_two_thirds_split_keeps_the_remainder() -> None:
    result = chips_colors(players=["ann", "bob", "cy", "dee", "eve"], start_chips=10,
                          split="two-thirds",
                          hands=[{"bidder": "ann", "partner": "bob", "made": True}])
    # pot 15: shares of 5, ann 10 and bob 5; nothing left
    assert result["chips"] == {"ann": 17, "bob": 12, "cy": 7, "dee": 7, "eve": 7}
    result = chips_colors(players=["ann", "bob", "cy", "dee"], start_chips=10,
                          split="two-thirds",
                          hands=[{"bidder": "ann", "partner": "bob", "made": True}])
    # pot 12: shares of 4
    assert result["chips"] == {"ann": 15, "bob": 11, "cy": 7, "dee": 7}
    assert result["hands"] == [{"pot": 0}]
    equal = chips_colors(players=["ann", "bob", "cy"], start_chips=10,
                         hands=[{"bidder": "ann", "partner": "bob", "made": True}])
    # pot 9 split equally: 4 each, 1 stays
    assert equal["hands"] == [{"pot": 1}]
    assert equal["chips"] == {"ann": 11, "bob": 11, "cy": 7}


def test_colors_chips_alone_takes_the_pot() -> None:
    result = chips_colors(players=["ann", "bob", "cy"], start_chips=5,
                          hands=[{"bidder": "ann", "partner": None, "made": True}])
    assert result["chips"] == {"ann": 11, "bob": 2, "cy": 2}


def test_colors_chips_game_ends_when_a_player_has_no_chips() -> None:
    hands = [{"bidder": "ann", "partner": "bob", "made": True}] * 2
    result = chips_colors(players=["ann", "bob", "cy"], start_chips=6, hands=hands)
    assert result["chips"]["cy"] == 0 and result["game_over"] is True
    with pytest.raises(HandEntryError, match="already ended"):
        chips_colors(players=["ann", "bob", "cy"], start_chips=6, hands=hands * 2)


def test_colors_chips_refuse_nil_and_unknown_names() -> None:
    with pytest.raises(HandEntryError, match="Nil bids are not allowed"):
        chips_colors(players=["ann", "bob", "cy"], start_chips=6,
                     hands=[{"bidder": "ann", "partner": "bob", "made": True, "nil": True}])
    with pytest.raises(HandEntryError, match="unknown player 'zed'"):
        chips_colors(players=["ann", "bob", "cy"], start_chips=6,
                     hands=[{"bidder": "zed", "partner": "bob", "made": True}])


# --- Tong-Its -----------------------------------------------------------------------------------

def test_tong_its_payment_per_rules() -> None:
    assert tong_its_payment("tongit", 0, 0, True) == 3
    assert tong_its_payment("challenged-draw", 0, 0, True) == 3
    assert tong_its_payment("draw", 0, 0, True) == 1
    assert tong_its_payment("stock", 2, 3, False) == 1 + 6 + 1 + 3


def tong_chips(hands: list[dict[str, Any]]) -> dict[str, Any]:
    return get_game("tong-its").chips({"players": ["ann", "bob", "cy"], "hands": hands})


def test_tong_its_pot_carried_over_three_hands() -> None:
    result = tong_chips([
        {"winner": "ann", "win": "draw"},
        {"winner": "bob", "win": "stock"},
        {"winner": "cy", "win": "tongit"},
        {"winner": "cy", "win": "draw"},
    ])
    assert [(h["pot"], h["pot_to"]) for h in result["hands"]] == [
        (6, None), (12, None), (18, None), (0, "cy"),
    ]
    # antes -8 each; ann +2 -1 -3 -1, bob -1 +2 -3 -1, cy -1 -1 +6 +2, cy takes 24
    assert result["net"] == {"ann": -11, "bob": -11, "cy": 22}
    assert sum(result["net"].values()) == 0


def test_tong_its_pot_streak_starts_again_after_a_win() -> None:
    result = tong_chips([{"winner": "ann", "win": "draw"}] * 4)
    assert [h["pot_to"] for h in result["hands"]] == [None, "ann", None, "ann"]


def test_tong_its_payments_for_fours_aces_and_not_opened() -> None:
    result = tong_chips([{"winner": "bob", "win": "challenged-draw", "concealed_fours": 1,
                          "aces": 2, "not_opened": ["cy"]}])
    assert result["hands"][0]["payments"] == [
        {"from": "ann", "to": "bob", "chips": 8},
        {"from": "cy", "to": "bob", "chips": 9},
    ]
    assert result["net"] == {"ann": -10, "bob": 15, "cy": -11}
    assert result["hands"][0]["pot"] == 6


def test_tong_its_chip_input_errors() -> None:
    with pytest.raises(HandEntryError, match="without having opened"):
        tong_chips([{"winner": "ann", "win": "draw", "not_opened": ["ann"]}])
    with pytest.raises(HandEntryError, match='"win" is one of'):
        tong_chips([{"winner": "ann", "win": "knock"}])
    with pytest.raises(HandEntryError, match="no field 'ace'"):
        tong_chips([{"winner": "ann", "win": "draw", "ace": 1}])
    # one standard deck holds four aces
    with pytest.raises(HandEntryError, match="hand 1 aces must be 4 or less, not 5"):
        tong_chips([{"winner": "ann", "win": "draw", "aces": 5}])


SEATS = ["ann", "bob", "cy"]


def test_tong_its_winner_tie_rules() -> None:
    # challenged draw: a tie goes to the challenger
    assert hand_winner("challenged-draw", "ann", SEATS, {"ann": 4, "bob": 4, "cy": 9},
                       ["bob"]) == "bob"
    # ... and between challengers, to the one left of the caller
    assert hand_winner("challenged-draw", "bob", SEATS, {"ann": 3, "bob": 8, "cy": 3},
                       ["ann", "cy"]) == "cy"
    # stock: the one who drew the last card wins a tie
    assert hand_winner("stock", "cy", SEATS, {"ann": 5, "bob": 6, "cy": 5}) == "cy"
    # a tie between the other two: the one to the left of the last drawer
    assert hand_winner("stock", "bob", SEATS, {"ann": 5, "bob": 9, "cy": 5}) == "cy"
    # only players who opened compare
    assert hand_winner("stock", "bob", SEATS, {"ann": 1, "bob": 9, "cy": 5},
                       opened=["bob", "cy"]) == "cy"


def test_tong_its_score_from_hands() -> None:
    result = score("tong-its", {
        "players": SEATS, "win": "challenged-draw", "caller": "ann", "challengers": ["bob"],
        "hands": {"ann": ["4he", "5he", "6he", "9he"],
                  "bob": ["7cl", "7sp", "7he", "7di", "Asp", "Ahe"],
                  "cy": ["Kcl"]},
        "exposed": {"bob": ["Acl", "2cl", "3cl"]},
    })
    # ann 9 deadwood, bob 2 (A A): bob wins a challenged draw: 3 + 3 (four 7s) + 3 aces
    assert result["deadwood"] == {"ann": 9, "bob": 2, "cy": 10}
    assert result["hand_winner"] == "bob"
    assert result["hand"] == {"ann": -9, "bob": 18, "cy": -9}
    assert result["game_over"] is False and result["winner"] is None


def test_tong_its_score_refuses_a_false_tongit() -> None:
    with pytest.raises(CardError):
        score("tong-its", {"players": SEATS, "win": "tongit", "caller": "ann",
                           "hands": {"ann": ["2cl", "2cl"]}})
    with pytest.raises(HandEntryError, match="cannot call tongit with 9"):
        score("tong-its", {"players": SEATS, "win": "tongit", "caller": "ann",
                           "hands": {"ann": ["9cl"]}})


def test_concealed_fours() -> None:
    assert concealed_fours(parse_cards("9cl 9sp 9he 9di Kcl Ksp Khe Kdi 2he")) == 2


# --- Three Thirteen -----------------------------------------------------------------------------

def test_three_thirteen_hand_scores_deadwood_with_the_hands_wilds() -> None:
    result = score("three-thirteen", {
        "totals": {"ann": 10, "bob": 4},
        "hand_no": 2,
        "hands": {"ann": ["4cl", "4he", "Kdi", "Qdi"], "bob": ["5cl", "9sp", "Kcl", "2he"]},
        "went_out": "ann",
    })
    assert result["hand"] == {"ann": 0, "bob": 26}
    assert result["totals"] == {"ann": 10, "bob": 30}
    assert result["game_over"] is False
    assert "4s wild" in result["rule"]


def test_three_thirteen_eleventh_hand_ends_the_game_lowest_wins() -> None:
    hands = {
        "ann": "Kcl Ksp Khe 2he 3he 4he 5cl 6cl 7cl 8cl 9cl 10cl Jcl",
        "bob": "Acl 2sp 3di 4sp 5he 6di 7sp 8he 9di 10sp Jhe Qsp Kdi",
    }
    result = score("three-thirteen", {"totals": {"ann": 50, "bob": 20}, "hand_no": 11,
                                      "hands": hands, "decks": 2})
    assert result["hand"]["ann"] == 0
    assert result["game_over"] is True
    # bob: one wild (Kdi) makes 10sp-K-Qsp; 75 - 20 left
    assert result["hand"]["bob"] == 55
    assert result["totals"] == {"ann": 50, "bob": 75}
    assert result["winner"] == "ann"


def test_three_thirteen_tie_at_the_end() -> None:
    result = score("three-thirteen", {"totals": {"ann": 7, "bob": 7}, "hand_no": 11,
                                      "hands": {"ann": ["2cl"], "bob": ["2he"]}})
    assert result["game_over"] is True and result["winner"] is None
    assert result["tied"] == ["ann", "bob"]


def test_three_thirteen_entry_errors() -> None:
    with pytest.raises(HandEntryError, match="cannot have gone out"):
        score("three-thirteen", {"hand_no": 1, "hands": {"ann": ["5cl", "9he", "Kdi"]},
                                 "went_out": "ann"})
    with pytest.raises(HandEntryError, match="12"):
        score("three-thirteen", {"hand_no": 12, "hands": {}})
    with pytest.raises(HandEntryError, match="not used in this game"):
        score("three-thirteen", {"hand_no": 1, "hands": {"ann": ["jk", "5he", "6he"]}})


# --- Indian Chief -------------------------------------------------------------------------------

def meld(name: str, cards: str, **kw: Any) -> int:
    return score_meld(name, parse_cards(cards), **kw).points


def test_indian_chief_simple_melds() -> None:
    assert meld("rich-man", "Kcl Qhe 9sp Adi 2cl") == -32
    assert meld("poor-man", "Ksp 7sp Ahe") == 17
    assert meld("thief", "Qdi") == 10
    assert meld("thief", "Ahe") == 1
    assert meld("lawyer", "Kcl 9he 5sp Adi") == 25
    assert meld("lawyer", "Kcl 9he 5sp 2di") == 0


def test_indian_chief_reasons_name_the_meld_and_its_rule() -> None:
    def reason(name: str, cards: str) -> str:
        return score_meld(name, parse_cards(cards)).reason

    assert reason("poor-man", "Ksp 7sp Ahe") == (
        "Poor Man scores the face values of its spades: Ksp + 7sp = 17 points")
    assert reason("lawyer", "Kcl 9he 5sp 2di") == (
        "Lawyer scores 0: the face values 10+9+5+2 add up to 26, not exactly 25")
    assert reason("rich-man", "Kcl Qhe 9sp Adi 2cl") == (
        "Rich Man scores its face values negative: -(10+10+9+1+2) = -32")
    assert reason("doctor", "Acl 2cl 3cl 4cl 5sp 6sp") == "Doctor scores 0: it needs a heart"
    assert reason("thief", "Ahe") == "Thief scores its card's face value: Ahe is 1"


def test_indian_chief_beggar_man_counts_matching_opponent_cards() -> None:
    opponents = parse_cards("7cl 7di Kdi 2he 9sp")
    assert meld("beggar-man", "7he Kcl", opponents=opponents) == 6
    assert meld("beggar-man", "7he 7sp", opponents=opponents) == 4
    assert meld("beggar-man", "3he 4sp", opponents=opponents) == 0


def test_indian_chief_doctor() -> None:
    assert meld("doctor", "Ahe 2cl 3cl 4cl 5sp 6sp", suit="cl") == 30
    assert meld("doctor", "Ahe 2cl 3cl 4cl 5sp 6sp", suit="he") == 10
    assert meld("doctor", "Ahe 2cl 3cl 4cl 5sp 6sp", suit="di") == 0
    assert meld("doctor", "Ahe 2cl 3cl 4cl 5sp 6sp") == 30  # no suit named: the best
    assert meld("doctor", "Acl 2cl 3cl 4cl 5sp 6sp", suit="cl") == 0  # no heart
    assert meld("doctor", "Khe 2cl 3cl 4cl 5sp 6sp", suit="cl") == 0  # no ace
    assert meld("doctor", "Ahe 2cl 2sp 4cl 5sp 6sp", suit="cl") == 0  # ranks repeat
    with pytest.raises(HandEntryError, match="only the Doctor names a suit"):
        meld("lawyer", "Kcl 9he 5sp Adi", suit="cl")


@pytest.mark.parametrize("cards, name", [
    ("9he 9he 9cl 9sp 9di", "five of a kind"),
    ("10he Jhe Qhe Khe Ahe", "straight flush"),
    ("Ahe 2he 3he 4he 5he", "straight flush"),
    ("9he 9cl 9sp 9di 2he", "four of a kind"),
    ("9he 9cl 9sp 2di 2he", "full house"),
    ("2he 7he 9he Jhe Khe", "flush"),
    ("10he Jcl Qhe Khe Ahe", "straight"),
    ("Ahe 2cl 3he 4he 5he", "straight"),
    ("Qhe Kcl Ahe 2he 3he", "high card"),
    ("9he 9cl 9sp 2di 3he", "three of a kind"),
    ("9he 9cl 2sp 2di 3he", "two pair"),
    ("9he 9cl 2sp 4di 3he", "pair"),
    ("9he Kcl 2sp 4di 3he", "high card"),
])
def test_poker_hands(cards: str, name: str) -> None:
    assert poker_hand(parse_cards(cards))[0] == name


def test_indian_chief_meld_takes_the_best_split() -> None:
    assert baccarat_digit(parse_cards("Kcl 9he")) == 9
    # straight flush 45 + baccarat 9+8=17 -> 7
    assert meld("indian-chief", "Khe Qhe Jhe 10he Ahe 9cl 8sp") == 52
    # four 9s + K (40) with K-2 baccarat (2) beats a full house (35) with 9-2 (1) and
    # three 9s (20) with 9-K (9)
    assert meld("indian-chief", "9he 9cl 9sp 9di Kcl Ksp 2he") == 40 + 2
    result = score_meld("indian-chief", parse_cards("9he 9cl 9sp 9di Kcl Ksp 2he"))
    assert "four of a kind" in result.reason


def test_indian_chief_wrong_card_count_is_an_input_error() -> None:
    with pytest.raises(HandEntryError, match="the Doctor is 6 card"):
        meld("doctor", "Ahe 2cl 3cl")


def test_indian_chief_turn_scoring_and_game_end() -> None:
    data = {
        "totals": {"ann": 40, "bob": 45},
        "turn": 7,
        "melds": {
            "ann": {"meld": "beggar-man", "cards": ["7he", "Kcl"]},
            "bob": {"meld": "poor-man", "cards": ["7cl", "Ksp", "2sp"]},
        },
    }
    result = score("indian-chief", data)
    assert result["hand"] == {"ann": 4, "bob": 12}
    assert result["game_over"] is True and result["winner"] == "bob"
    with pytest.raises(HandEntryError, match="already has a score for the Poor Man"):
        score("indian-chief", {**data, "used": {"bob": ["poor-man"]}})


# --- Rummy and Carousel -------------------------------------------------------------------------

def test_rummy_winner_scores_opponents_deadwood_doubled_for_rummy() -> None:
    data = {"totals": {"ann": 0, "bob": 0, "cy": 0}, "winner": "ann",
            "hands": {"bob": ["Kcl", "Ahe", "7sp"], "cy": ["2he", "3he", "4he"]}}
    assert score("rummy", data)["hand"] == {"ann": 27, "bob": 0, "cy": 0}
    assert score("rummy", {**data, "rummy": True})["hand"]["ann"] == 54


def test_rummy_goal_option() -> None:
    data = {"totals": {"ann": 480, "bob": 100}, "winner": "ann", "hands": {"bob": ["Kcl", "Qcl"]}}
    assert score("rummy", data)["game_over"] is False
    result = score("rummy", {**data, "goal": 500})
    assert result["game_over"] is True and result["winner"] == "ann"


def test_rummy_needs_every_opponents_cards() -> None:
    # seed 004: "Each opponent then calculates the value of the deadwood ... in their hand";
    # only the winner ran out of cards, so a missing opponent is a keeper's slip, not 0.
    with pytest.raises(HandEntryError, match='"hands" needs the cards left in hand of cy'):
        score("rummy", {"totals": {"ann": 0, "bob": 0, "cy": 0}, "winner": "ann",
                        "hands": {"bob": ["2he"]}})


def test_rummy_winner_must_have_gone_out() -> None:
    with pytest.raises(HandEntryError, match="must be empty"):
        score("rummy", {"winner": "ann", "hands": {"ann": ["2he"], "bob": ["3he"]}})


def carousel(**data: Any) -> dict[str, Any]:
    return score("carousel", data)


def test_carousel_knocker_wins() -> None:
    result = carousel(totals={"ann": 0, "bob": 0, "cy": 0}, knocker="ann",
                      hands={"ann": ["3he"], "bob": ["Kcl", "jk"], "cy": ["5sp"]})
    assert result["deadwood"] == {"ann": 3, "bob": 35, "cy": 5}
    assert result["hand"] == {"ann": 32 + 2, "bob": 0, "cy": 0}


def test_carousel_equal_deadwood_undercuts() -> None:
    result = carousel(totals={"ann": 0, "bob": 0}, knocker="ann",
                      hands={"ann": ["4he"], "bob": ["2cl", "2sp"]})
    assert result["hand_winners"] == ["bob"]
    assert result["hand"] == {"ann": 0, "bob": 0 + 10}


def test_carousel_tied_undercutters_both_win() -> None:
    result = carousel(totals={"ann": 0, "bob": 0, "cy": 0}, knocker="ann",
                      hands={"ann": ["4he"], "bob": ["3cl"], "cy": ["Acl", "2he"]})
    assert result["hand_winners"] == ["bob", "cy"]
    assert result["hand"] == {"ann": 0, "bob": 1 + 0 + 10, "cy": 1 + 0 + 10}


def test_carousel_zero_deadwood_bonus() -> None:
    result = carousel(totals={"ann": 0, "bob": 0}, knocker="ann",
                      hands={"ann": [], "bob": ["9cl"]})
    assert result["hand"]["ann"] == 9 + 25


def test_carousel_knock_needs_under_five() -> None:
    with pytest.raises(HandEntryError, match="cannot knock with 5"):
        carousel(totals={"ann": 0, "bob": 0}, knocker="ann", hands={"ann": ["5he"], "bob": []})


def test_carousel_game_end_bonuses() -> None:
    result = carousel(totals={"ann": 140, "bob": 60}, knocker="ann",
                      hands={"ann": ["Ahe"], "bob": ["Kcl", "2he"]},
                      hands_won={"ann": 3, "bob": 2})
    # ann +11 -> 151: game over; +100 game bonus, box bonus 4 x 25; bob 2 x 25
    assert result["game_over"] is True and result["winner"] == "ann"
    assert result["totals"] == {"ann": 151 + 100 + 100, "bob": 60 + 50}
    assert result["hands_won"] == {"ann": 4, "bob": 2}


# --- Tossní -------------------------------------------------------------------------------------

def test_tossni_place_points() -> None:
    result = score("tossni", {"totals": {"ann": 3, "bob": 0, "cy": 1, "dee": 0},
                              "order": ["cy", "dee", "ann"]})
    assert result["hand"] == {"ann": 1, "bob": 0, "cy": 3, "dee": 2}
    assert result["totals"] == {"ann": 4, "bob": 0, "cy": 4, "dee": 2}
    custom = score("tossni", {"totals": {"ann": 0, "bob": 0}, "order": ["bob", "ann"],
                              "place_points": [5, 1], "goal": 5})
    assert custom["hand"] == {"ann": 1, "bob": 5} and custom["winner"] == "bob"


def test_tossni_order_errors() -> None:
    with pytest.raises(HandEntryError, match="missing"):
        score("tossni", {"totals": {"ann": 0, "bob": 0, "cy": 0}, "order": ["ann"]})
    with pytest.raises(HandEntryError, match="twice"):
        score("tossni", {"totals": {"ann": 0, "bob": 0, "cy": 0}, "order": ["ann", "ann"]})
    with pytest.raises(OptionError, match="needs 2 values"):
        score("tossni", {"totals": {"ann": 0, "bob": 0}, "order": ["ann"],
                         "place_points": [3, 2, 1]})


def test_tossni_queen_stack_and_ace_skip() -> None:
    stack = QueenStack()
    for code in ("Qcl", "Qhe", "Qsp"):
        stack = stack.play(parse_cards(code)[0])
    assert stack.draw == 6 and not stack.skip
    assert stack.take() == QueenStack()
    skip = stack.play(parse_cards("Acl")[0]).play(parse_cards("Ahe")[0])
    assert skip.skip and skip.draw == 0
    assert skip.play(parse_cards("5he")[0]) == QueenStack()


# --- the game-end test of the interface ---------------------------------------------------------

def test_game_end_per_game() -> None:
    assert get_game("toss-hearts").game_end({"a": 101, "b": 50}) == (True, "b")
    assert get_game("toss-hearts").game_end({"a": 100, "b": 50}) == (False, None)
    assert get_game("toss-hearts").game_end({"a": 150, "b": 50}, {"limit": 200}) == (False, None)
    assert get_game("toss-colors").game_end({"a": 499, "b": 20}) == (False, None)
    assert get_game("toss-colors").game_end({"a": 500, "b": 20}) == (True, "a")
    assert get_game("three-thirteen").game_end({"a": 5, "b": 3}, hands_played=10) == (False, None)
    assert get_game("three-thirteen").game_end({"a": 5, "b": 3}, hands_played=11) == (True, "b")
    assert get_game("indian-chief").game_end({"a": 5, "b": 3}, hands_played=7) == (True, "a")
    assert get_game("carousel").game_end({"a": 150, "b": 150}) == (False, None)
    assert get_game("tong-its").game_end({"a": 150}) == (False, None)
    assert get_game("rummy").game_end({"a": 5000}) == (False, None)
    assert get_game("rummy").game_end({"a": 500, "b": 20}, {"goal": 500}) == (True, "a")
    assert get_game("tossni").game_end({"a": 9, "b": 3}, {"goal": 9}) == (True, "a")


def test_hearts_game_over_waits_for_a_hand_without_renege() -> None:
    first = score("toss-hearts", {
        "totals": {"ann": 90, "bob": 30},
        "renege": {"caller": "bob", "accused": "ann", "proved": True},
    })
    assert first["totals"] == {"ann": 116, "bob": 30} and first["game_over"] is False
    second = score("toss-hearts", {"totals": first["totals"], "taken": {"bob": ["2he"]}})
    assert second["game_over"] is True and second["winner"] == "bob"
