// timeline-source.js - the native server's TimelineSource (timeline/source.js) for one game:
// GET /api/games/<id>/moves (the journal inputs, grouped by the tool call that made
// them) and /api/games/<id>/frames/<k> (an ended game's frame from its verified
// replay, a live game's from its stored receipts: watch/timelines.py). While the
// game lives the moves are polled every POLL_MS while the tab is visible, from
// the first call whose receipt was not stored yet (its facts come then); once a
// poll says the game ended, `live` turns false and polling stops. Only GETs.

const POLL_MS = 500;
const BACKOFF_MS = 2000;

export class ServerTimelineSource {
  /** @param {string} gameId */
  constructor(gameId) {
    this.base = `/api/games/${encodeURIComponent(gameId)}`;
    /** @type {import('../timeline/source.js').TimelineMove[]} */
    this.list = [];
    this.live = true;
    /** @type {Set<(count: number) => void>} */
    this.listeners = new Set();
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    this.closed = false;
  }

  /** The moves known when the game is opened; then, while it lives, polling. Rejects when unknown. */
  async open() {
    await this.read();
    if (this.live) this.schedule(POLL_MS);
    return this;
  }

  moveCount() { return this.list.length; }

  /** @param {number} from @param {number} to */
  async moves(from, to) { return this.list.slice(Math.max(1, from) - 1, Math.max(0, to)); }

  /** @param {number} move */
  async frameAt(move) {
    const response = await fetch(`${this.base}/frames/${move}`, { cache: 'no-store' });
    const body = await response.json().catch(() => null);
    if (!response.ok || !body) throw new Error(body && body.message ? body.message : `the server answered ${response.status}`);
    return body;
  }

  /** @param {(count: number) => void} listener */
  onAppend(listener) {
    this.listeners.add(listener);
    return () => { this.listeners.delete(listener); };
  }

  /** The first move to read again: the first of a call whose receipt was not stored yet. */
  pending() {
    const waiting = this.list.find((move) => move.call.status === null);
    return waiting ? waiting.call.first : this.list.length + 1;
  }

  async read() {
    let from = this.pending();
    for (;;) {
      const response = await fetch(`${this.base}/moves?from=${from}`, { cache: 'no-store' });
      const body = await response.json().catch(() => null);
      if (!response.ok || !body) throw new Error(body && body.message ? body.message : `the server answered ${response.status}`);
      /** @type {Map<number, import('../timeline/source.js').TimelineCall>} */
      const calls = new Map();
      for (const [index, call] of Object.entries(body.calls)) calls.set(Number(index), call);
      for (const move of body.moves) this.list[move.move - 1] = { ...move, call: calls.get(move.call) };
      this.live = body.live;
      if (!body.moves.length || this.list.length >= body.count) break;
      from = this.list.length + 1;
    }
  }

  /** @param {number} delay */
  schedule(delay) {
    clearTimeout(this.timer);
    if (this.closed) return;
    this.timer = setTimeout(() => this.poll(), delay);
  }

  async poll() {
    if (this.closed) return;
    if (document.visibilityState !== 'visible') { this.schedule(POLL_MS); return; }
    const before = this.list.length;
    const wasLive = this.live;
    const again = this.pending() <= before; // calls whose facts were missing are read again
    try {
      await this.read();
    } catch {
      this.schedule(BACKOFF_MS);
      return;
    }
    if (again || this.list.length !== before || this.live !== wasLive) for (const listener of this.listeners) listener(this.list.length);
    if (this.live) this.schedule(POLL_MS);
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.listeners.clear();
  }
}
