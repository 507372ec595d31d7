"""The one fold: a table's game is its setup and its event log, folded event by event.

Every game (:mod:`scorekeeper.game`) is folded here, by the command line, the web app's store
and the LED board alike. The fold reads each event's outline once (a JSON object whose
``"type"`` the game knows), answers ``undo`` itself (the state before the latest event still in
effect) and hands every other event to the game.

>>> from scorekeeper.game import read_setup
>>> setup = read_setup({"game": "toss-hearts", "players": ["ann", "bob"]})
>>> state = replay(setup, [{"type": "hand", "entry": {"taken": {"ann": ["Qsp"]}}}])
>>> state.to_json()["players"][0]["score"], apply(state, {"type": "undo"}).events_applied
(13, 0)
>>> apply(state, {"type": "bogus"})
Traceback (most recent call last):
...
scorekeeper.log.UnknownEventError: unknown event type 'bogus': use one of hand, correction, undo
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final, TypeVar

from scorekeeper.engine.state import EventError, RuleViolation
from scorekeeper.game import GameSetup, GameState, game_of, read_setup

State = TypeVar("State", bound=GameState)

UNDO: Final = "undo"


class MalformedEventError(EventError):
    """An event that is not a JSON object with a ``"type"``."""


class UnknownEventError(EventError):
    """An event whose ``"type"`` the table's game does not know."""


class NothingToUndoError(RuleViolation):
    """An ``undo`` with no event left in effect."""


def read_event(event: object, types: Iterable[str]) -> Mapping[str, Any]:
    """The event as a mapping whose type is one of ``types``, or a clear input error."""
    if not isinstance(event, Mapping):
        raise MalformedEventError('an event is a JSON object with a "type"')
    kind = event.get("type")
    names = tuple(types)
    if not isinstance(kind, str) or kind not in names:
        raise UnknownEventError(f"unknown event type {kind!r}: use one of {', '.join(names)}")
    return event


def undo(state: State) -> State:
    """The state before the latest event still in effect."""
    previous = state.previous
    if previous is None:
        raise NothingToUndoError("There is nothing to undo.")
    back: State = previous  # type: ignore[assignment]  # a state's previous is its own kind
    return back


def apply(state: State, event: object) -> State:
    """The state after one event (``state`` never changes); a refusal raises."""
    game = game_of(state.setup)
    checked = read_event(event, game.event_types)
    if checked["type"] == UNDO:
        return undo(state)
    after: State = game.apply(state, checked)
    return after


def start(setup: GameSetup) -> GameState:
    """The state before the first event."""
    state: GameState = game_of(setup).start(setup)
    return state


def trail(setup: GameSetup, events: Iterable[object]) -> Iterator[GameState]:
    """The state after each event of the log, in order (raises at the first refused one)."""
    state = start(setup)
    for event in events:
        state = apply(state, event)
        yield state


def replay(setup: GameSetup, events: Iterable[object]) -> GameState:
    """The state after the whole log."""
    state = start(setup)
    for event in events:
        state = apply(state, event)
    return state


def read_log(document: Mapping[str, Any]) -> tuple[GameSetup, list[object]]:
    """The setup and events of a saved game: ``{"setup": {...}, "events": [...]}``, where an
    event may also be a row of the app's export (``{"seq", "by", "at", "event": {...}}``)."""
    setup = read_setup(document["setup"])
    rows = document["events"]
    if not isinstance(rows, list):
        raise MalformedEventError('"events" must be a list of event objects')
    return setup, [_event_of(row) for row in rows]


def _event_of(row: object) -> object:
    if isinstance(row, Mapping) and "type" not in row and isinstance(row.get("event"), Mapping):
        return row["event"]
    return row
