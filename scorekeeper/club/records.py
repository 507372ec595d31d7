"""Player records across club nights and games: games, wins, win rate, placement average,
best hand, head-to-head.

>>> rows = [GameResult("n1", 1, 1, "complex-toss-rummy", "ann", 1000, 1, 35),
...         GameResult("n1", 1, 1, "complex-toss-rummy", "bob", 400, 2, 60),
...         GameResult("n1", 2, 1, "complex-toss-rummy", "ann", 200, 2, 10),
...         GameResult("n1", 2, 1, "complex-toss-rummy", "bob", 1000, 1, 80)]
>>> ann = player_records(rows)["ann"]
>>> ann.games, ann.wins, ann.win_rate, ann.placement_average, ann.best_hand
(2, 1, 0.5, 1.5, 35)
>>> [(h.opponent, h.games, h.ahead, h.behind) for h in head_to_head(rows, "ann")]
[('bob', 2, 1, 1)]
>>> hearts = GameResult("n2", 1, 1, "toss-hearts", "ann", 12, 1, 0, lower_wins=True)
>>> record = player_records([*rows, hearts])["ann"]
>>> record.best_hand, record.best_by_game
(35, {'complex-toss-rummy': 35, 'toss-hearts': 0})
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from scorekeeper.outline import JsonObject


@dataclass(frozen=True)
class GameResult:
    """One player's finished game at a club night: where, what, the score and the place
    (1 = won, shared places count for each), and the best single hand they scored (the
    fewest points in a game where the lowest score wins)."""

    event: str
    round_no: int
    table_no: int
    game: str
    player: str
    score: float
    place: int
    best_hand: float | None = None
    lower_wins: bool = False

    @property
    def table_key(self) -> tuple[str, int, int]:
        return (self.event, self.round_no, self.table_no)


@dataclass
class PlayerRecord:
    """A player's record. ``best_hand`` is the most points scored in one hand, over the games
    where the highest score wins; ``best_by_game`` the best hand of each game in its own sense
    (the fewest points where the lowest wins)."""

    player: str
    games: int = 0
    wins: int = 0
    events: set[str] = field(default_factory=set)
    place_total: int = 0
    best_hand: float | None = None
    best_hand_game: str | None = None
    by_game: dict[str, int] = field(default_factory=dict)
    best_by_game: dict[str, float] = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        return round(self.wins / self.games, 3) if self.games else 0.0

    @property
    def placement_average(self) -> float | None:
        return round(self.place_total / self.games, 3) if self.games else None

    def add(self, row: GameResult) -> None:
        self.games += 1
        self.wins += row.place == 1
        self.place_total += row.place
        self.events.add(row.event)
        self.by_game[row.game] = self.by_game.get(row.game, 0) + 1
        if row.best_hand is None:
            return
        known = self.best_by_game.get(row.game)
        better = min if row.lower_wins else max
        self.best_by_game[row.game] = row.best_hand if known is None else better(
            known, row.best_hand)
        if not row.lower_wins and (self.best_hand is None or row.best_hand > self.best_hand):
            self.best_hand, self.best_hand_game = row.best_hand, row.game

    def to_json(self) -> JsonObject:
        return {"player": self.player, "events": len(self.events), "games": self.games,
                "wins": self.wins, "win_rate": self.win_rate,
                "placement_average": self.placement_average, "best_hand": self.best_hand,
                "best_hand_game": self.best_hand_game,
                "by_game": dict(sorted(self.by_game.items())),
                "best_by_game": dict(sorted(self.best_by_game.items()))}


@dataclass
class HeadToHead:
    """Games two players shared, and how often ``player`` placed ahead, behind or level."""

    opponent: str
    games: int = 0
    ahead: int = 0
    behind: int = 0
    level: int = 0

    def to_json(self) -> JsonObject:
        return {"opponent": self.opponent, "games": self.games, "ahead": self.ahead,
                "behind": self.behind, "level": self.level}


def player_records(results: Iterable[GameResult]) -> dict[str, PlayerRecord]:
    """Every player's record, by name, best win rate first (then most games, then name)."""
    records: dict[str, PlayerRecord] = {}
    for row in results:
        records.setdefault(row.player, PlayerRecord(row.player)).add(row)
    order = sorted(records.values(), key=lambda r: (-r.win_rate, -r.games, r.player))
    return {r.player: r for r in order}


def head_to_head(results: Iterable[GameResult], player: str) -> list[HeadToHead]:
    """``player`` against everyone they shared a table with, most games first."""
    tables: dict[tuple[str, int, int], list[GameResult]] = {}
    for row in results:
        tables.setdefault(row.table_key, []).append(row)
    lines: dict[str, HeadToHead] = {}
    for rows in tables.values():
        mine = [r for r in rows if r.player == player]
        if not mine:
            continue
        for other in rows:
            if other.player == player:
                continue
            line = lines.setdefault(other.player, HeadToHead(other.player))
            line.games += 1
            line.ahead += mine[0].place < other.place
            line.behind += mine[0].place > other.place
            line.level += mine[0].place == other.place
    return sorted(lines.values(), key=lambda h: (-h.games, h.opponent))
