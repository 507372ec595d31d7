"""The one fold: a table's game is its setup and its event log, folded event by event.

Every game (:mod:`scorekeeper.game`) is folded here, by the command line, the web app's store
and the LED board alike. The fold reads each event's outline once (a JSON object whose
``"type"`` the game or the fold knows) and answers the events every game shares itself:
``undo`` (the state before the latest event still in effect), ``amend`` (an event that
supersedes an earlier one, see :func:`amend`) and ``correction`` (points added to a player's or
a team's total, read once here and given to the game's ``adjust``). Every other event goes to
the game's ``apply``.

An event's number is its place in the log, from 1. A :class:`Fold` keeps the events in effect
with their numbers, so an amendment can fold the corrected log again and re-check every later
event by the rules; the log itself only grows.

>>> from scorekeeper.game import read_setup
>>> setup = read_setup({"game": "toss-hearts", "players": ["ann", "bob"]})
>>> state = replay(setup, [{"type": "hand", "entry": {"taken": {"ann": ["Qsp"]}}}])
>>> state.to_json()["players"][0]["score"], apply(state, {"type": "undo"}).events_applied
(13, 0)
>>> apply(state, {"type": "correction", "target": "bob", "points": 5, "reason": "a miscount"}
...       ).to_json()["corrections"][0]["points"]
5
>>> apply(state, {"type": "bogus"})
Traceback (most recent call last):
...
scorekeeper.log.UnknownEventError: unknown event type 'bogus': use one of hand, correction, \
undo, amend
>>> fixed = {"type": "hand", "entry": {"taken": {"bob": ["Qsp"]}}}
>>> replay(setup, [{"type": "hand", "entry": {"taken": {"ann": ["Qsp"]}}},
...                {"type": "amend", "target": 1, "event": fixed, "reason": "bob took it"}]
...        ).to_json()["players"][1]["score"]
13
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from scorekeeper.engine.state import EventError, RuleViolation
from scorekeeper.errors import RuleRefusalError
from scorekeeper.game import AnyGame, GameSetup, GameState, game_of, get_game, read_setup
from scorekeeper.outline import Incoming, JsonObject

State = TypeVar("State", bound=GameState)

UNDO: Final = "undo"
AMEND: Final = "amend"
CORRECTION: Final = "correction"
#: The events every game shares, answered by the fold (after the game's own in every list).
FOLD_EVENTS: Final[tuple[str, ...]] = (CORRECTION, UNDO, AMEND)


class MalformedEventError(EventError):
    """An event that is not a JSON object with a ``"type"``."""


class UnknownEventError(EventError):
    """An event whose ``"type"`` the table's game does not know."""


class NothingToUndoError(RuleViolation):
    """An ``undo`` with no event left in effect."""


class MalformedCorrectionError(EventError):
    """A ``correction`` whose target is nobody at the table, or whose points or reason are
    not what a correction holds."""


class CorrectionRefusedError(RuleViolation):
    """A well-formed ``correction`` that changes nothing (0 points) or gives no reason."""


class MalformedAmendmentError(EventError):
    """An ``amend`` event missing its target, replacement event or reason, or naming an event
    that is not in effect."""


class AmendmentNeedsLogError(EventError):
    """An ``amend`` given to :func:`apply`, which sees one state and not the log."""


class AmendedEventRefusedError(RuleViolation):
    """The replacement event itself is refused by the rules where it stands in the log."""


class AmendedEventInvalidError(EventError):
    """The replacement event itself is malformed."""


@dataclass(frozen=True)
class Broken:
    """A later event that no longer holds after an amendment: its number, type and the rule's
    reason."""

    seq: int
    type: str
    reason: str

    def to_json(self) -> JsonObject:
        return {"seq": self.seq, "type": self.type, "reason": self.reason}

    def describe(self) -> str:
        return f"update {self.seq} ({self.type}): {self.reason.rstrip('.')}"


class LaterEventsRefusedError(RuleViolation):
    """An amendment after which later events no longer hold (``broken``); stored only with the
    removal of exactly those events (the amendment's ``"remove"``)."""

    def __init__(self, target: int, broken: tuple[Broken, ...]) -> None:
        named = "; ".join(b.describe() for b in broken)
        numbers = ", ".join(str(b.seq) for b in broken)
        super().__init__(
            f"amending update {target} makes later events no longer hold: {named}. Amend it "
            f"another way, or store the amendment with the removal of update(s) {numbers} "
            f'("remove": [{numbers}])'
        )
        self.target = target
        self.broken = broken


