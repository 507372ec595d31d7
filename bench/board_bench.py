"""Board link figures over a real pseudo-terminal (the board emulator):

- bytes on the wire per score change and per full state, in our protocol and in WLED mode;
- time from a committed state (``BoardLink.show``) to the board's acknowledgement: median, p99.

- WLED restarting with the cable in: time until the board shows the state again.

Targets: a score change under 40 bytes (ours); median under 20 ms; a full six-board state in
WLED mode under 400 bytes; the board right again within 2 s of a WLED restart.

    python bench/board_bench.py [--changes 400]
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import time
from pathlib import Path

from firmware_bridge import protocol as p
from firmware_bridge import wled
from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.layout import Layout, default_layout
from firmware_bridge.link import BoardLink
from firmware_bridge.scene import BoardPegs, Scene, parse_colour
from firmware_bridge.vectors import COLOURS

HAND = Path(__file__).resolve().parent.parent / "tests" / "vectors" / "complex_hand.json"


def game(changes: int, seed: int = 7) -> list[Scene]:
    """Six boards; each step one board's score moves by a meld, toss or tally amount."""
    rng = random.Random(seed)
    scores = [0] * 6
    scenes = []
    for _ in range(changes):
        board = rng.randrange(6)
        scores[board] += rng.choice([5, 7, 10, 14, 20, 21, 24, 30, 40, 50, -10, -25, -60])
        scenes.append(Scene.from_scores(zip(COLOURS, scores, strict=True)))
    return scenes


def worst_wled_full_state(layout: Layout) -> Scene:
    """Six boards with every light on (minus and thousand) and the holes that make WLED's full
    state longest (no two lit LEDs merge into a range), found by trying every hole of each
    board: the boards' parts of the line add up independently."""
    colours = [parse_colour(c) for c in COLOURS]
    plain = [BoardPegs(c, 0, 0, 0) for c in colours]
    boards = []
    for b, colour in enumerate(colours):
        def size(pegs: BoardPegs, b: int = b) -> int:
            trial = (*plain[:b], pegs, *plain[b + 1:])
            return len(wled.full_command(layout, Scene(trial, layout.max_brightness)))
        boards.append(max((BoardPegs(colour, h, t, o, True, True)
                           for h, t, o in itertools.product(range(10), repeat=3)), key=size))
    return Scene(tuple(boards), layout.max_brightness)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_mode(mode: str, scenes: list[Scene], baud: int | None = None) -> dict[str, float]:
    with BoardEmulator(mode=mode) as emu, BoardLink(emu.path, mode=mode) as link:
        emu.baud = baud
        first = scenes[0]
        link.show(first)
        assert link.wait_shown(first, 5), link.status
        sizes, latencies = [], []
        for scene in scenes[1:]:
            sent = link.stats.bytes_sent
            start = time.perf_counter()
            link.show(scene)
            if not link.wait_shown(scene, 5):
                raise SystemExit(f"{mode}: the board did not acknowledge: {link.status}")
            latencies.append(time.perf_counter() - start)
            sizes.append(link.stats.bytes_sent - sent)
        assert emu.leds == default_layout().render(scenes[-1])
    return {"median_ms": statistics.median(latencies) * 1000,
            "p99_ms": percentile(latencies, 0.99) * 1000,
            "max_ms": max(latencies) * 1000,
            "bytes_per_change_mean": statistics.mean(sizes),
            "bytes_per_change_max": max(sizes)}


