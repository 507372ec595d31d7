"""Carousel (seed 004; docs/rules.md sections 5 and 6): knock under 5, undercuts, game to 150.

Deadwood is every card left in hand (melds count only on the table): jokers 25, J Q K 10, A 1,
others their pip. The knocker (under 5 deadwood) wins unless an opponent has lower or equal
deadwood; then the lowest opponent wins (all opponents tied for lowest win) with a 10-point
undercut bonus. A winner scores the sum of the differences to each opponent, +25 for zero
deadwood. The game ends when a total reaches 150: the highest total wins and gets the 100 game
bonus, and every player adds 25 per hand won (box bonus).

>>> r = Carousel().score({}, {"knocker": "ann", "hands": {"ann": ["2he"], "bob": ["Kcl", "jk"]}})
>>> r.hand
{'ann': 33, 'bob': 0}
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
    int_option,
    read_int,
    require,
)
from scorekeeper.options import Option
from scorekeeper.outline import Incoming

JOKER_VALUE: Final = 25
KNOCK_UNDER: Final = 5
UNDERCUT_BONUS: Final = 10
GIN_BONUS: Final = 25
GAME_BONUS: Final = 100
BOX_BONUS: Final = 25
GOAL: Final = 150


def carousel_value(card: Card) -> int:
    """Jokers 25, J Q K 10, A 1, others their pip.

    >>> carousel_value(Card.parse("jk")), carousel_value(Card.parse("Qdi"))
    (25, 10)
    """
    return JOKER_VALUE if card.is_joker else face_value(card)


class Carousel(RulesPack):
    name = "carousel"
    title = "Carousel"
    seed = "004"
    deck = STANDARD
    min_players = 2
    max_players = 5
    summary = "Knock under 5; undercut +10; zero deadwood +25; game to 150 with bonuses."
    end = GameEnd(option="goal")
    options = (
        Option("goal", "int", GOAL, "the game ends when a total reaches this", minimum=1),
    )
    hand_form = (
        Field("knocker", "player", "Player who knocked", empty_hand=True),
        Field("hands", "cards", "Cards left in each hand", per_player=True),
        Field("hands_won", "int", "Hands won before this one", per_player=True, required=False,
              minimum=0, help="kept by the app; used for the 25-point box bonus at the end"),
    )

    def card_value(self, card: Card) -> int:
        return carousel_value(card)

    def hand_summary(self, entry: Incoming, details: Incoming) -> str:
        return f"{entry.get('knocker')} knocked"

    def score_hand(self, given: HandInput) -> HandScore:
        totals, entry, opts, decks = given
        roster = Roster(totals)
        knocker = roster.name(require(entry, "knocker", self.title), '"knocker"')
        hands = roster.cards(require(entry, "hands", self.title), '"hands"')
        check_deck([c for cards in hands.values() for c in cards], decks, self.deck, jokers=True)
        won_raw = roster.mapping(entry.get("hands_won", {}), '"hands_won"')
        names = roster.names
        missing = [n for n in names if n not in hands]
        if missing:
            raise HandEntryError(f'"hands" needs the cards of {", ".join(missing)} (an empty '
                                 "list for no cards)")
        hands_won = {n: read_int(won_raw.get(n, 0), f"the hands won by {n}", minimum=0)
                     for n in names}
        deadwood = {n: sum(carousel_value(c) for c in hands[n]) for n in names}
        if deadwood[knocker] >= KNOCK_UNDER:
            raise HandEntryError(f"{knocker} cannot knock with {deadwood[knocker]} deadwood: a "
                                 f"knock needs under {KNOCK_UNDER}")
        opponents = [n for n in names if n != knocker]
        low = min((deadwood[n] for n in opponents), default=deadwood[knocker] + 1)
        undercut = low <= deadwood[knocker]
        winners = [n for n in opponents if deadwood[n] == low] if undercut else [knocker]
        hand = dict.fromkeys(names, 0)
        for w in winners:
            points = sum(deadwood[n] - deadwood[w] for n in names if n != w)
            if deadwood[w] == 0:
                points += GIN_BONUS
            if undercut:
                points += UNDERCUT_BONUS
            hand[w] = points
            hands_won[w] += 1
        new_totals = add_totals(totals, hand, names)
        notes = [f"{', '.join(winners)} undercut {knocker}" if undercut else
                 f"{knocker} won the knock"]
        game_over, winner = self.game_end(new_totals, opts)
        if not game_over and any(t >= (int_option(opts, "goal") or 0) for t in new_totals.values()):
            notes.append("the highest totals are tied: play on")
        if winner is not None:
            new_totals[winner] += GAME_BONUS
            for n in names:
                new_totals[n] += BOX_BONUS * hands_won[n]
            notes.append(f"game over: {winner} +{GAME_BONUS} game bonus; +{BOX_BONUS} per "
                         "hand won to everyone")
        rule = f"carousel: knock under {KNOCK_UNDER}, undercut +{UNDERCUT_BONUS}, zero deadwood " \
               f"+{GIN_BONUS}; goal={opts['goal']}"
        details = {"deadwood": deadwood, "hand_winners": winners, "hands_won": hands_won,
                   "notes": notes}
        return HandScore(hand, new_totals, game_over, winner, rule, details)
