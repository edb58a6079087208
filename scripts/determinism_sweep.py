"""determinism_sweep.py - many seeds, every build, one byte stream (run by scripts/determinism).

For each seed, four engines play in lockstep: the native driver twice
(build/native/nhdriver) and both WebAssembly builds (JSPI and Asyncify, node
scripts/wasm-driver.mjs, as tests/engine/test_determinism.py runs them). One
policy - the determinism test's: every request computed from the previous
response and a PRNG seeded per game, answering decisions of every kind
(confirmation, choice, text, key, direction, item, position), cancelling some,
with deliberate rejections and free queries mixed in - chooses each request
from the first native engine's response; all four must answer with the same
bytes. The second native engine and the JSPI build are asked for delta
responses (`"delta": true`, docs/PROTOCOL.md) and compared after the host's
DeltaAssembler has put the elided members back, so the reassembled stream is
held to the full one as well. A game that ends is followed by the next game of the same seed, until
the seed has spent its operations. Every fifth seed plays in a wizard-mode
fixture (wishes, teleports, created monsters).

Prints progress to stderr and one JSON summary line; exits 1 on the first
difference in any seed (reported with the request and both responses).

    python scripts/determinism_sweep.py --seeds 200 --ops 2000 [--first-seed 1] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "engine"), str(ROOT / "py")]

from engine_client import CREATED_AT, WASM_KINDS, DriverClient, driver_command, dumps  # noqa: E402
from nethack_webmcp.engine.deltas import DeltaAssembler, ask_for_delta  # noqa: E402
from test_determinism import Policy  # noqa: E402

BUILDS = ["native", "native", *WASM_KINDS]  # native twice: it must reproduce itself too
DELTAS = [False, True, True, False]  # which of them answer in deltas (reassembled before comparing)
WIZARD_EVERY = 5


class Divergence(Exception):
    """Two builds answered one request differently."""


def play_game(pool: ThreadPoolExecutor, seed: int, game: int, ops: int, counts: Counter) -> tuple[int, bool]:
    """One game on every build in lockstep, at most `ops` requests after the
    create. Returns (requests sent, whether the game ended)."""
    wizard = seed % WIZARD_EVERY == 0
    session_id = f"sweep-{seed}-{game}"
    game_seed = seed if game == 0 else (seed * 7919 + game) % (1 << 32)
    policy = Policy(game_seed, session_id, wizard)
    create: dict = {"seed": game_seed, "name": "Ada", "createdAt": CREATED_AT, "sessionId": session_id}
    if wizard:
        create.update(wizard=True, role="valkyrie")
    clients = [DriverClient(driver_command(build)) for build in BUILDS]
    assemblers = [DeltaAssembler() if delta else None for delta in DELTAS]
    try:
        sent = 0
        request: dict = {"version": 1, "method": "session.create", "params": create}
        while True:
            frame = dumps(request).encode("utf-8")
            delta_frame = dumps(ask_for_delta(request)).encode("utf-8")
            frames = [delta_frame if delta else frame for delta in DELTAS]
            answers = list(pool.map(lambda client, sent_frame: client.send_raw(sent_frame), clients, frames))
            for client in clients:
                client.transcript.clear()
            answers = [
                (raw if assembler is None else assembler.full(raw), parsed)
                for assembler, (raw, parsed) in zip(assemblers, answers, strict=True)
            ]
            first, parsed = answers[0]
            for build, delta, (raw, _) in zip(BUILDS[1:], DELTAS[1:], answers[1:], strict=False):
                if raw != first:
                    column = next(
                        (i for i, (a, b) in enumerate(zip(first, raw, strict=False)) if a != b),
                        min(len(first), len(raw)),
                    )
                    raise Divergence(
                        json.dumps(
                            {
                                "seed": seed,
                                "game": game,
                                "request": sent,
                                "build": build + (" (deltas)" if delta else ""),
                                "frame": frame.decode(),
                                "expected": first[max(0, column - 200) : column + 200],
                                "actual": raw[max(0, column - 200) : column + 200],
                            }
                        )
                    )
            tally(counts, request, parsed)
            policy.absorb(parsed)
            if policy.ended or sent >= ops:
                return sent, policy.ended
            request = policy.next_request()
            sent += 1
    finally:
        for client in clients:
            client.close()


def tally(counts: Counter, request: dict, response: dict) -> None:
    """What the stream exercised: decision kinds, actions, error codes."""
    counts["responses"] += 1
    if "error" in response:
        counts["error:" + response["error"]["code"]] += 1
        return
    decision = response.get("decision")
    if decision:
        kind = "key" if decision.get("purpose") == "key" else decision["kind"]
        counts["decision:" + kind] += 1
    outcome = response.get("outcome")
    if outcome:
        counts["action:" + outcome["action"]] += 1
        counts["turns"] += outcome["turnsElapsed"]


def run_seed(seed: int, ops: int) -> tuple[Counter, int, int, str | None]:
    """Every game of one seed until it spent `ops` requests. Returns (counts,
    games, requests, the divergence as JSON or None)."""
    counts: Counter = Counter()
    left, game, sent_total = ops, 0, 0
    with ThreadPoolExecutor(max_workers=len(BUILDS)) as pool:
        while left > 0:
            try:
                sent, _ended = play_game(pool, seed, game, left, counts)
            except Divergence as exc:
                return counts, game + 1, sent_total, str(exc)
            game += 1
            sent_total += sent
            left -= max(sent, 1)
    return counts, game, sent_total, None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--ops", type=int, default=500, help="requests per seed after each create")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="seeds played at once (each runs four engines)")
    args = parser.parse_args()
    counts: Counter = Counter()
    started = time.monotonic()
    games = ops_done = seeds_done = 0
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    with ProcessPoolExecutor(max_workers=args.jobs) as workers:
        futures = {workers.submit(run_seed, seed, args.ops): seed for seed in seeds}
        for future in as_completed(futures):
            seed_counts, seed_games, seed_ops, divergence = future.result()
            if divergence is not None:
                print(json.dumps({"divergence": json.loads(divergence)}), flush=True)
                for other in futures:
                    other.cancel()
                return 1
            counts.update(seed_counts)
            games += seed_games
            ops_done += seed_ops
            seeds_done += 1
            print(
                f"seed {futures[future]} done ({seeds_done}/{args.seeds}): {ops_done} requests, "
                f"{games} games, {time.monotonic() - started:.0f}s",
                file=sys.stderr,
                flush=True,
            )
    summary = {
        "seeds": args.seeds,
        "opsPerSeed": args.ops,
        "firstSeed": args.first_seed,
        "builds": [build + (" (deltas)" if delta else "") for build, delta in zip(BUILDS, DELTAS, strict=True)],
        "games": games,
        "requests": ops_done + games,
        "responsesCompared": counts["responses"] * (len(BUILDS) - 1),
        "divergences": 0,
        "seconds": round(time.monotonic() - started, 1),
        "decisionKinds": {k.split(":", 1)[1]: v for k, v in sorted(counts.items()) if k.startswith("decision:")},
        "actions": {k.split(":", 1)[1]: v for k, v in sorted(counts.items()) if k.startswith("action:")},
        "errors": {k.split(":", 1)[1]: v for k, v in sorted(counts.items()) if k.startswith("error:")},
        "turns": counts["turns"],
    }
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
