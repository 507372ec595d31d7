"""Vision commands: ``deck calibrate`` (learn a deck from photos) and ``recognize`` (name cards).

    scorekeeper deck calibrate photos/ --out mydeck.npz --deck toss
    scorekeeper recognize meld.jpg --deck mydeck.npz

OpenCV is imported only when one of these runs, so ``scorekeeper --help`` stays fast.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scorekeeper.cli import EXIT_OK, EXIT_SOME_FAILED, InputError, Subparsers, emit

__all__ = ["register"]


def register(subparsers: Subparsers) -> None:
    deck = subparsers.add_parser(
        "deck", help="learn a deck's cards from photos (one per card)",
        description="Deck profiles for card recognition.")
    deck_commands = deck.add_subparsers(dest="deck_command", required=True,
                                        parser_class=type(deck))
    cal = deck_commands.add_parser(
        "calibrate", help="learn a deck from a folder of photos, one per card",
        description="Learn a deck from DIR, which holds one photo per card named by its code "
                    "(Qsh.jpg, 10di.png, boss.jpg, null.jpg), each card lying flat and "
                    "photographed roughly from above. Progress goes to stderr; the JSON "
                    "result to stdout. Exit 0 when every photo was learned, 1 when some were "
                    "not (the profile holds the rest), 2 for bad arguments.")
    cal.add_argument("dir", metavar="DIR", help="folder of card photos")
    cal.add_argument("--out", metavar="PROFILE", required=True,
                     help="profile file to write (.npz)")
    cal.add_argument("--deck", choices=("toss", "standard"), default="toss",
                     help="deck kind (default toss)")
    cal.add_argument("--name", help="a name for the deck (default: the folder's name)")
    cal.add_argument("--quiet", action="store_true", help="no progress on stderr")
    cal.set_defaults(handler=_calibrate)

    rec = subparsers.add_parser(
        "recognize", help="name the cards in a photo",
        description="Name the cards in a photo of a meld or a hand: JSON with each card's "
                    "code, confidence (0..1), whether it lies on top, and its four corners "
                    "in the upright photo's pixels, left to right; plus warnings.")
    rec.add_argument("photo", metavar="PHOTO", help="JPEG or PNG photo")
    rec.add_argument("--deck", metavar="PROFILE",
                     help="deck profile from 'deck calibrate' (default: the built-in "
                          "reference Toss deck)")
    rec.set_defaults(handler=_recognize)


def _calibrate(args: argparse.Namespace) -> int:
    from scorekeeper.vision import VisionError, calibrate, save_profile

    folder = Path(args.dir)
    if not folder.is_dir():
        raise InputError(f"{args.dir} is not a folder: give the folder holding the card photos")
    out = Path(args.out)
    if out.is_dir():
        raise InputError(f"--out {args.out} is a folder: give a file name like mydeck.npz")
    if not out.parent.exists():
        raise InputError(f"--out {args.out}: the folder {out.parent} does not exist")

    def progress(done: int, total: int, name: str, error: str | None) -> None:
        if not args.quiet:
            status = "learned" if error is None else f"NOT learned: {error}"
            print(f"[{done}/{total}] {name}: {status}", file=sys.stderr, flush=True)

    try:
        result = calibrate(folder, args.deck, args.name, progress)
    except VisionError as exc:
        raise InputError(str(exc)) from exc
    report = result.to_json()
    if len(result.profile):
        try:
            save_profile(result.profile, out)
        except OSError as exc:
            raise InputError(f"cannot write {args.out}: {exc.strerror or exc}") from exc
        report["profile"] = str(out)
    else:
        report["profile"] = None
    if not args.quiet:
        learned, failed = len(result.learned), len(result.failed)
        print(f"learned {learned} card(s), {failed} photo(s) not learned"
              + (f"; wrote {out}" if len(result.profile) else "; no profile written"),
              file=sys.stderr)
        if result.missing:
            print(f"no photo for: {' '.join(result.missing)}", file=sys.stderr)
        for doubt in result.doubts.values():
            print(f"learned, but doubted: {doubt}", file=sys.stderr)
    emit(report)
    return EXIT_OK if not result.failed and len(result.profile) else EXIT_SOME_FAILED


def _recognize(args: argparse.Namespace) -> int:
    from scorekeeper.vision import VisionError, load_profile, recognize

    profile = load_profile(args.deck) if args.deck else None
    photo = Path(args.photo)
    if not photo.is_file():
        raise InputError(f"{args.photo} is not a file: give the path of a photo")
    try:
        result = recognize(photo, profile)
    except VisionError as exc:
        raise InputError(f"{args.photo}: {exc}") from exc
    return emit(result.to_json())
