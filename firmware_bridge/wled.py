"""Stock WLED over serial: JSON lines using segment 0's individual-LED array ``"i"``.

WLED (0.13 or later) reads a line starting with ``{`` as a JSON API state object. In
``"seg": {"id": 0, "i": [...]}`` a colour after one index sets that LED, after two indexes it
fills ``[start, stop)``; the first ``"i"`` freezes the segment's effect and blacks it out. With
``"v": true`` WLED answers one line ``{"state": ..., "info": ...}``: the acknowledgement.

The full state clears the strip with one range, then lights the pegs, merging neighbouring LEDs
of one colour into ranges:

>>> from firmware_bridge.layout import default_layout
>>> layout = default_layout(1)
>>> full_command(layout, Scene.from_scores([("#2f6fde", 437)], brightness=80)).decode().strip()
'{"on":true,"bri":80,"seg":{"id":0,"i":[0,32,"000000",4,"2F6FDE",16,"2F6FDE",27,"2F6FDE"]},"v":true}'

Brightness 0 switches WLED off (``"bri":0`` with ``"on":true`` would turn it back on at its
last brightness):

>>> full_command(layout, Scene.from_scores([("#2f6fde", 437)], brightness=0))
b'{"on":false,"v":true}\\n'

WLED applies gamma 2.8 to colours, so a peg colour whose every channel is below 36
(``scorekeeper.pegboard.MIN_CHANNEL``) shows as unlit; such a colour is lifted (same hue,
brightest channel 36; black becomes grey):

>>> visible((16, 16, 32)), visible((0, 0, 0))
((18, 18, 36), (36, 36, 36))
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from firmware_bridge.layout import Layout
from firmware_bridge.scene import RGB, Scene, format_colour
from scorekeeper.pegboard import MIN_CHANNEL, visible  # the one threshold, kept with the pegs

PROBE: Final = b'{"v":true}\n'
OFF: Final = b'{"on":false,"v":true}\n'
BLACK: Final[RGB] = (0, 0, 0)
#: WLED's colour gamma (its default "gamma correct colours").
GAMMA: Final = 2.8


class WledError(ValueError):
    """A reply line that is not WLED's JSON state answer."""


def lifted(scene: Scene) -> Scene:
    """``scene`` with every peg colour :func:`visible`."""
    return Scene(tuple(replace(b, colour=visible(b.colour)) for b in scene.boards),
                 scene.brightness)


def dark_colours(scene: Scene) -> list[str]:
    """One sentence per peg colour of ``scene`` that WLED would show as unlit, saying what is
    shown instead."""
    notes: list[str] = []
    for n, board in enumerate(scene.boards, start=1):
        lifted = visible(board.colour)
        if lifted != board.colour:
            notes.append(f"board {n}'s colour {format_colour(board.colour)} is too dark for "
                         f"WLED (every channel below {MIN_CHANNEL} shows as unlit after its "
                         f"gamma): shown as {format_colour(lifted)}; pick a brighter colour")
    return notes


def _hex(rgb: RGB) -> str:
    return "{:02X}{:02X}{:02X}".format(*rgb)


def _runs(leds: Mapping[int, RGB]) -> list[Any]:
    """``{index: colour}`` -> the ``"i"`` array with ranges for consecutive equal colours."""
    out: list[Any] = []
    items = sorted(leds.items())
    i = 0
    while i < len(items):
        start, colour = items[i]
        stop = start + 1
        while i + 1 < len(items) and items[i + 1] == (stop, colour):
            i += 1
            stop += 1
        out += [start, _hex(colour)] if stop == start + 1 else [start, stop, _hex(colour)]
        i += 1
    return out


def _command(brightness: int, i_array: list[Any]) -> bytes:
    if brightness == 0:
        return OFF
    doc = {"on": True, "bri": brightness, "seg": {"id": 0, "i": i_array}, "v": True}
    return json.dumps(doc, separators=(",", ":")).encode() + b"\n"


def full_command(layout: Layout, scene: Scene) -> bytes:
    """One line that blacks out the strip and lights the scene (brightness capped); WLED off
    at brightness 0."""
    return _command(layout.capped(scene.brightness),
                    [0, layout.led_count, _hex(BLACK), *_runs(layout.lit(lifted(scene)))])


def change_command(layout: Layout, before: Scene, after: Scene) -> bytes:
    """One line that turns off the LEDs no longer lit and lights the new ones. Coming back from
    brightness 0 it is the full state: WLED unfreezes every segment when it is switched on, and
    the next ``"i"`` blacks the strip out."""
    if layout.capped(before.brightness) == 0:
        return full_command(layout, after)
    old, new = layout.lit(lifted(before)), layout.lit(lifted(after))
    changed = {i: BLACK for i in old if i not in new}
    changed.update({i: c for i, c in new.items() if old.get(i) != c})
    return _command(layout.capped(after.brightness), _runs(changed))


