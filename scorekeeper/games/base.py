"""The rules-pack interface shared by the engine, the web app and the command line.

A rules pack is one game: its card values, its named options with their defaults, what the
keeper enters per hand (a declarative form the web app renders), the hand's scores, the
game-end test and winner, and its chip settlement where it has one. A new game is one new
module with one :class:`RulesPack` subclass, listed in ``scorekeeper.games.GAMES``.

Scoring is pure: totals before the hand plus the keeper's entry give the hand's points, the new
totals, whether the game is over and who won.

>>> from scorekeeper.games import get_game
>>> pack = get_game("rummy")
>>> pack.score({"ann": 10, "bob": 0}, {"winner": "ann", "hands": {"bob": ["Kcl", "2he"]}}).totals
{'ann': 22, 'bob': 0}
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal, NamedTuple

from scorekeeper import cards
from scorekeeper.cards import STANDARD, Card, DeckKind, check_cards
from scorekeeper.errors import InvalidInputError, RuleRefusalError, ScorekeeperError
from scorekeeper.options import MAX_DECKS, Option, OptionError, resolve
from scorekeeper.outline import Incoming, JsonObject, OptionValue, OptionValues
from scorekeeper.standing import Standing

if TYPE_CHECKING:
    from scorekeeper.games.session import SessionSetup, SessionState

FieldKind = Literal[
    "int", "bool", "choice", "player", "players", "order", "cards", "suit", "teams", "group",
]

FIELD_KINDS: Final[tuple[str, ...]] = (
    "int", "bool", "choice", "player", "players", "order", "cards", "suit", "teams", "group",
)


class GameError(ScorekeeperError):
    """Base class of the rules packs' errors."""


class UnknownGameError(GameError, InvalidInputError):
    """No rules pack has that name."""


class HandEntryError(GameError, RuleRefusalError):
    """The keeper's entry for a hand is malformed or impossible (names the field and the fix):
    the hand is refused."""


class NoChipGameError(GameError, InvalidInputError):
    """Chips asked of a game that is not played for chips."""


class NoEndHandPreviewError(GameError, InvalidInputError):
    """An end-of-hand tally preview asked of a game entered hand by hand."""


@dataclass(frozen=True, slots=True)
class Field:
    """One thing the keeper enters per hand, as data the web app renders.

    ``kind``: ``int`` (``minimum``/``maximum``), ``bool``, ``choice`` (``choices``), ``player``
    (one name), ``players`` (several names), ``order`` (every player, in order), ``cards`` (card
    codes), ``suit`` (a suit code), ``teams`` (team name -> member names), ``group`` (an object of
    the sub-``fields``). With ``per_player`` the value
    is an object mapping each player's name to one such value; with ``many`` a value is a list
    of such values (several choices). ``empty_hand`` marks a ``player`` field naming whoever
    ended the hand holding no cards (a blank cards row is then an empty hand, not a missing
    one); ``empty_hand_if`` limits that to a value of another field (``("win", "tongit")``).
    """

    name: str
    kind: FieldKind
    label: str
    per_player: bool = False
    many: bool = False
    required: bool = True
    default: Any = None
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    fields: tuple[Field, ...] = ()
    help: str = ""
    empty_hand: bool = False
    empty_hand_if: tuple[str, str] | None = None

    def to_json(self) -> JsonObject:
        out: dict[str, Any] = {
            "name": self.name, "kind": self.kind, "label": self.label,
            "per_player": self.per_player, "required": self.required, "default": self.default,
        }
        if self.many:
            out["many"] = True
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.fields:
            out["fields"] = [f.to_json() for f in self.fields]
        if self.help:
            out["help"] = self.help
        if self.empty_hand:
            out["empty_hand"] = (True if self.empty_hand_if is None else
                                 {"field": self.empty_hand_if[0], "value": self.empty_hand_if[1]})
        return out


