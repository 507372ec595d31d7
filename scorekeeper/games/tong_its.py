"""Tong-Its (seed 004; docs/rules.md sections 4 and 5): a three-player rummy played for chips.

Deadwood is A=1, J Q K=10, others their pip; melds kept concealed in hand still count, so a
hand's deadwood is its best arrangement (:mod:`scorekeeper.deadwood`). The hand ends by a
tongit, a draw (folded or challenged) or the stock running out; the seed's tie rules pick the
winner. Each loser pays the winner 3 chips for a tongit or a challenged draw (else 1), 3 per
concealed four-of-a-kind in the winner's hand, 1 if that loser had not opened, and 1 per ace the
winner held in hand or own melds. Each player antes 2 chips per hand; the pot goes to a player
who wins two hands in a row, else it carries.

>>> tong_its_payment("tongit", concealed_fours=1, aces=2, loser_opened=False)
9
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, TypedDict

from scorekeeper.cards import ACE, STANDARD, Card, read_cards
from scorekeeper.deadwood import TONG_ITS, face_value, solve
from scorekeeper.games.base import (
    Field,
    HandEntryError,
    HandInput,
    HandScore,
    Roster,
    RulesPack,
    add_totals,
    check_deck,
    check_fields,
    check_name,
    read_decks,
    read_int,
)
from scorekeeper.outline import Incoming, JsonObject, OptionValues

ANTE: Final = 2
WINS: Final = ("tongit", "challenged-draw", "draw", "stock")
BIG_WIN: Final = 3
SMALL_WIN: Final = 1
FOUR_BONUS: Final = 3
NOT_OPENED: Final = 1
ACE_BONUS: Final = 1
#: A player who wins this many hands in a row takes the pot.
POT_STREAK: Final = 2
ACES_PER_DECK: Final = 4
#: The most concealed fours one hand pays for.
MAX_FOURS: Final = 3
WIN_NAMES: Final[dict[str, str]] = {
    "tongit": "Tongit (went out)", "challenged-draw": "Draw, challenged",
    "draw": "Draw, not challenged", "stock": "Stock ran out",
}
HAND_FIELDS: Final = ("winner", "win", "concealed_fours", "aces", "not_opened")


def tong_its_payment(win: str, concealed_fours: int, aces: int, loser_opened: bool) -> int:
    """What one loser pays the winner of a hand (docs/rules.md section 4)."""
    if win not in WINS:
        raise HandEntryError(f"the kind of win is one of {', '.join(WINS)}, not {win!r}")
    base = BIG_WIN if win in ("tongit", "challenged-draw") else SMALL_WIN
    return base + FOUR_BONUS * concealed_fours + (0 if loser_opened else NOT_OPENED) + (
        ACE_BONUS * aces
    )


#: Chips one loser pays the winner of a hand ("from" is a keyword in Python, a key in JSON).
Payment = TypedDict("Payment", {"from": str, "to": str, "chips": int})


class HandChips(TypedDict):
    """One hand of the chip game: its payments and the pot after it (and who took it)."""

    payments: list[Payment]
    pot: int
    pot_to: str | None


class TongItsChips(TypedDict):
    """The chip game over a sequence of hands: each hand, and every player's net chips."""

    hands: list[HandChips]
    net: dict[str, int]


def pay_winner(
    ledger: dict[str, int], winner: str, win: str, concealed_fours: int, aces: int,
    not_opened: Sequence[str],
) -> list[Payment]:
    """Every other player in ``ledger`` pays the winner (:func:`tong_its_payment`); the chips
    are moved in ``ledger`` and the payments returned.

    >>> ledger = {"ann": 0, "bob": 0, "cy": 0}
    >>> pay_winner(ledger, "ann", "draw", 0, 1, ["cy"]), ledger
    ([{'from': 'bob', 'to': 'ann', 'chips': 2}, {'from': 'cy', 'to': 'ann', 'chips': 3}], \
{'ann': 5, 'bob': -2, 'cy': -3})
    """
    payments: list[Payment] = []
    for loser in list(ledger):
        if loser == winner:
            continue
        chips = tong_its_payment(win, concealed_fours, aces, loser not in not_opened)
        payments.append({"from": loser, "to": winner, "chips": chips})
        ledger[loser] -= chips
        ledger[winner] += chips
    return payments


