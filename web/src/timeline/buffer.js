// buffer.js - the frames ahead of the viewer, fetched before they are shown (pure: the
// fetch is given). Playback asks for move k while the next `ahead` moves are
// already on their way (at most `parallel` requests at once), so 10 moves a
// second are drawn on time. Exact frames are kept (up to `keep`, least recently
// used dropped); a frame that is not exact (a live game's move inside a running
// tool call) is fetched again next time, since a better one may have been stored.

export class FrameBuffer {
  /** @param {(move: number) => Promise<import('./source.js').TimelineFrame>} fetchFrame
   *  @param {{keep?: number, ahead?: number, parallel?: number}} [options] */
  constructor(fetchFrame, { keep = 512, ahead = 12, parallel = 2 } = {}) {
    this.fetchFrame = fetchFrame;
    this.keep = keep;
    this.ahead = ahead;
    this.parallel = parallel;
    /** @type {Map<number, import('./source.js').TimelineFrame>} */
    this.frames = new Map();
    /** @type {Map<number, Promise<import('./source.js').TimelineFrame>>} */
    this.pending = new Map();
    /** @type {number[]} */
    this.queue = [];
  }

  /** The frame at `move` (kept, on its way, or fetched now, ahead of the queue).
   * @param {number} move */
  get(move) {
    const kept = this.frames.get(move);
    if (kept) {
      this.frames.delete(move);
      this.frames.set(move, kept); // most recently used last
      return Promise.resolve(kept);
    }
    return this.pending.get(move) || this.fetch(move);
  }

  /** Fetch the `ahead` moves after `move` (up to `last`) in the background, in order.
   * @param {number} move @param {number} last */
  prefetch(move, last) {
    this.queue = [];
    for (let k = move + 1; k <= Math.min(last, move + this.ahead); k += 1) {
      if (!this.frames.has(k) && !this.pending.has(k)) this.queue.push(k);
    }
    this.pump();
  }

  /** @param {number} move */
  fetch(move) {
    const promise = this.fetchFrame(move).then((frame) => {
      if (frame.exact) {
        this.frames.set(move, frame);
        while (this.frames.size > this.keep) this.frames.delete(/** @type {number} */ (this.frames.keys().next().value));
      }
      return frame;
    }).finally(() => {
      this.pending.delete(move);
      this.pump();
    });
    this.pending.set(move, promise);
    return promise;
  }

  pump() {
    while (this.pending.size < this.parallel && this.queue.length) {
      const move = /** @type {number} */ (this.queue.shift());
      if (!this.frames.has(move) && !this.pending.has(move)) this.fetch(move).catch(() => {});
    }
  }
}
