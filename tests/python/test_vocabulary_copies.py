"""test_vocabulary_copies.py - one vocabulary, and every copy of it held to it.

The driver publishes its word lists as protocol.describe's `vocabulary`
(wasm/driver/nnh_vocabulary.c). The package keeps one copy of that object
(engine/vocabulary.py: the browser needs the words before any engine runs);
the build exports it with the adapter's words as vocabulary.json for the
page's JavaScript. Each test here fails when a copy drifts: the package's
copy from the running driver, every Python literal that names engine words
from the package's copy (one parametrised test), the exported file from the
export, and the JavaScript, which holds no table of its own, from the file.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from nethack_webmcp import geometry
from nethack_webmcp.engine.vocabulary import ENGINE, words
from nethack_webmcp.projection import decision
from nethack_webmcp.session import records
from nethack_webmcp.tools import equipment, error_codes, export, frame_schema, interact
from nethack_webmcp.tools import session as session_tool
from nethack_webmcp.tools.registry import declarations
from support.client import ROOT
from support.described import described
from support.exported import exported

PACKAGE = ROOT / "py" / "nethack_webmcp"
SITE_VOCABULARY = ROOT / "build" / "site" / "vocabulary.json"


@pytest.mark.asyncio
async def test_the_package_copy_is_the_drivers() -> None:
    live = (await described())["vocabulary"]
    assert live == ENGINE, (
        "engine/vocabulary.py drifted from protocol.describe; the driver's vocabulary is now:\n"
        + json.dumps(live, indent=1)
    )


def declared(tool: str, field: str) -> list[str]:
    """An enum of a declared tool input (what tools/list serves)."""
    schema = next(d for d in declarations() if d["name"] == tool)["inputSchema"]["properties"][field]
    return list(schema.get("enum") or schema["items"]["enum"])


COMPASS = [entry["name"] for entry in ENGINE["compass"]]
SAME = "equal, in order"
SUBSET = "every word is the engine's"
SUPERSET = "every engine word is there"
SAME_SET = "the same words"

#: (copy, its words, the engine's words, how they must relate)
COPIES: dict[str, tuple[Callable[[], Any], Callable[[], Any], str]] = {
    "geometry.COMPASS_NAMES": (lambda: list(geometry.COMPASS_NAMES), lambda: COMPASS, SAME),
    "geometry.VERTICAL": (lambda: list(geometry.VERTICAL), lambda: ENGINE["vertical"], SAME),
    "geometry.AIMS": (lambda: list(geometry.AIMS), lambda: ENGINE["directions"], SAME),
    "geometry.DELTAS": (
        lambda: dict(geometry.DELTAS),
        lambda: {e["name"]: (e["dx"], e["dy"]) for e in ENGINE["compass"]},
        SAME,
    ),
    "frame_schema.ENGINE_STATUSES": (lambda: frame_schema.ENGINE_STATUSES, lambda: words("statuses"), SAME),
    "frame_schema.EVENT_TYPES": (lambda: frame_schema.EVENT_TYPES, lambda: words("events"), SAME),
    "frame_schema.ATTACKS": (lambda: frame_schema.ATTACKS, lambda: words("attackKinds"), SAME),
    "frame_schema.DECISION_KINDS": (lambda: frame_schema.DECISION_KINDS, lambda: words("decisionKinds"), SAME),
    "frame_schema.ATTITUDES": (lambda: frame_schema.ATTITUDES, lambda: words("attitudes"), SAME),
    "frame_schema.HUNGER": (lambda: frame_schema.HUNGER, lambda: words("hunger"), SAME),
    "frame_schema.BURDEN": (lambda: frame_schema.BURDEN, lambda: words("burden"), SAME),
    "frame_schema.ENDINGS": (lambda: frame_schema.ENDINGS, lambda: words("endReasons"), SAME),
    "frame_schema.CATEGORIES": (lambda: frame_schema.CATEGORIES, lambda: words("itemCategories"), SAME),
    "session tool role": (lambda: session_tool.CREATE_FIELDS["role"]["enum"], lambda: ENGINE["roles"], SAME),
    "session tool race": (lambda: session_tool.CREATE_FIELDS["race"]["enum"], lambda: ENGINE["races"], SAME),
    "session tool gender": (lambda: session_tool.CREATE_FIELDS["gender"]["enum"], lambda: ENGINE["genders"], SAME),
    "session tool alignment": (
        lambda: session_tool.CREATE_FIELDS["alignment"]["enum"],
        lambda: ENGINE["alignments"],
        SAME,
    ),
    "travel runMode": (lambda: declared("travel", "runMode"), lambda: ENGINE["runModes"], SAME),
    "travel direction": (lambda: declared("travel", "direction"), lambda: COMPASS + ENGINE["vertical"], SAME),
    "use direction": (lambda: declared("use", "direction"), lambda: ENGINE["directions"], SAME),
    "equipment slot": (lambda: declared("equipment", "slot"), lambda: ENGINE["equipmentSlots"], SAME),
    "equipment.SLOT_ORDER": (lambda: equipment.SLOT_ORDER, lambda: ENGINE["equipmentSlots"], SUPERSET),
    "interact.PICKUP_MARKS": (lambda: list(interact.PICKUP_MARKS.values()), lambda: ENGINE["pickupTypes"], SAME),
    "decision.POSITION_WORDS": (
        lambda: decision.POSITION_WORDS,
        lambda: ENGINE["positionWords"] + COMPASS,
        SAME_SET,
    ),
    "records.END_REASONS": (lambda: list(records.END_REASONS), lambda: ENGINE["endReasons"], SUBSET),
}


@pytest.mark.parametrize("name", COPIES)
def test_python_copies_are_the_engines(name: str) -> None:
    copy, engine, relation = COPIES[name]
    mine, theirs = copy(), engine()
    if relation == SAME:
        assert (list(mine) if not isinstance(mine, dict) else mine) == (
            list(theirs) if not isinstance(theirs, dict) else theirs
        ), f"{name} drifted from the engine's vocabulary"
    elif relation == SAME_SET:
        assert set(mine) == set(theirs), f"{name}: {set(mine) ^ set(theirs)}"
    elif relation == SUBSET:
        assert set(mine) <= set(theirs), f"{name} names words the engine has not: {set(mine) - set(theirs)}"
    else:
        assert set(mine) >= set(theirs), f"{name} lacks engine words: {set(theirs) - set(mine)}"


def test_the_export_and_the_built_file_are_the_package_copy() -> None:
    assert exported("--vocabulary") == export.vocabulary()
    assert export.vocabulary()["engine"] == ENGINE
    assert export.vocabulary()["adapter"]["recoverableErrors"] == list(error_codes.RECOVERABLE)
    # the site's copy (scripts/build-site): a built site carries the current words
    built = [path for path in (SITE_VOCABULARY, ROOT / "web" / "dist" / "vocabulary.json") if path.parent.exists()]
    assert SITE_VOCABULARY in built, "the site's build directory is missing: run ./scripts/build"
    for path in built:
        assert path.exists(), f"{path} is missing: run ./scripts/build-site"
        assert json.loads(path.read_text()) == export.vocabulary(), f"{path} drifted: run ./scripts/build-site"


def package_literals(code: str) -> list[Path]:
    """Package modules, other than the list's own, that spell `code` as a string."""
    return [
        path
        for path in PACKAGE.rglob("*.py")
        if path.name not in ("error_codes.py", "frame_schema.py") and f'"{code}"' in path.read_text()
    ]


