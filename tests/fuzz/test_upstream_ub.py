"""test_upstream_ub.py - undefined behaviour in NetHack 3.6.7 itself, found by the
30-minute stateful fuzz run, replayed on the sanitized driver.

build/asan/nhdriver stops at the first UBSan or ASan report (exit 86/87), so
each stream below ended the engine before its patch:

- a wizard's wish for 2,147,483,647 of something: weight() multiplied count by
  unit weight in int (mkobj.c), inv_weight() and calc_capacity() summed the
  load in int (hack.c), merged() (invent.c) multiplied age by count and summed
  two such stacks -> wasm/patches/nnh-upstream-weight-overflow.patch;
- the Plane of Air's lightning storms: a ray leaving the map read levl[][]
  past its edge (zap.c dobuzz) -> wasm/patches/nnh-upstream-dobuzz-offmap.patch.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parent
sys.path[:0] = [str(FUZZ.parent / "engine")]

from engine_client import DriverClient, Game, start_game  # noqa: E402
from stateful_fuzz import ASAN_DRIVER, SANITIZER_ENV, SANITIZER_MARKERS  # noqa: E402

HUGE = 2147483647  # INT_MAX: what atoi() gives for any longer count in glibc


@pytest.fixture
def sanitized(monkeypatch: pytest.MonkeyPatch) -> Iterator[DriverClient]:
    assert ASAN_DRIVER.exists(), f"no sanitized driver at {ASAN_DRIVER}; ./scripts/build builds it"
    for name, value in SANITIZER_ENV.items():
        monkeypatch.setenv(name, value)
    client = DriverClient([str(ASAN_DRIVER)])
    yield client
    client.close()


def _settle(game: Game, response: dict) -> dict:
    """Answer whatever the game asks until nothing stands: yes to confirmations
    but a wizard's "Die?", the first option of a menu (all of a multi-select
    one), else cancel."""
    for _ in range(20):
        decision = response["decision"]
        if decision is None or response["ended"]:
            return response
        if decision["kind"] == "confirmation":
            response = game.answer(
                decision, {"kind": "confirmation", "confirm": "die" not in decision["prompt"].lower()}
            )
        elif decision["kind"] == "choice":
            ids = [option["id"] for option in decision["options"]]
            chosen = ids if decision.get("select") == "any" else ids[:1]
            response = game.answer(decision, {"kind": "choice", "choose": chosen})
        elif decision.get("cancellable"):
            response = game.cancel(decision)
        else:
            pytest.fail(f"cannot settle {decision}")
    pytest.fail("the game kept asking")


def _assert_clean(client: DriverClient, game: Game) -> None:
    """The engine still answers and wrote no sanitizer report."""
    assert game.observe()["ended"] is False
    stderr = client.stderr_text()
    assert not any(marker in stderr for marker in SANITIZER_MARKERS), stderr[-3000:]
    assert client.proc.poll() is None


def _stack(response: dict) -> dict:
    """The carried stack of over a million."""
    return next(item for item in response["observation"]["inventory"] if item["quantity"] > 1_000_000)


@pytest.mark.parametrize(
    "wish",
    [
        "2147483647 daggers",  # unit weight 10: the product wraps to -10, weight() overflowed
        "2147483647 arrows",  # unit weight 1: the weight is exact, the load overflowed in inv_weight()
        "2147483647 knives",  # unit weight 5: both, the load wrapping past INT_MIN
    ],
)
def test_a_wished_stack_of_two_billion_keeps_the_engine_defined(sanitized: DriverClient, wish: str) -> None:
    game = start_game(sanitized, seed=7, wizard=True)
    asked = game.wizard("wish")
    wished = game.answer(asked["decision"], {"kind": "text", "text": wish})
    stack = _stack(wished)
    assert stack["quantity"] == HUGE, stack
    # throw one, drop the stack, pick it back up: weight() on each split, the load on each step
    stack = _stack(_settle(game, game.ok("game.throw", itemId=stack["id"], direction="east")))
    dropped = _settle(game, game.ok("game.drop", itemId=stack["id"]))
    assert all(item["quantity"] < HUGE - 2 for item in dropped["observation"]["inventory"])
    lifted = _settle(game, game.ok("game.pickup"))  # as many as the hero can lift

    def carried(response: dict) -> int:
        return sum(item["quantity"] for item in response["observation"]["inventory"])

    assert carried(lifted) > carried(dropped)
    _settle(game, game.ok("game.search"))
    _assert_clean(sanitized, game)


def test_a_second_wished_stack_merges_without_overflow(sanitized: DriverClient) -> None:
    """merged() (invent.c) averaged the stacks' ages as age * count and summed
    the counts in a 32-bit long. The unsanitized builds wrap: two stacks of
    2,147,483,647 make one of -2, and the patch keeps exactly that."""
    game = start_game(sanitized, seed=7, wizard=True)
    for _ in range(2):
        asked = game.wizard("wish")
        _settle(game, game.answer(asked["decision"], {"kind": "text", "text": "2147483647 uncursed +0 daggers"}))
        _settle(game, game.ok("game.search"))  # a later turn: the second stack's age differs
    daggers = [item for item in game.observe()["observation"]["inventory"] if "dagger" in item["label"]]
    assert [item["quantity"] for item in daggers] == [-2], daggers
    _settle(game, game.ok("game.drop", itemId=daggers[0]["id"]))
    _settle(game, game.ok("game.pickup"))
    _assert_clean(sanitized, game)


def test_lightning_storms_on_the_plane_of_air_keep_to_the_map(sanitized: DriverClient) -> None:
    game = start_game(sanitized, seed=42, wizard=True)
    asked = game.wizard("levelTeleport")
    menu = game.answer(asked["decision"], {"kind": "text", "text": "?"})["decision"]
    air = next(option["id"] for option in menu["options"] if option["name"].strip().startswith("air:"))
    arrived = _settle(game, game.answer(menu, {"kind": "choice", "choose": [air]}))
    assert arrived["observation"]["levelLabel"] == "Air", arrived["observation"]["levelLabel"]
    start = arrived["observation"]["turn"]
    # storms strike on one turn in eight, up to 64 rays from random squares
    # (edge rows included); before the patch the first ray off the map stopped
    # the engine within a few dozen turns of this seed
    response = arrived
    while response["observation"]["turn"] < start + 150:
        response = _settle(game, game.ok("game.search"))
        assert not response["ended"], response.get("end")
    stderr = sanitized.stderr_text()
    assert not any(marker in stderr for marker in SANITIZER_MARKERS), stderr[-3000:]
    assert sanitized.proc.poll() is None
