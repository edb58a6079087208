"""The observe frame's world in spans-v1 (projection/world.py) is lossless and small.

Every observe frame of recorded real games gives back, through
`world.rows`, exactly the 21 rows-v1 rows of the view it was drawn from;
random rows (marks blank where another layer is not, a never-sent row's
colour 0) round-trip too; blank rows are left out and every span is as
short as its row allows; the frame is far smaller than the 21 full rows.
"""

from __future__ import annotations

import json
import random

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # no stubs in the test extras
from nethack_webmcp.geometry import MAP_ROWS, MAP_WIDTH
from nethack_webmcp.projection import frame as frames
from nethack_webmcp.projection import world
from nethack_webmcp.session import Session
from nethack_webmcp.tools import frame_schema
from replay import replay

SPAN_FIELDS = ("y", "x0", *world.LAYERS)


def compact(value: object) -> int:
    return len(json.dumps(value, separators=(",", ":")))


def random_rows(rng: random.Random) -> list[dict[str, object]]:
    """21 rows with a few random islands of non-blank cells in random layers."""
    rows: list[dict[str, object]] = []
    for y in range(MAP_ROWS):
        layers = {layer: [world.BLANK[layer]] * MAP_WIDTH for layer in world.LAYERS}
        for _ in range(rng.choice((0, 0, 1, 3))):
            layer = rng.choice(world.LAYERS)
            x = rng.randrange(MAP_WIDTH)
            layers[layer][x] = rng.choice("1.#-|@d+ 07")
        row: dict[str, object] = {"y": y, **{layer: "".join(cells) for layer, cells in layers.items()}}
        if rng.random() < 0.1:
            row["colors"] = "0" * MAP_WIDTH  # navigation.level's blank for a row never sent
        rows.append(row)
    return rows


def test_random_rows_round_trip_and_spans_are_minimal() -> None:
    rng = random.Random(27)
    for _ in range(300):
        rows = random_rows(rng)
        encoded = world.encode("d0-l1", rows)
        assert world.rows(encoded) == rows
        for span in encoded["rows"]:
            assert tuple(span) == SPAN_FIELDS
            cells = {len(span[layer]) for layer in world.LAYERS}
            assert len(cells) == 1 and cells.pop() >= 1
            # minimal: the span's first and last cells are not blank in some layer
            assert any(span[layer][0] != world.BLANK[layer] for layer in world.LAYERS)
            assert any(span[layer][-1] != world.BLANK[layer] for layer in world.LAYERS)
        sent = {span["y"] for span in encoded["rows"]}
        for row in rows:
            if row["y"] not in sent:
                assert all(row[layer] == world.BLANK[layer] * MAP_WIDTH for layer in world.LAYERS)


def test_an_all_blank_world_sends_no_rows() -> None:
    blank = [{"y": y, **{layer: cell * MAP_WIDTH for layer, cell in world.BLANK.items()}} for y in range(MAP_ROWS)]
    encoded = world.encode("d0-l1", blank)
    assert encoded["rows"] == [] and world.rows(encoded) == blank


def test_a_reader_refuses_another_encoding() -> None:
    with pytest.raises(ValueError, match="spans-v1"):
        world.rows({"encoding": "rows-v1", "rows": []})


@pytest.mark.asyncio
@pytest.mark.parametrize("name", ["walk", "decision_item", "decision_position"])
async def test_observe_frames_of_recorded_games_give_back_their_views(name: str) -> None:
    validator = Draft202012Validator(frame_schema.schema())
    checked: list[int] = []

    def each(session: Session, _result: object) -> None:
        frame = frames.build(session, include_world=True)
        level = session.level()
        view = level.observed if level.observed is not None else level
        encoded = frame["scene"]["world"]
        assert world.rows(encoded) == world.level_rows(view)
        assert encoded["levelId"] == view.level_id
        assert not list(validator.iter_errors(frame))
        full = {"levelId": view.level_id, "encoding": "rows-v1", "rows": world.level_rows(view)}
        assert compact(encoded) < compact(full)
        checked.append(compact(full) - compact(encoded))

    await replay(name, each)
    assert checked, "the recording has responses"


@pytest.mark.asyncio
async def test_a_first_room_observe_world_is_a_fraction_of_the_full_rows() -> None:
    session = await replay("walk")
    encoded = frames.build(session, include_world=True)["scene"]["world"]
    view = session.level().observed or session.level()
    full = {"levelId": view.level_id, "encoding": "rows-v1", "rows": world.level_rows(view)}
    assert compact(encoded) * 3 < compact(full), (compact(encoded), compact(full))
