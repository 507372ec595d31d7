"""The game engine, from the rules' worked examples (RULES.md 2-3, seed 000)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorekeeper.engine import (
    EventError,
    GameState,
    RuleViolation,
    SetupError,
    TableSetup,
    initial_state,
    preview_end_hand,
)
from scorekeeper.log import apply, replay
from scorekeeper.rulesets import TossOptions

FOUR = ("ann", "bob", "cy", "dee")
TEAMS = {"North": ["ann", "cy"], "South": ["bob", "dee"]}


def table(*players: str, teams: dict[str, list[str]] | None = None,
          **options: Any) -> TableSetup:
    return TableSetup.from_json({"players": list(players or FOUR), "teams": teams or {},
                                 "options": options})


def play(setup: TableSetup, *events: dict[str, Any]) -> GameState:
    return replay(setup, events)


def refuse(state: GameState, event: dict[str, Any], words: str,
           error: type[Exception] = RuleViolation) -> None:
    """The event is refused with a message containing ``words`` and changes nothing."""
    before = json.dumps(state.to_json())
    with pytest.raises(error) as caught:
        apply(state, event)
    assert words in str(caught.value)
    assert json.dumps(state.to_json()) == before


def new_hand(dealer: str | None = None) -> dict[str, Any]:
    return {"type": "new-hand", "dealer": dealer}


def meld(player: str, cards: str, top: str | None = None) -> dict[str, Any]:
    return {"type": "meld", "player": player, "cards": cards.split(), "top": top}


def lay_off(player: str, meld_id: int, cards: str) -> dict[str, Any]:
    return {"type": "lay-off", "player": player, "meld": meld_id, "cards": cards.split(),
            "top": None}


def toss(player: str, meld_id: int, joker: str, cards: str) -> dict[str, Any]:
    return {"type": "toss", "player": player, "meld": meld_id, "joker": joker,
            "cards": cards.split(), "top": None}


def double_cross(player: str, jokers: str) -> dict[str, Any]:
    return {"type": "double-cross", "player": player, "jokers": jokers.split()}


NEXT: dict[str, Any] = {"type": "next-turn"}


def end_hand(went_out: str | None, **hands: str) -> dict[str, Any]:
    return {"type": "end-hand", "went_out": went_out,
            "hands": {p: c.split() for p, c in hands.items()}}


def scores(state: GameState) -> dict[str, int]:
    return dict(state.scores)


# --- Toss -----------------------------------------------------------------------------------

def tossed_ten() -> GameState:
    """ann melds 8-9-10 of diamonds (10 on top); bob tosses the 10 with the Red Joker."""
    return play(table(), new_hand("dee"), meld("ann", "8di 9di 10di", "10di"), NEXT,
                toss("bob", 1, "jk-red", "10cl 10sp"))


def test_a_toss_moves_exactly_the_captured_cards_value_off_the_victim() -> None:
    state = tossed_ten()
    assert scores(state) == {"ann": 27 - 10, "bob": 30, "cy": 0, "dee": 0}
    victim, made = state.melds
    assert [c.code for c in victim.cards] == ["8di", "9di"] and victim.top.code == "9di"
    assert made.owner == "bob" and [c.code for c in made.cards] == ["10di", "10cl", "10sp"]
    assert state.to_json()["last_play"]["lost"] == 10


def test_red_joker_toss_of_the_ten_of_diamonds_melded_with_the_joker_itself() -> None:
    state = play(table(), new_hand("dee"), meld("ann", "8di 9di 10di", "10di"), NEXT,
                 toss("bob", 1, "jk-red", "jk-red 10cl 10sp"))
    assert state.scores["bob"] == 10 + 40 + 10 + 10
    assert state.melds[1].kind == "set"
    refuse(state, meld("bob", "jk-red Jcl Jsp"), "jk-red is already on the board")


def test_the_turn_after_a_toss_goes_to_the_tossed_player() -> None:
    state = apply(tossed_ten(), NEXT)
    assert state.turn == "ann"  # not cy, who sits after bob
    assert apply(state, NEXT).turn == "bob"  # then play goes on from ann


def test_toss_refusals() -> None:
    state = play(table(), new_hand("dee"), meld("ann", "8di 9di 10di", "10di"), NEXT)
    refuse(state, toss("bob", 1, "jk-blue", "10cl 10sp"), "jk-blue cannot toss 10di")
    refuse(state, toss("bob", 1, "jk-red", "10cl"), "at least two cards from your hand")
    refuse(state, toss("bob", 1, "jk-red", "10cl 5sp"), "The captured")
    refuse(state, toss("cy", 1, "jk-red", "10cl 10sp"), "It is bob's turn, not cy's.")
    refuse(state, toss("bob", 7, "jk-red", "10cl 10sp"), "There is no meld 7 on the board.")
    refuse(state, toss("bob", 1, "jk-red", "10cl 9di"), "9di is already on the board")
    own = play(table(), new_hand("dee"), meld("ann", "8di 9di 10di", "10di"))
    refuse(own, toss("ann", 1, "jk-red", "10cl 10sp"), "your own card")


def test_a_team_mate_may_be_tossed() -> None:
    state = play(table(teams=TEAMS), new_hand("dee"), meld("ann", "Kcl Ksp Khe", "Khe"), NEXT,
                 NEXT, toss("cy", 1, "jk-red", "Kdi Kcr"))
    assert state.scores == {"ann": 20, "bob": 0, "cy": 30, "dee": 0}
    assert state.score_of("North") == 50
    assert apply(state, NEXT).turn == "ann"


def test_a_joker_top_card_is_tossed_by_the_boss_only_in_toss_rummy() -> None:
    events = [new_hand("bob"), meld("ann", "5he 6he jk-red", "jk-red"), NEXT]
    complex_state = play(table("ann", "bob"), *events)
    after = apply(complex_state, toss("bob", 1, "jk-gold", "jk-blue Qcr"))
    assert after.scores["ann"] == 51 - 40
    toss_state = play(table("ann", "bob", ruleset="toss-rummy", wild_scoring=True), *events)
    refuse(toss_state, toss("bob", 1, "jk-gold", "jk-blue Qcr"), "only the Boss")
    assert apply(toss_state, toss("bob", 1, "boss", "jk-blue Qcr")).scores["ann"] == 50 - 40


# --- DoubleCross -----------------------------------------------------------------------------

def double_crossed() -> GameState:
    """cy tosses ann's 10 of diamonds; after cy's discard ann DoubleCrosses with the Boss."""
    return play(table(), new_hand("dee"), meld("ann", "8di 9di 10di", "10di"), NEXT, NEXT,
                toss("cy", 1, "jk-red", "10cl 10sp"), NEXT, double_cross("ann", "boss"))


def test_double_cross_takes_the_last_play_and_scores_it_with_the_jokers() -> None:
    state = double_crossed()
    assert state.turn == "ann"
    assert scores(state) == {"ann": 17 + 30 + 50, "bob": 0, "cy": 0, "dee": 0}
    taken = state.meld(2)
    assert taken is not None and taken.owner == "ann"
    assert [c.code for c in taken.cards] == ["10di", "10cl", "10sp", "boss"]
    assert set(taken.credits) == {"ann"}


def test_the_turn_after_a_double_cross_goes_back_to_the_double_crossed_player() -> None:
    assert apply(double_crossed(), NEXT).turn == "cy"  # not bob, who sits after ann


def test_complex_double_cross_back_in_turn_takes_everything_back_to_the_toss() -> None:
    state = play(table(), new_hand("dee"), meld("ann", "8di 9di 10di", "10di"), NEXT, NEXT,
                 toss("cy", 1, "jk-red", "10cl 10sp"), NEXT, double_cross("ann", "boss"), NEXT)
    back = apply(state, double_cross("cy", "jk-blue jk-gold"))
    assert scores(back) == {"ann": 17, "bob": 0, "cy": 30 + 50 + 80, "dee": 0}
    assert apply(back, NEXT).turn == "ann"


def whole_play(**options: Any) -> list[dict[str, Any]]:
    """bob melds 8-9-10 of diamonds; cy tosses the 10 with the Red Joker and, in the same turn,
    also melds Kcl Ksp Kdi; after cy's discard the turn is bob's, who may DoubleCross."""
    return [new_hand("dee"), NEXT, meld("bob", "8di 9di 10di", "10di"), NEXT,
            toss("cy", 1, "jk-red", "10cl 10sp"), meld("cy", "Kcl Ksp Kdi"), NEXT]


def test_double_cross_takes_the_whole_previous_play_by_default() -> None:
    state = play(table(), *whole_play())
    assert scores(state) == {"ann": 0, "bob": 27 - 10, "cy": 30 + 30, "dee": 0}
    assert state.to_json()["double_cross"]["takes"] == [
        {"meld": 2, "whole": True, "cards": ["10di", "10cl", "10sp"]},
        {"meld": 3, "whole": True, "cards": ["Kcl", "Ksp", "Kdi"]}]
    crossed = apply(state, double_cross("bob", "boss"))
    assert scores(crossed) == {"ann": 0, "bob": 17 + 30 + 30 + 50, "cy": 0, "dee": 0}
    kings = crossed.meld(3)
    assert kings is not None and kings.owner == "bob" and set(kings.credits) == {"bob"}
    assert crossed.last_play is not None
    assert [c.code for c in crossed.last_play["cards"]] == [
        "10di", "10cl", "10sp", "Kcl", "Ksp", "Kdi"]
    assert crossed.last_play["lost"] == 60 and crossed.last_play["points"] == 110
    assert apply(crossed, {"type": "undo"}) == state
    assert apply(crossed, NEXT).turn == "cy"


def test_double_cross_takes_option_toss_meld_takes_only_the_toss_meld() -> None:
    state = play(table(double_cross_takes="toss-meld"), *whole_play())
    assert [t["meld"] for t in state.to_json()["double_cross"]["takes"]] == [2]
    crossed = apply(state, double_cross("bob", "boss"))
    assert scores(crossed) == {"ann": 0, "bob": 17 + 30 + 50, "cy": 30, "dee": 0}
    kings = crossed.meld(3)
    assert kings is not None and kings.owner == "cy"


def test_whole_play_takes_melds_before_the_toss_and_lay_offs_by_their_cards() -> None:
    events = [new_hand("dee"), meld("ann", "2cl 3cl 4cl"), NEXT,
              meld("bob", "8di 9di 10di", "10di"), NEXT,
              meld("cy", "Kcl Ksp Kdi"), lay_off("cy", 1, "5cl"),
              toss("cy", 2, "jk-red", "10cl 10sp"), lay_off("cy", 3, "Khe"), NEXT]
    state = play(table(), *events)
    assert scores(state) == {"ann": 9, "bob": 17, "cy": 30 + 5 + 30 + 10, "dee": 0}
    crossed = apply(state, double_cross("bob", "boss"))
    assert scores(crossed) == {"ann": 9, "bob": 17 + 75 + 50, "cy": 0, "dee": 0}
    clubs, kings = crossed.meld(1), crossed.meld(3)
    assert clubs is not None and clubs.owner == "ann"  # a lay-off moves its cards' credit only
    assert clubs.credits == ("ann", "ann", "ann", "bob")
    assert kings is not None and kings.owner == "bob" and set(kings.credits) == {"bob"}
    hand = apply(apply(crossed, NEXT), end_hand("cy"))
    assert hand.hands[0]["tally"]["players"]["bob"]["melded_points"] == 27 - 10 + 75 + 50


def test_whole_play_leaves_the_plays_of_an_earlier_turn() -> None:
    events = [new_hand("dee"), NEXT, meld("bob", "8di 9di 10di", "10di"), NEXT,
              meld("cy", "Kcl Ksp Kdi"), NEXT, NEXT, NEXT, NEXT,
              toss("cy", 1, "jk-red", "10cl 10sp"), NEXT]
    state = play(table(), *events)
    crossed = apply(state, double_cross("bob", "boss"))
    kings = crossed.meld(2)
    assert kings is not None and kings.owner == "cy"
    assert scores(crossed)["cy"] == 30


def test_whole_play_double_cross_back_takes_the_whole_double_crossing_play() -> None:
    state = play(table(), *whole_play(), double_cross("bob", "boss"), meld("bob", "2sp 3sp 4sp"),
                 NEXT)
    assert [t["meld"] for t in state.to_json()["double_cross"]["takes"]] == [2, 3, 4]
    back = apply(state, double_cross("cy", "jk-blue"))
    assert scores(back) == {"ann": 0, "bob": 17, "cy": 30 + 50 + 30 + 9 + 40, "dee": 0}
    assert {m.owner for m in back.melds if m.id in (2, 3, 4)} == {"cy"}
    off = play(table(double_cross_back=False), *whole_play(), double_cross("bob", "boss"), NEXT)
    refuse(off, double_cross("cy", "jk-blue"), "double_cross_back")


def test_toss_rummy_whole_play_moves_the_kings_at_the_tally() -> None:
    setup = table(ruleset="toss-rummy")
    state = play(setup, *whole_play(), double_cross("bob", "boss"), NEXT)
    assert state.scores == {"ann": 0, "bob": 0, "cy": 0, "dee": 0}
    ended = apply(state, end_hand("cy"))
    tally = ended.hands[0]["tally"]["players"]
    # Toss Rummy values: 8 9 = 5 each, 10s and kings 10, the Boss 50
    assert tally["bob"]["melded_points"] == 5 + 5 + 30 + 30 + 50
    assert tally["cy"]["melded_points"] == 0


def test_double_cross_refusals() -> None:
    before_discard = play(table(), new_hand("dee"), meld("ann", "8di 9di 10di", "10di"), NEXT,
                          NEXT, toss("cy", 1, "jk-red", "10cl 10sp"))
    refuse(before_discard, double_cross("ann", "boss"), "after cy discards")
    ready = apply(before_discard, NEXT)
    refuse(ready, double_cross("bob", "boss"), "Only ann")
    refuse(ready, double_cross("ann", "jk-gold"), "only the Boss can DoubleCross it")
    refuse(ready, double_cross("ann", "7cl"), "7cl is not a joker")
    played = apply(ready, meld("ann", "2cl 3cl 4cl"))
    refuse(played, double_cross("ann", "boss"), "nothing to DoubleCross")
    passed = apply(ready, NEXT)
    refuse(passed, double_cross("ann", "boss"), "nothing to DoubleCross")


def test_toss_rummy_double_cross_needs_the_boss_and_cannot_be_answered() -> None:
    setup = table(ruleset="toss-rummy")
    state = play(setup, new_hand("dee"), meld("ann", "8di 9di 10di", "10di"), NEXT, NEXT,
                 toss("cy", 1, "jk-red", "10cl 10sp"), NEXT)
    refuse(state, double_cross("ann", "jk-gold"), "needs the Boss")
    state = apply(apply(state, double_cross("ann", "boss")), NEXT)
    assert state.turn == "cy"
    assert state.scores == {"ann": 0, "bob": 0, "cy": 0, "dee": 0}  # no wild scoring
    refuse(state, double_cross("cy", "jk-blue"), "nothing to DoubleCross")


def test_complex_any_joker_double_crosses_a_toss_that_took_a_joker() -> None:
    state = play(table("ann", "bob"), new_hand("bob"), meld("ann", "5he 6he jk-red", "jk-red"),
                 NEXT, toss("bob", 1, "jk-gold", "jk-blue Qcr"), NEXT,
                 double_cross("ann", "jk-black"))
    assert state.scores == {"ann": 11 + 40 + 40 + 10 + 40, "bob": 0}


# --- Steal, lay-off, board --------------------------------------------------------------------

def test_five_jokers_are_refused_as_a_meld_and_a_fifth_as_a_lay_off() -> None:
    state = play(table(), new_hand("dee"))
    refuse(state, meld("ann", "boss jk-black jk-red jk-gold jk-blue"),
           "a joker set is three or four jokers")
    four = apply(state, meld("ann", "boss jk-black jk-red jk-gold"))
    assert four.scores["ann"] == 50 + 3 * 40
    refuse(four, lay_off("ann", 1, "jk-blue"), "a joker set is three or four jokers")


def test_an_empty_card_code_in_an_event_is_refused_naming_it() -> None:
    state = play(table(), new_hand("dee"))
    refuse(state, {"type": "meld", "player": "ann", "cards": ["", "Kcl", "Ksp", "Khe"]},
           "cards: empty card code '' at item 1 of 4", EventError)
    refuse(state, {"type": "end-hand", "went_out": None, "hands": {"ann": ["5he", " "]}},
           "hands of ann: empty card code ' ' at item 2 of 2", EventError)


def test_a_steal_scores_out_of_turn_and_leaves_the_turn() -> None:
    state = play(table(), new_hand("dee"), meld("ann", "8di 9di 10di", "10di"), NEXT)
    stolen = apply(state, {"type": "steal", "player": "dee", "card": "Jdi", "meld": 1})
    assert stolen.turn == "bob" and stolen.scores["dee"] == 10
    assert stolen.melds[0].credits == ("ann", "ann", "ann", "dee")
    refuse(state, {"type": "steal", "player": "dee", "card": "Ksp", "meld": 1},
           "does not fit")


def test_lay_off_rules_and_top_card() -> None:
    state = play(table(), new_hand("dee"), meld("ann", "8di 9di 10di", "10di"),
                 lay_off("ann", 1, "Jdi"))
    assert state.melds[0].top.code == "Jdi" and state.scores["ann"] == 37
    state = apply(state, NEXT)
    refuse(state, lay_off("bob", 1, "jk-red"), "needs at least one natural card")
    both = apply(state, lay_off("bob", 1, "jk-red 7di"))
    assert both.scores["bob"] == 47
    refuse(state, {**lay_off("bob", 1, "7di"), "top": "9di"}, "cannot be the top card")


def test_cards_on_the_board_never_exceed_the_decks() -> None:
    state = play(table(), new_hand("dee"), meld("ann", "Kcl Ksp Khe"))
    refuse(state, lay_off("ann", 1, "Kcl"), "Kcl is already on the board")
    two = play(table(decks=2), new_hand("dee"), meld("ann", "Kcl Ksp Khe"),
               lay_off("ann", 1, "Kcl"))
    assert len(two.melds[0].cards) == 4


# --- end of hand, dealer, game end ---------------------------------------------------------------

def test_end_hand_tally_with_team_exemption() -> None:
    setup = table(teams=TEAMS)
    state = play(setup, new_hand("dee"), meld("ann", "Kcl Ksp Khe"), NEXT,
                 meld("bob", "2cl 3cl 4cl"),
                 end_hand("ann", cy="Acl", bob="boss", dee="5sh"))
    # ann: 30 as played + 30 tally; cy exempt; bob: 9 + 9 - 50; dee: -5
    assert scores(state) == {"ann": 60, "bob": -32, "cy": 0, "dee": -5}
    assert state.phase == "hand-over" and state.turn is None and state.melds == ()
    assert state.hands[-1]["deltas"] == {"North": 60, "South": -37}
    assert state.hands[-1]["tally"]["players"]["cy"]["exempt"] is True


def test_end_hand_refusals() -> None:
    state = play(table(), new_hand("dee"), meld("ann", "Kcl Ksp Khe"))
    refuse(state, end_hand("ann", ann="2cl"), "still has 1 card")
    refuse(state, end_hand("bob", cy="Kcl"), "Kcl appears 2 times")
    refuse(state, end_hand("zed"), "not a player", EventError)


def test_toss_rummy_scores_only_at_the_tally_without_wild_scoring() -> None:
    events = [new_hand("dee"), meld("ann", "7cl 7sp 7he"), NEXT,
              toss("bob", 1, "jk-black", "7di 7cr")]
    plain = play(table(ruleset="toss-rummy"), *events)
    assert set(plain.scores.values()) == {0}
    ended = apply(plain, end_hand("bob", ann="2cl"))
    assert ended.scores["ann"] == 10 - 5 and ended.scores["bob"] == 15
    wild = play(table(ruleset="toss-rummy", wild_scoring=True), *events)
    assert wild.scores["ann"] == 15 - 5 and wild.scores["bob"] == 15


def test_dealer_with_two_players_is_the_loser_of_the_last_hand() -> None:
    setup = table("ann", "bob")
    state = play(setup, new_hand("ann"), meld("bob", "Kcl Ksp Khe"), end_hand("bob", ann="2cl"))
    assert state.next_dealer == "ann"
    refuse(state, new_hand("bob"), "It is ann's deal for hand 2")
    again = apply(state, {"type": "new-hand"})
    assert (again.dealer, again.turn, again.hand_no) == ("ann", "bob", 2)
    # nobody out: the lower hand loses the deal
    state = play(setup, new_hand("ann"), meld("bob", "Kcl Ksp Khe"), end_hand(None))
    assert state.next_dealer == "ann"
    state = play(setup, new_hand("ann"), NEXT, meld("ann", "Kcl Ksp Khe"), end_hand(None))
    assert state.next_dealer == "bob"


def test_dealer_with_four_players_passes_left() -> None:
    state = play(table(), new_hand("bob"), end_hand(None, cy="Acl"))
    assert state.next_dealer == "cy"
    state = apply(state, new_hand("cy"))
    assert state.turn == "dee"
    refuse(initial_state(table()), {"type": "new-hand"}, "needs \"dealer\"", EventError)


def test_complex_pegs_out_mid_hand_and_refuses_further_play() -> None:
    state = play(table(goal=40), new_hand("dee"), meld("ann", "Kcl Ksp Khe"))
    assert state.phase == "playing"
    won = apply(state, lay_off("ann", 1, "Kdi"))
    assert (won.phase, won.winner, won.turn) == ("game-over", "ann", None)
    refuse(won, NEXT, "The game is over")
    refuse(won, {"type": "correction", "target": "bob", "points": 5, "reason": "x"},
           "The game is over")
    undone = apply(won, {"type": "undo"})
    assert undone.to_json() == state.to_json()


def test_team_pegs_out_on_the_sum_of_its_members() -> None:
    state = play(table(teams=TEAMS, goal=50), new_hand("dee"), meld("ann", "Kcl Ksp Khe"),
                 NEXT, NEXT, meld("cy", "Qcl Qsp Qhe"))
    assert (state.phase, state.winner) == ("game-over", "North")


def test_a_tie_at_the_goal_plays_on() -> None:
    setup = table("ann", "bob", goal=40)
    state = play(setup, new_hand("bob"), meld("ann", "7cl 7sp 7he"), NEXT,
                 meld("bob", "7di 7cr 7or"), end_hand(None))
    assert state.scores == {"ann": 42, "bob": 42}
    assert (state.phase, state.winner) == ("hand-over", None)
    state = apply(apply(state, new_hand("ann")), meld("bob", "2cl 3cl 4cl"))
    assert (state.phase, state.winner) == ("game-over", "bob")


def test_several_over_the_goal_at_the_tally_the_highest_wins() -> None:
    state = play(table("ann", "bob", goal=40), new_hand("bob"), meld("ann", "7cl 7sp 7he"),
                 NEXT, meld("bob", "8di 8cr 8or"), end_hand(None))
    assert (state.phase, state.winner) == ("game-over", "bob")


def test_toss_rummy_ends_after_the_hand_that_reaches_the_goal() -> None:
    setup = table("ann", "bob", ruleset="toss-rummy", wild_scoring=True, goal=30)
    state = play(setup, new_hand("bob"), meld("ann", "Kcl Ksp Khe"))
    assert state.phase == "playing" and state.scores["ann"] == 30
    state = apply(state, end_hand("ann", bob="Qcl Qsp Qhe"))
    assert (state.phase, state.winner) == ("game-over", "ann")
    tie = play(table("ann", "bob", ruleset="toss-rummy", goal=30), new_hand("bob"),
               meld("ann", "Kcl Ksp Khe"), NEXT, meld("bob", "Qcl Qsp Qhe"), end_hand(None))
    assert (tie.scores["ann"], tie.scores["bob"], tie.phase) == (30, 30, "hand-over")


# --- corrections, undo, refusals ------------------------------------------------------------

def test_corrections_need_a_reason_and_adjust_a_player_or_a_team() -> None:
    state = play(table(teams=TEAMS), new_hand("dee"))
    refuse(state, {"type": "correction", "target": "bob", "points": 10, "reason": "  "},
           "needs a reason")
    refuse(state, {"type": "correction", "target": "bob", "points": 10}, "needs a reason")
    refuse(state, {"type": "correction", "target": "zed", "points": 10, "reason": "r"},
           "neither a player nor a team", EventError)
    fixed = apply(state, {"type": "correction", "target": "bob", "points": 10,
                          "reason": "miscounted a king"})
    assert fixed.scores["bob"] == 10 and fixed.score_of("South") == 10
    team = apply(fixed, {"type": "correction", "target": "North", "points": -15,
                         "reason": "penalty agreed by the table"})
    assert team.score_of("North") == -15 and team.scores["ann"] == 0


def test_undo_restores_the_previous_state_exactly_and_repeats() -> None:
    base = play(table(), new_hand("dee"), meld("ann", "8di 9di 10di", "10di"), NEXT)
    tossed = apply(base, toss("bob", 1, "jk-red", "10cl 10sp"))
    assert apply(tossed, {"type": "undo"}).to_json() == base.to_json()
    twice = apply(apply(tossed, {"type": "undo"}), {"type": "undo"})
    assert twice.to_json()["melds"] == [{"id": 1, "owner": "ann",
                                         "cards": ["8di", "9di", "10di"], "kind": "sequence",
                                         "top": "10di", "credits": ["ann"] * 3}]
    assert twice.turn == "ann"
    refuse(initial_state(table()), {"type": "undo"}, "nothing to undo")


def test_malformed_events_are_event_errors() -> None:
    state = play(table(), new_hand("dee"))
    refuse(state, {"type": "shuffle"}, "unknown event type", EventError)
    refuse(state, {"type": "meld", "player": "ann"}, 'needs "cards"', EventError)
    refuse(state, meld("ann", "Kcx Ksp Khe"), "did you mean", EventError)
    refuse(state, meld("zed", "Kcl Ksp Khe"), "not a player", EventError)
    refuse(state, meld("ann", "jk Ksp Khe"), "not in a Toss", EventError)


def test_plays_outside_a_hand_are_refused() -> None:
    refuse(initial_state(table()), meld("ann", "Kcl Ksp Khe"), "No hand is in play yet")
    over = play(table(), new_hand("dee"), end_hand(None))
    refuse(over, NEXT, "Hand 1 is over")
    refuse(apply(over, new_hand("ann")), new_hand("bob"), "still in play")


def test_preview_end_hand_commits_nothing() -> None:
    state = play(table(teams=TEAMS), new_hand("dee"), meld("ann", "Kcl Ksp Khe"))
    before = state.to_json()
    preview = preview_end_hand(state, "ann", {"cy": ["Acl"], "bob": ["boss"]})
    assert preview.teams == {"North": 30, "South": -50}
    assert state.to_json() == before


def test_state_json_has_the_contract_shape() -> None:
    state = play(table(teams=TEAMS), new_hand("dee"), meld("ann", "Kcl Ksp Khe", "Kcl"))
    data = json.loads(json.dumps(state.to_json()))
    for key in ("hand_no", "dealer", "turn", "phase", "winner", "goal", "ruleset", "options",
                "players", "boards", "melds", "last_play", "hands", "events_applied"):
        assert key in data
    assert data["players"][0] == {"name": "ann", "team": "North", "score": 30}
    north = data["boards"][0]
    assert (north["owner"], north["members"], north["score"]) == ("North", ["ann", "cy"], 30)
    assert (north["hundreds"], north["tens"], north["ones"], north["negative"]) == (0, 3, 0, False)
    assert data["melds"][0]["top"] == "Kcl" and data["events_applied"] == 2
    assert [b.score for b in state.boards()] == [30, 0]


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"players": ["ann"]}, "2 to 6 players"),
        ({"players": ["ann", "ann"]}, "seated twice"),
        ({"players": list(FOUR), "teams": {"N": ["ann", "bob", "cy"], "S": ["dee"]}},
         "teams have 2 or 3"),
        ({"players": list(FOUR), "teams": {"N": ["ann", "cy"], "S": ["bob", "cy"]}},
         "in two teams"),
        ({"players": ["ann", "bob"], "colours": {"ann": "red"}}, "#rrggbb"),
    ],
)
def test_bad_setups(data: dict[str, Any], words: str) -> None:
    with pytest.raises(SetupError, match=words):
        TableSetup.from_json(data)


def test_a_bad_option_in_a_setup_is_the_one_option_error() -> None:
    from scorekeeper.options import OptionError

    with pytest.raises(OptionError, match='option "goal" .* must be 1 or more, not 0'):
        TableSetup.from_json({"players": ["ann", "bob"], "options": {"goal": 0}})


def test_setup_round_trips_through_json() -> None:
    setup = TableSetup.from_json({"players": list(FOUR), "teams": TEAMS,
                                  "colours": {"South": "#123456"},
                                  "options": {"ruleset": "toss-rummy", "goal": 500}})
    again = TableSetup.from_json(json.loads(json.dumps(setup.to_json())))
    assert again.to_json() == setup.to_json()
    assert again.colour_of("South") == "#123456" and again.options == TossOptions(
        ruleset="toss-rummy", goal=500)


# --- Table options: toss_joker and double_cross_back ------------------------------------------

def test_toss_joker_option_defaults_validates_and_round_trips() -> None:
    assert TossOptions().toss_joker == "shown" and TossOptions().double_cross_back is True
    options = TossOptions(toss_joker="melded", double_cross_back=False)
    assert TossOptions.from_json(options.to_json()) == options
    with pytest.raises(ValueError, match="toss_joker"):
        TossOptions.from_json({"toss_joker": "kept"})
    with pytest.raises(ValueError, match='option "double_cross_back" must be true or false'):
        TossOptions.from_json({"double_cross_back": "no"})


def test_toss_joker_shown_lets_the_joker_stay_in_hand() -> None:
    state = play(table(toss_joker="shown"), new_hand("dee"), meld("ann", "8di 9di 10di", "10di"),
                 NEXT, toss("bob", 1, "jk-red", "10cl 10sp"))
    assert [c.code for c in state.melds[1].cards] == ["10di", "10cl", "10sp"]
    assert state.scores["bob"] == 30


@pytest.mark.parametrize("ruleset", ["complex-toss-rummy", "toss-rummy"])
def test_toss_joker_melded_refuses_a_toss_without_the_joker_in_the_meld(ruleset: str) -> None:
    state = play(table(ruleset=ruleset, toss_joker="melded", wild_scoring=True), new_hand("dee"),
                 meld("ann", "8di 9di 10di", "10di"), NEXT)
    refuse(state, toss("bob", 1, "jk-red", "10cl 10sp"),
           "jk-red must be one of the new meld's cards at this table (option toss_joker:"
           " melded)")
    after = apply(state, toss("bob", 1, "jk-red", "jk-red 10cl"))
    assert [c.code for c in after.melds[1].cards] == ["10di", "jk-red", "10cl"]
    assert after.scores["bob"] == 10 + 40 + 10
    refuse(after, meld("bob", "jk-red Jcl Jsp"), "jk-red is already on the board")


def complex_double_crossed(**options: Any) -> GameState:
    """Complex: cy tosses ann's 10 of diamonds, ann DoubleCrosses, and ann discards to cy."""
    return play(table(**options), new_hand("dee"), meld("ann", "8di 9di 10di", "10di"), NEXT,
                NEXT, toss("cy", 1, "jk-red", "10cl 10sp"), NEXT, double_cross("ann", "boss"),
                NEXT)