@dataclass(frozen=True)
class HandScore:
    """The outcome of one hand: its points, the new totals, and the game-end verdict.

    ``details`` holds what else the keeper should see (deadwood per player, the hand's winner,
    the stacked counts ...); ``rule`` says which rule and options were applied.
    """

    hand: dict[str, int]
    totals: dict[str, int]
    game_over: bool
    winner: str | None
    rule: str
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> JsonObject:
        return {
            "hand": dict(self.hand),
            "totals": dict(self.totals),
            "game_over": self.game_over,
            "winner": self.winner,
            "rule": self.rule,
            **self.details,
        }


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How a game ends: after ``hands`` hands (or turns), or once a total reaches (``passes``:
    passes) the value of option ``option``; the best total wins (the highest, or the lowest
    with ``lowest``). A tie for the win plays on, or after the last hand ends the game with no
    single winner. Neither: the table decides when to stop."""

    hands: int | None = None
    option: str | None = None
    passes: bool = False
    lowest: bool = False


class HandInput(NamedTuple):
    """One hand to score: the totals before it, the keeper's entry, the table's options (every
    one resolved) and the decks in play."""

    totals: Mapping[str, int]
    entry: Incoming
    options: dict[str, OptionValue]
    decks: int


class RulesPack(ABC):
    """One game: options, the keeper's hand form, card values, scoring and the game end."""

    name: ClassVar[str]
    title: ClassVar[str]
    seed: ClassVar[str]
    deck: ClassVar[DeckKind] = STANDARD
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    lower_wins: ClassVar[bool] = False
    options: ClassVar[tuple[Option, ...]] = ()
    hand_form: ClassVar[tuple[Field, ...]] = ()
    summary: ClassVar[str] = ""
    #: How the game ends (:class:`GameEnd`): by default the table decides.
    end: ClassVar[GameEnd] = GameEnd()
    #: A rules pack is played hand by hand: the keeper enters each hand (``hand``);
    #: ``correction``, ``undo`` and ``amend`` are the fold's (:mod:`scorekeeper.log`).
    engine: ClassVar[str] = "hands"
    event_types: ClassVar[tuple[str, ...]] = ("hand",)
    #: The keeper enters each hand: players do not propose, and a hand's scores are previewed
    #: with a dry run of the hand, not an end-of-hand tally.
    proposals: ClassVar[bool] = False
    end_hand_preview: ClassVar[bool] = False

    # -- the Game protocol (scorekeeper.game): a whole game as a fold over its events ------

    def read_setup(self, data: Incoming) -> SessionSetup:
        """A table of this game from JSON: players, options, decks, colours, start chips."""
        from scorekeeper.games.session import SessionSetup

        return SessionSetup.from_json(
            {**data, "game": self.name} if isinstance(data, Mapping) else data)

    def setup_json(self, setup: SessionSetup) -> JsonObject:
        return setup.to_json()

    def start(self, setup: SessionSetup) -> SessionState:
        from scorekeeper.games.session import initial_session

        return initial_session(setup)

    def apply(self, state: SessionState, event: Incoming) -> SessionState:
        from scorekeeper.games.session import apply_session

        return apply_session(state, event)

    def correction_targets(self, setup: SessionSetup) -> tuple[str, ...]:
        """A correction moves one player's total."""
        return setup.players

    def adjust(self, state: SessionState, target: str, points: int,
               reason: str) -> SessionState:
        from scorekeeper.games.session import adjust_session

        return adjust_session(state, target, points, reason)

    def preview_end_hand(self, state: SessionState, went_out: str | None,
                         hands: Mapping[str, Sequence[Card]]) -> JsonObject:
        """Refused: a hand of this game is previewed with a dry run of the ``hand`` event."""
        raise NoEndHandPreviewError(
            f"{self.title} has no end-of-hand tally: preview a hand with dry-run")

    def standing(self, state: SessionState) -> Standing:
        """Each player's total (corrections included) and each hand's points."""
        players = state.setup.players
        return Standing(owners={p: p for p in players},
                        boards={p: state.totals[p] for p in players},
                        hands=tuple(dict(h.deltas) for h in state.hands),
                        lower_wins=self.lower_wins, finished=state.game_over,
                        winner=state.winner, hand_no=state.hand_no)

    def card_value(self, card: Card) -> int:
        """The points of one card in this game (deadwood or penalty value)."""
        return 0

    def resolve_options(self, given: Incoming | None = None) -> dict[str, OptionValue]:
        """Every option of this game, with the defaults filled in; unknown names are refused.

        >>> from scorekeeper.games import get_game
        >>> get_game("toss-hearts").resolve_options({"moon": "plus"})
        {'moon': 'plus', 'limit': 100, 'renege_hand': 'penalty-only'}
        """
        return resolve(self.options, given, self.title)

    def score(
        self,
        totals: Mapping[str, int],
        entry: Incoming,
        options: OptionValues | None = None,
        decks: int = 1,
    ) -> HandScore:
        """Score one hand from the totals before it and the keeper's entry."""
        return self.score_hand(HandInput(totals, entry, self.resolve_options(options), decks))

    @abstractmethod
    def score_hand(self, given: HandInput) -> HandScore:
        """Score one hand (:meth:`score` with the options resolved)."""

    def game_end(
        self,
        totals: Mapping[str, int],
        options: OptionValues | None = None,
        hands_played: int = 0,
    ) -> tuple[bool, str | None]:
        """Whether the game is over with these totals after ``hands_played`` hands (or turns),
        and the winner, as the game's :attr:`end` says."""
        end = self.end
        if end.hands is not None:
            if hands_played < end.hands:
                return False, None
            return True, sole_best(totals, totals, lowest=end.lowest)
        goal = int_option(self.resolve_options(options), end.option) if end.option else None
        if goal is None or not any(t > goal if end.passes else t >= goal
                                   for t in totals.values()):
            return False, None
        winner = sole_best(totals, totals, lowest=end.lowest)
        return winner is not None, winner

    def score_json(self, data: Incoming) -> JsonObject:
        """Score one hand from a JSON object: ``totals``, ``decks``, the options by name (at the
        top level or under ``options``) and the entry fields."""
        if not isinstance(data, Mapping):
            raise HandEntryError("the input must be a JSON object")
        totals = read_totals(data.get("totals", {}))
        decks = read_decks(data)
        option_names = {o.name for o in self.options}
        field_names = {f.name for f in self.hand_form}
        options = data.get("options") or {}
        if not isinstance(options, Mapping):
            raise OptionError('"options" must be an object of option name -> value')
        given = dict(options)
        entry: dict[str, Any] = {}
        for key, value in data.items():
            if key in ("game", "totals", "decks", "options"):
                continue
            if key in option_names:
                given[key] = value
            elif key in field_names:
                entry[key] = value
            elif key == "players":
                # Fixes the roster (a first hand has no totals yet).
                seats = [check_name(n, '"players"') for n in value] if isinstance(
                    value, list) else None
                if not seats or len(set(seats)) != len(seats):
                    raise HandEntryError('"players" must list each player\'s name once')
                extra = sorted(set(totals) - set(seats))
                if extra:
                    raise HandEntryError(f'{extra[0]!r} has a total but is not among "players"')
                totals = {n: totals.get(n, 0) for n in seats}
            else:
                known = sorted({"game", "totals", "decks", "options", "players"}
                               | option_names | field_names)
                raise HandEntryError(f"{self.title} has no field {key!r} (fields: "
                                     f"{', '.join(known)})")
        result = self.score(totals, entry, self.resolve_options(given), decks)
        self.check_players(list(result.totals))
        return result.to_json()

    def check_players(self, names: Sequence[str]) -> None:
        """Refuse a table of the wrong size for this game (the seed's player count).

        >>> from scorekeeper.games import get_game
        >>> get_game("tong-its").check_players(["ann", "bob"])
        Traceback (most recent call last):
        ...
        scorekeeper.games.base.HandEntryError: Tong-Its is for 3 players, not 2 (ann, bob): \
list every player in "totals" or "players"
        """
        low, high = self.min_players, self.max_players
        if not low <= len(names) <= high:
            size = f"{low}" if low == high else f"{low} to {high}"
            raise HandEntryError(
                f"{self.title} is for {size} players, not {len(names)} ({', '.join(names)}):"
                ' list every player in "totals" or "players"'
            )

    def chips(self, data: Incoming) -> Mapping[str, object]:
        """Settle a chip game over a sequence of hands (only games with chips)."""
        raise NoChipGameError(f"{self.title} has no chip game")

    #: The fewest chips a player may start this game's chip game with (``start_chips``).
    min_start_chips: ClassVar[int] = 0

    def chip_hand(self, entry: Incoming, details: Incoming) -> dict[str, object]:
        """One scored hand (the keeper's entry and the hand's details) as this game's chip
        settlement reads it; a hand the chip game cannot settle raises :class:`GameError`."""
        raise NoChipGameError(f"{self.title} has no chip game")

    def chip_standing(self, players: Sequence[str], start_chips: int | None,
                      options: OptionValues, decks: int,
                      hands: Sequence[Incoming]) -> JsonObject:
        r"""Everyone's chips after ``hands`` (from :meth:`chip_hand`): ``counts``, the ``pot``,
        the chips each ``start``\ ed with, whether the chip game is over (``game_over``) and a
        ``note`` on how it goes."""
        raise NoChipGameError(f"{self.title} has no chip game")

    @property
    def has_chips(self) -> bool:
        return type(self).chips is not RulesPack.chips

    # -- what the pages show ------------------------------------------------------------------

    def ui_hints(self) -> JsonObject:
        """What the pages show of this game beyond its options and hand form; a game changes
        what differs. ``{goal}`` and ``{start}`` in a note are filled in by the page.

        - ``lowest_first``: standings list the lowest total first.
        - ``standings_note``: said under the standings instead of who wins.
        - ``goal_label``, ``goal_note``: how the goal (option ``goal`` or ``limit``) is named.
        - ``progress``: ``{"label", "of"}`` for a game of a fixed number of hands or turns.
        - ``wild_rank``: ``{"first": 3}``: that rank is wild in hand 1, one rank up each hand.
        - ``card_points``: each card's points, counted as the keeper types a hand's cards.
        - ``send_empty_cards``: a player with no cards entered took none (send ``[]``).
        - ``start_chips``: the chip game's default start, explained on the start page by
          ``start_chips_help``.
        - ``meld_names``: the names of the melds a score sheet lists, in order.
        - ``whole_suit``: ``{"field", "label", "cards"}``: one choice fills in these cards
          (every copy in the decks) for one player and clears the others (shooting the moon).
        - ``counters``: the keeper's tally counters for a hand in play (``name``, ``label``,
          ``button``, ``step``), explained by ``counters_note``.
        - ``choice_labels``: how the hand form shows the values of its choices.
        """
        return {
            "lowest_first": self.lower_wins, "standings_note": None, "goal_label": "Goal",
            "goal_note": "Game to {goal}.", "progress": None, "wild_rank": None,
            "card_points": None, "send_empty_cards": False,
            "start_chips": self.min_start_chips, "meld_names": None,
            "whole_suit": None, "counters": [], "counters_note": None, "choice_labels": {},
            "start_chips_help": None,
        }

    def hand_summary(self, entry: Incoming, details: Incoming) -> str:
        """One line saying what happened in a scored hand, for the list of hands."""
        notes = details.get("notes")
        return "; ".join(str(note) for note in notes) if isinstance(notes, list) else ""

    def describe(self) -> JsonObject:
        """Everything the web app needs to offer this game: options and the hand form."""
        return {
            "name": self.name,
            "title": self.title,
            "seed": self.seed,
            "engine": self.engine,
            "summary": self.summary,
            "deck": self.deck,
            "players": {"min": self.min_players, "max": self.max_players},
            "decks": {"min": 1, "max": MAX_DECKS},
            "lower_wins": self.lower_wins,
            "chips": self.has_chips,
            "features": {"proposals": self.proposals,
                         "end_hand_preview": self.end_hand_preview},
            "options": [o.to_json() for o in self.options],
            "hand_form": [f.to_json() for f in self.hand_form],
            "ui": self.ui_hints(),
        }


