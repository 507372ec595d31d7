"""A whole game of one rules pack, entered hand by hand: its setup, its state and its one
event, folded like every game by :mod:`scorekeeper.log`.

The keeper enters each hand; the pack scores it:
``{"type": "hand", "entry": {...}}``, the fields of the pack's ``hand_form``. A form field the
keeper leaves out is carried by the session where it can be: ``hand_no`` is the next hand's
number, and a field the previous hand reported back (Carousel's ``hands_won``) is taken from
it. ``correction``, ``undo`` and ``amend`` are the fold's; a correction reaches the session
through :func:`adjust_session`.

>>> from scorekeeper import log
>>> setup = SessionSetup.from_json({"game": "toss-hearts", "players": ["ann", "bob"]})
>>> state = log.replay(setup, [
...     {"type": "hand", "entry": {"taken": {"ann": ["Qsp"], "bob": ["2he", "3he"]}}}])
>>> state.totals, state.hand_no
({'ann': 13, 'bob': 2}, 1)
>>> log.apply(state, {"type": "undo"}).totals
{'ann': 0, 'bob': 0}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from scorekeeper.errors import InvalidInputError, RuleRefusalError
from scorekeeper.games import get_game
from scorekeeper.games.base import GameError, HandEntryError, RulesPack, read_decks
from scorekeeper.outline import CorrectionOutline, Incoming, JsonObject, StateOutline
from scorekeeper.pegboard import PegBoard, board_colours

#: The one event of a rules pack's own (``correction``, ``undo``, ``amend``: the fold's).
SESSION_EVENT_TYPES: Final[tuple[str, ...]] = ("hand",)
PLAYING: Final = "playing"
GAME_OVER: Final = "game-over"


class SessionError(GameError, RuleRefusalError):
    """An event for a rules-pack game is not allowed now, or names what is not at the table."""


class SessionEventError(GameError, InvalidInputError):
    """An event for a rules-pack game that is not a JSON object of a known type."""


@dataclass(frozen=True)
class SessionSetup:
    """A table playing one rules pack: the game, the players in seat order, options, decks and
    each player's colour; for the chip games, the chips each player starts with (Toss Colors:
    20 unless given; Tong-Its: 0, so a count is what the player won or lost)."""

    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    decks: int = 1
    colours: tuple[tuple[str, str], ...] = ()
    start_chips: int | None = None

    @property
    def pack(self) -> RulesPack:
        return get_game(self.game)

    @classmethod
    def from_json(cls, data: Incoming) -> SessionSetup:
        """Validate a setup: a known game, the right number of distinct players, its options.

        >>> SessionSetup.from_json({"game": "tong-its", "players": ["ann", "bob"]})
        Traceback (most recent call last):
        ...
        scorekeeper.games.base.HandEntryError: Tong-Its is for 3 players, not 2 (ann, bob): \
list every player in "totals" or "players"
        """
        if not isinstance(data, Mapping):
            raise SessionError("a table setup must be a JSON object")
        pack = get_game(str(data.get("game", "")))
        players = data.get("players")
        if not isinstance(players, list) or not all(
            isinstance(p, str) and p.strip() for p in players
        ):
            raise SessionError('"players" must be a list of player names')
        names = tuple(p.strip() for p in players)
        if len(set(names)) != len(names):
            raise SessionError("every player needs a different name")
        pack.check_players(names)
        given = data.get("options") or {}
        if not isinstance(given, Mapping):
            raise SessionError('"options" must be an object of option name -> value')
        options = pack.resolve_options(given)
        decks = read_decks(data)
        colours = data.get("colours") or {}
        if not isinstance(colours, Mapping):
            raise SessionError('"colours" must map each player to a colour like "#e5383b"')
        chosen = tuple(board_colours(names, {str(k): str(v) for k, v in colours.items()}
                                     ).items())
        start = data.get("start_chips")
        if start is not None and (isinstance(start, bool) or not isinstance(start, int)
                                  or start < pack.min_start_chips):
            raise SessionError(f'"start_chips" must be a whole number of chips, not {start!r}')
        return cls(pack.name, names, options, decks, chosen, start)

    def to_json(self) -> JsonObject:
        return {
            "game": self.game,
            "players": list(self.players),
            "options": dict(self.options),
            "decks": self.decks,
            "colours": dict(self.colours),
            **({} if self.start_chips is None else {"start_chips": self.start_chips}),
        }


@dataclass(frozen=True)
class HandRecord:
    """One scored hand: its number, the entry as given, the points, the pack's details and its
    one-line summary."""

    hand_no: int
    entry: Mapping[str, Any]
    deltas: Mapping[str, int]
    rule: str
    details: Mapping[str, Any]
    summary: str = ""

    def to_json(self) -> JsonObject:
        return {
            "hand_no": self.hand_no,
            "entry": dict(self.entry),
            "deltas": dict(self.deltas),
            "rule": self.rule,
            "details": dict(self.details),
            "summary": self.summary,
        }


@dataclass(frozen=True)
class SessionState:
    """The standings of a rules-pack game after the events in effect."""

    setup: SessionSetup
    totals: Mapping[str, int]
    hands: tuple[HandRecord, ...] = ()
    corrections: tuple[CorrectionOutline, ...] = ()
    winner: str | None = None
    game_over: bool = False
    previous: SessionState | None = field(default=None, repr=False, compare=False)
    events_applied: int = 0

    @property
    def hand_no(self) -> int:
        """The number of hands scored so far."""
        return len(self.hands)

    def boards(self) -> list[PegBoard]:
        colours = dict(self.setup.colours)
        return [PegBoard(n, colours[n], self.totals[n]) for n in self.setup.players]

    def to_json(self) -> StateOutline:
        """The standings, in the same outline as the Toss engine's state so pages share code."""
        pack = self.setup.pack
        return {
            "game": pack.name,
            "title": pack.title,
            "ruleset": pack.name,
            "phase": GAME_OVER if self.game_over else PLAYING,
            "hand_no": self.hand_no,
            "winner": self.winner,
            "lower_wins": pack.lower_wins,
            "lowest_first": bool(pack.ui_hints()["lowest_first"]),
            "options": dict(self.setup.options),
            "turn": None,
            "dealer": None,
            "players": [{"name": n, "team": None, "score": self.totals[n]}
                        for n in self.setup.players],
            "boards": [{**b.to_json(), "members": [b.owner]} for b in self.boards()],
            "melds": [],
            "hands": [h.to_json() for h in self.hands],
            "corrections": [c.copy() for c in self.corrections],
            "events_applied": self.events_applied,
            "engine": "hands",
            "chips": self.chips(),
        }

    def chips(self) -> JsonObject | None:
        """Everyone's chip count after the hands so far, for the games played for chips
        (Tong-Its, Toss Colors), from what the keeper entered; None for the other games.
        A hand the chip game cannot settle (a Nil bid) gives ``error`` and the counts before it.

        >>> setup = SessionSetup.from_json({"game": "toss-colors", "players": ["a", "b", "c"]})
        >>> state = apply_session(initial_session(setup), {"type": "hand", "entry": {
        ...     "bidder": "a", "partner": "b", "bid": 3, "tricks": {"a": 2, "b": 2, "c": 1}}})
        >>> state.chips()["counts"], state.chips()["pot"]
        ({'a': 21, 'b': 21, 'c': 17}, 1)
        """
        pack, setup = self.setup.pack, self.setup
        if not pack.has_chips:
            return None
        chip_hands: list[dict[str, object]] = []
        error = None
        for record in self.hands:
            try:
                chip_hands.append(pack.chip_hand(record.entry, record.details))
            except GameError as exc:
                error = f"hand {record.hand_no}: {exc}"
                break
        standing = pack.chip_standing(setup.players, setup.start_chips, setup.options,
                                      setup.decks, chip_hands)
        return {**standing, "error": error}


