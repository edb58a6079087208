"""suites.py - named, versioned game sets whose seeds are sealed: derived from a secret the agent never sees.

A suite fixes, per game index, the role played; the seed is
HMAC-SHA256(secret, "<suite>/v<version>/<index>") cut to 32 bits, so
two runs with the same secret play the same games (a paired comparison is
fair) while nobody without the secret can enumerate them. The secret is the
operator's: `--suite-secret-file`, `$NNH_EVAL_SECRET`, or else a file made
once with 256 random bits beside the harness's state (mode 0600). It goes
to no agent, no server and no results file; the results reveal each game's
seed once it has been played and ended.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from ..tools.session import ROLES

SECRET_ENV = "NNH_EVAL_SECRET"


@dataclass(frozen=True)
class Suite:
    name: str
    version: int
    roles: tuple[str, ...]  # one per game, in order

    def __len__(self) -> int:
        return len(self.roles)


#: smoke: five quick games over five roles; standard: every role four times (13 x 4 = 52), roles interleaved
#: so that `--games N` of the standard suite still spreads over the roles.
SUITES = {
    "smoke": Suite("smoke", 1, ("valkyrie", "samurai", "wizard", "barbarian", "archeologist")),
    "standard": Suite("standard", 1, tuple(ROLES) * 4),
}


@dataclass(frozen=True)
class SuiteGame:
    index: int
    role: str
    seed: int


def default_secret_file() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "nethack-webmcp-eval" / "suite-secret"


def load_secret(path: Path | None = None) -> bytes:
    """The suite secret: the file given, else $NNH_EVAL_SECRET, else the default file (made on first use)."""
    if path is not None:
        return path.read_bytes().strip()
    if os.environ.get(SECRET_ENV):
        return os.environ[SECRET_ENV].encode("utf-8")
    path = default_secret_file()
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(secrets.token_hex(32))
    return path.read_bytes().strip()


def seed_of(secret: bytes, suite: Suite, index: int) -> int:
    message = f"{suite.name}/v{suite.version}/{index}".encode()
    return int.from_bytes(hmac.new(secret, message, hashlib.sha256).digest()[:4], "big")


def games(suite: Suite, secret: bytes, count: int | None = None) -> list[SuiteGame]:
    """The suite's first `count` games (all of them by default)."""
    if count is not None and not 1 <= count <= len(suite):
        raise ValueError(f"--games must be 1..{len(suite)} for suite {suite.name!r}")
    chosen = suite.roles[: count or len(suite)]
    return [SuiteGame(index, role, seed_of(secret, suite, index)) for index, role in enumerate(chosen)]


def fingerprint(suite: Suite, played: list[SuiteGame]) -> str:
    """Names the exact game set (suite, version, seeds): runs compare pairwise only when these agree."""
    text = f"{suite.name}/v{suite.version}:" + ",".join(f"{g.role}:{g.seed}" for g in played)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
