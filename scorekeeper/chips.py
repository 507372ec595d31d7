"""Chip settlements (docs/rules.md section 4): the Toss Rummy settlement at game end.

Every other player (or team) pays the winner
``round_half_up((winner_total - loser_total) / chips_per_points)`` chips, never below 0. A
team's payment or receipt is split evenly among its members in whole chips; what cannot be
split evenly stays in the pot.

>>> settle_toss_rummy({"ann": 1040, "bob": 815, "cy": 1036}).to_json()["net"]
{'ann': 23, 'bob': -23, 'cy': 0}

Chip games are dispatched by name through :data:`CHIP_GAMES`, which maps a ``"game"`` name to
a function from the JSON input object to the JSON result.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from scorekeeper.errors import InvalidInputError
from scorekeeper.games import GAMES
from scorekeeper.outline import Incoming, JsonObject
from scorekeeper.rulesets import TOSS_RUMMY

DEFAULT_CHIPS_PER_POINTS: Final = 10


class ChipError(InvalidInputError):
    """Chip input that cannot be settled: missing totals, bad numbers, unknown games."""


class SettlementTieError(ChipError):
    """Two or more players tie for the highest total: no settlement, the game plays on."""

    def __init__(self, names: Sequence[str], total: int) -> None:
        self.names = tuple(names)
        self.total = total
        who = ", ".join(names[:-1]) + f" and {names[-1]}"
        super().__init__(f"no settlement: {who} tie at {total}; the game plays on")


@dataclass(frozen=True, slots=True)
class Payment:
    """``chips`` whole chips paid by ``payer`` to ``payee``.

    >>> Payment("bob", "ann", 11).to_json()
    {'from': 'bob', 'to': 'ann', 'chips': 11}
    """

    payer: str
    payee: str
    chips: int

    def to_json(self) -> JsonObject:
        return {"from": self.payer, "to": self.payee, "chips": self.chips}


@dataclass(frozen=True, slots=True)
class Settlement:
    """The payments of one settlement and each name's net chips (received minus paid).

    In team play ``members`` holds each member's net chips and ``pot`` the chips that could
    not be split evenly among a team's members (they stay in the pot); both are empty/0 when
    players play for themselves.
    """

    payments: tuple[Payment, ...]
    net: dict[str, int]
    members: dict[str, int] = field(default_factory=dict)
    pot: int = 0

    def to_json(self) -> JsonObject:
        out: dict[str, Any] = {
            "payments": [p.to_json() for p in self.payments], "net": dict(self.net),
        }
        if self.members:
            out["members"] = dict(self.members)
            out["pot"] = self.pot
        return out


def round_half_up(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` rounded to the nearest whole number, halves up, exactly.

    >>> round_half_up(25, 10), round_half_up(24, 10), round_half_up(-25, 10)
    (3, 2, -2)
    """
    if denominator <= 0:
        raise ChipError(f"cannot divide chips by {denominator}: use a positive number")
    return (2 * numerator + denominator) // (2 * denominator)


def split_chips(chips: int, members: int) -> tuple[int, int]:
    """Split whole chips evenly among ``members``: (chips each, remainder left in the pot).

    >>> split_chips(23, 2)
    (11, 1)
    """
    if members < 1:
        raise ChipError(f"cannot split chips among {members} members")
    return divmod(chips, members)