def initial_session(setup: SessionSetup) -> SessionState:
    return SessionState(setup, {n: 0 for n in setup.players})


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand: the keeper's entry, the fields of the game's hand form."""

    entry: Mapping[str, object]


def read_session_event(event: object) -> Hand:
    """The typed event of a JSON object, its fields checked."""
    if not isinstance(event, Mapping):
        raise SessionEventError("an event must be a JSON object with a \"type\"")
    kind = event.get("type")
    if kind == "hand":
        entry = event.get("entry")
        if not isinstance(entry, Mapping):
            raise HandEntryError('a hand needs "entry": the fields of the hand form')
        return Hand(entry)
    raise SessionEventError(
        f"unknown event type {kind!r}: use one of {', '.join(SESSION_EVENT_TYPES)}"
    )


def apply_session(state: SessionState, event: object) -> SessionState:
    """Apply one hand; raises a :class:`GameError` and leaves ``state`` as it was on refusal."""
    read = read_session_event(event)
    _require_not_over(state)
    return _hand(state, read)


def adjust_session(state: SessionState, target: str, points: int, reason: str) -> SessionState:
    """The state after a correction the fold has read (:func:`scorekeeper.log.read_correction`):
    ``points`` added to ``target``'s total, noted in ``corrections``; the game may end."""
    _require_not_over(state)
    totals = dict(state.totals)
    totals[target] += points
    pack = state.setup.pack
    game_over, winner = pack.game_end(totals, state.setup.options, state.hand_no)
    note = CorrectionOutline(target=target, points=points, reason=reason,
                             after_hand=state.hand_no)
    return SessionState(state.setup, totals, state.hands, state.corrections + (note,),
                        winner, game_over, state, state.events_applied + 1)


def _require_not_over(state: SessionState) -> None:
    if state.game_over:
        raise SessionError(
            f"the game is over ({state.winner or 'no single winner'}): undo the last hand to "
            "change it"
        )


def _hand(state: SessionState, event: Hand) -> SessionState:
    setup = state.setup
    pack = setup.pack
    filled = dict(event.entry)
    last = state.hands[-1].details if state.hands else {}
    for form_field in pack.hand_form:
        if form_field.name in filled:
            continue
        if form_field.name == "hand_no":
            filled["hand_no"] = state.hand_no + 1
        elif form_field.name in last:
            filled[form_field.name] = last[form_field.name]
    result = pack.score(state.totals, filled, setup.options, setup.decks)
    unknown = sorted(set(result.totals) - set(setup.players))
    if unknown:
        raise HandEntryError(f"{unknown[0]!r} is not at this table "
                             f"(players: {', '.join(setup.players)})")
    totals = {n: result.totals.get(n, state.totals[n]) for n in setup.players}
    record = HandRecord(state.hand_no + 1, filled, dict(result.hand), result.rule,
                        dict(result.details), pack.hand_summary(filled, result.details))
    return SessionState(setup, totals, state.hands + (record,), state.corrections,
                        result.winner, result.game_over, state, state.events_applied + 1)
