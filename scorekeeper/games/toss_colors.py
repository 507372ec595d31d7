"""Toss Colors (seed 001; docs/rules.md sections 4 and 5): bid tricks with an unknown partner.

The bidder's team (the bidder and the Null card's holder) making the bid: each member scores
+10 per bid trick and +5 per other trick; failing: each member -10 per bid trick. The other
team: +5 per trick it took, to each member. Nil: +150 made, -150 failed plus 5 per trick taken.
Going alone: made +20 per bid trick +5 per other trick; failed: the bidder -150 and every rival
+100. First to 500 wins; several over 500: the highest.

The chip game: each player antes 3 chips before the deal; a made bid gives the pot to the
bidder's team (option ``split``: ``equal`` shares, or ``two-thirds`` to the bidder and a third to
the partner), whole chips only, the remainder staying in the pot; an unmade bid leaves the pot
for the next hand. No Nil bids. The game ends when a player has no chips.

>>> pack = TossColors()
>>> entry = {"bidder": "ann", "partner": "cy", "bid": 6, "tricks": {"ann": 4, "cy": 3, "bob": 5}}
>>> pack.score({}, entry).hand
{'ann': 65, 'cy': 65, 'bob': 25}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, TypedDict

from scorekeeper.cards import TOSS
from scorekeeper.games.base import (
    Field,
    GameEnd,
    HandEntryError,
    HandInput,
    HandScore,
    Roster,
    RulesPack,
    add_totals,
    check_fields,
    check_name,
    read_bool,
    read_decks,
    read_int,
)
from scorekeeper.options import Option, OptionError
from scorekeeper.outline import Incoming, JsonObject, OptionValues

BID_TRICK: Final = 10
OVER_TRICK: Final = 5
ALONE_BID_TRICK: Final = 20
NIL_POINTS: Final = 150
ALONE_FAIL: Final = 150
ALONE_RIVAL_AWARD: Final = 100
GOAL: Final = 500
ANTE: Final = 3
#: Chips each player starts the chip game with, unless the table says otherwise.
DEFAULT_START_CHIPS: Final = 20
SPLITS: Final = ("equal", "two-thirds")


#: The scoring rule applied, by kind of bid and whether it was made (docs/rules.md 5).
_RULE_WORDS: Final[dict[tuple[str, bool], str]] = {
    ("bid", True): "bid made: each member of the bidder's team +10 per bid trick and +5 per"
                   " other trick, each rival +5 per trick the rivals took",
    ("bid", False): "bid failed: each member of the bidder's team -10 per bid trick, each"
                    " rival +5 per trick the rivals took",
    ("nil", True): "Nil bid made: each member of the bidder's team +150, each rival +5 per"
                   " trick the rivals took",
    ("nil", False): "Nil bid failed: each member of the bidder's team -150 plus 5 per trick"
                    " taken, each rival +5 per trick the rivals took",
    ("alone", True): "bid made going alone: the bidder +20 per bid trick and +5 per other"
                     " trick, each rival +5 per trick the rivals took",
    ("alone", False): "bid failed going alone: the bidder -150, each rival +100 plus 5 per"
                      " trick the rivals took",
}


class TossColors(RulesPack):
    name = "toss-colors"
    title = "Toss Colors"
    seed = "001"
    deck = TOSS
    min_players = 3
    max_players = 5
    summary = "Bid tricks with a hidden partner; made: +10 per bid trick, +5 per other; to 500."
    end = GameEnd(option="goal")
    options = (
        Option("goal", "int", GOAL, "the first to reach this wins (several: the highest)",
               minimum=1),
        Option("split", "choice", "equal", "chip game: a made bid's pot is shared equally, or "
               "two thirds to the bidder and one third to the partner", choices=SPLITS),
    )
    hand_form = (
        Field("bidder", "player", "Bidder"),
        Field("partner", "player", "Partner (the Null card's holder)", required=False,
              help="leave empty when the bidder goes alone"),
        Field("bid", "int", "Tricks bid", minimum=0, default=0),
        Field("nil", "bool", "Nil bid", required=False, default=False),
        Field("alone", "bool", "Going alone", required=False, default=False),
        Field("tricks", "int", "Tricks taken", per_player=True, minimum=0),
    )

    def score_hand(self, given: HandInput) -> HandScore:
        totals, entry, opts, decks = given
        roster = Roster(totals)
        bidder = roster.name(entry.get("bidder"), '"bidder"')
        partner_raw = entry.get("partner")
        partner = None if partner_raw is None else roster.name(partner_raw, '"partner"')
        nil = read_bool(entry.get("nil", False), '"nil"')
        alone = read_bool(entry.get("alone", False), '"alone"')
        bid = read_int(entry.get("bid", 0), '"bid"', minimum=0)
        tricks_raw = roster.mapping(entry.get("tricks", {}), '"tricks"')
        tricks = {n: read_int(v, f"the tricks of {n}", minimum=0) for n, v in tricks_raw.items()}
        if partner == bidder:
            raise HandEntryError("the partner cannot be the bidder: for going alone set "
                                 '"alone": true and "partner": null')
        if alone and partner is not None:
            raise HandEntryError('a bidder going alone has no partner: set "partner" to null')
        if not alone and partner is None:
            raise HandEntryError('a bid without a partner goes alone: set "alone": true, or name '
                                 'the partner (the Null card\'s holder)')
        if nil and bid:
            raise HandEntryError(f'a Nil bid is a bid of no tricks: set "bid" to 0, not {bid}')
        if not nil and bid < 1:
            raise HandEntryError('"bid" must be 1 or more tricks (or set "nil": true)')

        names = roster.names
        team = [bidder] if partner is None else [bidder, partner]
        rivals = [n for n in names if n not in team]
        team_tricks = sum(tricks.get(n, 0) for n in team)
        rival_tricks = sum(tricks.get(n, 0) for n in rivals)
        made = team_tricks == 0 if nil else team_tricks >= bid
        rival_points = OVER_TRICK * rival_tricks
        if nil:
            team_points = NIL_POINTS if made else -NIL_POINTS + OVER_TRICK * team_tricks
            kind = "nil"
        elif alone:
            team_points = (ALONE_BID_TRICK * bid + OVER_TRICK * (team_tricks - bid) if made
                           else -ALONE_FAIL)
            if not made:
                rival_points += ALONE_RIVAL_AWARD
            kind = "alone"
        else:
            team_points = (BID_TRICK * bid + OVER_TRICK * (team_tricks - bid) if made
                           else -BID_TRICK * bid)
            kind = "bid"
        hand = {n: team_points if n in team else rival_points for n in names}
        new_totals = add_totals(totals, hand, names)
        game_over, winner = self.game_end(new_totals, opts)
        what = "Nil" if nil else f"{bid}" + (" alone" if alone else "")
        outcome = "made" if made else "failed"
        rule = f"toss-colors: {_RULE_WORDS[kind, made]}; goal={opts['goal']}"
        details = {
            "made": made,
            "team_tricks": team_tricks,
            "notes": [f"{bidder}'s bid of {what} {outcome} with {team_tricks} tricks"],
        }
        return HandScore(hand, new_totals, game_over, winner, rule, details)

    def ui_hints(self) -> JsonObject:
        return {**super().ui_hints(), "start_chips": DEFAULT_START_CHIPS}

    def hand_summary(self, entry: Incoming, details: Incoming) -> str:
        partner = " alone" if entry.get("alone") else (
            f" with {entry['partner']}" if entry.get("partner") else "")
        return (f"{entry.get('bidder')} bid {entry.get('bid')}{' Nil' if entry.get('nil') else ''}"
                f"{partner}: {'made' if details.get('made') else 'failed'}")

    def chips(self, data: Incoming) -> Mapping[str, object]:
        return toss_colors_chips(data)

    min_start_chips = 1

    def chip_hand(self, entry: Incoming, details: Incoming) -> dict[str, object]:
        """The bidder, the partner and whether the bid was made; a Nil bid has no chips."""
        if entry.get("nil"):
            raise HandEntryError("a Nil bid has no place in the chip game (docs/rules.md 4)")
        return {"bidder": entry.get("bidder"), "partner": entry.get("partner") or None,
                "made": bool(details.get("made"))}

    def chip_standing(self, players: Sequence[str], start_chips: int | None,
                      options: OptionValues, decks: int,
                      hands: Sequence[Incoming]) -> JsonObject:
        """Everyone starts with ``start_chips`` (20 unless the table says otherwise)."""
        start = start_chips or DEFAULT_START_CHIPS
        result = toss_colors_chips({"players": list(players), "start_chips": start,
                                    "split": options.get("split", "equal"),
                                    "hands": list(hands)})
        return {"counts": dict(result["chips"]),
                "pot": result["hands"][-1]["pot"] if result["hands"] else 0,
                "start": start, "game_over": bool(result["game_over"]),
                "note": f"Antes {ANTE} a hand; a made bid takes the pot. Everyone started with"
                        f" {start}."}


class ColorsChips(TypedDict):
    """The Toss Colors chip game: the pot after each hand, everyone's chips, and whether a
    player has run out."""

    hands: list[dict[str, int]]
    chips: dict[str, int]
    game_over: bool


def toss_colors_chips(data: Incoming) -> ColorsChips:
    """The Toss Colors chip game over a sequence of hands (docs/rules.md section 4).

    >>> toss_colors_chips({"players": ["ann", "bob", "cy"], "start_chips": 10,
    ...     "hands": [{"bidder": "ann", "partner": "bob", "made": False},
    ...               {"bidder": "cy", "partner": "bob", "made": True}]})
    {'hands': [{'pot': 9}, {'pot': 0}], 'chips': {'ann': 4, 'bob': 13, 'cy': 13},
     'game_over': False}
    """
    if not isinstance(data, Mapping):
        raise HandEntryError("the chip game input must be a JSON object")
    check_fields(data, ("game", "players", "start_chips", "split", "hands", "decks"),
                 "toss-colors chips")
    read_decks(data)
    players = data.get("players")
    if not isinstance(players, list) or len(players) < 2:
        raise HandEntryError('"players" must list the players (two or more names)')
    names = [check_name(p, '"players"') for p in players]
    if len(set(names)) != len(names):
        raise HandEntryError('"players" names a player twice')
    start = read_int(data.get("start_chips"), '"start_chips"', minimum=1)
    split = data.get("split", "equal")
    if split not in SPLITS:
        raise OptionError(f'"split" is equal or two-thirds, not {split!r}')
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        raise HandEntryError('"hands" must be a list of {"bidder", "partner", "made"}')
    roster = Roster({}, names)
    chips = dict.fromkeys(names, start)
    pot = 0
    out: list[dict[str, int]] = []
    game_over = False
    for number, hand in enumerate(hands, 1):
        where = f"hand {number}"
        if game_over:
            raise HandEntryError(f"{where}: the game already ended (a player has no chips): "
                                 "remove the later hands")
        if not isinstance(hand, Mapping):
            raise HandEntryError(f'{where} must be {{"bidder", "partner", "made"}}')
        if hand.get("nil"):
            raise HandEntryError(f"{where}: Nil bids are not allowed in the chip game")
        check_fields(hand, ("bidder", "partner", "made", "nil"), where)
        bidder = roster.name(hand.get("bidder"), f"{where} bidder")
        partner_raw = hand.get("partner")
        partner = None if partner_raw is None else roster.name(partner_raw, f"{where} partner")
        if partner == bidder:
            raise HandEntryError(f"{where}: the partner cannot be the bidder (use null when "
                                 "the bidder goes alone)")
        made = read_bool(hand.get("made"), f"{where} made")
        for n in names:  # a player short of the ante puts in what is left
            ante = min(ANTE, chips[n])
            chips[n] -= ante
            pot += ante
        if made:
            if partner is None:
                chips[bidder] += pot
                pot = 0
            elif split == "two-thirds":
                third = pot // 3
                chips[bidder] += 2 * third
                chips[partner] += third
                pot -= 3 * third
            else:
                share = pot // 2
                chips[bidder] += share
                chips[partner] += share
                pot -= 2 * share
        out.append({"pot": pot})
        game_over = any(c == 0 for c in chips.values())
    return {"hands": out, "chips": chips, "game_over": game_over}
