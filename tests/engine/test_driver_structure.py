"""test_driver_structure.py - the C driver's method dispatch and module layout.

Read from the sources (wasm/driver), so a regression fails here before any
game is played:

- the driver dispatches methods by their id through tables (the validation
  table in proto_request.c, the command table in proto_translate.c); no
  string comparison anywhere in the driver names a method or a method's verb;
- every driver header declares the functions of the one module it is named
  after (nnh_state.h only data), except the interface headers listed below;
- the translation modules (proto_translate.c, manual_verbs.c, the helpers in
  proto_command.c, the validator) sit on no include cycle.
"""

from __future__ import annotations

import re
from pathlib import Path

from engine_client import DriverClient

DRIVER = Path(__file__).resolve().parents[2] / "wasm" / "driver"
COMPARISON = re.compile(r"\bstr(?:n?cmpi?|casecmp)\s*\(([^;{]*)")
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
INCLUDE = re.compile(r'#include "([a-z_0-9]+)\.h"')
DECLARED = re.compile(r"(?m)^[a-z][\w \*]*?\b(nnh_\w+)\s*\([^)]*\)\s*;")
DEFINED = re.compile(r"(?m)^[a-z][\w \*]*?\b(nnh_\w+)\s*\([^;]*?\)\s*\{")
#: Headers that are interfaces across modules by design, with why.
INTERFACES = {
    "nnh_hooks.h": "the calls the patched NetHack sources make, implemented where each belongs",
    "nnh_io.h": "one I/O interface with a native and a WebAssembly implementation",
    "nnh_knowledge.h": "obs_knowledge.c plus the functions the knowledge patch adds to NetHack",
    "nnh_nethack.h": "declarations NetHack's own headers lack",
}
TRANSLATION = {"proto_translate", "manual_verbs", "proto_command", "proto_request"}


def sources() -> dict[str, str]:
    return {path.name: path.read_text() for path in sorted(DRIVER.glob("*.[ch]"))}


def method_words(client: DriverClient) -> set[str]:
    _, response = client.send({"version": 1, "method": "protocol.describe"})
    names = {method["name"] for method in response["methods"]}
    return names | {name.split(".", 1)[1] for name in names}


def test_no_string_comparison_names_a_method(native_client: DriverClient) -> None:
    words = method_words(native_client)
    found = [
        (name, literal)
        for name, text in sources().items()
        for call in COMPARISON.findall(text)
        for literal in LITERAL.findall(call)
        if literal in words
    ]
    assert not found, f"methods compared by name: {found}"
    # the translators compare no strings at all; proto_command.c only looks up extcmdlist
    for name in ("proto_translate.c", "manual_verbs.c"):
        assert not COMPARISON.search(sources()[name]), name


def test_the_driver_dispatches_through_its_tables() -> None:
    text = sources()
    assert "translate(&args, why)" in text["proto_translate.c"]
    rows = re.findall(r"\[(NNH_M_\w+)\] =", text["proto_translate.c"])
    ids = re.findall(r"NNH_M_\w+", text["proto_request.h"].split("enum nnh_method_id", 1)[1].split("};", 1)[0])
    gameplay = {
        m
        for m in ids
        if m
        not in {
            "NNH_M_DESCRIBE",
            "NNH_M_CREATE",
            "NNH_M_OBSERVE",
            "NNH_M_LOOKUP",
            "NNH_M_CLOSE",
            "NNH_M_ANSWER",
            "NNH_M_CANCEL",
        }
    }
    assert len(rows) == len(set(rows)), "a method has two command rows"
    assert set(rows) == gameplay, f"gameplay methods without a command row: {sorted(gameplay - set(rows))}"
    validation_rows = re.findall(r"\{ (NNH_M_\w+), \"", text["proto_request.c"])
    assert validation_rows == ids, "the validation table lists every method id, in order"


def test_one_header_per_module() -> None:
    text = sources()
    modules = {name[:-2] for name in text if name.endswith(".c")}
    owners: dict[str, set[str]] = {}
    for name, body in text.items():
        if name.endswith(".c"):
            for function in DEFINED.findall(body):
                owners.setdefault(function, set()).add(name[:-2])
    assert not DECLARED.findall(text["nnh_state.h"]), "nnh_state.h holds data only"
    for name, body in text.items():
        if not name.endswith(".h") or name in INTERFACES or name == "nnh_state.h":
            continue
        declared = DECLARED.findall(body)
        defined_in = {module for function in declared for module in owners.get(function, {"(undefined)"})}
        assert defined_in <= {name[:-2]}, f"{name} declares functions of {sorted(defined_in)}"
        assert name[:-2] in modules, f"{name} names no module"


def test_translation_is_on_no_include_cycle() -> None:
    text = sources()
    modules = {name[:-2] for name in text if name.endswith(".c")}
    uses = {
        name[:-2]: {header for header in INCLUDE.findall(body) if header in modules and header != name[:-2]}
        for name, body in text.items()
        if name.endswith(".c")
    }

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            module = todo.pop()
            for used in uses.get(module, ()):
                if used == goal:
                    return True
                if used not in seen:
                    seen.add(used)
                    todo.append(used)
        return False

    on_cycle = sorted(module for module in TRANSLATION if reaches(module, module))
    assert not on_cycle, f"include cycle through {on_cycle}"
    assert "manual_verbs" in uses["proto_translate"], "the command table names the manual verbs' translators"
    assert "proto_translate" not in uses["manual_verbs"]
