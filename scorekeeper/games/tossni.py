"""Tossní (seed 003; docs/rules.md section 5): a shedding game scored by the order of going out.

The keeper records the order players went out; with n players the first out scores n-1, the
next n-2, ..., the last 0 (option ``place_points`` replaces that list). Option ``goal`` (none by
default) ends the game when a total reaches it, highest winning. :class:`QueenStack` is the
keeper's aid for the stacked Queen draw (2 cards per Queen) and the Ace skip.

>>> Tossni().score({}, {"order": ["cy", "ann", "bob"]}).hand
{'cy': 2, 'ann': 1, 'bob': 0}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from scorekeeper.cards import ACE, QUEEN, STANDARD, Card
from scorekeeper.games.base import (
    Field,
    GameEnd,
    HandEntryError,
    HandInput,
    HandScore,
    Roster,
    RulesPack,
    add_totals,
    int_list_option,
    require,
)
from scorekeeper.options import Option, OptionError
from scorekeeper.outline import Incoming, JsonObject

DRAW_PER_QUEEN: Final = 2


@dataclass(frozen=True, slots=True)
class QueenStack:
    """What the next player faces after the cards played so far: cards to draw, or a skip.

    A Queen adds 2 to the draw unless answered with another Queen; an Ace makes the next player
    skip unless answered with another Ace (skips do not add up).

    >>> s = QueenStack().play(Card.parse("Qcl")).play(Card.parse("Qhe"))
    >>> s.draw, s.take()
    (4, QueenStack(draw=0, skip=False))
    """

    draw: int = 0
    skip: bool = False

    def play(self, card: Card) -> QueenStack:
        """The state after ``card`` is played on the swap deck."""
        if card.rank == QUEEN:
            return QueenStack(self.draw + DRAW_PER_QUEEN, False)
        if card.rank == ACE:
            return QueenStack(0, True)
        return QueenStack()

    def take(self) -> QueenStack:
        """The next player draws the stacked cards (or skips): the stack is cleared."""
        return QueenStack()


class Tossni(RulesPack):
    name = "tossni"
    title = "Tossní"
    seed = "003"
    deck = STANDARD
    min_players = 2
    max_players = 6
    summary = "Points for the order of going out: n-1 for the first, down to 0 for the last."
    end = GameEnd(option="goal")
    options = (
        Option("place_points", "int-list", None, "points by place, first out first (none: "
               "n-1, n-2, ..., 0)", nullable=True),
        Option("goal", "int", None, "the game ends when a total reaches this (none: the table "
               "decides)", minimum=1, nullable=True),
    )
    hand_form = (
        Field("order", "order", "Order of going out (first out first)"),
    )

    def ui_hints(self) -> JsonObject:
        return {**super().ui_hints(), "counters": [
            {"name": "queens", "label": "Stacked Queens: draw", "button": "+ Queen",
             "step": DRAW_PER_QUEEN},
            {"name": "aces", "label": "Ace skips", "button": "+ Ace", "step": 1},
        ], "counters_note": f"Each stacked Queen adds {DRAW_PER_QUEEN} cards for the next player"
                            " to draw; the count resets when someone draws."}

    def hand_summary(self, entry: Incoming, details: Incoming) -> str:
        order = entry.get("order")
        names = [str(n) for n in order] if isinstance(order, list) else []
        return f"out: {', '.join(names)}"

    def score_hand(self, given: HandInput) -> HandScore:
        totals, entry, opts, decks = given
        roster = Roster(totals)
        order = roster.names_list(require(entry, "order", self.title), '"order"')
        names = roster.names
        left = [n for n in names if n not in order]
        if len(left) == 1:  # the one player left in the game is last
            order.append(left[0])
        elif left:
            raise HandEntryError(f'"order" must list every player: missing {", ".join(left)}')
        n = len(order)
        places = int_list_option(opts, "place_points") or list(range(n - 1, -1, -1))
        if len(places) != n:
            raise OptionError(f'"place_points" needs {n} values (one per place), not '
                                  f"{len(places)}")
        hand = {name: places[i] for i, name in enumerate(order)}
        new_totals = add_totals(totals, hand, names)
        game_over, winner = self.game_end(new_totals, opts)
        rule = f"tossni: place points {places}; goal={opts['goal'] or 'none'}"
        return HandScore(hand, new_totals, game_over, winner, rule, {"order": order})
