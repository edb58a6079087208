// follower.js - the page's background checkpointer: every live game this
// worker owns gets checkpoints whether or not its timeline was ever opened
// (docs/REPLAY.md, "The background checkpointer").
//
// A live page game runs the JSPI build, whose suspended stack is outside
// linear memory, so its own instance cannot be snapshotted mid-wait. A
// *follower* - an Asyncify instance of its own (replay-engine.js) - replays
// the game's journal from its newest usable checkpoint (or the creation),
// quiet, every boundary compared with the journal's (checkpoint-replay.js
// Replayer.replay: a mismatch stops the follower and it takes no checkpoint),
// and checkpoints itself at the moves where it holds the live session's own
// navigation memory:
//
//   - after a call that leaves the game MEMORY_EVERY journal entries or more
//     past the last memory taken, or on another level (a level change);
//   - at the game's last move once it has been idle IDLE_MS (debounced after
//     tool calls): the reload resume then has no tail to replay;
//   - when the game's pace says a checkpoint is due, and at once when one of
//     its inputs waits for it (session/page_pacing.py: a reload in the middle
//     of a burst then replays a tail within the pace's budget).
//
// The pace's price: the last PRICE_SAMPLE inputs before each checkpoint are
// replayed with full responses and timed (what a resume's tail costs the
// engine), reported with the journal entry the checkpoint reaches.
//
// The memory is the live tracker's navigation/snapshot.py dump at journal
// entry k (worker.live_memory, read in one synchronous step with k), held
// until the follower's replay reaches k: no second fold of the game.
//
// Off the live game's path: the follower works only while no page request
// is in flight (`busy`), one slice of at most SLICE_MS of engine time (and
// SLICE_MAX inputs) per macrotask, so a tool call that arrives waits for at
// most one slice. It runs in the worker's one thread (not a Worker of its
// own: a second worker would fetch and compile the Asyncify build again and
// read the journal through another IndexedDB connection; the slices measure
// small enough here - docs/BENCHMARKS.md).
//
// A game whose timeline is open (page-replay.js) is left to that replay's
// own checkpoints.
import { CheckpointRefused, decode, encode, restoreInto, snapshot } from './checkpoints.js';
import { Replayer } from './checkpoint-replay.js';

const SLICE_MS = 8;
const SLICE_MAX = 32;
export const MEMORY_EVERY = 128;
const IDLE_MS = 250;
const RETRY_MS = 100;
// inputs before each checkpoint replayed with full responses, timed: the engine's share of the pace's price
const PRICE_SAMPLE = 16;
// journal entries a follower's start reads per slice (~5-7 ms a thousand here)
const JOURNAL_PART = 4000;
// followers kept alive (an Asyncify instance each, tens of MB): an idle game's beyond these is closed once its
// newest checkpoint is at its last move, and started again from that checkpoint when the game goes on
const KEPT = 2;

export class BackgroundCheckpointer {
  /** @param {{journal: {call: (op: string, argsJson: string) => Promise<string>},
   *           store: import('./checkpoint-store.js').CheckpointStore,
   *           engineParts: () => Promise<{start: () => Promise<any>, base: any}>,
   *           liveMemory: (gameId: string, dump: boolean) => any,
   *           creationMemory: (createdText: string) => string,
   *           busy: () => boolean, skip: (gameId: string) => boolean,
   *           pace?: {progress: (gameId: string, seq: number, priced: number, pricedMs: number) => void,
   *                   release: (gameId: string) => void}}} options
   *  liveMemory: worker.live_memory ({seq, level, navigation?} | null);
   *  creationMemory: the navigation memory at the creation (one response folded) */
  constructor({ journal, store, engineParts, liveMemory, creationMemory, busy, skip,
                pace = { progress: () => {}, release: () => {} } }) {
    this.journal = journal;
    this.store = store;
    this.engineParts = engineParts;
    this.liveMemory = liveMemory;
    this.creationMemory = creationMemory;
    this.busy = busy;
    this.skip = skip;
    this.pace = pace; // the live games' pacing (worker.pace_progress / unpace)
    /** @type {Map<string, any>} gameId -> its follow (see follow()) */
    this.games = new Map();
    this.scheduled = null;
    this.running = false;
    this.enabled = true;
    // diagnostics (test hooks, bench): slices run and the longest one
    /** @type {{slices: number, longestSliceMs: number, longestSlice: string, checkpoints: number, refused: any[],
     *          startSteps: number[]}} (startSteps: ms of each step of the followers' starts, the last 16) */
    this.stats = { slices: 0, longestSliceMs: 0, longestSlice: '', checkpoints: 0, refused: [], startSteps: [] };
    this.doing = ''; // what the current slice does (the longest one is named in stats)
  }