def test_command(layout: Layout, index: int, colour: RGB, brightness: int) -> bytes:
    """Black out the strip and light one LED (the board test)."""
    return _command(layout.capped(brightness),
                    [0, layout.led_count, _hex(BLACK), index, _hex(colour)])


def parse_reply(line: bytes) -> dict[str, Any]:
    """WLED's answer to ``"v": true``: a JSON object with ``state`` (and usually ``info``),
    read from the first ``{`` of the line (debug output may come before it).

    >>> parse_reply(b'[WS] ping {"state":{"on":true}}')
    {'state': {'on': True}}
    """
    start = line.find(b"{")
    if start < 0:
        raise WledError(f"no JSON in the line: {line[:40]!r}")
    try:
        doc = json.loads(line[start:].decode("utf-8", "replace"))
    except json.JSONDecodeError as exc:
        raise WledError(f"not a JSON line: {line[:40]!r}") from exc
    if not isinstance(doc, dict) or "state" not in doc:
        raise WledError(f"JSON without 'state': {line[:40]!r}")
    return doc


def describe(reply: Mapping[str, Any]) -> tuple[str, int | None]:
    """``("WLED 0.14.0", 192)`` from a reply's ``info``."""
    info = reply.get("info") or {}
    leds = info.get("leds") or {}
    count = leds.get("count")
    return f"WLED {info.get('ver', '?')}", count if isinstance(count, int) else None


def uptime(reply: Mapping[str, Any]) -> int | None:
    """Seconds since WLED booted (``info.uptime``), when the reply says."""
    info = reply.get("info")
    value = info.get("uptime") if isinstance(info, Mapping) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def segment_zero(reply: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """Segment 0 of the reply's ``state.seg`` (a list, or one object)."""
    state = reply.get("state")
    segs = state.get("seg") if isinstance(state, Mapping) else None
    if isinstance(segs, Mapping):
        segs = [segs]
    if not isinstance(segs, list):
        return None
    for seg in segs:
        if isinstance(seg, Mapping) and seg.get("id", 0) == 0:
            return seg
    return None


def lost_state(reply: Mapping[str, Any], previous_uptime: int | None,
               expect_on: bool) -> str | None:
    """Why the LEDs WLED shows are no longer the ones sent, or None: it restarted
    (``info.uptime`` went down), it is off although it should be on (switched off from its app,
    or restarted into "off"), or segment 0 is no longer frozen (its effect runs again and the
    next change would light only the changed LEDs)."""
    now = uptime(reply)
    if previous_uptime is not None and now is not None and now < previous_uptime:
        return f"WLED restarted (uptime {previous_uptime} s, now {now} s)"
    state = reply.get("state")
    if expect_on and isinstance(state, Mapping) and state.get("on") is False:
        return "WLED was switched off"
    seg = segment_zero(reply)
    if expect_on and seg is not None and seg.get("frz") is False:
        return "WLED's segment 0 runs its effect again (WLED restarted or was switched on)"
    return None


#: Segment 0 fields that must hold their default for the ``"i"`` indexes to be strip indexes:
#: field -> (default, what to set in WLED).
SEGMENT_DEFAULTS: Final[dict[str, tuple[object, str]]] = {
    "start": (0, "start 0"),
    "grp": (1, "grouping 1"),
    "spc": (0, "spacing 0"),
    "of": (0, "offset 0"),
    "rev": (False, "reverse off"),
    "mi": (False, "mirror off"),
}


def segment_problems(reply: Mapping[str, Any], led_count: int) -> str | None:
    """What WLED's segment 0 gets wrong for a layout of ``led_count`` LEDs, with what to change
    in WLED, or None when it fits (fields a WLED does not report are not checked)."""
    seg = segment_zero(reply)
    if seg is None:
        return None
    wrong: list[str] = []
    start, stop = seg.get("start", 0), seg.get("stop")
    if isinstance(stop, int) and isinstance(start, int) and stop - start < led_count:
        wrong.append(f"it has {max(0, stop - start)} LEDs, the layout needs {led_count}")
    fixes = [f"stop {led_count}"] if wrong else []
    for name, (default, fix) in SEGMENT_DEFAULTS.items():
        value = seg.get(name)
        if value is not None and value != default:
            wrong.append(f"{_FIELD_NAMES[name]} is {json.dumps(value)}")
            fixes.append(fix)
    if not wrong:
        return None
    return (f"WLED's segment 0 does not cover the board: {'; '.join(wrong)}. In WLED's "
            f"Segments panel set segment 0 to {', '.join(fixes)} (or delete the extra segments "
            "and let segment 0 span the whole strip)")


_FIELD_NAMES: Final = {"start": "its start", "grp": "grouping", "spc": "spacing",
                       "of": "offset", "rev": "reverse", "mi": "mirror"}
