"""test_script_help.py - every script under scripts/ answers --help with its usage.

Each one is run with --help and must exit 0 having printed its usage and done
nothing else (no build, no install, no stack trace): shell scripts print the
comment under their shebang (lib.sh usage_if_asked), Node scripts their
opening comment (scripts/usage.mjs), Python scripts argparse's usage.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from support.client import ROOT

SCRIPTS = ROOT / "scripts"
# sourced or imported, never run: lib.sh, python-env.sh and the .mjs modules other scripts import
# (usage.mjs, asyncify-node.mjs, bench-autopilot-trace.mjs); tsconfig.json is no script
NOT_RUN = {"lib.sh", "python-env.sh", "usage.mjs", "asyncify-node.mjs", "bench-autopilot-trace.mjs", "tsconfig.json"}


def command(name: str) -> list[str]:
    path = SCRIPTS / name
    if name.endswith(".py"):
        return [sys.executable, str(path), "--help"]
    if name.endswith(".mjs"):
        return ["node", str(path), "--help"]
    return [str(path), "--help"]


@pytest.mark.parametrize(
    "name", sorted(path.name for path in SCRIPTS.iterdir() if path.is_file() and path.name not in NOT_RUN)
)
def test_answers_help(name: str) -> None:
    run = subprocess.run(command(name), cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr and "    at " not in run.stderr, run.stderr
    assert run.stdout.strip(), f"{name} --help printed nothing"
    first = run.stdout.lstrip().splitlines()[0]
    assert first.startswith("usage:") or name.split(".")[0] in first, first
