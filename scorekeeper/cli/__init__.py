"""The ``scorekeeper`` command line: JSON on stdout, exit 0 for any verdict, 2 for malformed input.

Each area registers its subcommands from its own module (``COMMAND_MODULES``); the web app and
the board link add theirs through the ``scorekeeper.commands`` entry point group, so this
package never imports them.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, NoReturn, TypeAlias

from scorekeeper.errors import InvalidInputError

#: Modules of this package that define ``register(subparsers)``.
COMMAND_MODULES: tuple[str, ...] = (
    "scorekeeper.cli.rules",
    "scorekeeper.cli.games",
    "scorekeeper.cli.engine",
    "scorekeeper.cli.vision",
)

EXIT_OK = 0
EXIT_SOME_FAILED = 1
EXIT_BAD_INPUT = 2

Handler = Callable[[argparse.Namespace], int]
#: What ``register(subparsers)`` receives: ``add_parser`` makes one subcommand.
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


class InputError(InvalidInputError):
    """Malformed command input: printed as ``{"error": ...}`` with exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        fail(f"{self.prog}: {message}")


def emit(result: object) -> int:
    """Print a JSON result on stdout and return exit code 0."""
    json.dump(result, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return EXIT_OK


def fail(message: str) -> NoReturn:
    """Print ``{"error": message}`` on stdout and the message on stderr, and exit 2."""
    json.dump({"error": message}, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    sys.stdout.flush()
    print(f"scorekeeper: error: {message}", file=sys.stderr)
    raise SystemExit(EXIT_BAD_INPUT)


def read_json(source: str) -> Any:
    """Read a JSON document from a file path, or from stdin for ``-``."""
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read {source}: {exc.strerror or exc}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{source} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from exc


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="scorekeeper",
        description="Scorekeeping and adjudication for Toss card games.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    for entry in entry_points(group="scorekeeper.commands"):
        entry.load()(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = build_parser().parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except ValueError as exc:  # every input error of the domain subclasses ValueError
        fail(str(exc))
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_SOME_FAILED
