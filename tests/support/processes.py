"""processes.py - which engine processes are alive, for no-orphan checks."""
from __future__ import annotations

import os
from pathlib import Path


def drivers() -> set[int]:
    """Live (non-zombie) nhdriver processes on this machine."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if Path(os.readlink(entry / "exe")).name == "nhdriver":
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state != "Z":
                    found.add(int(entry.name))
        except OSError:
            continue
    return found