  /** A tool call on `gameId` finished (the worker calls this after every one). */
  called(gameId) {
    if (!this.enabled || !gameId || this.skip(gameId)) return;
    const live = this.parse(this.liveMemory(gameId, false));
    if (!live) return;
    let game = this.games.get(gameId);
    if (!game) {
      game = { gameId, held: [], memorySeq: -1, memoryLevel: undefined, idle: null, follow: null, starting: null,
               failed: null, waiting: false, priced: false,
               wantSeq: 0 };
      this.games.set(gameId, game);
    }
    if (game.failed) return;
    game.wantSeq = Math.max(game.wantSeq, live.seq);
    game.calledAt = performance.now();
    // (until a checkpoint priced the game, one every PRICE_SAMPLE entries: the pace has no price before)
    const spacing = game.priced ? MEMORY_EVERY : PRICE_SAMPLE;
    if (game.memorySeq < 0 || live.level !== game.memoryLevel || live.seq - game.memorySeq >= spacing
        || live.due) {
      this.hold(game);
    }
    if (game.idle) clearTimeout(game.idle);
    game.idle = setTimeout(() => {
      game.idle = null;
      if (this.busy()) {
        game.idle = setTimeout(() => this.called(gameId), IDLE_MS);
        return;
      }
      this.hold(game);
      this.schedule();
    }, IDLE_MS);
    this.schedule();
  }

  /** An input of `gameId` waits for a checkpoint (`on`), or no longer does (pacing.Pace.on_waiting).
   *  While it waits its call is in flight but holds nothing this needs: see waitingCalls. */
  waiting(gameId, on) {
    const game = this.games.get(gameId);
    if (!on) {
      if (game) game.waiting = false;
      return;
    }
    if (!game || game.failed || !this.enabled || this.skip(gameId)) {
      this.pace.release(gameId); // nobody will checkpoint it: the input goes on at once
      return;
    }
    game.waiting = true; // (its wake() follows at once)
  }

  /** A waiting input asks for the next checkpoint now (pacing.Pace.wake, again after each checkpoint
   *  while the tail is still over the budget). */
  wake(gameId) {
    const game = this.games.get(gameId);
    if (!game) return;
    const live = this.parse(this.liveMemory(gameId, false));
    if (live && live.seq > game.memorySeq) this.hold(game); // (a memory is dumped once per entry)
    this.schedule();
  }

  /** The calls in flight that only wait for a checkpoint (the worker's busy() does not count them). */
  get waitingCalls() {
    let count = 0;
    for (const game of this.games.values()) if (game.waiting) count += 1;
    return count;
  }

  parse(text) {
    const value = text == null ? null : JSON.parse(String(text));
    return value && Number.isInteger(value.seq) ? value : null;
  }

  /** Take the live memory now (its journal entry with it), unless it was taken at that entry already. */
  hold(game) {
    const live = this.parse(this.liveMemory(game.gameId, true));
    if (!live || live.seq <= game.memorySeq || typeof live.navigation !== 'string') return;
    game.held.push({ seq: live.seq, level: live.level, navigation: live.navigation });
    game.memorySeq = live.seq;
    game.memoryLevel = live.level;
    game.wantSeq = Math.max(game.wantSeq, live.seq);
  }

  schedule(delay = 0) {
    if (this.scheduled !== null || this.running) return;
    this.scheduled = setTimeout(() => {
      this.scheduled = null;
      this.pump();
    }, delay);
  }

  /** One slice of work for the first game that has some, then the next macrotask. */
  async pump() {
    if (this.busy()) return; // the call's end calls called() again, which schedules
    this.running = true;
    let more = false;
    let retry = false;
    try {
      for (const game of this.games.values()) {
        if (game.failed || this.skip(game.gameId)) continue;
        const started = performance.now();
        const outcome = await this.slice(game);
        const ms = performance.now() - started;
        this.stats.slices += 1;
        if (ms > this.stats.longestSliceMs) {
          this.stats.longestSliceMs = ms;
          this.stats.longestSlice = this.doing;
        }
        if (outcome === 'more') { more = true; break; }
        if (outcome === 'wait') retry = true;
      }
    } finally {
      this.running = false;
    }
    if (more) this.schedule();
    else if (retry) this.schedule(RETRY_MS);
    else this.retireIdle();
  }

  /** Close the followers of the least recently played idle games beyond KEPT. */
  retireIdle() {
    const followed = [...this.games.values()].filter((game) => game.follow).sort((a, b) => b.calledAt - a.calledAt);
    for (const game of followed.slice(KEPT)) {
      const follow = game.follow;
      const idle = !game.held.length && follow.at === follow.replayer.length && follow.checkpointed.has(follow.at);
      if (!idle) continue;
      follow.engine.close();
      game.follow = null;
    }
  }

