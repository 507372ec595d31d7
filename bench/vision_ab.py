"""Side-by-side reading of the tuned and probe decks, for trying a change to the recogniser.

Composing a deck's photos takes far longer than reading them, so ``build`` composes them once
(the benchmark's seeds: each deck's calibration photos and its first photos, as
``vision_bench.py`` draws them) into a cache; ``run`` reads them with the code at hand and
writes one JSON line per card, per extra detection and per photo; ``compare`` prints the totals
of two runs and every card read differently. Held-out decks are never cached: they are read
only by ``vision_bench.py --group held-out``, once a change is settled.

    python bench/vision_ab.py build /tmp/ab                       # tuned and all probe decks
    python bench/vision_ab.py build /tmp/ab --decks paris,kde,p08 --photos 8
    python bench/vision_ab.py build /tmp/fresh --seed 31000         # photos never tuned on
    python bench/vision_ab.py build /tmp/jokers --jokers --photos 6 # each photo with jokers
    python bench/vision_ab.py run /tmp/ab before.jsonl            # profiles learned at build
    python bench/vision_ab.py run /tmp/ab after.jsonl --recalibrate   # for calibration changes
    python bench/vision_ab.py reprofile /tmp/ab     # profiles learned again, kept in the cache
    python bench/vision_ab.py compare before.jsonl after.jsonl

The code compared is whatever ``scorekeeper`` imports: run the "before" from a checkout of the
earlier commit (``git worktree add``, then ``PYTHONPATH`` pointing at it).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import pickle  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from collections.abc import Callable, Iterator  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vision_bench as bench  # noqa: E402

from scorekeeper.vision import art  # noqa: E402
from scorekeeper.vision.profile import DeckProfile  # noqa: E402
from scorekeeper.vision.recognition import recognize  # noqa: E402
from scorekeeper.vision.synth import make_photo, match, with_jokers  # noqa: E402

SEED = 2026


def _decks(names: str, seed: int = SEED
           ) -> Iterator[tuple[str, str, Callable[[], art.ArtDeck], int]]:
    """(tag, deck name, deck maker, seed) of the tuned and probe decks whose tags are, or whose
    names hold, one of ``names`` (comma-separated; all when empty), seeded as
    ``vision_bench.py --seed`` seeds them. Names with a comma in them are asked for by tag.

    >>> [tag for tag, *_ in _decks("t02,p08")]
    ['t02', 'p08']
    """
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    for prefix, group in (("t", bench.TUNED), ("p", bench.PROBES)):
        for n, (name, make) in enumerate(group.items()):
            tag = f"{prefix}{n:02d}"
            if not wanted or any(w == tag or w in name for w in wanted):
                yield tag, name, make, seed + 10 * n


def _learn(photos: dict[str, bytes], kind: str) -> tuple[DeckProfile, list[str], list[str]]:
    result, _ = bench.learn(photos, kind)
    return result.profile, sorted(result.doubts), sorted(result.failed)


def build(cache: Path, names: str, photos: int, first_seed: int, jokers: bool = False) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    for tag, name, make, seed in _decks(names, first_seed):
        deck = make()
        wild = [c for c in deck.codes if c.startswith("jk")]
        if jokers and not wild:
            print(f"{tag} {name}: no jokers, left out", flush=True)
            continue
        calibration = bench.calibration_photos(deck, seed)
        profile, doubts, failed = _learn(calibration, deck.kind)
        rng = np.random.default_rng(seed + 1)
        shots = [make_photo(rng, with_jokers(rng, deck.codes, wild) if jokers else deck.codes,
                            deck, size=(4000, 3000), table="wild")
                 for _ in range(photos)]
        (cache / f"{tag}.pkl").write_bytes(pickle.dumps({
            "tag": tag, "name": name, "kind": deck.kind, "calibration": calibration,
            "profile": profile.to_bytes(), "shots": shots}))
        print(f"{tag} {name}: {len(profile)} cards learned, doubted {doubts}, "
              f"failed {failed}", flush=True)


def reprofile(cache: Path, names: str) -> None:
    """Learn each cached deck's profile again with the code at hand and keep it in the cache:
    a cache built before a change to calibration otherwise reads with profiles no user would
    have (``run`` uses the cached profile)."""
    tags = {tag for tag, *_ in _decks(names)}
    for file in sorted(cache.glob("*.pkl")):
        if file.stem not in tags:
            continue
        deck = pickle.loads(file.read_bytes())
        profile, doubts, failed = _learn(deck["calibration"], deck["kind"])
        learned = profile.to_bytes()
        changed = learned != deck["profile"]
        deck["profile"] = learned
        file.write_bytes(pickle.dumps(deck))
        print(f"{deck['tag']}: {len(profile)} cards learned, doubted {doubts}, failed {failed}"
              f"{', changed' if changed else ''}", flush=True)


def run(cache: Path, out: Path, recalibrate: bool, names: str) -> None:
    cv2.setNumThreads(1)
    tags = {tag for tag, *_ in _decks(names)}
    with out.open("w") as sink:
        for file in sorted(cache.glob("*.pkl")):
            if file.stem not in tags:
                continue
            deck = pickle.loads(file.read_bytes())
            tag = deck["tag"]
            if recalibrate:
                profile, doubts, failed = _learn(deck["calibration"], deck["kind"])
                sink.write(json.dumps({"deck": tag, "learned": len(profile), "doubts": doubts,
                                       "failed": failed}) + "\n")
            else:
                profile = DeckProfile.from_bytes(deck["profile"])
            for i, shot in enumerate(deck["shots"]):
                start = time.process_time()
                result = recognize(shot.jpeg, profile)
                cpu = time.process_time() - start
                pairs = match(list(shot.cards), [c.corners for c in result.cards])
                for j, truth in enumerate(shot.cards):
                    k = pairs.get(j)
                    got = result.cards[k] if k is not None else None
                    sink.write(json.dumps({
                        "deck": tag, "photo": i, "card": j, "code": truth.code,
                        "top": truth.top, "got": got.code if got else None,
                        "confidence": round(got.confidence, 3) if got else None,
                        "read_top": bool(got.top) if got else None}) + "\n")
                taken = set(pairs.values())
                for j, found in enumerate(result.cards):
                    if j not in taken:
                        sink.write(json.dumps({"deck": tag, "photo": i, "extra": found.code,
                                               "confidence": round(found.confidence, 3),
                                               "read_top": bool(found.top)}) + "\n")
                sink.write(json.dumps({"deck": tag, "photo": i, "cpu": round(cpu, 4)}) + "\n")
            sink.flush()
            print(f"{tag} read", flush=True)


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def totals(rows: list[dict[str, Any]]) -> str:
    """One line of totals: cards right, extras, photos exact, confident right, top cards, CPU."""
    cards = [r for r in rows if "code" in r]
    extras = [r for r in rows if "extra" in r]
    sure = [r for r in cards + extras
            if r["confidence"] is not None and r["confidence"] >= bench.CONFIDENT]
    wrong: dict[tuple[str, int], int] = defaultdict(int)
    tops: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])
    for r in cards:
        key = (r["deck"], r["photo"])
        wrong[key] += r["got"] != r["code"]
        tops[key][0] += bool(r["top"])
        tops[key][1] += bool(r["top"]) != bool(r["read_top"])
    for r in extras:
        key = (r["deck"], r["photo"])
        wrong[key] += 1
        tops[key][1] += bool(r["read_top"])
    cpu = sorted(r["cpu"] for r in rows if "cpu" in r)
    with_top = [bad for want, bad in tops.values() if want]
    return (f"cards {sum(r['got'] == r['code'] for r in cards)}/{len(cards)}, "
            f"{len(extras)} extra, photos exact {sum(n == 0 for n in wrong.values())}/"
            f"{len(wrong)}, confident right {sum(r.get('got') == r.get('code') for r in sure)}/"
            f"{len(sure)}, top cards {sum(bad == 0 for bad in with_top)}/{len(with_top)}, "
            f"CPU median {1000 * (cpu[len(cpu) // 2] if cpu else 0.0):.0f} ms")


def compare(before: Path, after: Path) -> None:
    a, b = _rows(before), _rows(after)
    print(f"before: {totals(a)}")
    print(f"after:  {totals(b)}")

    def by_card(rows: list[dict[str, Any]]) -> dict[tuple[str, int, int], dict[str, Any]]:
        return {(r["deck"], r["photo"], r["card"]): r for r in rows if "code" in r}

    def sure(r: dict[str, Any]) -> bool:
        return r["confidence"] is not None and r["confidence"] >= bench.CONFIDENT

    cards_a, cards_b = by_card(a), by_card(b)
    for key in sorted(cards_a.keys() & cards_b.keys()):
        x, y = cards_a[key], cards_b[key]
        if (x["got"], sure(x)) != (y["got"], sure(y)):
            print(f"  {key[0]} photo {key[1]} card {key[2]} {x['code']}: {x['got']} "
                  f"({x['confidence']}) -> {y['got']} ({y['confidence']})")
    extras_a = sorted((r["deck"], r["photo"], r["extra"]) for r in a if "extra" in r)
    extras_b = sorted((r["deck"], r["photo"], r["extra"]) for r in b if "extra" in r)
    for gone in sorted(set(extras_a) - set(extras_b)):
        print(f"  extra {gone} no longer")
    for new in sorted(set(extras_b) - set(extras_a)):
        print(f"  extra {new} new")
    learned_a = {r["deck"]: r for r in a if "learned" in r}
    for r in b:
        if "learned" in r and r["deck"] in learned_a:
            was = learned_a[r["deck"]]
            if (was["learned"], was["doubts"]) != (r["learned"], r["doubts"]):
                print(f"  {r['deck']} calibration: {was['learned']} learned, doubted "
                      f"{was['doubts']} -> {r['learned']}, doubted {r['doubts']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("build", help="compose the tuned and probe decks' photos into a cache")
    p.add_argument("cache", type=Path)
    p.add_argument("--decks", default="", help="only decks whose tags (t00, p08) are, or whose "
                                              "names hold, one of these (comma-separated)")
    p.add_argument("--photos", type=int, default=8, help="photos per deck (default 8)")
    p.add_argument("--seed", type=int, default=SEED,
                   help=f"the benchmark's seed (default {SEED}); another one composes a fresh "
                        "set of calibration photos and photos that no change was tuned on")
    p.add_argument("--jokers", action="store_true",
                   help="photos that each hold one or two of the deck's jokers and four other "
                        "cards (decks without jokers are left out)")
    p = sub.add_parser("run", help="read the cached photos with the code at hand")
    p.add_argument("cache", type=Path)
    p.add_argument("out", type=Path)
    p.add_argument("--recalibrate", action="store_true",
                   help="learn each deck again from its cached calibration photos first")
    p.add_argument("--decks", default="")
    p = sub.add_parser("reprofile", help="learn the cached decks' profiles again, kept in the "
                                         "cache")
    p.add_argument("cache", type=Path)
    p.add_argument("--decks", default="")
    p = sub.add_parser("compare", help="totals of two runs and the cards read differently")
    p.add_argument("before", type=Path)
    p.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    if args.command == "build":
        bench.install()
        build(args.cache, args.decks, args.photos, args.seed, args.jokers)
    elif args.command == "run":
        run(args.cache, args.out, args.recalibrate, args.decks)
    elif args.command == "reprofile":
        reprofile(args.cache, args.decks)
    else:
        compare(args.before, args.after)
    return 0


if __name__ == "__main__":
    sys.exit(main())
