"""The one error family of the scorekeeper: a root and two children.

- :class:`InvalidInputError`: the input is malformed (a field missing or of the wrong kind, an
  unknown name, a card code that is no card); the web app answers 400, the command line exits 2.
- :class:`RuleRefusalError`: a well-formed play or hand that a rule refuses; the web app answers
  422, the command line exits 2.

Every module raises one of them through its own precise subclass (``CardParseError``,
``RuleViolation``, ``HandEntryError`` ...); callers map by class, never by name. All are
``ValueError`` subclasses.

>>> from scorekeeper.cards import CardParseError
>>> issubclass(CardParseError, InvalidInputError), http_status(CardParseError("x"))
(True, 400)
"""

from __future__ import annotations

from typing import Final

INVALID_INPUT_STATUS: Final = 400
RULE_REFUSAL_STATUS: Final = 422


class ScorekeeperError(ValueError):
    """The root of every error the scorekeeper raises on purpose."""


class InvalidInputError(ScorekeeperError):
    """Malformed input: says what was wrong and how to fix it (HTTP 400)."""


class RuleRefusalError(ScorekeeperError):
    """A well-formed play or hand that a rule refuses: says which rule (HTTP 422)."""


def http_status(exc: Exception) -> int:
    """The HTTP status of an error: 422 for a rule refusing a play, else 400 (input)."""
    return RULE_REFUSAL_STATUS if isinstance(exc, RuleRefusalError) else INVALID_INPUT_STATUS