class RemovalStillHoldsError(RuleViolation):
    """An amendment that asks to remove an event which still holds after it."""


@dataclass(frozen=True)
class Entry:
    """An event in effect: its number in the log, the event as it now stands (an amended
    event's latest version) and the entry in effect before it. States are not kept: an
    amendment folds the events in effect again."""

    seq: int
    event: Incoming
    before: Entry | None = field(default=None, compare=False, repr=False)


def _chain(entries: Iterable[Entry]) -> Entry | None:
    """The entries linked in order; the last one returned."""
    last: Entry | None = None
    for entry in entries:
        last = Entry(entry.seq, entry.event, last)
    return last


@dataclass(frozen=True)
class Fold:
    """A log folded so far: the state, the events in effect with their numbers, how many log
    events were read, the fold before the latest event in effect (what an undo returns
    to) and the numbers of the amendments in effect."""

    setup: GameSetup
    state: GameState
    last: Entry | None = None
    read: int = 0
    previous: Fold | None = field(default=None, compare=False, repr=False)
    amendments: tuple[int, ...] = ()

    @property
    def entries(self) -> tuple[Entry, ...]:
        """The events in effect, in order."""
        out: list[Entry] = []
        entry = self.last
        while entry is not None:
            out.append(entry)
            entry = entry.before
        return tuple(reversed(out))


@dataclass(frozen=True, slots=True)
class Correction:
    """A ``correction`` read: ``points`` (never 0) added to ``target``'s total (a player, or a
    team where the game has teams), for ``reason``."""

    target: str
    points: int
    reason: str


@dataclass(frozen=True)
class Amendment:
    """An ``amend`` event read: which event it supersedes, with what, why, and the later
    events it removes."""

    target: int
    event: Incoming
    reason: str
    remove: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Plan:
    """What an amendment gives: the events in effect after it, the state, and the later events
    that no longer hold (left out of ``entries``)."""

    entries: tuple[Entry, ...]
    state: GameState
    broken: tuple[Broken, ...]


def read_event(event: object, types: Iterable[str]) -> Incoming:
    """The event as a mapping whose type is one of ``types``, or a clear input error."""
    if not isinstance(event, Mapping):
        raise MalformedEventError('an event is a JSON object with a "type"')
    kind = event.get("type")
    names = tuple(types)
    if not isinstance(kind, str) or kind not in names:
        raise UnknownEventError(f"unknown event type {kind!r}: use one of {', '.join(names)}")
    return event


def event_types(setup: GameSetup) -> tuple[str, ...]:
    """Every event type the fold reads for this setup's game: the game's own, then
    ``correction``, ``undo`` and ``amend``."""
    return _event_types(game_of(setup).name)


@functools.cache
def _event_types(name: str) -> tuple[str, ...]:
    return (*get_game(name).event_types, *FOLD_EVENTS)


def read_correction(event: Incoming, setup: GameSetup) -> Correction:
    """A ``correction`` event: ``{"type": "correction", "target": NAME, "points": N,
    "reason": "..."}``, the same reading and messages at every table; a malformed field is an
    input error, 0 points or no reason a refusal.

    >>> from scorekeeper.game import read_setup
    >>> setup = read_setup({"game": "rummy", "players": ["ann", "bob"]})
    >>> read_correction({"target": "ann", "points": -5, "reason": " miscount "}, setup)
    Correction(target='ann', points=-5, reason='miscount')
    >>> read_correction({"target": "zed", "points": 5, "reason": "x"}, setup)
    Traceback (most recent call last):
    ...
    scorekeeper.log.MalformedCorrectionError: correction target 'zed' is neither a player nor \
a team at this table: "target" is one of ann, bob
    """
    targets = game_of(setup).correction_targets(setup)
    target = event.get("target")
    if not isinstance(target, str) or target not in targets:
        raise MalformedCorrectionError(
            f"correction target {target!r} is neither a player nor a team at this table:"
            f' "target" is one of {", ".join(targets)}')
    points = event.get("points")
    if points is None:
        raise MalformedCorrectionError(
            "the correction needs its points: a whole number such as 10 or -20")
    if not isinstance(points, int) or isinstance(points, bool):
        raise MalformedCorrectionError(
            f'"points" must be a whole number of points such as 10 or -20, not {points!r}')
    reason = event.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise MalformedCorrectionError(
            '"reason" must be a sentence saying why the score is corrected')
    if points == 0:
        raise CorrectionRefusedError("A correction of 0 points changes nothing.")
    if reason is None or not reason.strip():
        raise CorrectionRefusedError(
            "A correction needs a reason, so the table can see why the score changed.")
    return Correction(target, points, reason.strip())


