"""actions.py - flat tool schemas: one selector, per-action fields checked in the tool.

Model APIs (Anthropic, OpenAI, Gemini, Bedrock) refuse a tool whose input
schema has `oneOf`/`anyOf`/`allOf` at its root, and Claude Code drops such
tools silently. So every tool's root is one plain object holding the union
of its fields, and its selector (`action`, `mode` or `query`) is an enum.
Which fields each action takes is written once, in an `Action`: that one
entry produces the action's line in the tool description and in `help`,
and `ActionTable.check` enforces it with errors that name the action, the
field and the fields the action accepts.

Bindings name the fields every call of an action needs to be safe:
"view" actions send input and quote the frame they decided on (sessionId,
viewId; optional requestId, expectedRevision); "decision" actions answer
the standing question (sessionId, decisionId; the same optional pair);
"session" actions read one game; "none" need no game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

BINDINGS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "view": (("sessionId", "viewId"), ("requestId", "expectedRevision")),
    "decision": (("sessionId", "decisionId"), ("requestId", "expectedRevision")),
    "session": (("sessionId",), ()),
    "none": ((), ()),
}


@dataclass(frozen=True)
class Action:
    """One action of a tool: its selector value (None: the selector is
    omitted), a one-line summary, and the fields it requires and accepts
    besides those of its binding."""

    name: str | None
    summary: str
    required: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    binding: str = "view"

    @property
    def sends_input(self) -> bool:
        return self.binding in ("view", "decision")

    def required_fields(self) -> tuple[str, ...]:
        return BINDINGS[self.binding][0] + self.required

    def accepted_fields(self) -> tuple[str, ...]:
        return self.required_fields() + self.optional + BINDINGS[self.binding][1]

    def line(self, selector: str | None) -> str:
        """`attack(target): summary` - required fields plain, optional ones
        with `?`; binding fields are said once per tool, not per action."""
        fields = [*self.required, *(f"{name}?" for name in self.optional)]
        head = self.name if self.name is not None else f"no {selector}"
        return f"{head}({','.join(fields)})" + (f": {self.summary}" if self.summary else "")


@dataclass(frozen=True)
class ActionTable:
    """The actions of one tool and the schemas of all its fields."""

    selector: str | None
    actions: tuple[Action, ...]
    fields: Mapping[str, dict[str, Any]]

    def __post_init__(self) -> None:
        named = {name for action in self.actions for name in action.accepted_fields()}
        missing = named - set(self.fields)
        if missing:
            raise ValueError(f"fields without a schema: {sorted(missing)}")

    def by_name(self) -> dict[str | None, Action]:
        return {action.name: action for action in self.actions}

    def schema(self) -> dict[str, Any]:
        """The flat input schema: every field once, the selector an enum,
        required only what every action requires."""
        properties: dict[str, Any] = {}
        if self.selector is not None:
            names = [action.name for action in self.actions if action.name is not None]
            properties[self.selector] = {"type": "string", "enum": names}
        for name in self._field_order():
            properties[name] = self.fields[name]
        common = set.intersection(*(set(action.required_fields()) for action in self.actions))
        required = [name for name in properties if name in common]
        if self.selector is not None and None not in self.by_name():
            required.insert(0, self.selector)
        return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}

    def _field_order(self) -> list[str]:
        seen: dict[str, None] = {}
        for action in self.actions:
            for name in action.accepted_fields():
                seen.setdefault(name, None)
        return list(seen)

    def lines(self) -> list[str]:
        """One line per action; consecutive actions with the same fields,
        binding and summary share one line (`open|close|kick(target?): ...`)."""
        lines: list[str] = []
        previous: Action | None = None
        for action in self.actions:
            if action.name is None and not action.optional and not action.summary:
                continue  # the free form without fields: the tool's purpose says it
            line = action.line(self.selector)
            if (
                previous is not None
                and previous.name
                and action.name
                and action.binding == previous.binding
                and line[len(action.name) :] == lines[-1][lines[-1].index("(") :]
            ):
                lines[-1] = lines[-1].replace("(", f"|{action.name}(", 1)
            else:
                lines.append(line)
            previous = action
        return lines

    def chosen(self, arguments: Mapping[str, Any]) -> Action | None:
        """The action the arguments select, or None when they select none."""
        value = arguments.get(self.selector) if self.selector is not None else None
        return self.by_name().get(value) if isinstance(value, str) or value is None else None

    def check(self, arguments: Mapping[str, Any]) -> list[str]:
        """What is wrong with arguments for the action they select (empty when
        fine). Types and ranges are the schema's job; this checks presence."""
        action = self.chosen(arguments)
        if action is None:
            return []  # the schema's enum (or required selector) already says it
        label = f"{self.selector} {action.name!r}" if action.name else f"without {self.selector}"
        accepted = action.accepted_fields()
        problems = [f"{label} needs {name!r}" for name in action.required_fields() if name not in arguments]
        problems += [
            f"{label} does not take {name!r}" for name in arguments if name != self.selector and name not in accepted
        ]
        if problems:
            problems.append(f"{label} accepts: {_names(accepted)}")
        return problems


def _names(fields: Iterable[str]) -> str:
    return ", ".join(fields) or "nothing else"
