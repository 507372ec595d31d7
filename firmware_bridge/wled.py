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
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from firmware_bridge.layout import Layout
from firmware_bridge.scene import RGB, Scene

PROBE: Final = b'{"v":true}\n'
BLACK: Final[RGB] = (0, 0, 0)


class WledError(ValueError):
    """A reply line that is not WLED's JSON state answer."""


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
    doc = {"on": True, "bri": brightness, "seg": {"id": 0, "i": i_array}, "v": True}
    return json.dumps(doc, separators=(",", ":")).encode() + b"\n"


def full_command(layout: Layout, scene: Scene) -> bytes:
    """One line that blacks out the strip and lights the scene (brightness capped)."""
    return _command(layout.capped(scene.brightness),
                    [0, layout.led_count, _hex(BLACK), *_runs(layout.lit(scene))])


def change_command(layout: Layout, before: Scene, after: Scene) -> bytes:
    """One line that turns off the LEDs no longer lit and lights the new ones."""
    old, new = layout.lit(before), layout.lit(after)
    changed = {i: BLACK for i in old if i not in new}
    changed.update({i: c for i, c in new.items() if old.get(i) != c})
    return _command(layout.capped(after.brightness), _runs(changed))


def test_command(layout: Layout, index: int, colour: RGB, brightness: int) -> bytes:
    """Black out the strip and light one LED (the board test)."""
    return _command(layout.capped(brightness),
                    [0, layout.led_count, _hex(BLACK), index, _hex(colour)])


def parse_reply(line: bytes) -> dict[str, Any]:
    """WLED's answer to ``"v": true``: a JSON object with ``state`` (and usually ``info``)."""
    try:
        doc = json.loads(line.decode("utf-8", "replace"))
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