def play(state: State, event: Incoming, game: AnyGame | None = None) -> State:
    """The state after one event of the game's own or a ``correction`` (read by the fold and
    given to the game's ``adjust``); neither ``undo`` nor ``amend``. ``game``: the state's,
    when the caller has it."""
    if game is None:
        game = game_of(state.setup)
    if event["type"] == CORRECTION:
        correction = read_correction(event, state.setup)
        adjusted: State = game.adjust(state, correction.target, correction.points,
                                      correction.reason)
        return adjusted
    after: State = game.apply(state, event)
    return after


def undo(state: State) -> State:
    """The state before the latest event still in effect."""
    previous = state.previous
    if previous is None:
        raise NothingToUndoError("There is nothing to undo.")
    back: State = previous  # type: ignore[assignment]  # a state's previous is its own kind
    return back


def apply(state: State, event: object) -> State:
    """The state after one event (``state`` never changes); a refusal raises. An ``amend``
    needs the log: fold it with :func:`step`."""
    checked = read_event(event, event_types(state.setup))
    if checked["type"] == UNDO:
        return undo(state)
    if checked["type"] == AMEND:
        raise AmendmentNeedsLogError(
            "an amendment is folded with the log it amends: use scorekeeper.log.step")
    return play(state, checked)


def start(setup: GameSetup) -> GameState:
    """The state before the first event."""
    state: GameState = game_of(setup).start(setup)
    return state


def begin(setup: GameSetup) -> Fold:
    """The fold before the first event."""
    return Fold(setup, start(setup))


def step(fold: Fold, event: object, seq: int | None = None) -> Fold:
    """The fold after one more log event, numbered ``seq`` (the next number when absent)."""
    number = fold.read + 1 if seq is None else seq
    game = game_of(fold.setup)
    checked = read_event(event, _event_types(game.name))
    kind = checked["type"]
    if kind == UNDO:
        if fold.previous is None:
            raise NothingToUndoError("There is nothing to undo.")
        return dataclasses.replace(fold.previous, read=number)
    if kind == AMEND:
        plan = amend(fold, read_amendment(checked, fold.setup))
        return Fold(fold.setup, _after(plan.state, fold.state), _chain(plan.entries), number,
                    fold, (*fold.amendments, number))
    state = play(fold.state, checked, game)
    return Fold(fold.setup, state, Entry(number, checked, fold.last), number, fold,
                fold.amendments)


def _after(state: GameState, before: GameState) -> GameState:
    """The amended state, whose ``previous`` is the state before the amendment (an undo of
    the amendment gives the original back, also through :func:`undo`)."""
    if dataclasses.is_dataclass(state) and any(
            f.name == "previous" for f in dataclasses.fields(state)):
        changed: GameState = dataclasses.replace(state, previous=before)
        return changed
    return state


def read_amendment(event: Incoming, setup: GameSetup) -> Amendment:
    """An ``amend`` event: ``{"type": "amend", "target": N, "event": {...}, "reason": "...",
    "remove": [M, ...]}``; a clear input error names what is missing."""
    target = event.get("target")
    if isinstance(target, bool) or not isinstance(target, int) or target < 1:
        raise MalformedAmendmentError(
            '"target" is the number of the event to amend (its # in the history), e.g. 4')
    replacement = event.get("event")
    kinds = (*game_of(setup).event_types, CORRECTION)
    if not isinstance(replacement, Mapping) or replacement.get("type") not in kinds:
        plays = ", ".join(kinds)
        raise MalformedAmendmentError(
            f'"event" is the corrected event, a JSON object whose "type" is one of {plays}')
    reason = event.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise MalformedAmendmentError(
            '"reason" is required: say what was entered wrongly, e.g. "the meld was 7s not 8s"')
    remove = event.get("remove", [])
    if not isinstance(remove, list) or any(
            isinstance(n, bool) or not isinstance(n, int) for n in remove):
        raise MalformedAmendmentError(
            '"remove" lists the numbers of the later events to remove with the amendment')
    return Amendment(target, replacement, reason.strip(), frozenset(remove))


