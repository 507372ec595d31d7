"""Engine commands: ``tally`` (the end-of-hand tally) and ``replay`` (fold an event log).

    scorekeeper tally hand.json
    scorekeeper replay game.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping

from scorekeeper import log
from scorekeeper.cards import Card, read_cards
from scorekeeper.cli import EXIT_BAD_INPUT, InputError, Subparsers, emit, read_json
from scorekeeper.rulesets import RULESETS, TossOptions
from scorekeeper.tally import tally_hand

__all__ = ["register"]

_TALLY_FIELDS = ("rules", "decks", "teams", "went_out", "players")


def register(subparsers: Subparsers) -> None:
    """Add the ``tally`` and ``replay`` commands."""
    tally = subparsers.add_parser(
        "tally",
        help="tally a hand: melded cards for, cards in hand against, team exemption",
        description='Tally one hand from a JSON file (or - for stdin): {"rules":'
        ' "complex-toss-rummy", "decks": 1, "teams": {"North": ["ann", "cy"]}, "went_out":'
        ' "ann", "players": {"ann": {"melded": ["Kcl", ...], "hand": []}}}. "teams" is'
        ' optional and "went_out" may be null (a hand abandoned: no exemption).',
    )
    tally.add_argument("file", metavar="FILE", help="JSON input file, or - for stdin")
    tally.set_defaults(handler=_tally)

    replay = subparsers.add_parser(
        "replay",
        help="replay a game's event log and print the final state",
        description='Fold an event log from a JSON file (or - for stdin): {"setup": {"game":'
        ' "complex-toss-rummy", "players": [...], "teams": {...}, "colours": {...}, "options":'
        ' {...}}, "events": [...]}, or a table\'s export from the app (export.json), of any'
        " game. Prints the final game state; a refused event exits 2 naming its index (from 0).",
    )
    replay.add_argument("file", metavar="FILE", help="JSON input file, or - for stdin")
    replay.set_defaults(handler=_replay)


def _cards(value: object, where: str) -> list[Card]:
    return read_cards(value, where, InputError)


def _tally(args: argparse.Namespace) -> int:
    data = read_json(args.file)
    if not isinstance(data, dict):
        raise InputError('the tally input is a JSON object with "players"')
    unknown = sorted(set(data) - set(_TALLY_FIELDS))
    if unknown:
        raise InputError(f"unknown field {unknown[0]!r}: use {', '.join(_TALLY_FIELDS)}")
    rules = data.get("rules", RULESETS[0])
    if rules not in RULESETS:
        raise InputError(f"unknown rules {rules!r}: use one of {', '.join(RULESETS)}")
    decks = data.get("decks", 1)
    if not isinstance(decks, int) or isinstance(decks, bool):
        raise InputError(f'"decks" must be a whole number of decks, not {decks!r}')
    options = TossOptions(ruleset=rules, decks=decks)
    players = data.get("players")
    if not isinstance(players, dict) or not players:
        raise InputError('"players" must map each player to {"melded": [...], "hand": [...]}')
    melded: dict[str, list[Card]] = {}
    hands: dict[str, list[Card]] = {}
    for name, entry in players.items():
        if not isinstance(entry, dict) or set(entry) - {"melded", "hand"}:
            raise InputError(f'player {name!r} must be {{"melded": [codes], "hand": [codes]}}')
        melded[name] = _cards(entry.get("melded", []), f"{name}'s melded cards")
        hands[name] = _cards(entry.get("hand", []), f"{name}'s hand")
    teams = data.get("teams")
    if teams is not None and not (
            isinstance(teams, dict) and all(
                isinstance(m, list) and all(isinstance(p, str) for p in m)
                for m in teams.values())):
        raise InputError('"teams" must map each team name to a list of player names')
    went_out = data.get("went_out")
    if went_out is not None and not isinstance(went_out, str):
        raise InputError('"went_out" must be a player name or null')
    return emit(tally_hand(melded, hands, options, teams or None, went_out).to_json())


def _replay(args: argparse.Namespace) -> int:
    data = read_json(args.file)
    if not isinstance(data, dict) or "setup" not in data or "events" not in data:
        raise InputError('the replay input is a JSON object {"setup": {...}, "events": [...]}')
    if not isinstance(data["events"], list):
        raise InputError('"events" must be a list of event objects')
    setup, events = log.read_log(data)
    fold = log.begin(setup)
    for index, event in enumerate(events):
        try:
            fold = log.step(fold, event)
        except ValueError as exc:  # a malformed event or a rule refusing it
            kind = event.get("type") if isinstance(event, Mapping) else None
            return _refused(index, kind, str(exc))
    return emit(fold.state.to_json())


def _refused(index: int, kind: object, reason: str) -> int:
    label = f" ({kind})" if isinstance(kind, str) else ""
    message = f"event {index}{label} was refused: {reason}"
    json.dump({"error": message, "index": index, "reason": reason}, sys.stdout,
              ensure_ascii=False)
    sys.stdout.write("\n")
    print(f"scorekeeper: error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT
