"""The one door to every game a table can play: the :class:`Game` protocol and the registry of
all ten games (Toss Rummy and Complex Toss Rummy on the Toss engine, eight rules packs entered
hand by hand). The command line, the web app and the LED board reach a game only through here
and through the one fold, :mod:`scorekeeper.log`.

A new game is one module with one class that has what :class:`Game` lists, added to
:data:`GAMES`.

>>> [name for name in GAMES][:3]
['complex-toss-rummy', 'toss-rummy', 'toss-colors']
>>> get_game("Toss Rummy").title
'Toss Rummy'
>>> setup = read_setup({"game": "toss-hearts", "players": ["ann", "bob"]})
>>> game_of(setup).name, setup_json(read_setup(setup_json(setup))) == setup_json(setup)
('toss-hearts', True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, Protocol, TypeVar, runtime_checkable

from scorekeeper.cards import Card
from scorekeeper.engine.game import TossGame
from scorekeeper.engine.state import SetupError
from scorekeeper.games import GAMES as PACKS
from scorekeeper.games.base import UnknownGameError
from scorekeeper.options import Option
from scorekeeper.outline import Incoming, JsonObject, StateOutline
from scorekeeper.pegboard import PegBoard
from scorekeeper.rulesets import COMPLEX, RULESETS
from scorekeeper.standing import Standing


@runtime_checkable
class GameSetup(Protocol):
    """A table's setup as every game gives it: which game, who sits where."""

    @property
    def game(self) -> str: ...

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def decks(self) -> int: ...

    def to_json(self) -> JsonObject: ...


@runtime_checkable
class GameState(Protocol):
    """A game's state after the events in effect: its setup, the state before the latest
    event (what an undo returns to), whether the game has ended, and its JSON outline for the
    pages and the board."""

    @property
    def setup(self) -> GameSetup: ...

    @property
    def previous(self) -> GameState | None: ...

    @property
    def events_applied(self) -> int: ...

    @property
    def game_over(self) -> bool: ...

    def boards(self) -> list[PegBoard]: ...

    def to_json(self) -> StateOutline: ...


SetupT = TypeVar("SetupT", bound=GameSetup)
StateT = TypeVar("StateT", bound=GameState)


@runtime_checkable
class Game(Protocol[SetupT, StateT]):
    """One game: it describes itself, reads its setup, starts, applies one of its own events
    and moves a total by a correction.

    ``event_types`` are the game's own events; the fold in :mod:`scorekeeper.log` answers
    ``correction``, ``undo`` and ``amend`` for every game. ``apply`` never sees them: it raises
    an input error (malformed event) or a rule refusal. ``adjust`` gets a correction the fold
    has read (a target among ``correction_targets``, points other than 0, a reason) and only
    says how the total moves (and whether the game is then over); it refuses a game that is
    over.

    What a table offers beyond the fold is said by flags, which the web app reads (never the
    game's classes): ``proposals`` (players propose their plays and the cards left in their
    hands from their phones) and ``end_hand_preview`` (the keeper previews an end of hand's
    tally, :meth:`preview_end_hand`; a game without it refuses the call). ``standing`` is what
    the club night reads of a table.
    """

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def engine(self) -> str: ...

    @property
    def event_types(self) -> tuple[str, ...]: ...

    @property
    def min_players(self) -> int: ...

    @property
    def max_players(self) -> int: ...

    @property
    def proposals(self) -> bool: ...

    @property
    def end_hand_preview(self) -> bool: ...

    @property
    def options(self) -> tuple[Option, ...]:
        """The options a table of this game chooses, each declared once."""
        ...

    def describe(self) -> JsonObject: ...

    def read_setup(self, data: Incoming) -> SetupT: ...

    def setup_json(self, setup: SetupT) -> JsonObject: ...

    def start(self, setup: SetupT) -> StateT: ...

    def apply(self, state: StateT, event: Incoming) -> StateT: ...

    def correction_targets(self, setup: SetupT) -> tuple[str, ...]: ...

    def adjust(self, state: StateT, target: str, points: int, reason: str) -> StateT: ...

    def preview_end_hand(self, state: StateT, went_out: str | None,
                         hands: Mapping[str, Sequence[Card]]) -> JsonObject: ...

    def standing(self, state: StateT) -> Standing: ...


AnyGame = Game[Any, Any]

#: Every game by name, the Toss rulesets first. A new game is one module and one line here.
GAMES: Final[dict[str, AnyGame]] = {
    **{name: TossGame(name) for name in RULESETS},
    **PACKS,
}


def get_game(name: str) -> AnyGame:
    """A game by name (case and spaces forgiven; ``tossní`` is ``tossni``).

    >>> get_game("poker")
    Traceback (most recent call last):
    ...
    scorekeeper.games.base.UnknownGameError: unknown game 'poker': use one of \
complex-toss-rummy, toss-rummy, toss-colors, toss-hearts, tossni, tong-its, indian-chief, \
carousel, three-thirteen, rummy
    """
    game = GAMES.get(name)  # a setup's own name, the common case
    if game is not None:
        return game
    key = name.strip().lower().replace(" ", "-").replace("_", "-").replace("í", "i")
    game = GAMES.get(key)
    if game is None:
        raise UnknownGameError(f"unknown game {name!r}: use one of {', '.join(GAMES)}")
    return game


def game_of(setup: GameSetup) -> AnyGame:
    """The game a setup is for."""
    return get_game(setup.game)


def read_setup(data: Incoming) -> GameSetup:
    """A table setup from JSON: ``"game"`` names the game (Complex Toss Rummy when absent,
    or the ruleset the Toss ``options`` name)."""
    if not isinstance(data, Mapping):
        raise SetupError("a table setup must be a JSON object")
    name = data.get("game")
    if name is None:
        options = data.get("options")
        ruleset = options.get("ruleset") if isinstance(options, Mapping) else None
        name = ruleset if ruleset in RULESETS else COMPLEX
    if not isinstance(name, str):
        raise SetupError(f'"game" must name a game: one of {", ".join(GAMES)}')
    setup: GameSetup = get_game(name).read_setup(data)
    return setup


def setup_json(setup: GameSetup) -> JsonObject:
    """The setup as JSON that :func:`read_setup` reads back (with its ``"game"``)."""
    out: JsonObject = game_of(setup).setup_json(setup)
    return out


def available_games() -> list[dict[str, Any]]:
    """Every game a table can play, for the start page: name, title and what it offers."""
    return [game.describe() for game in GAMES.values()]