def hand_winner(
    win: str,
    caller: str,
    seats: Sequence[str],
    deadwood: Mapping[str, int],
    challengers: Sequence[str] = (),
    opened: Sequence[str] | None = None,
) -> str:
    """The winner of a hand by the seed's rules.

    A tongit or an unchallenged draw: the caller. A challenged draw: the lowest deadwood of the
    caller and the challengers; a tie goes to a challenger, and between challengers to the one
    nearest the caller's left. The stock running out: the lowest deadwood among the players who
    opened; a tie goes to the player who drew the last card (``caller``), else to the one nearest
    that player's left. ``seats`` is the seating in turn order (play passes to the left).

    >>> hand_winner("challenged-draw", "ann", ["ann", "bob", "cy"], {"ann": 5, "bob": 7, "cy": 5},
    ...             challengers=["bob", "cy"])
    'cy'
    """
    if win in ("tongit", "draw"):
        return caller
    if win == "challenged-draw":
        field = [caller, *challengers]
    else:
        field = [p for p in seats if opened is None or p in opened]
        if not field:
            raise HandEntryError("the stock ran out but nobody had opened: no one can win")
    low = min(deadwood[p] for p in field)
    tied = [p for p in field if deadwood[p] == low]
    if len(tied) == 1:
        return tied[0]
    if win == "stock" and caller in tied:
        return caller
    start = seats.index(caller)
    for step in range(1, len(seats)):
        player = seats[(start + step) % len(seats)]
        if player in tied:
            return player
    raise HandEntryError("cannot settle the tie: check the seats")  # pragma: no cover


