"""processes.py - which engine processes are alive, for no-orphan checks."""

from __future__ import annotations

import os
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
# The engine the servers under test run. Only it is counted: the sanitized
# build (build/asan/nhdriver) belongs to a fuzz run that may be going on in
# the same checkout, and its games come and go on their own.
ENGINE = CHECKOUT / "build" / "native" / "nhdriver"


def drivers() -> set[int]:
    """Live (non-zombie) processes of this checkout's native engine (other
    checkouts on the same machine run their own tests)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            exe = Path(os.readlink(entry / "exe"))
            if exe == ENGINE:
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state != "Z":
                    found.add(int(entry.name))
        except OSError:
            continue
    return found
