"""The value types of the game engine: the table setup, cards on the board and the game state.

>>> setup = TableSetup(players=("ann", "bob"))
>>> state = initial_state(setup)
>>> state.phase, state.to_json()["boards"][0]["owner"]
('waiting', 'ann')
"""

from __future__ import annotations

import re
from collections.abc import ItemsView, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Final, Literal

from scorekeeper.cards import Card
from scorekeeper.errors import InvalidInputError, RuleRefusalError, ScorekeeperError
from scorekeeper.melds import MeldKind
from scorekeeper.outline import BoardOutline, JsonObject, StateOutline
from scorekeeper.pegboard import MAX_BOARDS, PegBoard, PegPosition, board_colours
from scorekeeper.rulesets import TossOptions

Phase = Literal["waiting", "playing", "hand-over", "game-over"]
WAITING: Final = "waiting"
PLAYING: Final = "playing"
HAND_OVER: Final = "hand-over"
GAME_OVER: Final = "game-over"

MIN_PLAYERS: Final = 2
#: A Toss table: one peg board per player, or per team.
MAX_PLAYERS: Final = MAX_BOARDS
TEAM_SIZES: Final = (2, 3)
_COLOUR_RE: Final = re.compile(r"^#[0-9a-fA-F]{6}$")


class EngineError(ScorekeeperError):
    """Base class of every error the game engine raises."""


class SetupError(EngineError, InvalidInputError):
    """The table setup is not playable: player count, teams, colours or options."""


class EventError(EngineError, InvalidInputError):
    """A malformed event: unknown type, missing or mistyped field, bad card code, unknown name."""


