"""The LED board's door into the web app: a board link is a :class:`BoardHook`, registered
under the ``scorekeeper.board`` entry-point group (pyproject.toml), which ``scorekeeper serve
--board PORT|auto|sim`` starts. The web app never imports a board link.

A hook reads tables only through :class:`BoardTables` and :class:`BoardTable`: a table's state
is the :class:`~scorekeeper.outline.StateOutline` every game gives. The ``BOARD_HOOKS`` config
(``SCOREKEEPER_BOARD_HOOKS``: ``module:attr`` names, comma-separated) names the hooks instead of
the entry points, for a checkout whose installed metadata predates them, or none (empty).

>>> from web import create_app
>>> app = create_app({"TESTING": True, "DATABASE": ":memory:", "BOARD_HOOKS": []})
>>> board_hooks(app)
[]
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Sequence
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from flask import Flask

    from scorekeeper.outline import StateOutline

#: The entry-point group of the board links.
GROUP: Final = "scorekeeper.board"
#: ``serve --board-dtr`` and ``SCOREKEEPER_BOARD_DTR``: hold DTR and RTS up for native-USB
#: boards only (auto), always (hold) or never (drop); the link's own ``--dtr`` takes the same.
DTR_CHOICES: Final = ("auto", "hold", "drop")


class BoardHookError(ValueError):
    """A name in ``BOARD_HOOKS`` that is not a board hook."""


class BoardTable(Protocol):
    """What a board reads of a table: its id, sequence number and state, and the condition its
    writes notify."""

    @property
    def id(self) -> str: ...

    @property
    def seq(self) -> int: ...

    @property
    def cond(self) -> threading.Condition: ...

    def state_json(self) -> StateOutline: ...


TableT = TypeVar("TableT", bound=BoardTable)


class BoardTables(Protocol[TableT]):
    """What a board needs of the table store: the tables (newest first), whether the store has
    closed, and where the link's status goes (shown on the keeper's page)."""

    @property
    def closed(self) -> threading.Event: ...

    def table(self, table_id: str) -> TableT: ...

    def table_ids(self) -> list[str]: ...

    def set_board_status(self, table: TableT, status: str, detail: str) -> None: ...


class RunningBoard(Protocol):
    """A started board link."""

    def stop(self) -> None: ...


@runtime_checkable
class BoardHook(Protocol):
    """A board link: ``start`` drives the board named by ``spec`` (a serial port, ``auto`` or
    ``sim``) from ``tables``, with the settings in ``app.config`` (``BOARD_MODE``,
    ``BOARD_LAYOUT``, ``BOARD_BRIGHTNESS``, ``BOARD_DTR``, ``BOARD_TABLE``)."""

    def start(self, app: Flask, spec: str, tables: BoardTables[Any]) -> RunningBoard: ...


def load_hook(entry: EntryPoint) -> BoardHook:
    """The hook an entry point names, refused unless it has what :class:`BoardHook` lists."""
    hook = entry.load()
    if not isinstance(hook, BoardHook):
        raise BoardHookError(f"{entry.value} is not a board hook: it needs start(app, spec, "
                             "tables)")
    return hook


def board_hooks(app: Flask) -> list[BoardHook]:
    """The board hooks: those ``BOARD_HOOKS`` names (hooks, or ``module:attr`` names), else
    every one registered under :data:`GROUP`."""
    named: Sequence[str | BoardHook] | None = app.config.get("BOARD_HOOKS")
    if named is None:
        return [load_hook(entry) for entry in entry_points(group=GROUP)]
    return [load_hook(EntryPoint(name=hook, value=hook, group=GROUP))
            if isinstance(hook, str) else hook for hook in named]


def start_boards(app: Flask, spec: str) -> list[RunningBoard]:
    """Start every board hook; one that fails is reported and the table goes on without it."""
    tables: BoardTables[Any] = app.extensions["scorekeeper.store"]
    try:
        hooks = board_hooks(app)
    except (ImportError, AttributeError, BoardHookError) as exc:
        print(f"warning: LED board link not loaded: {exc}", file=sys.stderr)
        return []
    if not hooks:
        print(f"note: --board {spec}: no LED board link is installed (none is registered under"
              f" the {GROUP} entry points: reinstall the package, or name one in"
              " SCOREKEEPER_BOARD_HOOKS, like firmware_bridge.webapp:BOARD)", file=sys.stderr)
    running: list[RunningBoard] = []
    for hook in hooks:
        try:
            running.append(hook.start(app, spec, tables))
        except Exception as exc:  # the table goes on without the board
            print(f"warning: LED board link failed to start: {exc}", file=sys.stderr)
    app.extensions["scorekeeper.boards"] = running
    return running


def read_hooks(text: str) -> list[str]:
    """``SCOREKEEPER_BOARD_HOOKS``: ``module:attr`` names, comma-separated (empty: none).

    >>> read_hooks("firmware_bridge.webapp:BOARD, my_board:HOOK")
    ['firmware_bridge.webapp:BOARD', 'my_board:HOOK']
    """
    names = [name.strip() for name in text.split(",") if name.strip()]
    for name in names:
        if ":" not in name:
            raise ValueError(f"{name!r} is not module:attr (like firmware_bridge.webapp:BOARD)")
    return names


def read_dtr(text: str) -> str:
    """``SCOREKEEPER_BOARD_DTR``: one of :data:`DTR_CHOICES`."""
    if text not in DTR_CHOICES:
        raise ValueError(f"use one of {', '.join(DTR_CHOICES)}")
    return text
