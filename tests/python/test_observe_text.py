"""observe's text renders its result field by field, not as its JSON (projection/render._observe).

On real games (a Barbarian and a Wizard, who knows a spell), the text
carries every recent message, every knowledge record's every value (spell
fields, each skill with its rank and advance, each level's fields, each
conduct counter), the achievements and the state hash; it carries no
JSON object of the result; and it is shorter than the JSON it replaces.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from nethack_webmcp.projection.render import bounded_json, result_text, text
from support.client import Client

pytestmark = pytest.mark.asyncio


def values(record: dict[str, Any]) -> list[str]:
    return [str(value) for value in record.values() if isinstance(value, (str, int, float))]


@pytest.mark.parametrize("role", ["barbarian", "wizard"])
async def test_observe_text_carries_every_knowledge_field(agent: Client, role: str) -> None:
    created = await agent.create(seed=42, role=role)
    frame = await agent.ok("observe", sessionId=created["basis"]["sessionId"])
    result = frame["result"]
    shown = text(frame)
    rendered = result_text(result)
    assert rendered in shown and '{"kind"' not in shown
    for message in result["recentMessages"]:
        assert json.dumps(message) in rendered
    knowledge = result["knowledge"]
    if role == "wizard":
        assert knowledge["spells"], "a Wizard starts knowing force bolt"
    for spell in knowledge["spells"]:
        line = next(line for line in rendered.splitlines() if line.startswith("spells: "))
        assert all(value in line for value in values(spell))
    skills = next(line for line in rendered.splitlines() if line.startswith("skills "))
    groups = {
        group.split(": ", 1)[0]: group.split(": ", 1)[1].split(", ") for group in skills.split(": ", 1)[1].split("; ")
    }
    assert sorted((s["name"], f"{s['rank']}/{s['advance']}") for s in knowledge["skills"]) == sorted(
        (name, group) for group, names in groups.items() for name in names
    )
    for level in knowledge["levels"]:
        assert all(value in rendered for value in values(level))
    conduct = next(line for line in rendered.splitlines() if line.startswith("conduct: "))
    assert conduct == "conduct: " + ", ".join(f"{key} {value}" for key, value in knowledge["conduct"].items())
    assert "achievements: " in rendered
    assert f"stateHash {result['stateHash']}" in rendered
    assert len(rendered) < len("result " + bounded_json(result))
