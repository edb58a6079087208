// page-timeline-source.js - the page's TimelineSource (timeline/source.js):
// a game stored in this browser, replayed in the worker from its IndexedDB
// checkpoints (worker/page-replay.js). Frames are the replay engine's own,
// verified against the journal (a refusal rejects: never a wrong frame).
// A live game is followed by polling the journal (refresh) while it lasts.

const POLL_MS = 1000;

/** @param {(action: string, fields: Record<string, any>) => Promise<any>} replay the worker's replay operation
 *  @param {string} gameId
 *  @returns {Promise<import('./timeline/source.js').TimelineSource>} */
export async function pageTimelineSource(replay, gameId) {
  let opened = await replay('open', { gameId });
  let count = opened.moves;
  let live = !opened.ended;
  /** @type {Set<(count: number) => void>} */
  const listeners = new Set();
  let timer = null;
  const poll = async () => {
    timer = null;
    try {
      opened = await replay('refresh', { gameId });
      const grew = opened.moves !== count;
      const ended = opened.ended && live;
      count = opened.moves;
      if (ended) live = false;
      if (grew || ended) for (const listener of listeners) listener(count);
    } catch (error) {
      console.warn('nethack: the replay could not follow the game', error);
    }
    if (live && listeners.size) timer = setTimeout(poll, POLL_MS);
  };
  return {
    get live() { return live; },
    moveCount: () => count,
    moves: (from, to) => replay('moves', { gameId, from, to }),
    frameAt: (move) => replay('frame', { gameId, move }),
    onAppend(listener) {
      listeners.add(listener);
      if (live && timer === null) timer = setTimeout(poll, POLL_MS);
      return () => listeners.delete(listener);
    },
    close() {
      listeners.clear();
      if (timer !== null) clearTimeout(timer);
      replay('close', { gameId }).catch(() => {});
    },
  };
}