class TongIts(RulesPack):
    name = "tong-its"
    title = "Tong-Its"
    seed = "004"
    deck = STANDARD
    min_players = 3
    max_players = 3
    lower_wins = True
    summary = "Concealed melds count; lowest deadwood wins a draw; paid in chips."
    hand_form = (
        Field("players", "order", "Seats in turn order", required=False,
              help="play passes to the left; ties go to the nearest player on the left"),
        Field("win", "choice", "How the hand ended", choices=WINS),
        Field("caller", "player", "Caller (tongit or draw), or the player who drew the last card",
              empty_hand=True, empty_hand_if=("win", "tongit")),
        Field("challengers", "players", "Challengers of the draw", required=False, default=[]),
        Field("hands", "cards", "Cards in hand (concealed melds included)", per_player=True,
              required=False),
        Field("exposed", "cards", "Cards of each player's own exposed melds", per_player=True,
              required=False, help="not cards laid off by others; the winner's aces here count"),
        Field("not_opened", "players", "Players who had not opened", required=False, default=[]),
    )

    def card_value(self, card: Card) -> int:
        return face_value(card)

    def score_hand(self, given: HandInput) -> HandScore:
        totals, entry, opts, decks = given
        seats_raw = entry.get("players")
        roster = Roster(totals, None if seats_raw is None else _names(seats_raw, '"players"'))
        win = entry.get("win")
        if win not in WINS:
            raise HandEntryError(f'"win" is one of {", ".join(WINS)}, not {win!r}')
        caller = roster.name(entry.get("caller"), '"caller"')
        challengers = roster.names_list(entry.get("challengers", []), '"challengers"')
        not_opened = roster.names_list(entry.get("not_opened", []), '"not_opened"')
        hands = roster.cards(entry.get("hands", {}), '"hands"')
        exposed = roster.cards(entry.get("exposed", {}), '"exposed"', "the melds of")
        check_deck([c for cs in [*hands.values(), *exposed.values()] for c in cs], decks, self.deck)
        seats = roster.names
        if caller in challengers:
            raise HandEntryError("the caller cannot challenge their own draw")
        if win == "challenged-draw" and not challengers:
            raise HandEntryError('a challenged draw needs "challengers"')
        if win != "challenged-draw" and challengers:
            raise HandEntryError(f'only a challenged draw has challengers, not a {win}')
        for p in challengers:
            if p in not_opened:
                raise HandEntryError(f"{p} cannot challenge without having opened")
        if win in ("draw", "challenged-draw") and caller in not_opened:
            raise HandEntryError(f"{caller} cannot call draw without having opened")

        compared = {
            "tongit": [caller],
            "draw": [caller],
            "challenged-draw": [caller, *challengers],
            "stock": [p for p in seats if p not in not_opened],
        }[win]
        missing = [p for p in compared if p not in hands]
        if missing:
            raise HandEntryError(f'"hands" needs the cards in hand of {", ".join(missing)}')
        deadwood = {p: solve(cards, TONG_ITS).deadwood for p, cards in hands.items()}
        if win == "tongit" and deadwood[caller]:
            raise HandEntryError(f"{caller} cannot call tongit with {deadwood[caller]} deadwood "
                                 "left in hand")
        winner = hand_winner(win, caller, seats, deadwood, challengers, [
            p for p in seats if p not in not_opened
        ])
        if winner not in hands:
            raise HandEntryError(f'"hands" needs the winner {winner}\'s cards in hand')
        fours = concealed_fours(hands[winner])
        aces = sum(c.rank == ACE for c in [*hands[winner], *exposed.get(winner, [])])
        hand = dict.fromkeys(seats, 0)
        payments = pay_winner(hand, winner, win, fours, aces, not_opened)
        new_totals = add_totals(totals, hand, seats)
        rule = (f"tong-its: {win} won by {winner}; {fours} concealed four(s), {aces} ace(s); "
                "antes and the pot are settled by the chip game")
        details = {"hand_winner": winner, "deadwood": deadwood, "payments": payments}
        return HandScore(hand, new_totals, False, None, rule, details)

    def ui_hints(self) -> JsonObject:
        # Totals are the chips paid hand by hand (lower_wins is about deadwood): most leads.
        return {**super().ui_hints(), "lowest_first": False,
                "start_chips_help": "Empty or 0: counts start at 0 and a count below 0 is what"
                                    " that player owes; set a stake such as 50 to start everyone"
                                    " with chips.",
                "choice_labels": dict(WIN_NAMES),
                "standings_note": "Totals are the chips paid to hand winners (antes and the pot"
                                  " under Chips)."}

    def hand_summary(self, entry: Incoming, details: Incoming) -> str:
        win = entry.get("win")
        return f"{WIN_NAMES.get(str(win), win)}; won by {details.get('hand_winner')}"

    def chips(self, data: Incoming) -> Mapping[str, object]:
        return tong_its_chips(data)

    def chip_hand(self, entry: Incoming, details: Incoming) -> dict[str, object]:
        """The hand's winner, how, the concealed fours in the winner's hand and the aces the
        winner held in hand or in own melds (docs/rules.md section 4)."""
        winner = str(details.get("hand_winner"))
        held, melded = (_cards_of(entry.get(key), winner) for key in ("hands", "exposed"))
        not_opened = entry.get("not_opened")
        return {"winner": winner, "win": entry.get("win"),
                "concealed_fours": min(MAX_FOURS, concealed_fours(held)),
                "aces": sum(c.rank == ACE for c in [*held, *melded]),
                "not_opened": list(not_opened) if isinstance(not_opened, list) else []}

    def chip_standing(self, players: Sequence[str], start_chips: int | None,
                      options: OptionValues, decks: int,
                      hands: Sequence[Incoming]) -> JsonObject:
        """Counts start at ``start_chips`` (0: a count is what the player won or lost)."""
        start = start_chips or 0
        result = tong_its_chips({"players": list(players), "hands": list(hands), "decks": decks})
        return {"counts": {n: start + v for n, v in result["net"].items()},
                "pot": result["hands"][-1]["pot"] if result["hands"] else 0,
                "start": start, "game_over": False,
                "note": f"Antes {ANTE} a hand; the pot goes to whoever wins {POT_STREAK} hands in"
                        f" a row. Counts start at {start}{'' if start else ' (no stake was set)'}:"
                        " a count below 0 is the chips that player owes the others."}


