"""Per-table options, declared once for every game: the one :class:`Option` declaration gives
an option's name, type, default, allowed values and help text to the start page, to
``scorekeeper games`` and ``scorekeeper rules``, to the game's description and to the error a
bad value gets (:class:`OptionError`, the one option error).

The Toss rulesets declare theirs in :mod:`scorekeeper.rulesets`, the rules packs on their
classes (``scorekeeper.games``).

>>> ace = Option("ace", "choice", "both", "which runs an ace makes", choices=("both", "high"))
>>> resolve((ace,), {"ace": "high"}, "Toss Rummy")
{'ace': 'high'}
>>> resolve((ace,), {"ace": "sideways"}, "Toss Rummy")
Traceback (most recent call last):
...
scorekeeper.options.OptionError: option "ace" must be one of both, high, not 'sideways' (which \
runs an ace makes)
>>> resolve((ace,), {"aces": "high"}, "Toss Rummy")
Traceback (most recent call last):
...
scorekeeper.options.OptionError: Toss Rummy has no option 'aces' (unknown option; its options: \
ace)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from scorekeeper.errors import InvalidInputError
from scorekeeper.outline import JsonObject, OptionValue

OptionKind = Literal["int", "bool", "choice", "int-list"]

#: The most whole decks one table plays with (docs/rules.md 6).
MAX_DECKS: Final = 20


class OptionError(InvalidInputError):
    """An option of a game has an unknown name or a value outside its range: the message names
    the option and the values it takes."""


@dataclass(frozen=True, slots=True)
class Option:
    """A named per-table option with its house default (docs/rules.md).

    ``kind``: ``int`` (from ``minimum`` to ``maximum``), ``bool``, ``choice`` (one of
    ``choices``) or ``int-list``; ``nullable``: None (unset) is allowed too. ``label`` is a
    short name for the option where its name alone says too little. ``offered``: whether the
    start page offers it (False for what the game itself sets); ``only``: the games (of those
    sharing one declaration) it matters to, empty for all.
    """

    name: str
    kind: OptionKind
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    label: str = ""
    offered: bool = True
    only: tuple[str, ...] = ()

    @property
    def what(self) -> str:
        """How a message names the option: ``option "decks" (number of decks)``."""
        return f'option "{self.name}"' + (f" ({self.label})" if self.label else "")

    def check(self, value: object) -> OptionValue:
        """Validate one value of this option, returning it."""
        if value is None and self.nullable:
            return None
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise OptionError(f"{self.what} must be true or false, not {value!r}")
            return value
        if self.kind == "choice":
            if not isinstance(value, str) or value not in self.choices:
                raise OptionError(f"{self.what} must be one of {', '.join(self.choices)}, not"
                                  f" {value!r}" + (f" ({self.help})" if self.help else ""))
            return value
        if self.kind == "int":
            return self._check_int(value)
        if not isinstance(value, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise OptionError(f"{self.what} must be a list of whole numbers, not {value!r}")
        return value

    def _check_int(self, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(f"{self.what} must be a whole number, not {value!r}")
        low, high = self.minimum, self.maximum
        if (low is not None and value < low) or (high is not None and value > high):
            if high is None:
                raise OptionError(f"{self.what} must be {low} or more, not {value}")
            if low is None:
                raise OptionError(f"{self.what} must be {high} or less, not {value}")
            raise OptionError(f"{self.what} must be from {low} to {high}, not {value}")
        return value

    def applies_to(self, game: str) -> bool:
        """Whether the start page offers this option for ``game``."""
        return self.offered and (not self.only or game in self.only)

    def to_json(self) -> JsonObject:
        out: dict[str, Any] = {
            "name": self.name, "kind": self.kind, "default": self.default, "help": self.help,
        }
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.nullable:
            out["nullable"] = True
        if self.label:
            out["label"] = self.label
        return out


def resolve(options: Sequence[Option], given: Mapping[str, object] | None,
            title: str) -> dict[str, OptionValue]:
    """Every option of ``title``'s game, the defaults filled in; an unknown name is refused."""
    given = dict(given or {})
    known = {o.name for o in options}
    unknown = sorted(set(given) - known)
    if unknown:
        names = ", ".join(o.name for o in options) or "none"
        raise OptionError(
            f"{title} has no option {unknown[0]!r} (unknown option; its options: {names})")
    return {o.name: o.check(given.get(o.name, o.default)) for o in options}
