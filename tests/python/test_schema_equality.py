"""The argument checker's const/enum equality (tools/schema._same) is JSON equality:
its scalar fast path (no json.dumps) answers exactly as comparing the dumps does."""

from __future__ import annotations

import itertools
import json
from typing import Any

from nethack_webmcp.tools.schema import _same, errors

VALUES: list[Any] = [True, False, 1, 0, -1, 2**70, 1.0, 0.0, None, "a", "", " a", "é", "1", [1], [True], {"a": 1}, {}]


def test_same_is_json_equality() -> None:
    for a, b in itertools.product(VALUES, VALUES):
        assert _same(a, b) == (json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)), (a, b)


def test_an_enum_refuses_a_value_of_another_json_type() -> None:
    assert errors({"enum": [1, "search"]}, True) == ['arguments must be one of 1, "search"']
    assert errors({"enum": [1, "search"]}, 1.0) != []
    assert errors({"enum": [1, "search"]}, "search") == []
    assert errors({"const": False}, 0) == ["arguments must be false"]
