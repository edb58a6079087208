"""processes.py - which engine processes are alive, for no-orphan checks."""

from __future__ import annotations

import os
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]


def drivers() -> set[int]:
    """Live (non-zombie) nhdriver processes of this checkout (other checkouts
    on the same machine run their own tests)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            exe = Path(os.readlink(entry / "exe"))
            if exe.name == "nhdriver" and exe.is_relative_to(CHECKOUT):
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state != "Z":
                    found.add(int(entry.name))
        except OSError:
            continue
    return found
