"""rundirs.py - the native engines' runtime directories, removed however an engine ends.

Each `nhdriver` plays in a fresh directory it makes under $TMPDIR (level
files, an empty record: wasm/driver/native_playground.c) and removes at its
own exit - but a driver killed by SIGKILL (ours, when it does not stop, or
anyone's) never gets to. So the host gives every driver a directory of its
own as $TMPDIR and removes it, whatever is inside, once the process is
reaped (`remove`). The directory's name carries the host's pid, so a host
that was itself killed leaves directories the next host removes at its
first engine start (`sweep_orphans`): those whose host pid is no longer
alive.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

PREFIX = "nnh-host"
_OWNED = re.compile(rf"{PREFIX}(\d+)-")
_swept = False


def make() -> Path:
    """A fresh runtime directory for one driver (its $TMPDIR)."""
    sweep_orphans()
    return Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-"))


def remove(directory: Path) -> None:
    """Remove a driver's runtime directory and everything in it (it is reaped)."""
    shutil.rmtree(directory, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's live process
    return True


def sweep_orphans(root: Path | None = None) -> list[Path]:
    """Once per process: remove the runtime directories of hosts that are gone.
    The directories removed."""
    global _swept
    if _swept and root is None:
        return []
    _swept = True
    base = root if root is not None else Path(tempfile.gettempdir())
    removed = []
    try:
        entries = list(base.iterdir())
    except OSError:
        return []
    for entry in entries:
        owner = _OWNED.match(entry.name)
        if owner is None or int(owner.group(1)) == os.getpid() or _alive(int(owner.group(1))):
            continue
        remove(entry)
        removed.append(entry)
    return removed


def remove_own() -> None:
    """This host's runtime directories, all of them (its engines are reaped: at exit)."""
    for entry in Path(tempfile.gettempdir()).glob(f"{PREFIX}{os.getpid()}-*"):
        remove(entry)
