"""How a round scores for the night, and the night's standings.

A round scores by placement (default 1st 4, 2nd 2, 3rd 1, the rest 0; players level on a
table share the points of the places they take) or by the game's own points.

>>> placement_points({"ann": 120, "bob": 80, "cy": 80})
{'ann': 4.0, 'bob': 1.5, 'cy': 1.5}
>>> places({"ann": 12, "bob": 30}, lower_wins=True)
{'ann': 1, 'bob': 2}
>>> Scoring.from_json({"mode": "placement", "points": [3, 1]}).night_points({"a": 5, "b": 9})
{'a': 1.0, 'b': 3.0}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.outline import JsonObject

DEFAULT_POINTS: tuple[float, ...] = (4, 2, 1)
MODES = ("placement", "total")


class ScoringError(ValueError):
    """A night's scoring rule that cannot be used."""


def ordered(scores: Mapping[str, float], lower_wins: bool) -> list[str]:
    """Players best first (ties in the order given)."""
    sign = 1 if lower_wins else -1
    return sorted(scores, key=lambda p: sign * scores[p])


def places(scores: Mapping[str, float], lower_wins: bool = False) -> dict[str, int]:
    """Each player's place at the table: 1 plus the number who did strictly better."""
    def better(a: float, b: float) -> bool:
        return a < b if lower_wins else a > b
    return {p: 1 + sum(better(scores[q], scores[p]) for q in scores) for p in scores}


def placement_points(scores: Mapping[str, float], points: Sequence[float] = DEFAULT_POINTS,
                     lower_wins: bool = False) -> dict[str, float]:
    """Placement points, ties split: players level share the mean of the places they take."""
    place = places(scores, lower_wins)
    result: dict[str, float] = {}
    for player, at in place.items():
        level = sum(1 for q in place if place[q] == at)
        taken = [points[i] if i < len(points) else 0.0 for i in range(at - 1, at - 1 + level)]
        result[player] = round(sum(taken) / level, 3)
    return result


@dataclass(frozen=True)
class Scoring:
    """How a round counts for the night: ``placement`` with its points per place (a bye
    scores ``bye_points``), or ``total`` (the game's points; lower-wins games count negated)."""

    mode: str = "placement"
    points: tuple[float, ...] = DEFAULT_POINTS
    bye_points: float = 0.0

    @classmethod
    def from_json(cls, data: Any) -> Scoring:
        """From ``{"mode": "placement", "points": [4, 2, 1], "bye_points": 0}`` (all optional)."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise ScoringError('"scoring" must be an object like {"mode": "placement", '
                               '"points": [4, 2, 1]} or {"mode": "total"}')
        unknown = sorted(str(k) for k in data if k not in ("mode", "points", "bye_points"))
        if unknown:
            raise ScoringError(f"scoring has an unknown field {unknown[0]!r}: the fields are "
                               "mode, points and bye_points")
        mode = data.get("mode", "placement")
        if mode not in MODES:
            raise ScoringError(f'scoring "mode" must be "placement" or "total", not {mode!r}')
        points = data.get("points", list(DEFAULT_POINTS))
        if (not isinstance(points, list) or not 1 <= len(points) <= 6 or not all(
                isinstance(p, int | float) and not isinstance(p, bool) and p >= 0
                for p in points)):
            raise ScoringError('"points" must list 1 to 6 points per place, best place first, '
                               "none negative, like [4, 2, 1]")
        if any(b > a for a, b in zip(points, points[1:], strict=False)):
            raise ScoringError('"points" must not grow down the places: a better place never '
                               "scores less, like [4, 2, 1]")
        bye = data.get("bye_points", 0)
        if isinstance(bye, bool) or not isinstance(bye, int | float) or bye < 0:
            raise ScoringError('"bye_points" must be a number of points, 0 or more')
        return cls(mode, tuple(float(p) for p in points), float(bye))

    def to_json(self) -> JsonObject:
        return {"mode": self.mode, "points": list(self.points), "bye_points": self.bye_points}

    def night_points(self, scores: Mapping[str, float],
                     lower_wins: bool = False) -> dict[str, float]:
        """What each player at one table takes into the night's standings."""
        if self.mode == "total":
            return {p: float(-s if lower_wins else s) for p, s in scores.items()}
        return placement_points(scores, self.points, lower_wins)


@dataclass(frozen=True)
class RoundResult:
    """One player's round: points for the night, the game score and place, or a bye."""

    player: str
    round_no: int
    points: float
    score: float = 0
    place: int | None = None
    bye: bool = False


@dataclass
class Standing:
    """A player's line in the night's standings."""

    player: str
    points: float = 0.0
    games: int = 0
    wins: int = 0
    score: float = 0
    places: list[int] = field(default_factory=list)
    rank: int = 0

    def to_json(self) -> JsonObject:
        return {"rank": self.rank, "player": self.player, "points": round(self.points, 3),
                "games": self.games, "wins": self.wins, "score": self.score,
                "places": self.places}


def standings(players: Iterable[str], results: Iterable[RoundResult]) -> list[Standing]:
    """The night's standings: most points first, then most wins, then the higher total game
    score, then name; players level on all of these share a rank.

    >>> rows = [RoundResult("ann", 1, 4, 120, 1), RoundResult("bob", 1, 2, 80, 2),
    ...         RoundResult("cy", 1, 0, 0, bye=True)]
    >>> [(s.rank, s.player, s.points) for s in standings(["cy", "bob", "ann"], rows)]
    [(1, 'ann', 4.0), (2, 'bob', 2.0), (3, 'cy', 0.0)]
    """
    lines = {p: Standing(p) for p in players}
    for row in results:
        line = lines.setdefault(row.player, Standing(row.player))
        line.points += row.points
        if row.bye:
            continue
        line.games += 1
        line.score += row.score
        if row.place is not None:
            line.places.append(row.place)
            line.wins += row.place == 1

    def key(s: Standing) -> tuple[float, int, float]:
        return (-round(s.points, 6), -s.wins, -s.score)

    table = sorted(lines.values(), key=lambda s: (*key(s), s.player))
    for i, line in enumerate(table):
        line.rank = table[i - 1].rank if i and key(table[i - 1]) == key(line) else i + 1
    return table
