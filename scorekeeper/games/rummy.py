"""Rummy (seed 004; docs/rules.md section 5): the winner scores every opponent's deadwood.

Melds count only when laid down, so every card left in an opponent's hand is deadwood (A=1,
J Q K=10, others their pip). Going rummy (melding the whole hand at once) doubles the hand. The
game's end is agreed at the table: option ``goal`` (none by default) ends it when a total
reaches the goal, highest winning.

>>> Rummy().score({}, {"winner": "ann", "hands": {"bob": ["Kcl", "5he"]}, "rummy": True}).hand
{'ann': 30, 'bob': 0}
"""

from __future__ import annotations

from typing import Final

from scorekeeper.cards import STANDARD, Card
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
    read_bool,
    require,
)
from scorekeeper.options import Option
from scorekeeper.outline import Incoming

RUMMY_FACTOR: Final = 2


class Rummy(RulesPack):
    name = "rummy"
    title = "Rummy"
    seed = "004"
    deck = STANDARD
    min_players = 2
    max_players = 6
    summary = "The winner scores the deadwood left in every opponent's hand, doubled for rummy."
    end = GameEnd(option="goal")
    options = (
        Option("goal", "int", None, "the game ends when a total reaches this (none: the table "
               "decides)", minimum=1, nullable=True),
    )
    hand_form = (
        Field("winner", "player", "Player who went out", empty_hand=True),
        Field("hands", "cards", "Cards left in each opponent's hand", per_player=True),
        Field("rummy", "bool", "Went rummy (all melds at once)", required=False, default=False),
    )

    def card_value(self, card: Card) -> int:
        return face_value(card)

    def hand_summary(self, entry: Incoming, details: Incoming) -> str:
        return f"{entry.get('winner')} went out{' (rummy)' if entry.get('rummy') else ''}"

    def score_hand(self, given: HandInput) -> HandScore:
        totals, entry, opts, decks = given
        roster = Roster(totals)
        winner = roster.name(require(entry, "winner", self.title), '"winner"')
        hands = roster.cards(require(entry, "hands", self.title), '"hands"')
        check_deck([c for cards in hands.values() for c in cards], decks, self.deck)
        rummy = read_bool(entry.get("rummy", False), '"rummy"')
        if hands.get(winner):
            raise HandEntryError(f"{winner} went out, so their hand must be empty")
        names = roster.names
        missing = [n for n in names if n != winner and n not in hands]
        if missing:
            raise HandEntryError(f'"hands" needs the cards left in hand of {", ".join(missing)}'
                                 " (every opponent of the winner)")
        deadwood = {n: sum(face_value(c) for c in hands.get(n, [])) for n in names}
        points = sum(deadwood.values()) * (RUMMY_FACTOR if rummy else 1)
        hand = {n: points if n == winner else 0 for n in names}
        new_totals = add_totals(totals, hand, names)
        game_over, game_winner = self.game_end(new_totals, opts)
        rule = f"rummy: winner scores opponents' deadwood{' x2 (rummy)' if rummy else ''}; " \
               f"goal={opts['goal'] or 'none'}"
        return HandScore(hand, new_totals, game_over, game_winner, rule, {"deadwood": deadwood})