def test_double_cross_back_true_lets_complex_answer_a_double_cross() -> None:
    state = complex_double_crossed(double_cross_back=True)
    assert state.chance is not None and state.chance.victim == "cy" and state.chance.ready
    taken = apply(state, double_cross("cy", "jk-blue")).meld(2)
    assert taken is not None and taken.owner == "cy"


def test_double_cross_back_false_refuses_a_double_cross_of_a_double_cross() -> None:
    state = complex_double_crossed(double_cross_back=False)
    assert state.chance is None
    assert scores(state) == {"ann": 17 + 30 + 50, "bob": 0, "cy": 0, "dee": 0}
    refuse(state, double_cross("cy", "jk-blue"), "option double_cross_back is off")
    # the Toss itself may still be DoubleCrossed
    tossed = play(table(double_cross_back=False), new_hand("dee"),
                  meld("ann", "8di 9di 10di", "10di"), NEXT, NEXT,
                  toss("cy", 1, "jk-red", "10cl 10sp"), NEXT)
    assert apply(tossed, double_cross("ann", "boss")).meld(2) is not None


@pytest.mark.parametrize("back", [True, False])
def test_double_cross_back_has_no_effect_in_toss_rummy(back: bool) -> None:
    state = play(table(ruleset="toss-rummy", double_cross_back=back), new_hand("dee"),
                 meld("ann", "8di 9di 10di", "10di"), NEXT, NEXT,
                 toss("cy", 1, "jk-red", "10cl 10sp"), NEXT, double_cross("ann", "boss"), NEXT)
    assert state.chance is None and state.turn == "cy"
    refuse(state, double_cross("cy", "jk-blue"), "There is nothing to DoubleCross: a"
           " DoubleCross answers a Toss of your cards, before anything else happens.")