def settle_toss_rummy(
    totals: Mapping[str, int],
    chips_per_points: int = DEFAULT_CHIPS_PER_POINTS,
    teams: Mapping[str, Sequence[str]] | None = None,
) -> Settlement:
    """Settle a finished Toss Rummy game between players (or teams) named in ``totals``.

    With ``teams`` (team name -> member names, one entry per name in ``totals``) each losing
    team's members pay equal whole shares of its payment, and the winning team's members share
    what they paid equally; the chips that cannot be split evenly stay in the pot.

    >>> s = settle_toss_rummy({"ann": 1010, "bob": 905})
    >>> [p.to_json() for p in s.payments]
    [{'from': 'bob', 'to': 'ann', 'chips': 11}]
    >>> s = settle_toss_rummy({"N": 1040, "S": 815}, teams={"N": ["ann", "cy"], "S": ["bob"]})
    >>> s.members, s.pot
    ({'ann': 11, 'cy': 11, 'bob': -23}, 1)
    """
    if isinstance(chips_per_points, bool) or not isinstance(chips_per_points, int) \
            or chips_per_points < 1:
        raise ChipError(
            f"chips_per_points must be a whole number of 1 or more, not {chips_per_points!r}"
        )
    if len(totals) < 2:
        raise ChipError("a settlement needs the totals of at least 2 players or teams")
    for name, total in totals.items():
        if not isinstance(name, str) or not name.strip():
            raise ChipError(f"player names must be non-empty text, not {name!r}")
        if isinstance(total, bool) or not isinstance(total, int):
            raise ChipError(f"the total of {name} must be a whole number, not {total!r}")
    best = max(totals.values())
    leaders = [name for name, total in totals.items() if total == best]
    if len(leaders) > 1:
        raise SettlementTieError(leaders, best)
    winner = leaders[0]
    payments = tuple(
        Payment(name, winner, max(0, round_half_up(best - total, chips_per_points)))
        for name, total in totals.items()
        if name != winner
    )
    net = {name: 0 for name in totals}
    for payment in payments:
        net[payment.payer] -= payment.chips
        net[payment.payee] += payment.chips
    if teams is None:
        return Settlement(payments, net)
    members = _check_teams(teams, totals)
    member_net = {m: 0 for team in members.values() for m in team}
    collected = 0
    for payment in payments:
        share, _ = split_chips(payment.chips, len(members[payment.payer]))
        for member in members[payment.payer]:
            member_net[member] -= share
        collected += share * len(members[payment.payer])
    share, pot = split_chips(collected, len(members[winner]))
    for member in members[winner]:
        member_net[member] += share
    return Settlement(payments, net, member_net, pot)


def _check_teams(
    teams: object, totals: Mapping[str, int]
) -> dict[str, list[str]]:
    if not isinstance(teams, Mapping):
        raise ChipError('"teams" must be an object of team name -> [member names]')
    for name in totals:
        if name not in teams:
            raise ChipError(f'{name} has a total but no members: in team play each name in'
                            ' "totals" is a team, listed in "teams" with its members')
    for name in teams:
        if name not in totals:
            raise ChipError(f'team {name} has no total: add it to "totals" or remove it from'
                            ' "teams"')
    seen: set[str] = set()
    members: dict[str, list[str]] = {}
    for team, names in teams.items():
        if not isinstance(names, list | tuple) or not names or not all(
            isinstance(n, str) and n.strip() for n in names
        ):
            raise ChipError(f"team {team} must list its members' names (at least one)")
        twice = seen.intersection(names) or {n for n in names if list(names).count(n) > 1}
        if twice:
            raise ChipError(f"{sorted(twice)[0]} is named twice in \"teams\": each member"
                            " belongs to one team")
        seen.update(names)
        members[team] = list(names)
    return members


def _toss_rummy_game(data: Incoming) -> JsonObject:
    known = {"game", "chips_per_points", "totals", "teams", "decks"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ChipError(
            f"unknown field {unknown[0]!r} for toss-rummy chips:"
            f" fields are {', '.join(sorted(known))}"
        )
    decks = data.get("decks", 1)
    if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:
        raise ChipError(f"decks must be a whole number of 1 or more, not {decks!r}")
    totals = data.get("totals")
    if not isinstance(totals, dict):
        raise ChipError('toss-rummy chips need "totals": {"name": points, ...}')
    per = data.get("chips_per_points", DEFAULT_CHIPS_PER_POINTS)
    if isinstance(per, bool) or not isinstance(per, int):
        raise ChipError(f"chips_per_points must be a whole number of 1 or more, not {per!r}")
    teams = data.get("teams")
    if teams is not None and not isinstance(teams, Mapping):
        raise ChipError('"teams" must be an object of team name -> [member names]')
    return settle_toss_rummy(totals, per, teams).to_json()


#: Chip games by the ``"game"`` name of their JSON input; each maps the input to its result.
#: Toss Rummy's settlement is here; the other games' chip rules live in their rules packs.
CHIP_GAMES: Final[dict[str, Callable[[Incoming], Mapping[str, object]]]] = {
    TOSS_RUMMY: _toss_rummy_game,
    **{name: pack.chips for name, pack in GAMES.items() if pack.has_chips},
}


def settle(data: object) -> Mapping[str, object]:
    """Settle the chip game named by ``data["game"]`` (see :data:`CHIP_GAMES`).

    >>> settle({"game": "toss-rummy", "totals": {"ann": 1010, "bob": 1000}})["net"]
    {'ann': 1, 'bob': -1}
    """
    known = ", ".join(sorted(CHIP_GAMES))
    if not isinstance(data, dict):
        raise ChipError(f'chip input must be a JSON object with "game" (one of {known})')
    game = data.get("game")
    if game not in CHIP_GAMES:
        raise ChipError(f"unknown chip game {game!r}: known games are {known}")
    return CHIP_GAMES[game](data)
