"""Card recognition benchmark on seeded synthetic phone photos.

Draws photos of the built-in reference Toss deck (fans of 3-7 overlapping cards, cards apart,
both; tilt up to 45 degrees, any rotation, felt or wood, light gradients and shadows, warm or
cool light, blur, noise, JPEG quality 40-95, EXIF orientation, 12 megapixels), recognises them
and prints card accuracy, photo accuracy, top-card accuracy and time per photo. Then it draws a
second deck with different glyphs, font and index layout, calibrates on one photo per card,
and prints the same figures for photos of that deck.

    python bench/vision_bench.py                 # 60 photos per deck, 12 MP
    python bench/vision_bench.py --photos 200
    python bench/vision_bench.py --quick         # 15 photos per deck, smaller photos

Time is recognition only (decode included), on one core (OpenCV threads = 1): wall clock, and
process CPU time, which stays meaningful when other jobs share the machine.
"""

from __future__ import annotations

import os

# One core: keep NumPy's BLAS (the template matching's matrix product) to one thread too.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from scorekeeper.cards import deck_codes  # noqa: E402
from scorekeeper.vision import calibrate_dir, recognize  # noqa: E402
from scorekeeper.vision.builtin import reference_profile  # noqa: E402
from scorekeeper.vision.profile import DeckProfile  # noqa: E402
from scorekeeper.vision.recognition import Recognition  # noqa: E402
from scorekeeper.vision.reference import ALTERNATE, REFERENCE, DeckStyle  # noqa: E402
from scorekeeper.vision.synth import SynthPhoto, calibration_photo, make_photo  # noqa: E402


@dataclass
class Tally:
    cards: int = 0
    cards_right: int = 0
    extra: int = 0
    photos: int = 0
    photos_right: int = 0
    tops: int = 0
    tops_right: int = 0
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def report(self, title: str) -> None:
        times, cpu = sorted(self.times), sorted(self.cpu)
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
        cpu95 = cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))] if cpu else 0.0
        print(f"{title}")
        print(f"  card accuracy   {100 * self.cards_right / max(1, self.cards):6.2f}%  "
              f"({self.cards_right}/{self.cards}; {self.extra} extra detections)")
        print(f"  photo accuracy  {100 * self.photos_right / max(1, self.photos):6.2f}%  "
              f"({self.photos_right}/{self.photos})")
        print(f"  top-card acc.   {100 * self.tops_right / max(1, self.tops):6.2f}%  "
              f"({self.tops_right}/{self.tops} photos with overlapping cards)")
        print(f"  time per photo  median {1000 * statistics.median(times or [0]):.0f} ms, "
              f"p95 {1000 * p95:.0f} ms (wall clock)")
        print(f"  CPU per photo   median {1000 * statistics.median(cpu or [0]):.0f} ms, "
              f"p95 {1000 * cpu95:.0f} ms (process time, one thread)")
        for line in self.failures[:12]:
            print(f"    miss: {line}")


def score(shot: SynthPhoto, result: Recognition, tally: Tally) -> None:
    """Match detections to the truth by position; count right codes, extras and the top card."""
    truth = list(shot.cards)
    found = list(result.cards)
    pairs: dict[int, int] = {}
    candidates = []
    for i, t in enumerate(truth):
        tc = np.array(t.corners)
        width = float(np.linalg.norm(tc[1] - tc[0]))
        for j, c in enumerate(found):
            dist = float(np.linalg.norm(np.array(c.corners).mean(axis=0) - tc.mean(axis=0)))
            if dist < 0.6 * width:
                candidates.append((dist, i, j))
    taken: set[int] = set()
    for _, i, j in sorted(candidates):
        if i not in pairs and j not in taken:
            pairs[i] = j
            taken.add(j)
    right = 0
    for i, t in enumerate(truth):
        j = pairs.get(i)
        if j is not None and found[j].code == t.code:
            right += 1
        else:
            got = found[j].code if j is not None else "nothing"
            tally.failures.append(f"{shot.kind} tilt {shot.tilt:.0f} q{shot.quality}: "
                                  f"{t.code} read as {got}")
    extra = len(found) - len(taken)
    tally.cards += len(truth)
    tally.cards_right += right
    tally.extra += extra
    tally.photos += 1
    tally.photos_right += int(right == len(truth) and extra == 0)
    if any(t.top for t in truth):
        tally.tops += 1
        want = {i for i, t in enumerate(truth) if t.top}
        got_top = {i for i, j in pairs.items() if found[j].top}
        tally.tops_right += int(want == got_top and sum(c.top for c in found) == len(want))


def run_deck(style: DeckStyle, profile: DeckProfile, photos: int, seed: int,
             size: tuple[int, int]) -> Tally:
    rng = np.random.default_rng(seed)
    codes = deck_codes("toss")
    tally = Tally()
    for _ in range(photos):
        shot = make_photo(rng, codes, style, size=size)
        start, start_cpu = time.perf_counter(), time.process_time()
        result = recognize(shot.jpeg, profile)
        tally.times.append(time.perf_counter() - start)
        tally.cpu.append(time.process_time() - start_cpu)
        score(shot, result, tally)
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=60, help="photos per deck (default 60)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--quick", action="store_true",
                        help="15 photos per deck at 6 MP (a smoke run)")
    parser.add_argument("--deck", choices=["reference", "second", "both"], default="both")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    photos = 15 if args.quick and args.photos == 60 else args.photos
    size = (3000, 2000) if args.quick else (4000, 3000)
    print(f"{photos} photos per deck, {size[0]}x{size[1]} ({size[0] * size[1] / 1e6:.0f} MP), "
          f"seed {args.seed}, OpenCV {cv2.__version__}, 1 thread")
    status = 0
    if args.deck in ("reference", "both"):
        start = time.perf_counter()
        profile = reference_profile()
        print(f"built-in reference profile: {len(profile)} cards "
              f"({time.perf_counter() - start:.1f} s to load or make)")
        tally = run_deck(REFERENCE, profile, photos, args.seed, size)
        tally.report("reference Toss deck (built-in profile)")
    if args.deck in ("second", "both"):
        rng = np.random.default_rng(args.seed + 1)
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            for code in deck_codes("toss"):
                (folder / f"{code}.jpg").write_bytes(calibration_photo(rng, code, ALTERNATE))
            start = time.perf_counter()
            result = calibrate_dir(folder, deck="toss")
            elapsed = time.perf_counter() - start
        print(f"second deck calibrated from {len(result.learned) + len(result.failed)} photos "
              f"in {elapsed:.1f} s: {len(result.learned)} learned, {len(result.failed)} failed "
              f"{sorted(result.failed)}")
        tally = run_deck(ALTERNATE, result.profile, photos, args.seed + 2, size)
        tally.report("second deck (different glyphs and font, learned from one photo per card)")
        status = 1 if result.failed else 0
    return status


if __name__ == "__main__":
    sys.exit(main())
