"""The Toss Rummy chip settlement (RULES.md 4 and 6)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.chips import (
    CHIP_GAMES,
    ChipError,
    Payment,
    SettlementTieError,
    round_half_up,
    settle,
    settle_toss_rummy,
    split_chips,
)


def test_every_other_player_pays_the_winner_the_rounded_difference() -> None:
    settlement = settle_toss_rummy({"ann": 1040, "bob": 815, "cy": 990}, chips_per_points=10)
    assert settlement.payments == (Payment("bob", "ann", 23), Payment("cy", "ann", 5))
    assert settlement.net == {"ann": 28, "bob": -23, "cy": -5}
    assert settlement.to_json() == {
        "payments": [{"from": "bob", "to": "ann", "chips": 23},
                     {"from": "cy", "to": "ann", "chips": 5}],
        "net": {"ann": 28, "bob": -23, "cy": -5},
    }


@pytest.mark.parametrize(
    ("difference", "per", "chips"),
    [(1, 10, 0), (4, 10, 0), (5, 10, 1), (14, 10, 1), (15, 10, 2), (25, 10, 3), (35, 10, 4),
     (105, 10, 11), (1, 1, 1), (7, 2, 4), (6, 4, 2), (5, 4, 1)],
)
def test_halves_round_up(difference: int, per: int, chips: int) -> None:
    settlement = settle_toss_rummy({"w": 1000 + difference, "l": 1000}, per)
    assert settlement.payments[0].chips == chips


def test_negative_loser_totals_pay_more() -> None:
    settlement = settle_toss_rummy({"ann": 1010, "bob": -40})
    assert settlement.net == {"ann": 105, "bob": -105}


def test_a_loser_close_to_the_winner_pays_zero_never_negative() -> None:
    settlement = settle_toss_rummy({"ann": 1012, "bob": 1010})
    assert settlement.payments == (Payment("bob", "ann", 0),)
    assert settlement.net == {"ann": 0, "bob": 0}


def test_tie_for_highest_is_no_settlement() -> None:
    with pytest.raises(SettlementTieError) as info:
        settle_toss_rummy({"ann": 1010, "bob": 1010, "cy": 700})
    assert str(info.value) == "no settlement: ann and bob tie at 1010; the game plays on"
    assert isinstance(info.value, ValueError)
    with pytest.raises(SettlementTieError, match="ann, bob and cy tie at 900"):
        settle_toss_rummy({"ann": 900, "bob": 900, "cy": 900})


def test_a_tie_below_the_winner_settles() -> None:
    settlement = settle_toss_rummy({"ann": 1100, "bob": 900, "cy": 900})
    assert settlement.net == {"ann": 40, "bob": -20, "cy": -20}


@pytest.mark.parametrize(
    ("totals", "per", "message"),
    [({"ann": 1010}, 10, "at least 2"),
     ({}, 10, "at least 2"),
     ({"ann": 1010, "bob": "900"}, 10, "total of bob must be a whole number"),
     ({"ann": 1010, "bob": 9.5}, 10, "total of bob"),
     ({"ann": 1010, "bob": True}, 10, "total of bob"),
     ({"ann": 1010, "": 3}, 10, "names must be non-empty"),
     ({"ann": 1010, "bob": 900}, 0, "chips_per_points must be a whole number of 1 or more"),
     ({"ann": 1010, "bob": 900}, 2.5, "chips_per_points")],
)
def test_bad_settlement_input(totals: dict[str, object], per: object, message: str) -> None:
    with pytest.raises(ChipError, match=message):
        settle_toss_rummy(totals, per)  # type: ignore[arg-type]


def test_settle_dispatches_on_game() -> None:
    data = {"game": "toss-rummy", "chips_per_points": 5, "totals": {"ann": 1010, "bob": 960}}
    assert settle(data) == {"payments": [{"from": "bob", "to": "ann", "chips": 10}],
                            "net": {"ann": 10, "bob": -10}}
    # RULES.md 4 names three chip games: the Toss Rummy settlement, Toss Colors and Tong-Its.
    assert set(CHIP_GAMES) == {"toss-rummy", "toss-colors", "tong-its"}
    with pytest.raises(ChipError) as info:
        settle({"game": "poker", "totals": {}})
    assert str(info.value) == (
        "unknown chip game 'poker': known games are tong-its, toss-colors, toss-rummy"
    )
    with pytest.raises(ChipError, match="JSON object"):
        settle([1, 2])
    with pytest.raises(ChipError, match="unknown field 'total'"):
        settle({"game": "toss-rummy", "total": {"ann": 1}})
    with pytest.raises(ChipError, match='need "totals"'):
        settle({"game": "toss-rummy"})
    with pytest.raises(ChipError, match="decks must be"):
        settle({"game": "toss-rummy", "decks": 0, "totals": {"a": 1, "b": 2}})
    assert settle({"game": "toss-rummy", "decks": 2, "totals": {"a": 1, "b": 20}})["net"] == {
        "a": -2, "b": 2}


def test_round_half_up_and_split() -> None:
    assert [round_half_up(n, 10) for n in (0, 4, 5, 15, 25, -5, -15)] == [0, 0, 1, 2, 3, 0, -1]
    assert split_chips(23, 2) == (11, 1)
    assert split_chips(24, 3) == (8, 0)
    with pytest.raises(ChipError):
        split_chips(5, 0)
    with pytest.raises(ChipError):
        round_half_up(5, 0)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text("abcdef", min_size=1, max_size=4), st.integers(-500, 2500),
                       min_size=2, max_size=6),
       st.integers(1, 50))
def test_settlement_properties(totals: dict[str, int], per: int) -> None:
    best = max(totals.values())
    if list(totals.values()).count(best) > 1:
        with pytest.raises(SettlementTieError):
            settle_toss_rummy(totals, per)
        return
    settlement = settle_toss_rummy(totals, per)
    winner = max(totals, key=lambda name: totals[name])
    assert sum(settlement.net.values()) == 0
    assert len(settlement.payments) == len(totals) - 1
    for payment in settlement.payments:
        assert payment.payee == winner and payment.chips >= 0
        exact = (best - totals[payment.payer]) / per
        assert abs(payment.chips - exact) <= 0.5
        assert payment.chips - exact != -0.5  # halves round up


# --- team play (RULES.md 4: "A team's receipt or payment is split evenly among its members";
# "All chip splits are in whole chips; a remainder that cannot be split evenly stays in the pot")

def test_a_team_payment_and_receipt_are_split_evenly_among_members() -> None:
    # North 1040, South 830: South pays (1040 - 830) / 10 = 21 chips, three members pay 7 each;
    # North's two members share the 21 received: 10 each, the odd chip stays in the pot.
    settlement = settle_toss_rummy(
        {"North": 1040, "South": 830}, 10,
        teams={"North": ["ann", "cy"], "South": ["bob", "dee", "eve"]},
    )
    assert settlement.payments == (Payment("South", "North", 21),)
    assert settlement.members == {"ann": 10, "cy": 10, "bob": -7, "dee": -7, "eve": -7}
    assert settlement.pot == 1


def test_a_team_payment_that_cannot_be_split_evenly_charges_whole_shares() -> None:
    # South owes 23 between two members: 11 each in whole chips; North shares the 22 paid.
    result = settle({"game": "toss-rummy", "totals": {"North": 1040, "South": 815},
                     "teams": {"North": ["ann", "cy"], "South": ["bob", "dee"]}})
    assert result["payments"] == [{"from": "South", "to": "North", "chips": 23}]
    assert result["members"] == {"ann": 11, "cy": 11, "bob": -11, "dee": -11}
    assert result["pot"] == 0


def test_players_without_teams_have_no_member_split() -> None:
    assert set(settle({"game": "toss-rummy", "totals": {"a": 1010, "b": 900}})) == {
        "payments", "net"}


@pytest.mark.parametrize(
    ("teams", "message"),
    [({"North": ["ann"]}, "South has a total but no members"),
     ({"North": ["ann"], "South": ["bob"], "East": ["cy"]}, "team East has no total"),
     ({"North": ["ann"], "South": []}, "team South must list its members"),
     ({"North": ["ann"], "South": ["ann"]}, "ann is named twice"),
     (["ann", "bob"], '"teams" must be an object')],
)
def test_bad_teams_are_refused(teams: object, message: str) -> None:
    with pytest.raises(ChipError, match=message):
        settle({"game": "toss-rummy", "totals": {"North": 1010, "South": 900}, "teams": teams})


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-300, 1500), min_size=2, max_size=4, unique=True),
       st.lists(st.integers(1, 3), min_size=4, max_size=4), st.integers(1, 20))
def test_team_chips_are_conserved_and_shares_are_even(
    scores: list[int], sizes: list[int], per: int
) -> None:
    totals = {f"T{i}": score for i, score in enumerate(scores)}
    teams = {team: [f"{team}m{k}" for k in range(sizes[i])] for i, team in enumerate(totals)}
    settlement = settle_toss_rummy(totals, per, teams)
    assert sum(settlement.members.values()) + settlement.pot == 0
    for team, names in teams.items():
        shares = {settlement.members[name] for name in names}
        assert len(shares) == 1  # every member of a team gets or pays the same
        team_chips = settlement.net[team]
        assert abs(shares.pop()) * len(names) <= abs(team_chips)
    assert 0 <= settlement.pot < len(teams[max(totals, key=lambda t: totals[t])])
