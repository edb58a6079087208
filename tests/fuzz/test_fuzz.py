"""test_fuzz.py - both fuzzers, briefly, on every run of the suite (scripts/fuzz runs them long).

- libFuzzer over the request reader and validator (request_fuzzer.c, clang
  -fsanitize=fuzzer,address,undefined, 32-bit like the shipped twin), for
  LIBFUZZER_SECONDS from the committed seed corpus;
- the stateful fuzzer (stateful_fuzz.py) on the ASan+UBSan native driver
  (build/asan/nhdriver, built by ./scripts/build), for STATEFUL_SECONDS.

Both need a toolchain scripts/build installs; a missing one fails the test
with what to install, it never skips.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FUZZ = ROOT / "tests" / "fuzz"
ASAN_DRIVER = ROOT / "build" / "asan" / "nhdriver"
LIBFUZZER_SECONDS = 20
STATEFUL_SECONDS = 25
# The suite's stateful run replays one fixed stream, so a red CI is a
# regression and never a new stream's luck: a random seed one day ran into
# NetHack's own gold overflow under a wizard's wish (docs/FUZZING.md, left
# for the long runs of scripts/fuzz, which draw a new seed each time). This
# seed ran 75 s (128,526 requests, 226 games) clean; the suite's 25 s is a
# prefix of that stream on any machine.
STATEFUL_SEED = 20261201


def test_libfuzzer_finds_nothing_in_the_request_reader(tmp_path: Path) -> None:
    harness = tmp_path / "request_fuzzer"
    build = subprocess.run(
        ["bash", "-c", f'source "{ROOT}/scripts/lib.sh" && build_request_fuzzer "{harness}"'],
        check=False,
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, (
        "the libFuzzer harness did not build; scripts/build installs clang, "
        f"libclang-rt-<version>-dev and g++-multilib (lib.sh fuzz_toolchain):\n{build.stderr[-3000:]}"
    )
    corpus = tmp_path / "corpus"
    shutil.copytree(FUZZ / "corpus" / "request", corpus)
    seeds = len(list(corpus.iterdir()))
    run = subprocess.run(
        [
            str(harness),
            f"-max_total_time={LIBFUZZER_SECONDS}",
            "-print_final_stats=1",
            f"-dict={FUZZ / 'request.dict'}",
            f"-artifact_prefix={tmp_path}/",
            str(corpus),
        ],
        check=False,
        capture_output=True,
        text=True,
        timeout=LIBFUZZER_SECONDS + 120,
    )
    log = run.stderr
    assert run.returncode == 0, f"libFuzzer found something:\n{log[-4000:]}"
    assert not list(tmp_path.glob("crash-*")) and not list(tmp_path.glob("timeout-*"))
    execs = int(
        next(line.split()[-1] for line in log.splitlines() if line.startswith("stat::number_of_executed_units"))
    )
    assert execs > 10_000, log[-2000:]  # it really ran
    assert len(list(corpus.iterdir())) > seeds, "no new coverage from the seed corpus: is the harness wired?"


def test_stateful_fuzzer_finds_nothing_in_real_games(tmp_path: Path) -> None:
    assert os.access(ASAN_DRIVER, os.X_OK), (
        f"no sanitized driver at {ASAN_DRIVER}; ./scripts/build builds it "
        f"(make -f wasm/engine.mk TARGET=asan {ASAN_DRIVER})"
    )
    run = subprocess.run(
        [
            sys.executable,
            str(FUZZ / "stateful_fuzz.py"),
            "--seconds",
            str(STATEFUL_SECONDS),
            "--seed",
            str(STATEFUL_SEED),
            "--findings",
            str(tmp_path / "findings"),
        ],
        check=False,
        capture_output=True,
        text=True,
        timeout=STATEFUL_SECONDS + 300,
    )
    assert run.stdout.strip(), run.stderr[-4000:]
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert run.returncode == 0, f"{summary}\n{run.stderr[-4000:]}"
    assert summary["crashes"] == summary["sanitizer_reports"] == 0, summary
    assert summary["malformed_accepted"] == summary["revision_moved"] == 0, summary
    # delta games: every reassembled delta response equal to its full twin's
    assert summary["delta_mismatches"] == 0, summary
    assert summary["delta_games"] >= 1 and summary["delta_responses_compared"] >= 100, summary
    # it really played: games, accepted operations, and every kind of malformed frame
    assert summary["games"] >= 1 and summary["accepted"] >= 100 and summary["malformed"] >= 100, summary
    assert len(summary["mutations"]) >= 15, summary
