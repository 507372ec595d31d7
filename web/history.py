"""The history page's and the CSV export's reading of the event log: what each event did to
the scores, which undo took it back, the card a Toss captured, and times in local ISO 8601."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from scorekeeper import log
from scorekeeper.game import GameSetup
from web.store.notes import HistoryNotes


def local_time(at: float) -> str:
    """A Unix time as ISO 8601 in the table's local time (the server sits at the table).

    >>> local_time(0.0)[:4] in {"1969", "1970"}
    True
    """
    return datetime.fromtimestamp(at).astimezone().isoformat(timespec="seconds")


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


def events_csv(events: Sequence[Mapping[str, Any]], points: Mapping[int, Mapping[str, int]],
               owners: Sequence[str]) -> str:
    """The event log as CSV: one row per event, its local time, who entered it, every board's
    score after it, the undo that took it back and the amendment that superseded or removed
    it (if any)."""
    undone, amended = undone_by(events), amended_by(events)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["seq", "at", "by", "type", "event", *[f"score {o}" for o in owners],
                     "undone by", "amended by"])
    for row in events:
        scores = points.get(row["seq"], {})
        writer.writerow([row["seq"], local_time(row["at"]), row["by"], row["event"].get("type"),
                         json.dumps(row["event"], ensure_ascii=False),
                         *[scores.get(o, "") for o in owners], undone.get(row["seq"], ""),
                         _amended_cell(amended.get(row["seq"], {}))])
    return out.getvalue()


def _amended_cell(note: Mapping[str, Any]) -> str:
    later = " ".join(str(n) for n in note.get("amended_by", []))
    return later or (f"removed by {note['removed_by']}" if "removed_by" in note else "")


def hands_csv(hands: Iterable[Mapping[str, Any]], owners: Sequence[str]) -> str:
    """The hands as CSV: one row per finished hand with each board's change in it."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["hand", *owners])
    for hand in hands:
        deltas = hand.get("deltas", {})
        writer.writerow([hand.get("hand_no"), *[deltas.get(o, 0) for o in owners]])
    return out.getvalue()