@pytest.mark.parametrize("code", error_codes.RECOVERABLE)
def test_each_recoverable_code_is_one_the_package_returns(code: str) -> None:
    assert package_literals(code), f"{code} is listed as recoverable but nothing in the package returns it"


def test_javascript_takes_its_tables_from_the_vocabulary() -> None:
    script = (
        "import { COMPASS, RECOVERABLE_ERRORS } from './webmcp/vocabulary.js';"
        "console.log(JSON.stringify({ compass: COMPASS, recoverable: [...RECOVERABLE_ERRORS] }));"
    )
    ran = subprocess.run(
        ["node", "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    assert ran.returncode == 0, ran.stderr
    seen = json.loads(ran.stdout)
    assert seen["compass"] == [[e["name"], e["dx"], e["dy"]] for e in ENGINE["compass"]]
    assert seen["recoverable"] == list(error_codes.RECOVERABLE)
    # and no JavaScript module keeps a table of its own: no compass literal, no code list
    compass_entry = re.compile(r"""\[\s*['"](north|south|east|west)['"]\s*,\s*-?\d\s*,\s*-?\d\s*\]""")
    sources = [p for d in ("web/src", "webmcp") for p in (ROOT / d).rglob("*.js")]
    assert sources
    for path in sources:
        text = path.read_text()
        assert not compass_entry.search(text), f"{path} types a compass table"
        assert "'staleView'" not in text and '"staleView"' not in text, f"{path} lists error codes by hand"
