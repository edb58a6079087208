"""test_command_coverage.py - docs/COMMAND_COVERAGE.md stays true.

The table is compared with what the code declares: the methods the real
driver lists in protocol.describe, the actions of the tool declarations,
the item facts the driver writes (wasm/driver/obs_items.c), and the tests
it cites (each must exist, and a test marked as not using the wizard-mode
fixture must not mention it).
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
from collections.abc import Mapping

from nethack_webmcp.tools import TOOLS
from nethack_webmcp.tools.equipment import ACCESSORY_SLOTS, ARMOR_SLOTS
from nethack_webmcp.tools.use import AIM
from support.client import ROOT, require_driver

DOC = ROOT / "docs" / "COMMAND_COVERAGE.md"
DRIVER = ROOT / "build" / "native" / "nhdriver"
TEST_REF = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")


SEED_SECTION = "Seed 003 methods"  # two columns: method and status


def tables() -> dict[str, list[list[str]]]:
    """Rows of each `## section` table (header and rule skipped), as cell lists."""
    sections: dict[str, list[list[str]]] = {}
    current = ""
    for line in DOC.read_text().splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            sections[current] = []
        elif line.startswith("|") and current:
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if cells[0] in ("operation", "fact", "seed method") or set(cells[0]) <= {"-", " "}:
                continue
            sections[current].append(cells)
    return sections


def describe() -> dict:
    require_driver()
    done = subprocess.run(
        [str(DRIVER)],
        input=b'{"version":1,"method":"protocol.describe"}\n',
        capture_output=True,
        timeout=30,
        check=True,
    )
    return json.loads(done.stdout.splitlines()[0])


def described_methods() -> list[str]:
    return [method["name"] for method in describe()["methods"]]


def test_tool_vocabularies_are_the_drivers() -> None:
    """The tools' slot and aim enums are the driver's, in its order."""
    params = {(method["name"], param["name"]): param for method in describe()["methods"] for param in method["params"]}
    assert list(ARMOR_SLOTS + ACCESSORY_SLOTS) == params[("game.equip", "slot")]["values"]
    assert params[("game.remove", "slot")]["values"] == params[("game.equip", "slot")]["values"]
    for method in ("game.zap", "game.throw", "game.fire"):
        assert AIM["enum"] == params[(method, "direction")]["values"], method


def test_every_method_has_exactly_one_row() -> None:
    rows = tables()["Operations"]
    listed = [match for row in rows for match in re.findall(r"`([a-z]+\.[A-Za-z]+)`", row[1])]
    assert sorted(listed) == sorted(described_methods())


def test_every_tool_action_is_named_and_every_named_action_exists() -> None:
    named: set[str] = set()
    for section in (rows for name, rows in tables().items() if name != SEED_SECTION):
        for row in section:
            named.update(re.findall(r"`([a-z]+(?: [A-Za-z]+)?)`", row[2]))
    declared: set[str] = set()
    for tool in TOOLS:
        if tool.actions is None:
            declared.add(tool.name)
            continue
        for action in tool.actions.actions:
            declared.add(tool.name if action.name is None else f"{tool.name} {action.name}")
    # a row may name a tool without its selector (`inventory`, `use` with no action)
    assert declared - named == set(), f"tool actions without a row: {sorted(declared - named)}"
    unknown = {name for name in named if name not in declared}
    assert unknown == set(), f"rows name tool actions that do not exist: {sorted(unknown)}"


def test_every_item_fact_the_driver_writes_has_a_row() -> None:
    source = (ROOT / "wasm" / "driver" / "obs_items.c").read_text()
    written = set(re.findall(r'fact_(?:str|int)\(b, "(\w+)"', source))
    written |= {"erosion", "erosionProof"}
    assert written >= {"appearance", "identity", "beatitude", "charges"}
    rows = tables()["Item facts"]
    documented = {match for row in rows for match in re.findall(r"known\.(\w+)", row[1])}
    assert written == documented


FIXTURE = re.compile(r"wizard=True|\.wizard\(|\"wizard\": ?True|WIZARD_SEED")


def uses_fixture(name: str, functions: Mapping[str, ast.AST], source: str, depth: int = 2) -> bool:
    """The function, or a module function it calls (two levels), creates or
    drives a wizard-mode fixture session."""
    body = ast.get_source_segment(source, functions[name]) or ""
    if FIXTURE.search(body):
        return True
    called = {
        node.func.id
        for node in ast.walk(functions[name])
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    return depth > 0 and any(
        uses_fixture(callee, functions, source, depth - 1)
        for callee in called
        if callee in functions and callee != name
    )


def test_cited_tests_exist_and_fixture_marks_hold() -> None:
    for section in (rows for name, rows in tables().items() if name != SEED_SECTION):
        for row in section:
            refs = TEST_REF.findall(row[3])
            if not refs:
                assert row[3].startswith("–"), f"a row without a test must say why: {row}"
                continue
            assert row[4] in ("yes", "no", "both"), row
            for path, name in refs:
                source = (ROOT / path).read_text()
                functions = {
                    node.name: node
                    for node in ast.walk(ast.parse(source))
                    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                }
                assert name in functions, f"{path}::{name} does not exist"
                if row[4] == "no":
                    assert not uses_fixture(name, functions, source), f"uses the fixture: {row}"
                elif row[4] == "yes":
                    assert uses_fixture(name, functions, source), f"does not use the fixture: {row}"
                else:
                    assert FIXTURE.search(source), f"{path} never uses the fixture: {row}"


#: seed 003's "Method families" table, every method in it
SEED_003_METHODS = (  # noqa: SIM905  (a readable table of names)
    "protocol.describe session.create session.observe session.resume session.close "
    "game.move game.run game.moveWithoutAttack game.attack game.wait game.climb "
    "game.search game.kick game.open game.close game.pray game.quit "
    "game.pickup game.eat game.drink game.wield game.equip game.remove game.read game.apply game.drop game.zap "
    "game.loot game.throw game.fire game.quiver game.swap game.twoWeapon game.cast game.enhance "
    "game.offer game.pay game.chat game.dip game.rub game.invoke game.engrave game.configurePickup "
    "decision.answer decision.cancel"
).split()


def test_every_seed_method_is_implemented_or_has_a_reason() -> None:
    """Each seed method has one row; "implemented" rows name described methods,
    every other row gives its reason."""
    rows = tables()[SEED_SECTION]
    listed = {method: row[1] for row in rows for method in re.findall(r"`([a-z]+\.[A-Za-z]+)`", row[0])}
    assert sorted(listed) == sorted(SEED_003_METHODS)
    described = set(described_methods())
    for method, status in listed.items():
        if status == "implemented":
            assert method in described, method
        else:
            assert method not in described and len(status) > 20, (method, status)
