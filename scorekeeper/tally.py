"""The end-of-hand tally of Toss Rummy and Complex Toss Rummy (docs/rules.md sections 2 and 3).

Every card a player still has melded on the board counts for that player; every card left in
hand counts against, except the team negative exemption: in team play, when a member goes out,
no negatives are counted for any other member of that team. When no one goes out (a hand
abandoned) there is no exemption. The same count applies to both rulesets (only the card values
differ); in Complex Toss Rummy it is the second scoring of cards already scored as played.

>>> from scorekeeper.cards import parse_cards
>>> from scorekeeper.rulesets import TossOptions
>>> result = tally_hand(
...     {"ann": parse_cards("Kcl Ksp Khe"), "bob": []},
...     {"ann": [], "bob": parse_cards("7di boss")},
...     TossOptions(), None, "ann")
>>> result.players["ann"].net, result.players["bob"].net
(30, -57)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.cards import Card, check_cards
from scorekeeper.errors import InvalidInputError
from scorekeeper.outline import JsonObject
from scorekeeper.rulesets import TossOptions


class TallyError(InvalidInputError):
    """The hand to tally is not possible as given (bad names, teams or cards)."""


class UnknownPlayerError(TallyError):
    """A name used by ``went_out`` is not one of the hand's players."""


class TeamError(TallyError):
    """The teams are not a partition of the players (a player in two teams, or in none)."""


class WentOutWithCardsError(TallyError):
    """The player said to have gone out still has cards in hand."""


@dataclass(frozen=True, slots=True)
class PlayerTally:
    """One player's tally: ``hand_points`` is the positive value of the cards left in hand;
    ``net`` is ``melded_points - hand_points``, or just ``melded_points`` when ``exempt``."""

    melded_points: int
    hand_points: int
    exempt: bool
    net: int

    def to_json(self) -> JsonObject:
        return {"melded_points": self.melded_points, "hand_points": self.hand_points,
                "exempt": self.exempt, "net": self.net}


@dataclass(frozen=True, slots=True)
class TallyResult:
    """The tally of one hand: per player, and per team (the sum of the members' nets) when the
    hand was played in teams (``teams`` is empty otherwise)."""

    players: dict[str, PlayerTally]
    teams: dict[str, int]

    def to_json(self) -> JsonObject:
        """``{"players": {name: {...}}}`` plus ``"teams": {team: {"net": n}}`` in team play."""
        out: dict[str, Any] = {"players": {n: t.to_json() for n, t in self.players.items()}}
        if self.teams:
            out["teams"] = {team: {"net": net} for team, net in self.teams.items()}
        return out


def team_of(teams: Mapping[str, Sequence[str]] | None) -> dict[str, str]:
    """Map each member to its team, refusing a player listed in two teams or twice.

    >>> team_of({"North": ["ann", "cy"], "South": ["bob", "dee"]})["cy"]
    'North'
    """
    owner: dict[str, str] = {}
    for team, members in (teams or {}).items():
        if not members:
            raise TeamError(f"team {team!r} has no members")
        for member in members:
            if member in owner:
                where = "twice" if owner[member] == team else (
                    f"in two teams ({owner[member]} and {team})")
                raise TeamError(f"player {member!r} is listed {where}: "
                                "each player plays in exactly one team")
            owner[member] = team
    return owner


def tally_hand(
    melded: Mapping[str, Sequence[Card]],
    hands: Mapping[str, Sequence[Card]],
    options: TossOptions,
    teams: Mapping[str, Sequence[str]] | None,
    went_out: str | None,
) -> TallyResult:
    """Tally one hand.

    The players are every name in ``melded``, ``hands`` and ``teams``; a player missing from
    a mapping has nothing there. Raises a ``ValueError`` subclass naming the problem for a card
    used more often than ``options.decks`` decks hold (melded and hand cards together), a
    ``went_out`` player who is not a player or still holds cards, and a player in two teams or,
    when teams are given, in none.

    >>> from scorekeeper.cards import parse_cards
    >>> r = tally_hand({"ann": parse_cards("Kcl Ksp Khe")}, {"cy": parse_cards("Acl"),
    ...                "bob": parse_cards("7di")}, TossOptions(),
    ...                {"North": ["ann", "cy"], "South": ["bob", "dee"]}, "ann")
    >>> r.players["cy"].exempt, r.teams
    (True, {'North': 30, 'South': -7})
    """
    membership = team_of(teams)
    players = list(dict.fromkeys([*melded, *hands, *membership]))
    if teams:
        loose = [p for p in players if p not in membership]
        if loose:
            raise TeamError(f"player {loose[0]!r} is in no team: "
                            "in team play list every player in exactly one team")
    if went_out is not None:
        if went_out not in players:
            raise UnknownPlayerError(
                f"went_out names {went_out!r}, who is not a player of this hand"
                f" (players: {', '.join(players) or 'none'})")
        if hands.get(went_out):
            raise WentOutWithCardsError(
                f"{went_out} went out but still has {len(hands[went_out])} card(s) in hand:"
                " a player who goes out holds no cards")
    check_cards([c for cards in (*melded.values(), *hands.values()) for c in cards],
                options.decks)
    out_team = membership.get(went_out) if went_out is not None else None
    result: dict[str, PlayerTally] = {}
    for player in players:
        plus = sum(options.value(c) for c in melded.get(player, ()))
        minus = sum(options.value(c) for c in hands.get(player, ()))
        exempt = (out_team is not None and player != went_out
                  and membership.get(player) == out_team)
        result[player] = PlayerTally(plus, minus, exempt, plus if exempt else plus - minus)
    team_nets = {team: sum(result[m].net for m in members)
                 for team, members in (teams or {}).items()}
    return TallyResult(result, team_nets)
