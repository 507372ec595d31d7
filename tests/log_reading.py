"""The history notes read afresh from a whole event log, the reading the tests hold the notes
the store keeps as events land (:class:`web.store.notes.HistoryNotes`) against: which undo
took each event back, and what the amendments in effect say of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scorekeeper import log
from scorekeeper.game import GameSetup
from web.store.notes import HistoryNotes


def undone_by(events: Iterable[Mapping[str, Any]]) -> dict[int, int]:
    """The seq of each event taken back by an undo, mapped to that undo's seq (each undo
    takes back the latest event still in effect).

    >>> undone_by([{"seq": 1, "event": {"type": "meld"}}, {"seq": 2, "event": {"type": "meld"}},
    ...            {"seq": 3, "event": {"type": "undo"}}, {"seq": 4, "event": {"type": "undo"}}])
    {2: 3, 1: 4}
    """
    in_effect: list[int] = []
    out: dict[int, int] = {}
    for row in events:
        if row["event"].get("type") == "undo":
            if in_effect:
                out[in_effect.pop()] = row["seq"]
        else:
            in_effect.append(row["seq"])
    return out


def amended_by(events: Iterable[Mapping[str, Any]]) -> dict[int, dict[str, Any]]:
    """Per event seq, what the amendments still in effect say of it: ``amended_by`` (the
    amendments that superseded it, in order), ``removed_by`` (the amendment that removed it)
    and, for an amendment, ``amends`` (its target).

    >>> amended_by([{"seq": 1, "event": {"type": "meld"}},
    ...             {"seq": 2, "event": {"type": "amend", "target": 1, "remove": []}},
    ...             {"seq": 3, "event": {"type": "amend", "target": 1}},
    ...             {"seq": 4, "event": {"type": "undo"}}])
    {2: {'amends': 1}, 1: {'amended_by': [2]}}
    """
    rows = list(events)
    undone = undone_by(rows)
    out: dict[int, dict[str, Any]] = {}
    for row in rows:
        event = row["event"]
        if event.get("type") != log.AMEND or row["seq"] in undone:
            continue
        out.setdefault(row["seq"], {})["amends"] = event.get("target")
        out.setdefault(event.get("target"), {}).setdefault("amended_by", []).append(row["seq"])
        for removed in event.get("remove") or []:
            out.setdefault(removed, {})["removed_by"] = row["seq"]
    return out


def event_notes(setup: GameSetup, events: Iterable[Mapping[str, Any]]
                ) -> dict[int, dict[str, Any]]:
    """Per event seq of a whole log, its history note (:class:`web.store.notes.HistoryNotes`,
    which the store keeps as events land): ``points``, ``undone_by``, a Toss's ``captured``
    card and what the amendments in effect say of it."""
    fold, notes = log.begin(setup), HistoryNotes.begin(log.start(setup))
    for row in events:
        fold = log.step(fold, row["event"], row["seq"])
        notes.add(row["seq"], row["event"], fold.state)
    return notes.notes