  /** One bounded step of one game's follow: 'more' (call again), 'wait'
   *  (held memory whose journal entries are not stored yet) or 'idle'. */
  async slice(game) {
    try {
      if (!game.follow) {
        if (!game.held.length) return 'idle';
        // started in steps, one per slice (the build's warm-up, the journal, an instance, the creation):
        // a call that arrives meanwhile waits for one of them, not for all
        game.starting ??= this.follow(game.gameId);
        game.step = (game.step || 0) + 1;
        this.doing = `start step ${game.step}`;
        const stepStarted = performance.now();
        const step = await game.starting.next();
        this.stats.startSteps = [...this.stats.startSteps, Math.round(performance.now() - stepStarted)].slice(-16);
        if (step.done) {
          game.follow = step.value;
          game.starting = null;
        }
        return 'more';
      }
      const follow = game.follow;
      this.doing = 'journal';
      if (follow.lastSeq < game.wantSeq) {
        const before = follow.lastSeq;
        await this.readJournal(game.gameId, follow);
        if (follow.lastSeq === before && game.held.length) return 'wait';
      }
      const moves = follow.replayer.moves;
      // held memories at moves the follower passed already (taken before it started) serve no checkpoint
      while (game.held.length && game.held[0].seq <= follow.lastSeq && moveAt(moves, game.held[0].seq) < follow.at) {
        game.held.shift();
      }
      const target = game.held.length && game.held[0].seq <= follow.lastSeq ? game.held[0] : null;
      const goal = target ? moveAt(moves, target.seq) : follow.replayer.length;
      if (follow.at < goal) {
        // the last inputs before a checkpoint with full responses: the pace's price (the header)
        const full = Boolean(target) && goal - follow.at <= PRICE_SAMPLE;
        // (a quiet batch stops where the sample starts)
        const ahead = target && !full ? goal - follow.at - PRICE_SAMPLE : goal - follow.at;
        const count = Math.min(ahead, follow.batch);
        this.doing = `replay ${count}`;
        const started = performance.now();
        const { engineMs } = await follow.replayer.replay(follow.engine, follow.at, follow.at + count, null, full);
        const ms = performance.now() - started;
        if (full) {
          follow.priced += count;
          follow.pricedMs += engineMs;
        }
        follow.at += count;
        follow.batch = Math.max(1, Math.min(SLICE_MAX, Math.floor(count * SLICE_MS / Math.max(0.5, ms))));
        return 'more';
      }
      if (target) { // the follower is at the held memory's move
        this.doing = 'checkpoint';
        game.held.shift();
        if (follow.priced) follow.enginePerInputMs = follow.pricedMs / follow.priced;
        if (!follow.checkpointed.has(follow.at)) await this.checkpoint(game.gameId, follow, follow.at, target.navigation);
        // the stored checkpoints reach the held memory's entry (past the move: entries that made no input)
        this.pace.progress(game.gameId, target.seq, follow.priced, follow.pricedMs);
        if (follow.priced) game.priced = true;
        follow.priced = 0;
        follow.pricedMs = 0;
        return 'more';
      }
      return game.held.length ? 'wait' : 'idle';
    } catch (error) {
      game.failed = String(error && error.message ? error.message : error);
      game.waiting = false;
      this.pace.release(game.gameId); // not followed any more: nothing may wait for it
      this.stats.refused.push({ gameId: game.gameId, code: error && error.code, message: game.failed });
      if (game.follow && game.follow.engine) game.follow.engine.close();
      game.follow = null;
      game.starting = null;
      console.warn(`[checkpoints] the background checkpointer stopped following ${game.gameId}: ${game.failed}`);
      return 'idle';
    }
  }

