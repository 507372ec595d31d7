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
among the codes read (each reading counted once). Time is recognition only (decode included)
on one thread, process CPU time.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402

from scorekeeper.vision.calibration import Calibration, calibrate_dir  # noqa: E402
from scorekeeper.vision.recognition import Recognition, recognize  # noqa: E402

#: Readings at or above this confidence count as sure (the phone page asks about the rest).
CONFIDENT = 0.9
LABELS = Path(__file__).with_name("real") / "altenburg.json"


@dataclass
class Tally:
    cards: int = 0
    right: int = 0
    extra: int = 0
    photos: int = 0
    exact: int = 0
    tops: int = 0
    tops_right: int = 0
    confident: int = 0
    confident_right: int = 0
    cpu: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class PhotoScore:
    right: int
    extra: int
    exact: bool
    top_right: bool
    confident: int
    confident_right: int


def score(truth: list[str], top: str | None, found: list[tuple[str, float, bool]]) -> PhotoScore:
    """Score one photo's readings (code, confidence, marked top) against its labelled codes:
    each labelled card read right at most once, surer readings counted first; the top card
    right when exactly the labelled top card is marked.

    >>> score(["Khe", "Qhe"], "Khe", [("Khe", 1.0, True), ("Khe", 0.95, False)])
    PhotoScore(right=1, extra=1, exact=False, top_right=True, confident=2, confident_right=1)
    >>> score(["Khe", "Qhe"], "Khe", [("Qhe", 0.5, True), ("Khe", 1.0, False)]).top_right
    False
    """
    left = Counter(truth)
    right = confident = confident_right = 0
    for code, confidence, _ in sorted(found, key=lambda f: -f[1]):
        hit = left[code] > 0
        left[code] -= hit
        right += hit
        if confidence >= CONFIDENT:
            confident += 1
            confident_right += hit
    extra = len(found) - right
    tops = [code for code, _, marked in found if marked]
    return PhotoScore(right, extra, right == len(truth) and extra == 0,
                      top is not None and tops == [top], confident, confident_right)


def learn(root: Path, labels: dict[str, str], kind: str) -> tuple[Calibration, float]:
    """The deck learned from its calibration photos (copied under their card codes), and the
    seconds it took."""
    with tempfile.TemporaryDirectory() as tmp:
        for name, code in labels.items():
            source = root / name
            (Path(tmp) / f"{code}{source.suffix.lower()}").write_bytes(source.read_bytes())
        start = time.perf_counter()
        result = calibrate_dir(tmp, deck=kind)  # type: ignore[arg-type]
        return result, time.perf_counter() - start


def read(recognition: Recognition) -> list[tuple[str, float, bool]]:
    return [(c.code, c.confidence, c.top) for c in recognition.cards]


def report(tally: Tally) -> None:
    def share(a: int, b: int) -> str:
        return f"{100 * a / max(1, b):6.2f}%  ({a}/{b}"

    print(f"    card accuracy   {share(tally.right, tally.cards)}; {tally.extra} extra "
          "detections)")
    print(f"    photo exact     {share(tally.exact, tally.photos)})")
    print(f"    top card        {share(tally.tops_right, tally.tops)})")
    print(f"    confident right {share(tally.confident_right, tally.confident)} cards read with "
          f"confidence >= {CONFIDENT})")
    print(f"    time per photo  CPU median {1000 * statistics.median(tally.cpu or [0]):.0f} ms "
          f"({tally.photos} photos)")


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
    calibration, seconds = learn(root, spec["calibration"], spec["kind"])
    failed = f", failed {sorted(calibration.failed)}" if calibration.failed else ""
    doubted = f", doubted {sorted(calibration.doubts)}" if calibration.doubts else ""
    print(f"  calibration     {len(calibration.learned)} of {len(spec['calibration'])} cards "
          f"learned in {seconds:.1f} s{failed}{doubted}")
    parts = {"tuned": Tally(), "held-out": Tally()}
    for name, label in spec["photos"].items():
        held_out = name.startswith(spec["held_out"])
        if args.part != "both" and args.part != ("held-out" if held_out else "tuned"):
            continue
        tally = parts["held-out" if held_out else "tuned"]
        data = (root / name).read_bytes()
        start = time.process_time()
        result = recognize(data, calibration.profile)
        tally.cpu.append(time.process_time() - start)
        found = read(result)
        s = score(label["cards"], label.get("top"), found)
        tally.cards += len(label["cards"])
        tally.right += s.right
        tally.extra += s.extra
        tally.photos += 1
        tally.exact += s.exact
        tally.tops += label.get("top") is not None
        tally.tops_right += s.top_right
        tally.confident += s.confident
        tally.confident_right += s.confident_right
        if args.each and not held_out:
            got = ", ".join(f"{c}{'*' if t else ''} {p:.2f}" for c, p, t in found) or "nothing"
            print(f"    {name}: {' '.join(label['cards'])} -> {got}")
    for part, tally in parts.items():
        if not tally.photos:
            continue
        print(f"  {part} photos ({'never looked at' if part == 'held-out' else 'looked at'}):")
        report(tally)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
