"""Toss Hearts (seed 002; docs/rules.md section 5): lowest score wins when someone passes the limit.

Each heart taken is 1 point, the Queen of Spades 13, jokers and nulls 0. One player (or team)
taking every heart and the Queen of Spades shoots the moon: option ``moon`` ``minus`` (the
shooter scores -26) or ``plus`` (everyone else +26). A player whose own points in a hand bring
the total to exactly 100 goes back to 0 (a total already at 100 that the hand leaves unchanged
stays). A renege costs the offender 26 (or the caller, when the call was false); a renege hand can
neither end the game nor reset a total at 100.

>>> pack = TossHearts()
>>> result = pack.score({"ann": 90, "bob": 40}, {"taken": {"ann": ["Qsp"], "bob": ["2he"]}})
>>> result.hand, result.totals, result.game_over, result.winner
({'ann': 13, 'bob': 1}, {'ann': 103, 'bob': 41}, True, 'bob')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from scorekeeper.cards import QUEEN, TOSS, Card
from scorekeeper.games.base import (
    Field,
    GameEnd,
    HandEntryError,
    HandInput,
    HandScore,
    Roster,
    RulesPack,
    check_deck,
    int_option,
    read_bool,
)
from scorekeeper.options import Option
from scorekeeper.outline import JsonObject

HEART_POINTS: Final = 1
QUEEN_OF_SPADES_POINTS: Final = 13
#: Points in play per deck: 13 hearts and the Queen of Spades.
POINTS_PER_DECK: Final = 26
RENEGE_PENALTY: Final = 26
RESET_AT: Final = 100
MOON_CHOICES: Final = ("minus", "plus")
RENEGE_HAND_CHOICES: Final = ("penalty-only", "penalty-plus-cards")


def heart_points(card: Card) -> int:
    """1 for a heart, 13 for the Queen of Spades, 0 for everything else.

    >>> [heart_points(Card.parse(code)) for code in ("Qsp", "7he", "boss", "Qcl")]
    [13, 1, 0, 0]
    """
    if card.suit == "he":
        return HEART_POINTS
    if card.suit == "sp" and card.rank == QUEEN:
        return QUEEN_OF_SPADES_POINTS
    return 0


class TossHearts(RulesPack):
    name = "toss-hearts"
    title = "Toss Hearts"
    seed = "002"
    deck = TOSS
    min_players = 2
    max_players = 8
    lower_wins = True
    summary = "Hearts 1, Queen of Spades 13; exactly 100 resets to 0; lowest wins past the limit."
    end = GameEnd(option="limit", passes=True, lowest=True)
    options = (
        Option("moon", "choice", "minus", "shooting the moon: the shooter -26, or everyone "
               "else +26", choices=MOON_CHOICES),
        Option("limit", "int", 100, "the game ends when a total passes this", minimum=1),
        Option("renege_hand", "choice", "penalty-only", "on a renege hand, score only the 26 "
               "penalty, or the penalty plus the cards taken", choices=RENEGE_HAND_CHOICES),
    )
    hand_form = (
        Field("taken", "cards", "Point cards taken", per_player=True,
              help="the hearts and Queens of Spades each player took (others may be left out)"),
        Field("teams", "teams", "Fixed teams", required=False,
              help="team name -> members; every member is credited the team's points"),
        Field("renege", "group", "Renege called", required=False, fields=(
            Field("caller", "player", "Called by"),
            Field("accused", "player", "Accused"),
            Field("proved", "bool", "Renege proved"),
        )),
    )

    def card_value(self, card: Card) -> int:
        return heart_points(card)

    def ui_hints(self) -> JsonObject:
        hearts = [f"{rank}he" for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J",
                                            "Q", "K")]
        points = {code: self.card_value(card) for code, card in
                  ((c, Card.parse(c)) for c in (*hearts, "Qsp"))}
        return {**super().ui_hints(), "goal_label": "Limit",
                "goal_note": "The game ends when a total passes {goal}.",
                "card_points": points, "send_empty_cards": True,
                "whole_suit": {"field": "taken", "label": "Shot the moon",
                               "cards": [*hearts, "Qsp"]}}

    def score_hand(self, given: HandInput) -> HandScore:
        totals, entry, opts, decks = given
        roster = Roster(totals)
        taken = roster.cards(entry.get("taken", {}), '"taken"', "the cards taken by")
        check_deck((c for cards in taken.values() for c in cards), decks, self.deck, jokers=True)
        teams = _read_teams(entry.get("teams"), roster)
        renege = entry.get("renege")
        penalised: str | None = None
        if renege is not None:
            if not isinstance(renege, Mapping):
                raise HandEntryError('"renege" must be {"caller": NAME, "accused": NAME, '
                                     '"proved": true|false}')
            caller = roster.name(renege.get("caller"), "renege caller")
            accused = roster.name(renege.get("accused"), "renege accused")
            proved = read_bool(renege.get("proved"), "renege proved")
            penalised = accused if proved else caller
        names = roster.names
        side_of = {n: n for n in names}
        for team, members in teams.items():
            for member in members:
                side_of[member] = team
        sides = list(dict.fromkeys(side_of[n] for n in names))

        player_points = {n: sum(heart_points(c) for c in cards) for n, cards in taken.items()}
        side_points = {s: 0 for s in sides}
        if penalised is None or opts["renege_hand"] == "penalty-plus-cards":
            for n, points in player_points.items():
                side_points[side_of[n]] += points
        notes: list[str] = []
        full = POINTS_PER_DECK * decks
        # The moon is one player taking every heart and Queen of Spades (not team-mates
        # sharing them); the shooter's team is credited the moon's points.
        shooter = next((n for n, p in player_points.items() if p == full), None)
        if shooter is not None and penalised is None:
            notes.append(f"{shooter} shot the moon (option moon={opts['moon']})")
            for s in sides:
                if opts["moon"] == "minus":
                    side_points[s] = -full if s == side_of[shooter] else 0
                else:
                    side_points[s] = 0 if s == side_of[shooter] else full
        if penalised is not None:
            side_points[side_of[penalised]] += RENEGE_PENALTY
            notes.append(f"renege: {RENEGE_PENALTY} to {penalised}; this hand cannot end the "
                         "game or reset a total at 100")

        hand = {n: side_points[side_of[n]] for n in names}
        new_totals: dict[str, int] = {}
        for n in names:
            total = totals.get(n, 0) + hand[n]
            # Only the hand's own points bring a total to 100: a 100 left by a renege hand
            # stays until a hand changes it.
            if total == RESET_AT and hand[n] != 0 and penalised is None:
                notes.append(f"{n} hit exactly {RESET_AT}: back to 0")
                total = 0
            new_totals[n] = total
        game_over, winner = False, None
        if penalised is None:
            game_over, winner = self.game_end(new_totals, opts)
            limit = int_option(opts, "limit") or 0
            if not game_over and any(t > limit for t in new_totals.values()):
                notes.append("a total passed the limit but the lowest is tied: play on")
        rule = (f"toss-hearts: hearts 1, Qsp 13; moon={opts['moon']}, limit={opts['limit']}, "
                f"renege_hand={opts['renege_hand']}")
        details: dict[str, Any] = {"notes": notes}
        if teams:
            details["teams"] = {t: side_points[t] for t in teams}
        return HandScore(hand, new_totals, game_over, winner, rule, details)


def _read_teams(value: object, roster: Roster) -> dict[str, list[str]]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise HandEntryError('"teams" must be an object of team name -> [member names]')
    teams: dict[str, list[str]] = {}
    seen: set[str] = set()
    for team, members in value.items():
        names = roster.names_list(members, f"team {team!r}")
        if seen & set(names):
            raise HandEntryError(f"team {team!r} names a player who is already in another team")
        seen |= set(names)
        teams[str(team)] = names
    return teams
