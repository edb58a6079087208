"""stateful_fuzz.py - drive the sanitized native driver through real games,
mixing valid requests with malformed ones.

The valid requests come from the determinism policy (tests/engine/
test_determinism.py: every request computed from the previous response, every
decision kind answered), loosened so games also end. Between them go frames
that are malformed by construction: truncated, with a NUL or an invalid UTF-8
byte, over 4096 bytes, with an unknown, missing, duplicated or mistyped field,
a stale revision, a wrong session or decision ID, an alias of a published item
ID ("item-2.junk", "item-02"), the wrong answer kind, an answer with no
decision standing, a command while one stands. After every malformed frame:

  - the response must be a typed error (a malformed frame is never accepted);
  - session.observe must show the same revision (nothing reached the engine);
  - the process must still answer (no crash, no hang).

A third of the games are delta games: a second sanitized driver, the twin,
gets every frame as it is, while the first gets each valid request with
`"delta": true`; every response of the first, reassembled by the host's
DeltaAssembler (py/nethack_webmcp/engine/deltas.py), must equal the twin's
byte for byte (a `delta_mismatches` finding otherwise).

The driver is build/asan/nhdriver (make -f wasm/engine.mk TARGET=asan): any
AddressSanitizer or UndefinedBehaviorSanitizer report ends the process, and its
stderr is scanned after every game. Prints one JSON summary line; exits 1 on
any finding, with the frames that led to it saved under --findings.

    python tests/fuzz/stateful_fuzz.py --seconds 60 [--seed N] [--driver PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "engine")]

sys.path[:0] = [str(ROOT / "py")]

from engine_client import CREATED_AT, DriverClient, DriverError, dumps  # noqa: E402
from nethack_webmcp.engine.base import EngineError  # noqa: E402
from nethack_webmcp.engine.deltas import DeltaAssembler, ask_for_delta  # noqa: E402
from test_determinism import Policy  # noqa: E402

ASAN_DRIVER = ROOT / "build" / "asan" / "nhdriver"
SANITIZER_MARKERS = ("ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer", "SUMMARY: UndefinedBehavior")
# Exit-time leaks are not memory-safety findings (NetHack frees little at exit).
SANITIZER_ENV = {
    "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=0:exitcode=86:allocator_may_return_null=0",
    "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1:exitcode=87",
}
STEPS_PER_GAME = 600
MALFORMED_SHARE = 0.45
DELTA_SHARE = 1 / 3  # games played twice in lockstep: delta responses against full ones
ITEM_ALIASES: tuple[Callable[[str], str], ...] = (
    lambda n: f"item-{n}.junk",
    lambda n: f"item-0{n}",
    lambda n: f"item-00{n}",
    lambda n: f"item-{n}:x",
    lambda n: f"item-{n}_",
    lambda n: f"item-{n}-2",
    lambda n: f"item-{n}x",
)


# Text answers a client may type anywhere, wizard prompts included: level numbers
# past the dungeon's ends, wildcards, junk and the longest text allowed.
HOSTILE_TEXTS = [
    "-5",
    "0",
    "30",
    "45",
    "60",
    "999",
    "-100",
    "2147483648",
    "*",
    "?",
    "-",
    "\u00e9\u6f22",
    "x" * 128,
    "Elbereth" * 16,
    "100 blessed +100 daggers",
    "-1 arrows",
    "wand of wishing",
    "Amulet of Yendor",
    "Medusa",
    "Wizard of Yendor",
    "%s%n%d",
    "\\",
    "'",
    '"',
]


class FuzzPolicy(Policy):
    """The determinism policy, except that a game may end (it sometimes agrees
    to quit) and a third of the text answers are hostile."""

    def _answer(self, decision: dict) -> dict:
        if decision["kind"] == "confirmation":
            return {"kind": "confirmation", "confirm": self.rng.random() < 0.5}
        if decision["kind"] == "text" and decision.get("purpose") != "key" and self.rng.random() < 0.35:
            return {"kind": "text", "text": self.rng.choice(HOSTILE_TEXTS)}
        return super()._answer(decision)


@dataclass
class Stats:
    games: int = 0
    requests: int = 0
    valid: int = 0
    accepted: int = 0
    malformed: int = 0
    malformed_accepted: int = 0
    revision_moved: int = 0
    delta_games: int = 0
    delta_responses_compared: int = 0
    delta_mismatches: int = 0
    crashes: int = 0
    sanitizer_reports: int = 0
    codes: dict = field(default_factory=dict)
    mutations: dict = field(default_factory=dict)


class Finding(Exception):
    """Something the boundary must never do; the message says what."""


def _item_ids(policy: Policy) -> list[str]:
    return [item["id"] for item in policy.inventory]


def mutate(request: dict, policy: Policy, rng: random.Random) -> tuple[str, bytes]:
    """A frame that must be rejected, derived from a valid request. Returns
    (the mutation's name, the frame)."""
    params = request.setdefault("params", {})
    frame = dumps(request).encode()
    gameplay = "expectedRevision" in params
    choices = [
        "truncate",
        "nul",
        "badUtf8",
        "tooLarge",
        "unknownField",
        "duplicateField",
        "badVersion",
        "unknownMethod",
        "tooDeep",
        "bigNumber",
        "escapedName",
        "wrongSession",
    ]
    if gameplay:
        choices += ["missingField", "wrongType", "staleRevision", "staleRevision", "badToken"]
        if policy.decision is not None:
            choices += ["wrongDecision", "wrongKind", "commandWhileDeciding"]
        else:
            choices += ["answerWithoutDecision"]
        if _item_ids(policy):
            choices += ["itemAlias", "itemAlias", "itemAlias"]
        if policy.decision is not None and policy.decision.get("kind") == "item" and _item_ids(policy):
            choices += ["answerItemAlias", "answerItemAlias"]
    name = rng.choice(choices)
    if name == "truncate":
        return name, frame[: rng.randint(1, len(frame) - 1)]
    if name == "nul":
        at = rng.randint(0, len(frame))
        return name, frame[:at] + b"\x00" + frame[at:]
    if name == "badUtf8":
        at = rng.randint(0, len(frame))
        return name, frame[:at] + rng.choice([b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xe2\x82"]) + frame[at:]
    if name == "tooLarge":
        params["pad"] = "x" * 4200
    elif name == "unknownField":
        params[rng.choice(["pad", "itemid", "Direction", "sessionID", "\u00e9t\u00e9"])] = 1
    elif name == "duplicateField":
        key = rng.choice(list(params) or ["x"])
        text = frame.decode()
        return name, text.replace('"params":{', '"params":{"' + key + '":1,', 1).encode() if params else frame + b"}"
    elif name == "badVersion":
        request["version"] = rng.choice([2, 0, "1", 1.5, None])
    elif name == "unknownMethod":
        request["method"] = rng.choice(["game.Move", "game.", "session.create2", "debug.panic", ""])
    elif name == "tooDeep":
        nested: object = 1
        for _ in range(20):
            nested = [nested]
        params["deep"] = nested
    elif name == "bigNumber":
        return name, frame.replace(b'"version":1', b'"version":9007199254740993', 1)
    elif name == "escapedName":
        return name, frame.replace(b'"method"', b'"m\\u0065thod"', 1)
    elif name == "wrongSession":
        params["sessionId"] = policy.session_id + rng.choice(["x", "-2", ".0"])
    elif name == "missingField":
        del params[rng.choice(["sessionId", "requestId", "expectedRevision"])]
    elif name == "wrongType":
        key = rng.choice(["expectedRevision", "requestId", "quiet"])
        params[key] = rng.choice(
            {
                "expectedRevision": ["3", [], {}, 2.5, None, -1],
                "requestId": [3, [], None, True],
                "quiet": ["yes", 1, None, {}],
            }[key]
        )
    elif name == "staleRevision":
        params["expectedRevision"] = max(0, policy.revision + rng.choice([-3, -1, 1, 2, 1000]))
        if params["expectedRevision"] == policy.revision:
            params["expectedRevision"] += 1
    elif name == "badToken":
        params["requestId"] = rng.choice(["a b", "<x>", "", "r\u00e9q", "x" * 129])
    elif name == "wrongDecision":
        assert policy.decision is not None
        serial = int(policy.decision["id"].split("-")[1])
        request["method"] = rng.choice(["decision.answer", "decision.cancel"])
        params.pop("answer", None)
        params.pop("itemId", None)
        for key in list(params):
            if key not in ("sessionId", "requestId", "expectedRevision", "quiet"):
                del params[key]
        params["decisionId"] = rng.choice([f"decision-{serial + 1}", f"decision-0{serial}", f"decision-{serial}x"])
        if request["method"] == "decision.answer":
            params["answer"] = {"kind": "confirmation", "confirm": False}
    elif name == "wrongKind":
        assert policy.decision is not None
        kind = policy.decision["kind"]
        wrong = {"confirmation": {"kind": "direction", "direction": "north"}}.get(
            kind, {"kind": "confirmation", "confirm": True}
        )
        request["method"] = "decision.answer"
        for key in list(params):
            if key not in ("sessionId", "requestId", "expectedRevision"):
                del params[key]
        params.update(decisionId=policy.decision["id"], answer=wrong)
    elif name == "commandWhileDeciding":
        request["method"] = "game.wait"
        for key in list(params):
            if key not in ("sessionId", "requestId", "expectedRevision"):
                del params[key]
    elif name == "answerWithoutDecision":
        request["method"] = "decision.answer"
        for key in list(params):
            if key not in ("sessionId", "requestId", "expectedRevision"):
                del params[key]
        params.update(decisionId="decision-1", answer={"kind": "confirmation", "confirm": True})
    elif name in ("itemAlias", "answerItemAlias"):
        number = rng.choice(_item_ids(policy)).split("-", 1)[1]
        alias = rng.choice(ITEM_ALIASES)(number)
        for key in list(params):
            if key not in ("sessionId", "requestId", "expectedRevision"):
                del params[key]
        if name == "itemAlias" and policy.decision is None:
            request["method"] = rng.choice(
                [
                    "game.drop",
                    "game.eat",
                    "game.apply",
                    "game.read",
                    "game.wield",
                    "game.quiver",
                    "game.throw",
                    "game.drink",
                    "game.offer",
                ]
            )
            params["itemId"] = alias
        else:
            assert policy.decision is not None
            request["method"] = "decision.answer"
            # unknownItem, or wrongAnswerKind when the decision is not an item question
            params.update(decisionId=policy.decision["id"], answer={"kind": "item", "item": {"id": alias}})
    return name, dumps(request).encode()


class Fuzzer:
    def __init__(self, driver: Path, seed: int, findings: Path) -> None:
        self.driver = driver
        self.rng = random.Random(seed)
        # which games are delta games: its own stream, so the games and frames
        # of a seed stay what they were before delta games existed
        self.delta_rng = random.Random(f"delta-{seed}")
        self.findings = findings
        self.stats = Stats()
        # every frame of the game being played, from its session.create: a finding
        # is saved as the whole stream, so replaying the file reproduces it
        self.game_frames: list[bytes] = []
        # a delta game's full twin and the host's assembler for the first driver
        self.twin: DriverClient | None = None
        self.assembler = DeltaAssembler()

    def _record(self, frame: bytes) -> None:
        self.game_frames.append(frame)

    def _save(self, what: str) -> None:
        self.findings.mkdir(parents=True, exist_ok=True)
        path = self.findings / f"finding-{int(time.time() * 1000)}.ndjson"
        path.write_bytes(b"\n".join(self.game_frames) + b"\n")
        print(f"finding: {what} (frames in {path})", file=sys.stderr)

    def _send(self, client: DriverClient, frame: bytes, valid: dict | None = None) -> dict:
        """Send one frame (`valid`: the valid request it encodes). In a delta
        game the first driver gets a valid request as a delta request and
        the twin the frame as it is; the reassembled response must equal
        the twin's. Returns the (full) response."""
        asked = frame if self.twin is None or valid is None else dumps(ask_for_delta(valid)).encode()
        self._record(asked)
        self.stats.requests += 1
        raw, parsed = client.send_raw(asked)
        client.transcript.clear()  # a long run must not keep every line
        if self.twin is None:
            return parsed
        full, parsed = self.twin.send_raw(frame)
        self.twin.transcript.clear()
        self.stats.delta_responses_compared += 1
        try:
            same = self.assembler.full(raw) == full
        except EngineError:
            same = False
        if not same:
            self.stats.delta_mismatches += 1
            self._save("a reassembled delta response differs from the full response")
            raise Finding("delta mismatch")  # the two engines are out of step from here
        return parsed

    def play_one_game(self, deadline: float) -> None:
        seed = self.rng.randrange(1 << 32)
        session_id = f"fuzz-{seed}"
        wizard = self.rng.random() < 0.3
        policy = FuzzPolicy(seed, session_id, wizard)
        create: dict = {"seed": seed, "createdAt": CREATED_AT, "sessionId": session_id}
        if wizard:
            create["wizard"] = True
        client = DriverClient([str(self.driver)])
        self.stats.games += 1
        self.game_frames = []
        self.assembler = DeltaAssembler()
        if self.delta_rng.random() < DELTA_SHARE:
            self.stats.delta_games += 1
            self.twin = DriverClient([str(self.driver)])
        try:
            created = self._send(client, dumps({"version": 1, "method": "session.create", "params": create}).encode())
            policy.absorb(created)
            for _ in range(STEPS_PER_GAME):
                if time.monotonic() > deadline or (policy.ended and self.rng.random() < 0.05):
                    break
                request = policy.next_request()
                if self.rng.random() < MALFORMED_SHARE:
                    self._malformed(client, policy, request)
                else:
                    self.stats.valid += 1
                    response = self._send(client, dumps(request).encode(), request)
                    if "error" not in response and "outcome" in response:
                        self.stats.accepted += 1
                    policy.absorb(response)
        except DriverError as exc:
            self.stats.crashes += 1
            self._save(f"driver failed: {exc}")
        except Finding:
            pass  # counted and saved where it was found
        finally:
            twin, self.twin = self.twin, None
            ended = [(client, client.stderr_text())] + ([(twin, twin.stderr_text())] if twin else [])
            for driver, _ in ended:
                driver.close()
        for driver, stderr in ended:
            exit_code = driver.proc.returncode
            if any(marker in stderr for marker in SANITIZER_MARKERS) or exit_code in (86, 87):
                self.stats.sanitizer_reports += 1
                self._save(f"sanitizer report (exit {exit_code}):\n{stderr[-4000:]}")

    def _malformed(self, client: DriverClient, policy: Policy, request: dict) -> None:
        before = policy.revision
        name, frame = mutate(request, policy, self.rng)
        self.stats.malformed += 1
        self.stats.mutations[name] = self.stats.mutations.get(name, 0) + 1
        response = self._send(client, frame)
        error = response.get("error")
        if not error:
            self.stats.malformed_accepted += 1
            self._save(f"malformed frame ({name}) accepted")
            policy.absorb(response)
            return
        self.stats.codes[error["code"]] = self.stats.codes.get(error["code"], 0) + 1
        observed = self._send(
            client,
            dumps({"version": 1, "method": "session.observe", "params": {"sessionId": policy.session_id}}).encode(),
        )
        if observed.get("revision") != before or response.get("revision", before) != before:
            self.stats.revision_moved += 1
            self._save(f"revision moved from {before} to {observed.get('revision')} after {name}")
        policy.absorb(observed)

    def run(self, seconds: float) -> Stats:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.play_one_game(deadline)
        return self.stats


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=None, help="the fuzzer's own PRNG (default: random)")
    parser.add_argument("--driver", type=Path, default=ASAN_DRIVER)
    parser.add_argument("--findings", type=Path, default=ROOT / "build" / "fuzz" / "findings")
    args = parser.parse_args()
    if not os.access(args.driver, os.X_OK):
        print(
            f"no sanitized driver at {args.driver}: make -f wasm/engine.mk TARGET=asan {ASAN_DRIVER}", file=sys.stderr
        )
        return 2
    os.environ.update(SANITIZER_ENV)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    started = time.monotonic()
    stats = Fuzzer(args.driver, seed, args.findings).run(args.seconds)
    summary = {"fuzzer": "stateful", "seed": seed, "seconds": round(time.monotonic() - started, 1), **vars(stats)}
    print(json.dumps(summary, sort_keys=True))
    findings = sum(
        (stats.crashes, stats.sanitizer_reports, stats.malformed_accepted, stats.revision_moved, stats.delta_mismatches)
    )
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