def wled_restarts(scene: Scene, trials: int) -> list[float]:
    """Seconds from a WLED restart (cable in, between states) until the board shows ``scene``
    again, with the link's default heartbeat."""
    layout = default_layout()
    took = []
    with BoardEmulator(mode="wled", up_for=3600) as emu, BoardLink(emu.path, mode="wled") as link:
        link.show(scene)
        assert link.wait_shown(scene, 5), link.status
        for _ in range(trials):
            time.sleep(random.uniform(0.0, 1.0))  # anywhere in the heartbeat cycle
            emu.restart()
            start = time.perf_counter()
            if not emu.wait_for(lambda e: e.leds == layout.render(scene), timeout=5):
                raise SystemExit(f"wled: the board stayed wrong after a restart: {link.status}")
            took.append(time.perf_counter() - start)
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=400)
    parser.add_argument("--restarts", type=int, default=10)
    args = parser.parse_args()
    layout = default_layout()
    typical = Scene.from_scores(zip(COLOURS, [437, 152, 988, 61, 275, 340], strict=True))
    worst = worst_wled_full_state(layout)
    one_change = p.encode(p.Pegs((p.PegChange(3, 4, 5, 2, 1),)), 17)
    print("bytes on the wire")
    print(f"  ours: one score change (pegs frame)         {len(one_change):4d}  "
          "(target < 40)")
    full = len(p.encode(p.FullState.of(typical), 1))
    upload = sum(len(p.encode(p.Layout(b, x.wire_indexes()), 1))
                 for b, x in enumerate(layout.boards))
    print(f"  ours: full state, six boards                {full:4d}")
    print(f"  ours: layout upload at connect (6 frames)   {upload:4d}")
    print(f"  wled: full state, six boards (typical)      "
          f"{len(wled.full_command(layout, typical)):4d}  (target < 400)")
    print(f"  wled: full state, six boards (every light)  "
          f"{len(wled.full_command(layout, worst)):4d}  (target < 400)")
    after = Scene.from_scores(zip(COLOURS, [452, 152, 988, 61, 275, 340], strict=True))
    print(f"  wled: one score change (437 -> 452)         "
          f"{len(wled.change_command(layout, typical, after)):4d}")
    ack = len(p.encode(p.Ack(), 17))
    print(f"  ours: acknowledgement                       {ack:4d}")
    print(f"serial time at 115200 baud (10 bits a byte): a score change and its ack "
          f"{(len(one_change) + ack) * 10 / 115.2:.2f} ms; WLED's reply line is its whole "
          "state (1-3 kB: 90-260 ms)")

    scenes = game(args.changes)
    hand = json.loads(HAND.read_text())
    try:
        from scorekeeper import log
        from scorekeeper.game import read_setup

        hand_scenes = [Scene.from_state(state.to_json())
                       for state in log.trail(read_setup(hand["setup"]), hand["events"])]
    except ImportError:
        hand_scenes = []
    took = wled_restarts(typical, args.restarts)
    print(f"wled: {len(took)} restarts with the cable in, board right again after: median "
          f"{statistics.median(took) * 1000:.0f} ms, max {max(took) * 1000:.0f} ms  "
          "(target < 2000 ms)")
    for mode in ("ours", "wled"):
        figures = run_mode(mode, scenes)
        print(f"{mode}: {len(scenes) - 1} committed score changes over a pty, show() -> ack")
        print(f"  median {figures['median_ms']:.2f} ms  p99 {figures['p99_ms']:.2f} ms  "
              f"max {figures['max_ms']:.2f} ms  (target median < 20 ms)")
        print(f"  bytes per change: mean {figures['bytes_per_change_mean']:.1f}  "
              f"max {figures['bytes_per_change_max']}")
        figures = run_mode(mode, scenes[:101], baud=115200)
        print(f"  with the emulator holding each exchange for its line time at 115200 baud: "
              f"median {figures['median_ms']:.2f} ms  p99 {figures['p99_ms']:.2f} ms"
              + ("  (the emulator's WLED reply is ~150 B; a real one is 1-3 kB)"
                 if mode == "wled" else ""))
        if hand_scenes:
            figures = run_mode(mode, hand_scenes)
            print(f"  the scripted Complex hand ({len(hand_scenes)} states): median "
                  f"{figures['median_ms']:.2f} ms, bytes per change mean "
                  f"{figures['bytes_per_change_mean']:.1f} max {figures['bytes_per_change_max']}")


if __name__ == "__main__":
    main()
