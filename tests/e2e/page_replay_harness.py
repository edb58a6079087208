"""page_replay_harness.py - a stored game in the page's IndexedDB, replayed from checkpoints.

Shared by tests/e2e/test_page_replay.py and scripts/bench-replay --page.
A game's journal (played natively through the session layer) is written
straight into the page's journal database (the same object stores the
worker's store writes: `sessions`, `journal`), under a session ID of its
own, then replayed through window.nethackReplay (web/src/main.js ->
worker/page-replay.js): open, seek (frame), resume.
"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page

STORE_GAME = """async ({info, entries}) => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open('nethack-webmcp-journal');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const tx = db.transaction(['sessions', 'journal'], 'readwrite');
  tx.objectStore('sessions').put(info);
  const journal = tx.objectStore('journal');
  for (const entry of entries) journal.put(entry);
  await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); });
  db.close();
  return entries.length;
}"""

#: the start of a page function that works on the page's checkpoint database (as `db`)
OPEN_CHECKPOINTS = """  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open('nethack-webmcp-checkpoints');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
"""

TAMPER = (
    """async ({sessionId, nth}) => {
"""
    + OPEN_CHECKPOINTS
    + """  const tx = db.transaction('checkpoints', 'readwrite');
  const store = tx.objectStore('checkpoints');
  const range = IDBKeyRange.bound([sessionId, -Infinity], [sessionId, Infinity]);
  const records = await new Promise((resolve) => {
    const request = store.getAll(range);
    request.onsuccess = () => resolve(request.result);
  });
  const victim = records[nth];
  const bytes = new Uint8Array(victim.bytes);
  bytes[bytes.length >> 1] ^= 1;
  store.put({ ...victim, bytes });
  await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); });
  db.close();
  return victim.move;
}"""
)


def renamed(game: dict[str, Any], session_id: str, inputs: int | None = None) -> dict[str, Any]:
    """The game under another session ID (every request names it), cut to its first `inputs` entries."""
    text = json.dumps({"info": game["info"], "entries": game["entries"][:inputs]})
    return json.loads(text.replace(json.dumps(game["info"]["sessionId"]), json.dumps(session_id)))


def store_game(page: Page, game: dict[str, Any]) -> int:
    return int(page.evaluate(STORE_GAME, game))


def replay(page: Page, action: str, *args: Any) -> Any:
    return page.evaluate("([action, args]) => window.nethackReplay[action](...args)", [action, list(args)])


def timed(page: Page, action: str, *args: Any) -> tuple[Any, float]:
    """The action's answer and its milliseconds as the page saw them (postMessage both ways included)."""
    answer = page.evaluate(
        """async ([action, args]) => {
          const started = performance.now();
          const value = await window.nethackReplay[action](...args);
          return {value, ms: performance.now() - started};
        }""",
        [action, list(args)],
    )
    return answer["value"], float(answer["ms"])


def tamper_checkpoint(page: Page, session_id: str, nth: int = 1) -> int:
    """Change one byte of the game's nth stored checkpoint; the move it was at."""
    return int(page.evaluate(TAMPER, {"sessionId": session_id, "nth": nth}))