  /** A follower for the game: a fresh Asyncify instance at its newest
   *  checkpoint whose digest is this journal's (or at the creation, with a
   *  checkpoint taken there, as the timeline's replays expect one). A
   *  generator: each step is one slice of the worker's time. */
  async* follow(gameId) {
    const info = await this.read('getSession', gameId);
    if (!info) throw new Error(`no stored game ${gameId}`);
    // paced from now on at the price its newest checkpoint was taken at: the start below takes about 1 s
    // at 50,000 inputs, and a reload in it would otherwise replay everything played since this one
    const prior = await this.store.newest(gameId, (record) => usable(record, Infinity));
    if (prior && prior.enginePerInputMs > 0) this.pace.progress(gameId, prior.seq, 1, prior.enginePerInputMs);
    const { start, base } = await this.engineParts();
    yield;
    const replayer = new Replayer({ start, base, info, moves: [], save: async () => {}, load: async () => null });
    const follow = { replayer, base, engine: null, at: 0, lastSeq: 0, batch: 4, checkpointed: new Set(),
                     priced: 0, pricedMs: 0, enginePerInputMs: 0 };
    // the journal in parts, one slice each, its digest chain extended over each part as it comes: a
    // 50,000-input game's whole journal in one slice held a tool call up for 0.65-0.75 s
    while (await this.readJournal(gameId, follow, JOURNAL_PART)) {
      await replayer.digestsAt([replayer.length]);
      yield;
    }
    yield;
    // its newest checkpoint the prior read, unless that one is past the journal read (older ones if refused)
    const length = replayer.length;
    const first = prior && usable(prior, length) ? prior : undefined;
    for await (const record of this.store.newestFirst(gameId, (candidate) => usable(candidate, length), first)) {
      const move = record.move;
      try {
        const [digest] = await replayer.digestsAt([move]);
        const state = await decode(record, base, digest);
        yield;
        const engine = await start();
        yield;
        restoreInto(engine, state, base);
        Object.assign(follow, { engine, at: move });
        follow.checkpointed.add(move);
        return follow;
      } catch (error) {
        if (!(error instanceof CheckpointRefused)) throw error;
        this.stats.refused.push({ gameId, move, code: error.code, message: error.message });
      }
    }
    follow.engine = await start();
    yield;
    const created = await replayer.create(follow.engine);
    yield;
    await this.checkpoint(gameId, follow, 0, this.creationMemory(created));
    return follow;
  }

  async read(op, ...args) {
    const answer = JSON.parse(await this.journal.call(op, JSON.stringify(args)));
    if (!answer.ok) throw new Error(`${op}: ${answer.message}`);
    return answer.value;
  }

  /** The journal's settled entries after the last one read (at most `limit` of them): completed ones are
   *  the follower's moves. Whether there may be more (the part was full, all of it settled).
   *  @param {string} gameId @param {any} follow @param {number} [limit] */
  async readJournal(gameId, follow, limit) {
    const entries = await this.read('journal', gameId, follow.lastSeq, ...(limit ? [limit] : []));
    for (const entry of entries) {
      if (entry.seq !== follow.lastSeq + 1 || entry.state === 'reserved') return false;
      if (entry.state === 'completed' && entry.receipt) follow.replayer.moves.push(entry);
      follow.lastSeq = entry.seq;
    }
    return Boolean(limit) && entries.length === limit;
  }

  async checkpoint(gameId, follow, move, navigation) {
    const { replayer, base, engine } = follow;
    const [digest] = await replayer.digestsAt([move]);
    const state = snapshot(engine, base);
    const seq = move ? replayer.moves[move - 1].seq : 0;
    const record = await encode({ move, seq, digest, summary: replayer.summaryAt(move), build: base.build,
                                  baseHash: base.hash, by: 'follower' }, state, navigation);
    // the engine's share of the pace's price when this was taken: the next follower's prior (follow()).
    // Outside the hashed header: a hint that can only change how often the game waits, never the game
    if (follow.enginePerInputMs) record.enginePerInputMs = follow.enginePerInputMs;
    await this.store.save(gameId, record);
    follow.checkpointed.add(move);
    this.stats.checkpoints += 1;
  }

  /** Stop following a game (closed, taken over, its timeline opened). */
  forget(gameId) {
    const game = this.games.get(gameId);
    if (!game) return;
    if (game.idle) clearTimeout(game.idle);
    if (game.follow && game.follow.engine) game.follow.engine.close();
    this.games.delete(gameId);
    this.pace.release(gameId);
  }

  /** What the follower of a game has done (test hooks, bench). */
  describe(gameId) {
    const game = this.games.get(gameId);
    const follow = game && game.follow;
    return {
      following: Boolean(follow), failed: game ? game.failed : null, at: follow ? follow.at : null,
      // the journal entry of the follower's move (its lag behind the live game, in entries)
      atSeq: follow ? seqOf(follow, follow.at) : null,
      // the journal entry of its newest checkpoint: a reload now resumes from there (the tail is what follows)
      checkpointSeq: follow ? seqOf(follow, Math.max(...follow.checkpointed)) : null,
      journalSeq: follow ? follow.lastSeq : null, moves: follow ? follow.replayer.length : null,
      held: game ? game.held.map((memory) => memory.seq) : [], checkpointed: follow ? [...follow.checkpointed] : [],
      ...this.stats,
    };
  }
}

/** Whether a follower may start from a record: it holds a navigation memory, at a move the journal has. */
function usable(record, length) {
  return Boolean(record) && record.move <= length && record.navigationSha256 != null;
}

/** The journal entry of the follower's move `move` (0: the creation). */
function seqOf(follow, move) {
  return move ? follow.replayer.moves[move - 1].seq : 0;
}

/** The number of completed inputs at or before journal entry `seq` (moves are in seq order). */
function moveAt(moves, seq) {
  let low = 0;
  let high = moves.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (moves[middle].seq <= seq) low = middle + 1;
    else high = middle;
  }
  return low;
}
