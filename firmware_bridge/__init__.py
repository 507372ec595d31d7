"""The LED peg board link: layout, wire protocols (our framed protocol and stock WLED's JSON over
serial), the serial transport thread, the live-stream client and a pseudo-terminal emulator.

The app never waits for the board: callers hand the latest state to :class:`BoardLink.show`,
which returns at once; a background thread gets it onto the board when it can.
"""

from firmware_bridge.layout import Layout, LayoutError, default_layout
from firmware_bridge.scene import BoardPegs, Scene, SceneError

__all__ = ["BoardPegs", "Layout", "LayoutError", "Scene", "SceneError", "default_layout"]