class RuleViolation(EngineError, RuleRefusalError):
    """A well-formed event that breaks a rule; ``reason`` is one sentence a player understands."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


@dataclass(frozen=True)
class TableSetup:
    """Who plays, in which teams and peg colours, under which options.

    ``players`` is the seat order, clockwise (the deal passes to the next seat, the left).
    ``teams`` are equal teams of 2 or 3 covering every player; ``colours`` maps a board owner
    (the team, or the player when there are no teams) to ``#rrggbb``; owners without a colour
    get the default peg colours in order.

    >>> s = TableSetup.from_json({"players": ["ann", "bob", "cy", "dee"],
    ...                           "teams": {"North": ["ann", "cy"], "South": ["bob", "dee"]}})
    >>> from scorekeeper.pegboard import PEG_COLOURS
    >>> s.board_owners, s.colour_of("South") == PEG_COLOURS["blue"]
    (('North', 'South'), True)
    >>> TableSetup(players=("ann",))
    Traceback (most recent call last):
    ...
    scorekeeper.engine.state.SetupError: a table has 2 to 6 players, not 1
    """

    players: tuple[str, ...]
    teams: tuple[tuple[str, tuple[str, ...]], ...] = ()
    colours: tuple[tuple[str, str], ...] = ()
    options: TossOptions = TossOptions()

    def __post_init__(self) -> None:
        # Accept lists and mappings from Python callers; store tuples (hashable, immutable).
        if isinstance(self.players, list):
            object.__setattr__(self, "players", tuple(self.players))
        teams: Any = self.teams
        if isinstance(teams, Mapping):
            teams = teams.items()
        if isinstance(teams, list | tuple | ItemsView):
            object.__setattr__(self, "teams", tuple(
                (name, tuple(members)) for name, members in teams))
        if isinstance(self.colours, Mapping):
            object.__setattr__(self, "colours", tuple(self.colours.items()))
        players = self.players
        if not isinstance(players, tuple) or not all(
                isinstance(p, str) and p.strip() for p in players):
            raise SetupError("players must be a list of non-empty names")
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise SetupError(f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} players,"
                             f" not {len(players)}")
        if len(set(players)) != len(players):
            twice = next(p for i, p in enumerate(players) if p in players[:i])
            raise SetupError(f"player {twice!r} is seated twice: names must be unique")
        if self.teams:
            self._check_teams()
        owners = self.board_owners
        for owner, colour in self.colours:
            if owner not in owners:
                raise SetupError(f"colour given for {owner!r}, who owns no board"
                                 f" (boards: {', '.join(owners)})")
            if not isinstance(colour, str) or not _COLOUR_RE.match(colour):
                raise SetupError(f"colour {colour!r} for {owner} is not of the form #rrggbb")
        if len({o for o, _ in self.colours}) != len(self.colours):
            raise SetupError("a board has two colours: give each owner one colour")
        if not isinstance(self.options, TossOptions):
            raise SetupError("options must be TossOptions")

    def _check_teams(self) -> None:
        names = [name for name, _ in self.teams]
        if len(set(names)) != len(names):
            raise SetupError("two teams have the same name")
        seen: dict[str, str] = {}
        for name, members in self.teams:
            if not isinstance(name, str) or not name.strip():
                raise SetupError("team names must be non-empty")
            if name in self.players:
                raise SetupError(f"team {name!r} has a player's name: choose another team name")
            if len(members) not in TEAM_SIZES:
                raise SetupError(f"team {name} has {len(members)} members: teams have 2 or 3")
            for member in members:
                if member not in self.players:
                    raise SetupError(f"team {name} lists {member!r}, who is not seated")
                if member in seen:
                    raise SetupError(f"player {member!r} is in two teams"
                                     f" ({seen[member]} and {name})")
                seen[member] = name
        if len({len(m) for _, m in self.teams}) != 1:
            raise SetupError("teams must be of equal size")
        if len(self.teams) < 2:
            raise SetupError("team play needs at least two teams")
        loose = [p for p in self.players if p not in seen]
        if loose:
            raise SetupError(f"player {loose[0]!r} is in no team: in team play every player"
                             " is in exactly one team")

    @property
    def game(self) -> str:
        """The game this table plays: its ruleset."""
        return self.options.ruleset

    @cached_property
    def team_of(self) -> dict[str, str | None]:
        """Each player's team, or None without teams."""
        owner: dict[str, str | None] = {p: None for p in self.players}
        for name, members in self.teams:
            for member in members:
                owner[member] = name
        return owner

    @cached_property
    def owner_of(self) -> dict[str, str]:
        """Each player's board owner: the team, or the player."""
        return {p: (t if t is not None else p) for p, t in self.team_of.items()}

    @cached_property
    def board_owners(self) -> tuple[str, ...]:
        """The owners of the peg boards in table order: teams, or players without teams."""
        return tuple(n for n, _ in self.teams) if self.teams else self.players

    @property
    def decks(self) -> int:
        """How many Toss Double Deluxe decks are in play (the option ``decks``)."""
        return self.options.decks

    @cached_property
    def members_of(self) -> dict[str, tuple[str, ...]]:
        if self.teams:
            return {name: tuple(members) for name, members in self.teams}
        return {p: (p,) for p in self.players}

    @cached_property
    def _colours(self) -> dict[str, str]:
        return board_colours(self.board_owners, dict(self.colours))

    def colour_of(self, owner: str) -> str:
        """The peg colour of a board owner."""
        return self._colours[owner]

    def next_seat(self, player: str) -> str:
        """The player on ``player``'s left (the next seat clockwise)."""
        return self._left[player]

    @cached_property
    def _left(self) -> dict[str, str]:
        seats = self.players
        return {p: seats[(i + 1) % len(seats)] for i, p in enumerate(seats)}

    def to_json(self) -> JsonObject:
        return {
            "players": list(self.players),
            "teams": {name: list(members) for name, members in self.teams},
            "colours": {owner: self.colour_of(owner) for owner in self.board_owners},
            "options": self.options.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableSetup:
        """Build a setup from ``{"players": [...], "teams": {team: [members]},
        "colours": {owner: "#rrggbb"}, "options": {...}}`` (all but players optional)."""
        if not isinstance(data, Mapping):
            raise SetupError("a table setup is a JSON object with at least \"players\"")
        unknown = sorted(set(data) - {"players", "teams", "colours", "options"})
        if unknown:
            raise SetupError(f"unknown setup field {unknown[0]!r}:"
                             " use players, teams, colours and options")
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise SetupError("\"players\" must be a list of names in seat order")
        teams_in = data.get("teams") or {}
        if isinstance(teams_in, Mapping):
            pairs = list(teams_in.items())
        elif isinstance(teams_in, list) and all(
                isinstance(t, list | tuple) and len(t) == 2 for t in teams_in):
            pairs = [(t[0], t[1]) for t in teams_in]
        else:
            raise SetupError("\"teams\" must map each team name to its members")
        teams: list[tuple[str, tuple[str, ...]]] = []
        for name, members in pairs:
            if not isinstance(members, list | tuple) or not all(
                    isinstance(m, str) for m in members):
                raise SetupError(f"team {name!r} must list its members by name")
            teams.append((str(name), tuple(members)))
        colours_in = data.get("colours") or {}
        if not isinstance(colours_in, Mapping):
            raise SetupError("\"colours\" must map each board owner to #rrggbb")
        options_in = data.get("options") or {}
        if not isinstance(options_in, Mapping):
            raise SetupError("\"options\" must be a JSON object")
        options = TossOptions.from_json(options_in)  # a bad option: OptionError, naming it
        return cls(tuple(players), tuple(teams),
                   tuple((str(o), c) for o, c in colours_in.items()), options)


@dataclass(frozen=True, slots=True)
class BoardMeld:
    """A meld on the board. ``owner`` put it down (or took it by DoubleCross); ``credits``
    names, card by card, the player each card scores for (lay-offs score for whoever laid
    them off); ``top`` is the card shown on top, the one a Toss may capture."""

    id: int
    owner: str
    cards: tuple[Card, ...]
    kind: MeldKind
    top: Card
    credits: tuple[str, ...] = ()

    def to_json(self) -> JsonObject:
        return {"id": self.id, "owner": self.owner, "cards": [c.code for c in self.cards],
                "kind": self.kind.value, "top": self.top.code, "credits": list(self.credits)}


@dataclass(frozen=True, slots=True)
class PlayPart:
    """One meld or lay-off of a turn's play: meld ``meld`` put down (``whole``: the whole meld,
    a Toss meld or a meld taken by DoubleCross included), or ``cards`` laid off on it."""

    meld: int
    cards: tuple[Card, ...]
    whole: bool

    def to_json(self) -> JsonObject:
        return {"meld": self.meld, "cards": [c.code for c in self.cards], "whole": self.whole}


@dataclass(frozen=True, slots=True)
class Taking:
    """What a DoubleCross takes from one meld: the positions of its cards (every position when
    ``whole``: the meld changes hands)."""

    meld: int
    positions: tuple[int, ...]
    whole: bool


@dataclass(frozen=True, slots=True)
class DoubleCrossChance:
    """The open chance to DoubleCross: ``victim`` may take meld ``meld`` from ``against``.

    ``via`` is the play being answered (``toss`` or ``double-cross``); ``captured`` the card
    the Toss took (None after a DoubleCross). ``ready`` is True once the turn has reached the
    victim; the chance closes when anything else happens. ``play`` is the answered play, every
    meld and lay-off of ``against``'s turn, fixed when the chance becomes ready."""

    victim: str
    against: str
    meld: int
    via: str
    captured: Card | None
    ready: bool = False
    play: tuple[PlayPart, ...] = ()

    def to_json(self) -> JsonObject:
        return {"victim": self.victim, "against": self.against, "meld": self.meld,
                "via": self.via, "ready": self.ready,
                "captured": None if self.captured is None else self.captured.code}


@dataclass(frozen=True)
class GameState:
    """The state of one game, a fold over its event log (:mod:`scorekeeper.log`; one of the
    engine's events: :func:`scorekeeper.engine.apply`).

    ``scores`` are per player; a board's score is the sum of its members' scores plus any
    team corrections (``team_adjust``). ``turn_plays`` are the melds and lay-offs of the
    player whose turn it is, made in this turn (what a DoubleCross of that play takes).
    ``previous`` is the state before the latest event in effect: an undo returns to it
    exactly. ``events_applied`` counts the events in effect (undone events and the undos
    themselves excluded).
    """

    setup: TableSetup
    phase: Phase = WAITING
    hand_no: int = 0
    dealer: str | None = None
    next_dealer: str | None = None
    turn: str | None = None
    after_discard: str | None = None
    winner: str | None = None
    scores: Mapping[str, int] = field(default_factory=dict)
    team_adjust: Mapping[str, int] = field(default_factory=dict)
    melds: tuple[BoardMeld, ...] = ()
    next_meld_id: int = 1
    on_board: Mapping[Card, int] = field(default_factory=dict)
    last_play: Mapping[str, Any] | None = None
    chance: DoubleCrossChance | None = None
    turn_plays: tuple[PlayPart, ...] = ()
    hand_start: Mapping[str, int] = field(default_factory=dict)
    hands: tuple[Mapping[str, Any], ...] = ()
    events_applied: int = 0
    previous: GameState | None = field(default=None, compare=False, repr=False)

    @property
    def options(self) -> TossOptions:
        return self.setup.options

    @property
    def game_over(self) -> bool:
        """Whether a board has pegged out and the game has ended."""
        return self.phase == GAME_OVER

    def score_of(self, owner: str) -> int:
        """The score of a board owner (team or player), or of one player."""
        members = self.setup.members_of.get(owner)
        if members is None:
            return self.scores[owner]
        return sum(self.scores[m] for m in members) + self.team_adjust.get(owner, 0)

    def board_scores(self) -> dict[str, int]:
        return {owner: self.score_of(owner) for owner in self.setup.board_owners}

    def meld(self, meld_id: int) -> BoardMeld | None:
        for meld in self.melds:
            if meld.id == meld_id:
                return meld
        return None

    def double_cross_takes(self) -> tuple[Taking, ...]:
        """What a DoubleCross would take now, meld by meld in board order (docs/rules.md 2-3, option
        ``double_cross_takes``): with ``whole-play`` every meld and lay-off of the answered play
        (melds whole, lay-offs their cards still credited to the player double-crossed), with
        ``toss-meld`` the Toss (or DoubleCross) meld only. Empty when no chance is open."""
        chance = self.chance
        if chance is None:
            return ()
        parts: tuple[PlayPart, ...] = ()
        if self.options.double_cross_takes == "whole-play":
            parts = chance.play if chance.ready else (
                self.turn_plays if self.turn == chance.against else ())
        whole = {chance.meld} | {p.meld for p in parts if p.whole}
        taken: dict[int, set[int]] = {}
        for part in parts:
            meld = self.meld(part.meld)
            if part.whole or meld is None:
                continue
            used = taken.setdefault(meld.id, set())
            for card in part.cards:
                for at in range(len(meld.cards) - 1, -1, -1):
                    if (at not in used and meld.cards[at] == card
                            and meld.credits[at] == chance.against):
                        used.add(at)
                        break
        result = []
        for meld in self.melds:
            if meld.id in whole:
                result.append(Taking(meld.id, tuple(range(len(meld.cards))), True))
            elif taken.get(meld.id):
                result.append(Taking(meld.id, tuple(sorted(taken[meld.id])), False))
        return tuple(result)

    def melded_by(self) -> dict[str, list[Card]]:
        """The cards on the board, by the player each scores for."""
        result: dict[str, list[Card]] = {p: [] for p in self.setup.players}
        for meld in self.melds:
            for card, player in zip(meld.cards, meld.credits, strict=True):
                result[player].append(card)
        return result

    def boards(self) -> list[PegBoard]:
        setup = self.setup
        return [PegBoard(owner, setup.colour_of(owner), self.score_of(owner))
                for owner in setup.board_owners]

    def to_json(self) -> StateOutline:
        """The state as JSON, as read by the web app, the display and the LED bridge."""
        setup = self.setup
        options = setup.options
        boards: list[BoardOutline] = []
        for owner in setup.board_owners:
            score = self.score_of(owner)
            boards.append({"owner": owner, "members": list(setup.members_of[owner]),
                           "colour": setup.colour_of(owner), "score": score,
                           **PegPosition.from_score(score).to_json()})
        return {
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "next_dealer": self.next_dealer,
            "turn": self.turn,
            "after_discard": self.after_discard,
            "phase": self.phase,
            "winner": self.winner,
            "goal": options.resolved_goal,
            "ruleset": options.ruleset,
            "options": options.to_json(),
            "players": [{"name": p, "team": setup.team_of[p], "score": self.scores[p]}
                        for p in setup.players],
            "boards": boards,
            "melds": [m.to_json() for m in self.melds],
            "last_play": _copy_json(self.last_play),
            "double_cross": None if self.chance is None else {
                **self.chance.to_json(), "takes": self._takes_json()},
            "hands": [_copy_json(h) for h in self.hands],
            "events_applied": self.events_applied,
        }


    def _takes_json(self) -> list[dict[str, Any]]:
        takes = []
        for taking in self.double_cross_takes():
            meld = self.meld(taking.meld)
            assert meld is not None
            takes.append({"meld": taking.meld, "whole": taking.whole,
                          "cards": [meld.cards[at].code for at in taking.positions]})
        return takes


def _copy_json(value: Any) -> Any:
    if isinstance(value, Card):
        return value.code
    if isinstance(value, Mapping):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy_json(v) for v in value]
    return value


def initial_state(setup: TableSetup) -> GameState:
    """The state before the first hand: every score 0, no dealer yet."""
    return GameState(setup=setup, scores={p: 0 for p in setup.players})