def _cards_of(by_player: object, player: str) -> list[Card]:
    """The cards an entry's ``{NAME: codes}`` gives one player (none when not given)."""
    codes = by_player.get(player) if isinstance(by_player, Mapping) else None
    return read_cards(codes, f"the cards of {player}") if codes is not None else []


def concealed_fours(hand: Sequence[Card]) -> int:
    """Ranks held four times in a hand (four-of-a-kinds kept concealed or placed face down).

    >>> from scorekeeper.cards import parse_cards
    >>> concealed_fours(parse_cards("7cl 7sp 7he 7di 2cl"))
    1
    """
    counts: dict[int, int] = {}
    for card in hand:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    return sum(n // 4 for n in counts.values())


def _names(value: object, what: str) -> list[str]:
    if not isinstance(value, list) or not value:
        raise HandEntryError(f"{what} must list the players' names")
    names = [check_name(v, what) for v in value]
    if len(set(names)) != len(names):
        raise HandEntryError(f"{what} names a player twice")
    return names


def tong_its_chips(data: Incoming) -> TongItsChips:
    """Settle Tong-Its chips over a sequence of hands: antes, payments and the pot.

    ``net`` counts antes, payments and pots won; each hand's ``pot`` is the pot after it.

    >>> result = tong_its_chips({"players": ["ann", "bob", "cy"], "hands": [
    ...     {"winner": "ann", "win": "draw"}, {"winner": "ann", "win": "stock"}]})
    >>> [(h["pot"], h["pot_to"]) for h in result["hands"]], result["net"]
    ([(6, None), (0, 'ann')], {'ann': 12, 'bob': -6, 'cy': -6})
    """
    if not isinstance(data, Mapping):
        raise HandEntryError("the chip game input must be a JSON object")
    check_fields(data, ("game", "players", "hands", "decks"), "tong-its chips")
    decks = read_decks(data)
    players = _names(data.get("players"), '"players"')
    if len(players) < 2:
        raise HandEntryError('"players" must name two or more players (Tong-Its is for three)')
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        raise HandEntryError('"hands" must be a list of hands')
    roster = Roster({}, players)
    net = dict.fromkeys(players, 0)
    pot = 0
    streak_holder: str | None = None
    streak = 0
    out: list[HandChips] = []
    for number, hand in enumerate(hands, 1):
        where = f"hand {number}"
        if not isinstance(hand, Mapping):
            raise HandEntryError(f"{where} must be an object")
        check_fields(hand, HAND_FIELDS, where)
        winner = roster.name(hand.get("winner"), f"{where} winner")
        win = hand.get("win")
        if win not in WINS:
            raise HandEntryError(f'{where}: "win" is one of {", ".join(WINS)}, not {win!r}')
        fours = read_int(hand.get("concealed_fours", 0), f"{where} concealed_fours", 0,
                         MAX_FOURS)
        aces = read_int(hand.get("aces", 0), f"{where} aces", 0, ACES_PER_DECK * decks)
        not_opened = roster.names_list(hand.get("not_opened", []), f"{where} not_opened")
        if winner in not_opened and win != "tongit":
            raise HandEntryError(f"{where}: {winner} cannot win a {win} without having opened")
        for p in players:
            net[p] -= ANTE
            pot += ANTE
        payments = pay_winner(net, winner, win, fours, aces, not_opened)
        streak = streak + 1 if winner == streak_holder else 1
        streak_holder = winner
        pot_to = None
        if streak == POT_STREAK:
            net[winner] += pot
            pot, pot_to, streak = 0, winner, 0
        out.append({"payments": payments, "pot": pot, "pot_to": pot_to})
    return {"hands": out, "net": net}
