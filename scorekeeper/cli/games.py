"""Commands for the other games of the seeds: ``deadwood``, ``indian-chief``, ``score``, ``games``.

Every command prints JSON; malformed input gives ``{"error": ...}`` and exit code 2.
"""

from __future__ import annotations

import argparse

from scorekeeper.cards import STANDARD
from scorekeeper.cli import InputError, Subparsers, emit, read_json
from scorekeeper.cli.rules import add_decks_option, table_cards
from scorekeeper.deadwood import TONG_ITS, solve, three_thirteen
from scorekeeper.game import GAMES, get_game
from scorekeeper.games import GAMES as PACKS
from scorekeeper.games import RulesPack
from scorekeeper.games.indian_chief import MELDS, score_meld
from scorekeeper.options import MAX_DECKS

DEADWOOD_GAMES = ("three-thirteen", "tong-its")

def score_help() -> str:
    """The ``score`` command's epilog: each game's hand fields, from its own hand form."""
    lines = ['FILE (or - for stdin) is a JSON object with "game", "totals" ({NAME: points} before'
             ' the hand),', 'optional "decks" (default 1), the game\'s options by name, and the'
             " hand's entry:"]
    for pack in PACKS.values():
        fields = ", ".join(f'"{f.name}"' + ("" if f.required else "?") for f in pack.hand_form)
        options = ", ".join(f'"{o.name}"' for o in pack.options)
        lines.append(f"  {pack.name:<15} {{{fields}}}" + (f"  options: {options}" if options
                                                           else ""))
    lines += ['Output: {"hand": {NAME: int}, "totals": {NAME: int}, "game_over": bool, "winner":'
              ' NAME|null,', '"rule": str, ...details}. ("?": optional.) See docs/games.md and'
              " scorekeeper games GAME."]
    return "\n".join(lines) + "\n"



def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "deadwood",
        help="minimum deadwood of a Three Thirteen or Tong-Its hand",
        description="The minimum deadwood over every arrangement of the hand into melds. "
        'Prints {"deadwood": int, "melds": [[codes]], "unmatched": [codes]}.',
    )
    p.add_argument("--game", required=True, choices=DEADWOOD_GAMES)
    p.add_argument("--hand-no", type=int, default=None,
                   help="Three Thirteen hand 1-11: 3s wild in hand 1 ... kings in hand 11")
    add_decks_option(p)
    p.add_argument("cards", nargs="*", metavar="CARD", help="card codes, like 10he Qsp Acl")
    p.set_defaults(handler=_deadwood)

    p = subparsers.add_parser(
        "indian-chief",
        help="score one Indian Chief meld",
        description='Score one Indian Chief meld from its cards. Prints {"points": int, '
        '"reason": str}.',
    )
    p.add_argument("meld", choices=list(MELDS), metavar="MELD",
                   help=f"one of {', '.join(MELDS)}")
    p.add_argument("--suit", default=None, help="the Doctor's named suit (cl sp he di); "
                   "default: the suit that scores best")
    p.add_argument("--opponents", action="append", default=[], metavar="CARDS",
                   help="the opponents' melded cards, for the Beggar Man (space or comma "
                   "separated; may be repeated)")
    add_decks_option(p)
    p.add_argument("cards", nargs="+", metavar="CARD")
    p.set_defaults(handler=_indian_chief)

    p = subparsers.add_parser(
        "score",
        help="score one hand of " + ", ".join(pack.title for pack in PACKS.values()),
        description="Score one hand of a game from a JSON file.",
        epilog=score_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", metavar="FILE", help="JSON input file, or - for stdin")
    p.set_defaults(handler=_score)

    p = subparsers.add_parser(
        "games",
        help="list the games, or describe one: options and the keeper's hand form",
    )
    p.add_argument("name", nargs="?", default=None, metavar="GAME")
    p.set_defaults(handler=_games)


def _decks(value: int) -> int:
    if not 1 <= value <= MAX_DECKS:
        raise InputError(f"--decks must be from 1 to {MAX_DECKS}, not {value}")
    return value


def _deadwood(args: argparse.Namespace) -> int:
    cards = table_cards(args.cards, _decks(args.decks), STANDARD)
    if args.game == "three-thirteen":
        if args.hand_no is None:
            raise InputError("Three Thirteen needs --hand-no 1-11 (it sets the wild rank)")
        rules = three_thirteen(args.hand_no)
    else:
        if args.hand_no is not None:
            raise InputError("--hand-no is for Three Thirteen only: Tong-Its has no wilds")
        rules = TONG_ITS
    return emit(solve(cards, rules).to_json())


def _indian_chief(args: argparse.Namespace) -> int:
    decks = _decks(args.decks)
    if args.opponents and args.meld != "beggar-man":
        raise InputError("--opponents is for the Beggar Man only: leave it out for the"
                         f" {args.meld}")
    # One check over the meld and the opponents' cards: together they may not exceed the decks.
    table_cards([*args.cards, *args.opponents], decks, STANDARD)
    cards = table_cards(args.cards, decks, STANDARD)
    opponents = table_cards(args.opponents, decks, STANDARD)
    return emit(score_meld(args.meld, cards, args.suit, opponents).to_json())


def _score(args: argparse.Namespace) -> int:
    data = read_json(args.file)
    if not isinstance(data, dict):
        raise InputError("the input must be a JSON object with a \"game\"")
    game = data.get("game")
    if not isinstance(game, str):
        raise InputError(f'"game" must name a game: one of {", ".join(PACKS)}')
    pack = get_game(game)
    if not isinstance(pack, RulesPack):
        raise InputError(f"{pack.title} is scored event by event: use replay (or tally for one"
                         " hand)")
    return emit(pack.score_json(data))


def _games(args: argparse.Namespace) -> int:
    if args.name is None:
        keys = ("name", "title", "seed", "engine", "chips")
        return emit([{key: game.describe()[key] for key in keys} for game in GAMES.values()])
    return emit(get_game(args.name).describe())
