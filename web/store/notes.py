"""The history notes of a table's log, kept as events land: what each event did to the scores,
the card a Toss captured, the undo that took it back, and what the amendments in effect say of
it. The store adds each event in the same pass that keeps its score point, so the history page
is served without reading the log again.

>>> from scorekeeper import log
>>> from scorekeeper.game import read_setup
>>> setup = read_setup({"game": "toss-hearts", "players": ["ann", "bob"]})
>>> fold, notes = log.begin(setup), HistoryNotes.begin(log.start(setup))
>>> for seq, event in enumerate([{"type": "hand", "entry": {"taken": {"ann": ["Qsp"]}}},
...                              {"type": "undo"}], start=1):
...     fold = log.step(fold, event, seq)
...     notes.add(seq, event, fold.state)
>>> notes.served(2)
{'1': {'points': {'ann': 13}, 'undone_by': 2}, '2': {'points': {'ann': -13}}}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scorekeeper import log
from scorekeeper.game import GameState


def board_scores(state: GameState) -> dict[str, int]:
    """Each board's score in ``state``."""
    return {b.owner: b.score for b in state.boards()}


def event_note(before: Mapping[str, int], after: Mapping[str, int], event: Mapping[str, Any],
               state: GameState) -> dict[str, Any]:
    """One event's own note: ``points`` (each board's change, non-zero only) and, for a Toss,
    the ``captured`` card (``state`` is the state after it)."""
    note: dict[str, Any] = {"points": {o: after[o] - before.get(o, 0) for o in after
                                       if after[o] != before.get(o, 0)}}
    last_play = getattr(state, "last_play", None)
    if event.get("type") == "toss" and last_play and last_play.get("captured"):
        note["captured"] = str(last_play["captured"])
    return note


@dataclass
class HistoryNotes:
    """Per event seq, its note as the history shows it: the event's own note, ``undone_by``
    (the undo that took it back; each undo takes back the latest event still in effect), and,
    from the amendments not undone, ``amends`` (an amendment's target), ``amended_by`` (the
    amendments that superseded it, in order) and ``removed_by`` (the amendment that removed
    it). A note that changes is replaced, never changed in place, so a copy of ``notes`` taken
    under the table's lock stays as it was."""

    scores: dict[str, int]
    notes: dict[int, dict[str, Any]] = field(default_factory=dict)
    own: dict[int, dict[str, Any]] = field(default_factory=dict)
    undone: dict[int, int] = field(default_factory=dict)
    in_effect: list[int] = field(default_factory=list)
    #: amendment seq -> (its target, the events it removed), for the amendments not undone
    amendments: dict[int, tuple[int, tuple[int, ...]]] = field(default_factory=dict)
    amended_by: dict[int, list[int]] = field(default_factory=dict)
    removed_by: dict[int, list[int]] = field(default_factory=dict)

    @classmethod
    def begin(cls, state: GameState) -> HistoryNotes:
        """The notes of an empty log whose game starts at ``state``."""
        return cls(board_scores(state))

    def add(self, seq: int, event: Mapping[str, Any], state: GameState) -> None:
        """Note event ``seq`` (already accepted by the fold, ``state`` after it), and the
        earlier notes it changes (the event an undo took back, an amendment's target and
        removals)."""
        after = board_scores(state)
        self.own[seq] = event_note(self.scores, after, event, state)
        self.scores = after
        changed = [seq]
        if event.get("type") == log.UNDO:
            if self.in_effect:
                back = self.in_effect.pop()
                self.undone[back] = seq
                changed += [back, *self._unmark(back)]
        else:
            self.in_effect.append(seq)
            if event.get("type") == log.AMEND:
                changed += self._mark(seq, event)
        for number in changed:
            self._write(number)

    def _mark(self, seq: int, event: Mapping[str, Any]) -> list[int]:
        target, removed = event.get("target"), tuple(event.get("remove") or ())
        if not isinstance(target, int):
            return []
        self.amendments[seq] = (target, removed)
        self.amended_by.setdefault(target, []).append(seq)
        for number in removed:
            self.removed_by.setdefault(number, []).append(seq)
        return [target, *removed]

    def _unmark(self, seq: int) -> list[int]:
        """Forget what the undone amendment ``seq`` said; returns the notes it touched."""
        if seq not in self.amendments:
            return []
        target, removed = self.amendments.pop(seq)
        _drop(self.amended_by, target, seq)
        for number in removed:
            _drop(self.removed_by, number, seq)
        return [target, *removed]

    def _write(self, seq: int) -> None:
        own = self.own.get(seq)
        if own is None:
            return
        note = dict(own)
        if seq in self.undone:
            note["undone_by"] = self.undone[seq]
        if seq in self.amendments:
            note["amends"] = self.amendments[seq][0]
        if self.amended_by.get(seq):
            note["amended_by"] = list(self.amended_by[seq])
        if self.removed_by.get(seq):
            note["removed_by"] = self.removed_by[seq][-1]
        self.notes[seq] = note

    def served(self, seq: int) -> dict[str, dict[str, Any]]:
        """The notes of events 1..``seq``, keyed by their number as text (the JSON reply)."""
        return {str(n): note for n, note in self.notes.items() if n <= seq}


def _drop(marks: dict[int, list[int]], key: int, seq: int) -> None:
    kept = [n for n in marks.get(key, []) if n != seq]
    if kept:
        marks[key] = kept
    else:
        marks.pop(key, None)
