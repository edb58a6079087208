"""bench_nle.py - the NLE row of scripts/bench-engine (run that, not this).

The yardstick: the same move/search mix on raw NLE 1.3.0
(`nle.nethack.Nethack`, in-process, its default observations), counted per
agent action - one command key (a compass move key or `s`) - with what the
key leaves standing dismissed uncounted: a --More-- (Enter) and a standing
question or text prompt (Escape). NLE returns at every --More-- and takes a
key at a question for almost nothing, so counting raw key steps would
flatter it. A finished game is replaced by the next seed; creating games is
not timed, as in the engine rows. Prints one JSON line.

    build/nle-venv/bin/python scripts/bench_nle.py [--ops 20000] [--clock wall|cpu]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # NLE is imported to run, not to answer --help (it lives in build/nle-venv only)
    from nle import nethack

COMPASS = [ord(key) for key in "kljhunby"]  # north, east, south, west, NE, SE, SW, NW (the mix's order)
SEARCH = ord("s")
ENTER, ESCAPE = 13, 27


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}  # cpu: this process's CPU time
clock = CLOCKS["wall"]


def play(env: nethack.Nethack, misc: int, seed: int, budget: int) -> tuple[int, float]:
    """One game of at most `budget` actions: (actions, seconds); `misc` is the index of the
    observation [in_yn_function, in_getlin, xwaitingforspace]."""
    env.set_initial_seeds(seed, seed, False)
    observation = env.reset()
    actions, step, done = 0, 0, False
    started = clock()
    while actions < budget and not done:
        step += 1
        key = COMPASS[(step // 2) % 8] if step % 2 == 0 else SEARCH
        observation, done = env.step(key)
        actions += 1
        while not done:  # dismiss what the key left standing, uncounted
            in_yn, in_getlin, waiting = observation[misc]
            if waiting:
                observation, done = env.step(ENTER)
            elif in_yn or in_getlin:
                observation, done = env.step(ESCAPE)
            else:
                break
    return actions, clock() - started


def main() -> None:
    parser = argparse.ArgumentParser(description="The NLE row of scripts/bench-engine: the move/search mix on raw NLE.")
    parser.add_argument("--ops", type=int, default=20000)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall")
    args = parser.parse_args()
    import nle
    from nle import nethack

    misc = list(nethack.OBSERVATION_DESC).index("misc")
    global clock
    clock = CLOCKS[args.clock]
    # NLE records a ttyrec into the working directory by default: measure it as
    # shipped, but keep the recording out of the caller's tree.
    scratch = tempfile.TemporaryDirectory(prefix="bench-nle-")
    os.chdir(scratch.name)
    env = nethack.Nethack()
    for warm_seed in range(1, 6):  # warm-up: five 2,000-action games, as the engine rows (bench-mix.mjs)
        play(env, misc, warm_seed, 2000)
    actions = games = 0
    seconds = 0.0
    seed = 100
    while actions < args.ops:
        done, spent = play(env, misc, seed, args.ops - actions)
        actions += done
        seconds += spent
        games += 1
        seed += 1
    env.close()
    print(
        json.dumps(
            {
                "target": f"NLE {nle.__version__} (raw nle.nethack.Nethack)",
                "ops": actions,
                "games": games,
                "seconds": seconds,
                "opsPerSecond": actions / seconds,
                "meanResponseBytes": None,
            }
        )
    )


if __name__ == "__main__":
    main()
