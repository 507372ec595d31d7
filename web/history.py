"""The CSV exports of a table: its event log with each event's history note (what the store
keeps as events land: :mod:`web.store.notes`), its hands, and times in local ISO 8601."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any


def local_time(at: float) -> str:
    """A Unix time as ISO 8601 in the table's local time (the server sits at the table).

    >>> local_time(0.0)[:4] in {"1969", "1970"}
    True
    """
    return datetime.fromtimestamp(at).astimezone().isoformat(timespec="seconds")


def events_csv(events: Iterable[Mapping[str, Any]], points: Mapping[int, Mapping[str, int]],
               owners: Sequence[str], notes: Mapping[int, Mapping[str, Any]]) -> str:
    """The event log as CSV: one row per event, its local time, who entered it, every board's
    score after it, and from its history note (:class:`web.store.notes.HistoryNotes`) the undo
    that took it back and the amendment that superseded or removed it (if any)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["seq", "at", "by", "type", "event", *[f"score {o}" for o in owners],
                     "undone by", "amended by"])
    for row in events:
        scores = points.get(row["seq"], {})
        note = notes.get(row["seq"], {})
        writer.writerow([row["seq"], local_time(row["at"]), row["by"], row["event"].get("type"),
                         json.dumps(row["event"], ensure_ascii=False),
                         *[scores.get(o, "") for o in owners], note.get("undone_by", ""),
                         _amended_cell(note)])
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
