"""Seeded random legal games: event logs for demonstrations, property tests and benchmarks.

The simulator deals real Toss Double Deluxe decks, keeps every player's hand, and plays
simple greedy turns (DoubleCross when it can, Toss, meld, lay off, discard, sometimes a Steal
or a mistaken play that is undone). Every event it emits has been accepted by the engine.

>>> from scorekeeper.engine.state import TableSetup
>>> events = random_game(TableSetup(players=("ann", "bob", "cy")), seed=1, max_events=60)
>>> len(events) <= 60, events[0]["type"]
(True, 'new-hand')
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

from scorekeeper import log
from scorekeeper.cards import Card, toss_deck
from scorekeeper.engine.state import GAME_OVER, PLAYING, TableSetup, initial_state
from scorekeeper.melds import judge_layoff, judge_meld, judge_toss
from scorekeeper.rulesets import COMPLEX

Event = dict[str, Any]


class _Table:
    def __init__(self, setup: TableSetup, seed: int, undo_rate: float) -> None:
        self.setup = setup
        self.options = setup.options
        self.rng = random.Random(seed)
        self.undo_rate = undo_rate
        self.state = initial_state(setup)
        self.events: list[Event] = []
        self.hands: dict[str, list[Card]] = {p: [] for p in setup.players}
        self.pile: list[Card] = []

    # -- bookkeeping --
    def emit(self, event: Event) -> None:
        self.state = log.apply(self.state, event)
        self.events.append(event)

    def play(self, event: Event, player: str, cards: Sequence[Card]) -> None:
        """Emit a play of ``cards`` from ``player``'s hand; sometimes it is a mistake that the
        keeper undoes at once, and the cards stay in hand."""
        self.emit(event)
        if self.rng.random() < self.undo_rate:
            self.emit({"type": "undo", "by": "keeper"})
        else:
            self.take(player, cards)

    def take(self, player: str, cards: Sequence[Card]) -> None:
        hand = self.hands[player]
        for card in cards:
            hand.remove(card)

    # -- a hand --
    def deal(self) -> None:
        deck = list(toss_deck()) * self.options.decks
        self.rng.shuffle(deck)
        size = 10 if len(self.setup.players) == 2 else 7
        for player in self.setup.players:
            self.hands[player] = [deck.pop() for _ in range(size)]
        self.pile = deck
        dealer = self.state.next_dealer or self.rng.choice(self.setup.players)
        self.emit({"type": "new-hand", "dealer": dealer})

    def end_hand(self, went_out: str | None) -> None:
        self.emit({"type": "end-hand", "went_out": went_out,
                   "hands": {p: [c.code for c in h] for p, h in self.hands.items()}})

    def turn(self) -> None:
        player = self.state.turn
        assert player is not None
        hand = self.hands[player]
        if len(self.pile) < 2:
            self.end_hand(None)
            return
        chance = self.state.chance
        if chance is not None and chance.victim == player and self.rng.random() < 0.5:
            # a lucky draw: the Boss comes up for the player just tossed
            boss = next((i for i, c in enumerate(self.pile) if c.is_boss), None)
            if boss is not None:
                self.pile.append(self.pile.pop(boss))
        hand.extend([self.pile.pop(), self.pile.pop()])
        self.try_double_cross(player)
        # now and then a player melds before tossing: a DoubleCross takes both (whole-play)
        first = [self.try_meld, self.try_toss] if self.rng.random() < 0.3 else [
            self.try_toss, self.try_meld]
        for attempt in (*first, self.try_lay_off, self.try_lay_off):
            if self.state.phase != PLAYING:
                return
            if self.state.turn == player:
                attempt(player)
        if self.state.phase != PLAYING:
            return
        if not hand:
            self.end_hand(player)
            return
        naturals = [c for c in hand if not c.is_joker] or hand
        discard = self.rng.choice(naturals)
        hand.remove(discard)
        if not hand:
            self.end_hand(player)
            return
        self.emit({"type": "next-turn", "by": "keeper"})
        self.try_steal(discard, player)

    # -- plays --
    def try_double_cross(self, player: str) -> bool:
        chance = self.state.chance
        if chance is None or chance.victim != player or not chance.ready:
            return False
        jokers = [c for c in self.hands[player] if c.is_joker]
        if chance.via == "toss" and not (
                self.options.ruleset == COMPLEX and chance.captured is not None
                and chance.captured.is_joker):
            jokers = [c for c in jokers if c.is_boss]
        if not jokers:
            return False
        used = jokers[: 1 + (len(jokers) > 1 and self.rng.random() < 0.3)]
        self.take(player, used)
        self.emit({"type": "double-cross", "player": player, "jokers": [c.code for c in used]})
        return True

    def try_toss(self, player: str) -> None:
        hand = self.hands[player]
        keep_boss = self.rng.random() < 0.7  # usually kept for a DoubleCross
        jokers = [c for c in hand if c.is_joker and not (keep_boss and c.is_boss)]
        if not jokers:
            return
        for meld in self.state.melds:
            target = meld.top
            at = len(meld.cards) - 1 - meld.cards[::-1].index(target)
            if meld.credits[at] == player:
                continue
            for joker in jokers:
                if not judge_toss(joker, target, self.options).valid:
                    continue
                pool = hand if self.rng.random() < 0.5 else [c for c in hand if c != joker]
                for pair in itertools.combinations(pool, 2):
                    if self.options.toss_joker == "melded" and joker not in pair:
                        continue
                    if judge_meld([target, *pair], self.options).valid:
                        self.play({"type": "toss", "player": player, "meld": meld.id,
                                   "joker": joker.code, "cards": [c.code for c in pair],
                                   "top": None}, player, pair)
                        return

    def try_meld(self, player: str) -> None:
        hand = self.hands[player]
        combos = list(itertools.combinations(range(len(hand)), 3))
        self.rng.shuffle(combos)
        jokers_allowed = 1 if self.rng.random() < 0.2 else 0  # jokers are kept to Toss
        for combo in combos[:200]:
            cards = [hand[i] for i in combo]
            if sum(c.is_joker for c in cards) > jokers_allowed:
                continue
            verdict = judge_meld(cards, self.options)
            if verdict.valid:
                top = self.rng.choice(verdict.top_cards)
                self.play({"type": "meld", "player": player,
                           "cards": [c.code for c in cards], "top": top.code}, player, cards)
                return

    def try_lay_off(self, player: str) -> None:
        hand = self.hands[player]
        for card in [c for c in hand if not c.is_joker]:
            for meld in self.state.melds:
                verdict = judge_layoff(meld.cards, [card], self.options,
                                       own_meld=meld.owner == player)
                if verdict.valid:
                    self.play({"type": "lay-off", "player": player, "meld": meld.id,
                               "cards": [card.code], "top": None}, player, [card])
                    return

    def try_steal(self, discard: Card, discarder: str) -> None:
        if discard.is_joker or self.rng.random() < 0.5:
            return
        others = [p for p in self.setup.players if p != discarder]
        thief = self.rng.choice(others)
        for meld in self.state.melds:
            if judge_layoff(meld.cards, [discard], self.options,
                            own_meld=meld.owner == thief).valid:
                self.emit({"type": "steal", "player": thief, "card": discard.code,
                           "meld": meld.id})
                return


def random_game(setup: TableSetup, seed: int = 0, max_events: int = 2000,
                undo_rate: float = 0.03) -> list[dict[str, Any]]:
    """A legal event log of up to ``max_events`` events (it stops at game over, or at the
    first hand boundary after ``max_events`` would be passed, trimmed to ``max_events``)."""
    table = _Table(setup, seed, undo_rate)
    while len(table.events) < max_events:
        phase = table.state.phase
        if phase == GAME_OVER:
            break
        if phase != PLAYING:
            table.deal()
            continue
        table.turn()
    return table.events[:max_events]


def bench_setup() -> TableSetup:
    """The benchmarks' table: four players in two teams, Complex Toss Rummy, the goal out of
    reach so that one game lasts the whole log."""
    return TableSetup.from_json({
        "players": ["ann", "bob", "cy", "dee"],
        "teams": {"North": ["ann", "cy"], "South": ["bob", "dee"]},
        "options": {"ruleset": "complex-toss-rummy", "goal": 1_000_000},
    })


#: Hand 1 of a three-player Complex Toss Rummy game played out in full (ann melds clubs, bob
#: lays the 10 of clubs off on it, ann goes out): the amendment tests' log. ``HEARTS`` and
#: ``FOUR`` are corrections of its meld (update 2): one breaks the lay-off, one does not.
MELD: Event = {"type": "meld", "player": "ann", "cards": ["7cl", "8cl", "9cl"]}
HEARTS: Event = {**MELD, "cards": ["7he", "8he", "9he"]}
FOUR: Event = {**MELD, "cards": ["6cl", "7cl", "8cl", "9cl"]}
HAND_ONE: list[Event] = [
    {"type": "new-hand", "dealer": "cy"},
    MELD,
    {"type": "next-turn"},
    {"type": "lay-off", "player": "bob", "meld": 1, "cards": ["10cl"]},
    {"type": "next-turn"},
    {"type": "next-turn"},
    {"type": "end-hand", "went_out": "ann",
     "hands": {"ann": [], "bob": ["2he", "3he"], "cy": ["Kdi"]}},
]
