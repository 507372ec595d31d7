"""Three Thirteen (seed 004; docs/rules.md section 5): eleven hands, lowest total wins.

Hand 1 deals 3 cards with 3s wild, up to hand 11 with 13 cards and kings wild. Melds stay in
hand, so each player's hand scores its deadwood over the best arrangement into sets and ace-low
runs with the hand's wilds (:mod:`scorekeeper.deadwood`); an unmatched wild counts its own value.

>>> pack = ThreeThirteen()
>>> hands = {"ann": ["3cl", "7he", "8he"], "bob": ["Kcl", "2he", "9di"]}
>>> r = pack.score({}, {"hand_no": 1, "hands": hands})
>>> r.hand, r.game_over
({'ann': 0, 'bob': 21}, False)
"""

from __future__ import annotations

from typing import Any, Final

from scorekeeper.cards import RANK_NAMES, STANDARD, Card
from scorekeeper.deadwood import THREE_THIRTEEN_HANDS, face_value, solve, three_thirteen
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
    read_int,
    require,
)
from scorekeeper.outline import Incoming, JsonObject

#: The rank wild in hand 1 (one rank up each hand after).
FIRST_WILD: Final = three_thirteen(1).wild_rank

class ThreeThirteen(RulesPack):
    name = "three-thirteen"
    title = "Three Thirteen"
    seed = "004"
    deck = STANDARD
    min_players = 2
    max_players = 8
    lower_wins = True
    summary = "Eleven hands of 3 to 13 cards, 3s to kings wild; deadwood counts; lowest wins."
    end = GameEnd(hands=THREE_THIRTEEN_HANDS, lowest=True)
    hand_form = (
        Field("hand_no", "int", "Hand number (3s wild in hand 1 ... kings in hand 11)",
              minimum=1, maximum=THREE_THIRTEEN_HANDS),
        Field("hands", "cards", "Each player's cards", per_player=True),
        Field("went_out", "player", "Player who went out", required=False,
              empty_hand=True),
    )

    def card_value(self, card: Card) -> int:
        return face_value(card)

    def ui_hints(self) -> JsonObject:
        return {**super().ui_hints(), "wild_rank": {"first": FIRST_WILD},
                "progress": {"label": "hand", "of": THREE_THIRTEEN_HANDS}}

    def hand_summary(self, entry: Incoming, details: Incoming) -> str:
        """The hand's wild rank: ``Jacks wild``."""
        hand_no = entry.get("hand_no", 1)
        rank = three_thirteen(hand_no if isinstance(hand_no, int) else 1).wild_rank or 0
        return f"{RANK_NAMES.get(rank, '?').capitalize()}s wild"

    def score_hand(self, given: HandInput) -> HandScore:
        totals, entry, opts, decks = given
        hand_no = read_int(require(entry, "hand_no", self.title), '"hand_no"', 1,
                           THREE_THIRTEEN_HANDS)
        roster = Roster(totals)
        hands = roster.cards(require(entry, "hands", self.title), '"hands"')
        check_deck([c for cards in hands.values() for c in cards], decks, self.deck)
        names = roster.names
        missing = [n for n in names if n not in hands]
        if missing:
            raise HandEntryError(f'"hands" needs the cards of {", ".join(missing)}')
        rules = three_thirteen(hand_no)
        solved = {n: solve(cards, rules) for n, cards in hands.items()}
        went_out = entry.get("went_out")
        if went_out is not None:
            went_out = roster.name(went_out, '"went_out"')
            if solved[went_out].deadwood:
                raise HandEntryError(f"{went_out} cannot have gone out with "
                                     f"{solved[went_out].deadwood} deadwood")
        hand = {n: solved[n].deadwood for n in names}
        new_totals = add_totals(totals, hand, names)
        game_over, winner = self.game_end(new_totals, None, hand_no)
        details: dict[str, Any] = {
            "hand_no": hand_no,
            "arrangements": {n: solved[n].to_json() for n in names},
        }
        if game_over and winner is None:
            low = min(new_totals.values())
            details["tied"] = [n for n in names if new_totals[n] == low]
        return HandScore(hand, new_totals, game_over, winner, rules.describe(), details)
