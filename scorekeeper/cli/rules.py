"""Rules commands: ``meld`` (adjudicate a meld), ``chips`` (settle chips), ``peg`` (peg board).

    scorekeeper meld --rules toss-rummy Kcl jk-red Khe
    scorekeeper chips totals.json
    scorekeeper peg 437
"""

from __future__ import annotations

import argparse

from scorekeeper.cards import (
    STANDARD_SUITS,
    TOSS,
    Card,
    CardNotInDeckError,
    DeckKind,
    TooManyCopiesError,
    check_cards,
    decks_copies,
    parse_cards,
)
from scorekeeper.chips import CHIP_GAMES, settle
from scorekeeper.cli import InputError, Subparsers, emit, read_json
from scorekeeper.melds import judge_meld
from scorekeeper.pegboard import PegPosition
from scorekeeper.rulesets import COMPLEX, RULESETS, TOSS_OPTION, TossOptions

__all__ = ["CHIP_GAMES", "add_decks_option", "register", "table_cards"]


def add_decks_option(parser: argparse.ArgumentParser) -> None:
    """The ``--decks N`` option every card command takes (docs/rules.md 6)."""
    parser.add_argument("--decks", type=int, default=1,
                        help="number of whole decks at the table (default 1)")


def table_cards(tokens: list[str], decks: int, deck: DeckKind) -> list[Card]:
    """Parse card codes (separate arguments or comma-separated) and check them against the
    table's decks, saying how to fix a card the decks do not hold. An empty argument is refused.

    >>> table_cards(["Kcl", "Kcl"], 1, "toss")
    Traceback (most recent call last):
    ...
    scorekeeper.cli.InputError: Kcl appears 2 times but 1 deck holds only 1: remove the extra \
copy, or give --decks 2 if the table plays with 2 decks
    """
    cards = parse_cards(tokens)
    try:
        check_cards(cards, decks, deck)
    except TooManyCopiesError as exc:
        needed = next(n for n in range(decks + 1, exc.count + 2)
                      if decks_copies(exc.card, n) >= exc.count)
        raise InputError(f"{exc}: remove the extra copy, or give --decks {needed} if the table"
                         f" plays with {needed} decks") from exc
    except CardNotInDeckError as exc:
        if deck == TOSS:
            hint = "a Toss deck's jokers are boss, jk-black, jk-red, jk-gold and jk-blue"
        else:
            hint = (f"this game uses the standard suits {', '.join(STANDARD_SUITS)} and the"
                    " jokers jk, jk-red and jk-black")
        raise InputError(f"{exc}: {hint}") from exc
    return cards


def register(subparsers: Subparsers) -> None:
    """Add the ``meld``, ``chips`` and ``peg`` commands."""
    meld = subparsers.add_parser(
        "meld",
        help="judge a meld: set, sequence or joker set, its points and top cards",
        description="Judge whether the cards form a valid meld (docs/rules.md 2-3). Cards are codes"
        " like Kcl 10di jk-red boss, separate arguments or one comma-separated argument.",
    )
    meld.add_argument("--rules", choices=RULESETS, default=COMPLEX,
                      help="ruleset whose card values apply (default %(default)s)")
    ace = TOSS_OPTION["ace"]
    meld.add_argument("--ace", choices=ace.choices, default=ace.default,
                      help=f"the ace option: {ace.help} (default {ace.default})")
    add_decks_option(meld)
    meld.add_argument("cards", nargs="+", metavar="CARD", help="card codes")
    meld.set_defaults(handler=_meld)

    chips = subparsers.add_parser(
        "chips",
        help="settle chips at game end",
        description='Settle chips from a JSON file (or - for stdin): {"game": "toss-rummy",'
        ' "chips_per_points": 10, "totals": {"ann": 1040, "bob": 815}}; in team play the'
        ' totals are per team and "teams": {"North": ["ann", "cy"], ...} splits each team\'s'
        ' chips evenly among its members (adds "members" and "pot"). Tong-Its and Toss Colors:'
        ' see docs/games.md. Known games: ' + ", ".join(sorted(CHIP_GAMES)) + ".",
    )
    chips.add_argument("file", metavar="FILE", help="JSON input file, or - for stdin")
    chips.set_defaults(handler=_chips)

    peg = subparsers.add_parser(
        "peg",
        help="peg positions of a score on the Complex Toss Rummy board",
        description="Show where the pegs stand for a score: minus light, thousands,"
        " and the hundreds, tens and ones holes.",
    )
    peg.add_argument("score", type=int, metavar="SCORE", help="a whole score, may be negative")
    peg.set_defaults(handler=_peg)


def _meld(args: argparse.Namespace) -> int:
    options = TossOptions(ruleset=args.rules, ace=args.ace, decks=args.decks)
    cards = table_cards(args.cards, options.decks, TOSS)
    return emit(judge_meld(cards, options).to_json())


def _chips(args: argparse.Namespace) -> int:
    return emit(settle(read_json(args.file)))


def _peg(args: argparse.Namespace) -> int:
    return emit(PegPosition.from_score(args.score).to_json())