def _position(entries: tuple[Entry, ...], read: int, target: int) -> int:
    for index, entry in enumerate(entries):
        if entry.seq == target:
            return index
    if target > read:
        raise MalformedAmendmentError(
            f"there is no update {target} yet: the log has {read} update(s)")
    raise MalformedAmendmentError(
        f"update {target} is not an event in effect (it was undone or removed, or it is an "
        "undo or an amendment): amend an event the history shows in effect; an amended event "
        "is amended again by its own number")


def plan(fold: Fold, amendment: Amendment) -> Plan:
    """The corrected log folded again from the amended event on, every later event re-checked
    by the rules. Later events that no longer hold are left out and named in ``broken``; a
    refused replacement, or a removal that still holds, raises."""
    entries = fold.entries
    index = _position(entries, fold.read, amendment.target)
    outside = amendment.remove - {e.seq for e in entries[index + 1:]}
    if outside:
        raise MalformedAmendmentError(
            f"only later events in effect can be removed with the amendment of update "
            f"{amendment.target}, not {', '.join(str(n) for n in sorted(outside))}")
    game = game_of(fold.setup)
    state = start(fold.setup)
    for entry in entries[:index]:  # unchanged events, which held before and hold again
        state = play(state, entry.event, game)
    try:
        state = play(state, amendment.event, game)
    except ValueError as exc:
        kind = (AmendedEventRefusedError if isinstance(exc, RuleRefusalError)
                else AmendedEventInvalidError)
        raise kind(f"the amended update {amendment.target} is refused: {exc}") from exc
    kept = [*entries[:index], Entry(amendment.target, amendment.event)]
    broken: list[Broken] = []
    for entry in entries[index + 1:]:
        try:
            after = play(state, entry.event, game)
        except ValueError as exc:
            broken.append(Broken(entry.seq, str(entry.event.get("type")), str(exc)))
            continue
        if entry.seq in amendment.remove:
            raise RemovalStillHoldsError(
                f"update {entry.seq} ({entry.event.get('type')}) still holds after the "
                "amendment: only the events that no longer hold are removed with it")
        state = after
        kept.append(entry)
    return Plan(tuple(kept), state, tuple(broken))


def amend(fold: Fold, amendment: Amendment) -> Plan:
    """:func:`plan`, refused when a later event no longer holds and is not in ``remove``."""
    result = plan(fold, amendment)
    unnamed = tuple(b for b in result.broken if b.seq not in amendment.remove)
    if unnamed:
        raise LaterEventsRefusedError(amendment.target, unnamed)
    return result


def changed_hands(before: GameState, after: GameState) -> list[int]:
    """The numbers of the finished hands whose record differs between two states (the hands
    an amendment rescored, which the players confirm again)."""
    old = {h.get("hand_no"): h for h in before.to_json().get("hands", [])}
    new = {h.get("hand_no"): h for h in after.to_json().get("hands", [])}
    return sorted(n for n in old.keys() | new.keys()
                  if isinstance(n, int) and old.get(n) != new.get(n))


def timeline(fold: Fold) -> Iterator[tuple[int, GameState]]:
    """Each event in effect with the state after it (``0``: the start), the log as it now
    stands folded again: amended events as amended, undone and removed ones left out."""
    game = game_of(fold.setup)
    state = start(fold.setup)
    yield 0, state
    for entry in fold.entries:
        state = play(state, entry.event, game)
        yield entry.seq, state


def folds(setup: GameSetup, events: Iterable[object]) -> Iterator[Fold]:
    """The fold after each event of the log, in order (raises at the first refused one)."""
    fold = begin(setup)
    for event in events:
        fold = step(fold, event)
        yield fold


def trail(setup: GameSetup, events: Iterable[object]) -> Iterator[GameState]:
    """The state after each event of the log, in order (raises at the first refused one)."""
    for fold in folds(setup, events):
        yield fold.state


def replay(setup: GameSetup, events: Iterable[object]) -> GameState:
    """The state after the whole log."""
    fold = begin(setup)
    for event in events:
        fold = step(fold, event)
    return fold.state


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
