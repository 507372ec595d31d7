"""Card recognition on real phone photos of a real deck, labelled by hand (bench/DATA.md).

A set is the photos, in a clone of the repository they come from, and a labels file in
``bench/real/``: which photo calibrates which card, for each photo of play the cards whose
corner index shows (the card lying on top first), and which photos are held out (one game of
the three: never looked at while tuning, and never listed one by one). The photos are not
committed (their source states no licence); the labels are this project's own.

    git clone https://github.com/AnimaNoProject/Detecting-playing-cards /tmp/altenburg
    python bench/vision_real.py /tmp/altenburg            # bench/real/altenburg.json
    python bench/vision_real.py /tmp/altenburg --part tuned --each   # a line per photo

The deck is learned from its calibration photos, then every photo of play is read once.
Recognition has no positions to match here: a card counts as read right when its code is
among the codes read (each reading counted once). The figures are ``vision_bench.py``'s,
outlines aside; time is recognition only (decode included) on one thread.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vision_bench as bench  # noqa: E402

from scorekeeper.vision.recognition import Recognition, recognize  # noqa: E402

LABELS = Path(__file__).with_name("real") / "altenburg.json"


def score(truth: list[str], top: str | None, result: Recognition, tally: bench.Tally) -> None:
    """Count one photo's readings against its labelled codes: each labelled card read right
    at most once, surer readings counted first; the top card right when exactly the labelled
    top card is marked.

    >>> from scorekeeper.vision.recognition import RecognizedCard
    >>> def card(code, confidence, top):
    ...     return RecognizedCard(code, confidence, top, ((0, 0),) * 4, ())
    >>> tally = bench.Tally()
    >>> score(["Khe", "Qhe"], "Khe", Recognition((card("Khe", 1.0, True), card("Khe", 0.95,
    ...       False)), (), 10, 10), tally)
    >>> tally.cards_right, tally.extra, tally.photos_right, tally.tops_right, tally.confident
    (1, 1, 0, 1, 2)
    """
    left = Counter(truth)
    right = 0
    for card in sorted(result.cards, key=lambda c: -c.confidence):
        hit = left[card.code] > 0
        left[card.code] -= hit
        right += hit
        if card.confidence >= bench.CONFIDENT:
            tally.confident += 1
            tally.confident_right += hit
    extra = len(result.cards) - right
    tally.cards += len(truth)
    tally.cards_right += right
    tally.extra += extra
    tally.photos += 1
    tally.photos_right += int(right == len(truth) and extra == 0)
    if top is not None:
        tally.tops += 1
        tally.tops_right += int([c.code for c in result.cards if c.top] == [top])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("clone", type=Path, help="a clone of the set's source repository")
    parser.add_argument("--labels", type=Path, default=LABELS, help=f"default {LABELS}")
    parser.add_argument("--part", choices=["tuned", "held-out", "both"], default="both",
                        help="which photos to read (both by default)")
    parser.add_argument("--each", action="store_true",
                        help="print a line per photo of the part that is not held out")
    args = parser.parse_args(argv)
    spec = json.loads(args.labels.read_text())
    root = args.clone / spec["folder"]
    if not root.is_dir():
        parser.error(f"{root} is missing: clone {spec['source']} (commit {spec['commit'][:12]}) "
                     "and give the clone's folder")
    head = subprocess.run(["git", "-C", str(args.clone), "rev-parse", "HEAD"],
                          capture_output=True, text=True).stdout.strip()
    if head and head != spec["commit"]:
        print(f"warning: the clone is at {head[:12]}, the labels are for {spec['commit'][:12]}")
    cv2.setNumThreads(1)
    print(f"{spec['name']}: {spec['source']} at {spec['commit'][:12]}, OpenCV {cv2.__version__}, "
          "1 thread")
    calibration, seconds = bench.learn(
        {code: (root / name).read_bytes() for name, code in spec["calibration"].items()},
        spec["kind"])
    learned = bench.learned_summary(calibration, seconds, len(spec["calibration"]))
    parts = {"tuned": bench.Tally(), "held-out": bench.Tally()}
    for name, label in spec["photos"].items():
        held_out = name.startswith(spec["held_out"])
        if args.part != "both" and args.part != ("held-out" if held_out else "tuned"):
            continue
        tally = parts["held-out" if held_out else "tuned"]
        data = (root / name).read_bytes()
        start, start_cpu = time.perf_counter(), time.process_time()
        result = recognize(data, calibration.profile)
        tally.times.append(time.perf_counter() - start)
        tally.cpu.append(time.process_time() - start_cpu)
        score(label["cards"], label.get("top"), result, tally)
        if args.each and not held_out:
            got = ", ".join(f"{c.code}{'*' if c.top else ''} {c.confidence:.2f}"
                            for c in result.cards) or "nothing"
            print(f"    {name}: {' '.join(label['cards'])} -> {got}")
    for part, tally in parts.items():
        if tally.photos:
            looked = "never looked at" if part == "held-out" else "looked at"
            tally.report(f"{part} photos ({looked}, {tally.photos})", learned, 0, outline=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
