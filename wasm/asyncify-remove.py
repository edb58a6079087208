#!/usr/bin/env python3
"""asyncify-remove.py - list functions ASYNCIFY need not instrument.

ASYNCIFY instruments every function that might be on the stack when the
driver waits for a request. Window-port calls go through function pointers,
so by default that is nearly all of NetHack. The files below never reach an
input prompt on any path (level generation, vision, display, naming,
messages, tables, RNG, and the driver's own encoders), so their functions
are excluded: ~10% less code and faster steps. A file that can prompt (for
example dungeon.c's #annotate, o_init.c's discoveries menu, rumors.c's
oracle consultation, botl.c's status-highlight menus) must never be listed.

Usage: asyncify-remove.py NETHACK_SRC_DIR DRIVER_DIR > list.json
"""
import json
import re
import sys

NETHACK_FILES = [
    "vision.c", "display.c", "mapglyph.c", "rnd.c", "isaac64.c", "mklev.c",
    "mkmap.c", "rect.c", "drawing.c", "objnam.c", "pline.c", "hacklib.c",
    "mkroom.c", "sp_lev.c", "extralev.c", "mkmaze.c", "light.c", "region.c",
    "decl.c", "monst.c", "objects.c", "mondata.c", "worm.c", "track.c",
]
DRIVER_FILES = [
    "json_read.c", "json_write.c", "port_map.c", "obs_build.c", "nnh_qsort.c",
    "port_keys.c",
]
# NetHack's K&R definitions put the name at column 0: "name(args)".
NETHACK_DEFINITION = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\(", re.M)
# Ours: "type name(args)" on one line at column 0.
DRIVER_DEFINITION = re.compile(r"^[A-Za-z_][^(;=]*?\b([A-Za-z_][A-Za-z0-9_]*)\(", re.M)


def names(path: str, pattern: re.Pattern) -> set[str]:
    with open(path, encoding="latin-1") as source:
        return set(pattern.findall(source.read()))


def main() -> None:
    src, driver = sys.argv[1], sys.argv[2]
    found: set[str] = set()
    for name in NETHACK_FILES:
        found |= names(f"{src}/{name}", NETHACK_DEFINITION)
    for name in DRIVER_FILES:
        found |= names(f"{driver}/{name}", DRIVER_DEFINITION)
    found -= {"if", "while", "for", "switch", "return", "sizeof"}
    json.dump(sorted(found), sys.stdout)


if __name__ == "__main__":
    main()