# --- reading the keeper's entry --------------------------------------------------------------

def read_decks(data: Incoming) -> int:
    decks = data.get("decks", 1)
    if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= MAX_DECKS:
        raise HandEntryError(f'"decks" must be a whole number from 1 to {MAX_DECKS}, not {decks!r}')
    return decks


def check_fields(data: Incoming, known: Sequence[str], where: str) -> None:
    """Refuse unknown fields (a typo must not be silently ignored)."""
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise HandEntryError(f"{where} has no field {unknown[0]!r} (fields: {', '.join(known)})")


def read_int(value: object, what: str, minimum: int | None = None,
             maximum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise HandEntryError(f"{what} must be a whole number, not {value!r}")
    if minimum is not None and value < minimum:
        raise HandEntryError(f"{what} must be {minimum} or more, not {value}")
    if maximum is not None and value > maximum:
        raise HandEntryError(f"{what} must be {maximum} or less, not {value}")
    return value


def int_option(options: OptionValues, name: str) -> int | None:
    """A whole-number option (or None where the option may be unset)."""
    value = options[name]
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise OptionError(f'option "{name}" is a whole number, not {value!r}')


def int_list_option(options: OptionValues, name: str) -> list[int] | None:
    """A list-of-whole-numbers option (or None where the option may be unset)."""
    value = options[name]
    if value is None or isinstance(value, list):
        return value
    raise OptionError(f'option "{name}" is a list of whole numbers, not {value!r}')


def read_bool(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise HandEntryError(f"{what} must be true or false, not {value!r}")
    return value


def read_totals(value: object) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise HandEntryError('"totals" must be an object of player name -> points')
    out: dict[str, int] = {}
    for name, points in value.items():
        check_name(name, '"totals"')
        out[name] = read_int(points, f"the total of {name}")
    return out


def check_name(name: object, where: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise HandEntryError(f"{where}: a player's name must be a non-empty string, not {name!r}")
    return name


def read_cards(value: object, what: str) -> list[Card]:
    """Card codes as a list or one string (spaces or commas); a fault refuses the hand."""
    return cards.read_cards(value, what, HandEntryError)


def check_deck(cards: Iterable[Card], decks: int, deck: DeckKind, jokers: bool = False) -> None:
    """Every card in the game's deck kind, no more copies than the decks hold, and (unless the
    game uses them) no jokers or nulls."""
    cards = list(cards)
    check_cards(cards, decks, deck)
    if not jokers:
        for card in cards:
            if not card.is_natural:
                raise HandEntryError(f"{card} is not used in this game: remove it from the entry")


class Roster:
    """The players of a hand: the names in ``totals``, or, on a first hand with no totals yet,
    every name the entry mentions. Once totals exist, an unknown name is an input error (a typo
    must not start a new player)."""

    def __init__(self, totals: Mapping[str, int], seats: Sequence[str] | None = None) -> None:
        self.fixed = bool(totals) or seats is not None
        self.names: list[str] = list(seats) if seats is not None else list(totals)
        for name in totals:
            if name not in self.names:
                raise HandEntryError(f'{name!r} has a total but is not among "players"')

    def name(self, value: object, what: str) -> str:
        name = check_name(value, what)
        if name not in self.names:
            if self.fixed:
                raise HandEntryError(
                    f"{what}: unknown player {name!r} (players: {', '.join(self.names)})"
                )
            self.names.append(name)
        return name

    def mapping(self, value: object, what: str) -> JsonObject:
        if not isinstance(value, Mapping):
            raise HandEntryError(f"{what} must be an object of player name -> value")
        return {self.name(k, what): v for k, v in value.items()}

    def cards(self, value: object, what: str, whose: str = "the hand of") -> dict[str, list[Card]]:
        """``{NAME: card codes}`` read into cards, every name checked against the roster.

        >>> Roster({"ann": 0}).cards({"ann": "Kcl 2he"}, '"hands"')
        {'ann': [Card.parse('Kcl'), Card.parse('2he')]}
        """
        return {name: read_cards(codes, f"{whose} {name}")
                for name, codes in self.mapping(value, what).items()}

    def names_list(self, value: object, what: str) -> list[str]:
        if not isinstance(value, list):
            raise HandEntryError(f"{what} must be a list of player names")
        names = [self.name(v, what) for v in value]
        if len(set(names)) != len(names):
            raise HandEntryError(f"{what} names a player twice")
        return names


def require(entry: Incoming, key: str, game: str) -> Any:
    if key not in entry:
        raise HandEntryError(f'{game} needs "{key}" for each hand')
    return entry[key]


def add_totals(totals: Mapping[str, int], hand: Mapping[str, int], names: Iterable[str]) -> dict[
    str, int
]:
    return {n: totals.get(n, 0) + hand.get(n, 0) for n in names}


def reach_goal(
    totals: Mapping[str, int], goal: int | None, lowest: bool = False
) -> tuple[bool, str | None]:
    """Game over when a total reaches ``goal``: the highest (or lowest) total wins; a tie for it
    plays on. No goal: the game goes on until the table stops."""
    if goal is None or not any(t >= goal for t in totals.values()):
        return False, None
    winner = sole_best(totals, totals, lowest=lowest)
    return winner is not None, winner


def sole_best(totals: Mapping[str, int], names: Iterable[str], lowest: bool) -> str | None:
    """The single highest (or lowest) total among ``names``; None on a tie or no names."""
    names = list(names)
    if not names:
        return None
    best = min(totals[n] for n in names) if lowest else max(totals[n] for n in names)
    leaders = [n for n in names if totals[n] == best]
    return leaders[0] if len(leaders) == 1 else None

