// checkpoint-replay.js - open a stored game's journal on checkpoints and
// reach any move in milliseconds, every boundary verified (docs/REPLAY.md,
// "Page checkpoints"). Environment-neutral: the page's worker passes its
// IndexedDB checkpoint store (checkpoint-store.js), Node scripts a Map.
//
// Move k is the game after its k-th completed journal input (move 0: just
// created). Replays run in instances of their own (replay-engine.js), never
// the live game's.
//
//   open()        reuse the stored checkpoints that are this journal's (digest),
//                 this build's and base's, and intact (sha256 of their bytes),
//                 extended to moves made since from the last of them; otherwise (none, stale, tampered) one
//                 verified quiet replay that takes new ones: at move 0, every
//                 `spacingMs` of replay cost (later inputs replay slower, so an
//                 old game's checkpoints are denser in inputs) and at the last
//                 move; each one encoded, compressed and saved.
//   frameAt(k)    the verified session.observe response at move k: restore the
//                 nearest checkpoint at or before k into a fresh instance (or
//                 step on from the previous seek), replay the inputs after it
//                 with each boundary compared, observe and compare. A
//                 checkpoint is thus verified whenever it is used; a mismatch
//                 rejects with CheckpointRefused and no frame is returned.
//   resume()      a fresh engine at the last move, verified the same way.
//   append(e)     more completed inputs of a game that goes on: checkpointed too.
//
// With `memory` (the page: a factory of Python's MemoryFold,
// session/page_checkpoints.py) the replays that take checkpoints send full
// requests and fold every response into the navigation memory, so each record
// also holds the navigation snapshot at its move (a session resumes from it:
// session-resume.js); those replays also take a checkpoint at the end of each
// batch in which the level changed. Stored records without a navigation
// memory are then refused and the set rebuilt. Seeks stay quiet.
import {
  CheckpointRefused, JournalChain, canonical, decode, encode, navigationOf, restoreInto, sha256Hex, snapshot,
} from './checkpoints.js';

const DEFAULT_SPACING_MS = 20;
// ... and at most this many inputs apart: the replay cost measured at open
// can be far below a seek's (a busy machine, a colder engine), so a seek never
// replays more than this many inputs (~45-60 KB per checkpoint: ≤ 5 MB per 10k inputs)
const DEFAULT_MAX_INPUTS = 128;

/** The boundary a response reports (py/nethack_webmcp/session/replay.py summary_of). */
export function summaryOf(response) {
  const decision = response.decision;
  return {
    revision: Number(response.revision),
    decision: decision == null ? null
      : { id: decision.id ?? null, kind: decision.kind ?? null, prompt: decision.prompt ?? null },
    ended: Boolean(response.ended),
    end: response.end ?? null,
  };
}

function quiet(request) {
  return JSON.stringify({ ...request, params: { ...request.params, quiet: true } });
}

export class Replayer {
  /** @param {{start: () => Promise<any>, base: any, info: any, moves: any[],
   *           save: (record: any) => Promise<any>, load: (move: number) => Promise<any>,
   *           clear?: () => Promise<any>, memory?: (() => any) | null,
   *           known?: number[], spacingMs?: number, maxInputs?: number}} options
   *  `moves` are the journal's completed entries in order; `known` the moves
   *  stored checkpoints are at (from the store's index). */
  constructor({ start, base, info, moves, save, load, clear = async () => {}, known = [], memory = null,
                spacingMs = DEFAULT_SPACING_MS, maxInputs = DEFAULT_MAX_INPUTS }) {
    this.memory = memory; // () => a navigation memory fold (see the header), or null
    this.start = start;
    this.base = base;
    this.info = info;
    this.moves = moves;
    this.save = save;
    this.load = load;
    this.clear = clear; // drop every stored checkpoint of the game (before a rebuild)
    this.spacingMs = spacingMs;
    this.maxInputs = maxInputs;
    this.known = [...new Set(known)].filter((move) => move <= moves.length).sort((a, b) => a - b);
    this.checkpoints = []; // moves with a usable checkpoint, ascending
    this.digests = new Map(); // move -> journal digest
    /** @type {JournalChain | null} */
    this.chain = null;
    this.cursor = null; // {move, engine} left by the last seek
    this.spare = null; // a fresh instance started ahead, for the next restore
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.spareTimer = null;
    this.closed = false;
    this.refusals = []; // stored checkpoints refused at open (kept for diagnostics)
  }

  get length() { return this.moves.length; }

  summaryAt(move) {
    return move === 0 ? this.info.createdSummary : this.moves[move - 1].receipt;
  }

  async digestsAt(moves) {
    if (!this.chain) {
      this.chain = new JournalChain({ create: this.info.create, created: this.info.createdSummary },
        this.moves.map((entry) => ({ request: entry.request, receipt: entry.receipt })));
    }
    for (let i = this.chain.inputs.length; i < this.moves.length; i++) {
      this.chain.inputs.push({ request: this.moves[i].request, receipt: this.moves[i].receipt });
    }
    const out = [];
    for (const move of moves) {
      if (!this.digests.has(move)) this.digests.set(move, await this.chain.at(move));
      out.push(this.digests.get(move));
    }
    return out;
  }

  async open() {
    const started = performance.now();
    let rebuilt = true;
    if (this.known.includes(0)) {
      // the stored checkpoints are trusted only after their digest matches this
      // journal and their bytes their sha256; each one is decoded (and so
      // checked again) when used, and verified by the replay after it
      const digests = await this.digestsAt(this.known);
      const usable = [];
      for (const [at, move] of this.known.entries()) {
        const record = await this.load(move);
        if (record && record.digest === digests[at] && record.build === this.base.build
            && record.baseHash === this.base.hash && record.bytes instanceof Uint8Array
            && (!this.memory || typeof record.navigationSha256 === 'string')
            && await sha256Hex(record.bytes) === record.sha256) usable.push(move);
        else this.refusals.push(move);
      }
      // one refused checkpoint (changed, stale) means the set is rebuilt, not patched
      if (!this.refusals.length) {
        this.checkpoints = usable;
        rebuilt = false;
      }
    }
    if (rebuilt) await this.rebuild();
    else await this.extend(); // a game that went on since: checkpoints for its new moves
    this.openMs = performance.now() - started;
    this.prepareSpare();
    return { rebuilt };
  }

  /** More completed inputs of a game that goes on (a live game watched):
   *  checkpoints are taken for them from the last one. */
  async append(entries) {
    this.moves.push(...entries);
    await this.extend();
  }

  /** One verified quiet replay of the whole journal, checkpoints saved as it goes. */
  async rebuild() {
    await this.clear();
    this.checkpoints = [];
    const engine = await this.start();
    const fold = this.memory ? this.memory() : null;
    try {
      const created = await this.create(engine);
      if (fold) fold.begin(created);
      await this.takeFrom(engine, 0, true, fold);
    } finally {
      engine.close();
      if (fold && fold.destroy) fold.destroy();
    }
  }

  /** Checkpoints for the moves after the last one (none when it is the last move). */
  async extend() {
    const last = this.checkpoints[this.checkpoints.length - 1];
    if (last >= this.length) return;
    const { engine, navigation } = await this.restore(last);
    const fold = this.memory ? this.memory() : null;
    try {
      if (fold) {
        if (navigation === null) throw new CheckpointRefused('checkpointStale', `the checkpoint at move ${last} has no navigation memory`);
        fold.restore(navigation);
      }
      await this.takeFrom(engine, last, false, fold);
    } finally {
      engine.close();
      if (fold && fold.destroy) fold.destroy();
    }
  }

  /** Replay from `at` to the last move on `engine` (which is at `at`),
   *  saving a checkpoint every spacing of replay cost and at the last move
   *  (with `fold`: full responses folded, the navigation memory in each
   *  record, and one after each batch that changed level). */
  /** @param {any} engine @param {number} at @param {boolean} first @param {any} [fold] */
  async takeFrom(engine, at, first, fold = null) {
    const pending = [];
    const take = async (move) => {
      const [digest] = await this.digestsAt([move]);
      const state = snapshot(engine, this.base); // copied now; encoded while the replay goes on
      const navigation = fold ? fold.dump() : null;
      // seq: the journal entry of the move (0: the creation), so a session resume reads only the journal after it
      const seq = move ? this.moves[move - 1].seq : 0;
      pending.push(encode({ move, seq, digest, summary: this.summaryAt(move), build: this.base.build,
                            baseHash: this.base.hash }, state, navigation).then((record) => this.save(record)));
      this.checkpoints.push(move);
    };
    if (first) await take(at);
    let taken = at;
    let batch = 64;
    let cost = 0; // the engine's replay time since the last checkpoint: what a seek from it pays
    while (at < this.length) {
      const from = at;
      const to = Math.min(this.length, at + batch);
      const { levelChanged, engineMs } = await this.replay(engine, from, to, fold);
      at = to;
      cost += engineMs;
      // the next batch is what the last one says fits in one spacing: the
      // replay slows as the game ages, so checkpoints densen in inputs
      // (the engine's time only: parsing and folding full responses is not what a quiet seek pays)
      const rate = (to - from) / Math.max(1, engineMs);
      batch = Math.max(8, Math.min(this.maxInputs, Math.round(rate * this.spacingMs)));
      if (cost >= this.spacingMs * 0.9 || at - taken >= this.maxInputs || at === this.length || levelChanged) {
        await take(at);
        taken = at;
        cost = 0;
      }
    }
    await Promise.all(pending);
  }

  async create(engine) {
    const text = await engine.request(JSON.stringify({ version: 1, method: 'session.create', params: this.info.create }));
    const created = JSON.parse(text);
    if (created.error || canonical(summaryOf(created)) !== canonical(this.info.createdSummary)) {
      throw new CheckpointRefused('replayDiverged', 'the engine did not recreate this game as the journal recorded it');
    }
    return text;
  }

  /** Send moves from+1..to (quiet; full with `fold`, each response folded
   *  into it, or with `full`: what a resume's tail costs the engine, timed) and compare each boundary
   *  with the journal's. Resolves with
   *  {levelChanged: a folded response arrived on another level, engineMs: the engine's own time}.
   *  @param {any} engine @param {number} from @param {number} to @param {any} [fold] @param {boolean} [full] */
  async replay(engine, from, to, fold = null, full = false) {
    const entries = this.moves.slice(from, to);
    const requests = entries.map((entry) => (fold || full ? JSON.stringify(entry.request) : quiet(entry.request)));
    const started = performance.now();
    const replies = await engine.requestMany(requests);
    const engineMs = performance.now() - started;
    replies.forEach((text, index) => {
      const move = from + index + 1;
      const response = JSON.parse(text);
      const expected = this.summaryAt(move);
      if (response.error || canonical(summaryOf(response)) !== canonical(expected)) {
        throw diverged(move, this.moves[move - 1]);
      }
    });
    if (!fold || !replies.length) return { levelChanged: false, engineMs };
    const searching = entries.map((entry) => (entry.method === 'game.search' ? '1' : '0')).join('');
    return { levelChanged: JSON.parse(fold.fold(replies.join('\n'), searching)).length > 0, engineMs };
  }

  /** Start the next restore's instance once the current work is done: the
   *  worker has one thread, and an engine starting during a seek would add
   *  its startup to that seek. */
  prepareSpare() {
    if (this.spare || this.spareTimer) return;
    this.spareTimer = setTimeout(() => {
      this.spareTimer = null;
      if (!this.spare && !this.closed) this.spare = this.start().catch(() => null);
    }, 0);
  }

  async fresh() {
    if (this.spareTimer) clearTimeout(this.spareTimer);
    this.spareTimer = null;
    const spare = this.spare && await this.spare;
    this.spare = null;
    return spare || this.start();
  }

  /** The last checkpoint at or before `move` (move 0 always has one). */
  nearest(move) {
    let found = 0;
    for (const at of this.checkpoints) if (at <= move) found = at;
    return found;
  }

  async restore(move) {
    const from = this.nearest(move);
    const [digest] = await this.digestsAt([from]);
    const record = await this.load(from);
    if (!record) throw new CheckpointRefused('checkpointMissing', `the checkpoint at move ${from} is gone; reopen to rebuild it`);
    const state = await decode(record, this.base, digest);
    const navigation = await navigationOf(record);
    const engine = await this.fresh();
    restoreInto(engine, state, this.base);
    return { engine, from, navigation };
  }

  /** The verified session.observe response (parsed) at `move`. */
  async frameAt(move) {
    if (!Number.isInteger(move) || move < 0 || move > this.length) {
      throw new CheckpointRefused('moveOutOfRange', `move ${move} is outside this game's 0..${this.length}`);
    }
    const nearest = this.nearest(move);
    let engine;
    let from;
    if (this.cursor && this.cursor.move <= move && this.cursor.move >= nearest) {
      ({ engine, move: from } = this.cursor); // stepping on from the last seek: no restore needed
    } else {
      if (this.cursor) retire(this.cursor.engine);
      ({ engine, from } = await this.restore(move));
    }
    this.cursor = null;
    try {
      await this.replay(engine, from, move);
      const observed = JSON.parse(await engine.request(JSON.stringify(
        { version: 1, method: 'session.observe', params: { sessionId: this.info.sessionId } })));
      if (observed.error || canonical(summaryOf(observed)) !== canonical(this.summaryAt(move))) {
        throw diverged(move, move ? this.moves[move - 1] : null);
      }
      this.cursor = { move, engine };
      this.prepareSpare();
      return observed;
    } catch (error) {
      engine.close();
      throw error;
    }
  }

  /** A fresh engine at the last move, boundaries verified; the caller closes it. */
  async resume() {
    const { engine, from } = await this.restore(this.length);
    try {
      await this.replay(engine, from, this.length);
      this.prepareSpare();
      return engine;
    } catch (error) {
      engine.close();
      throw error;
    }
  }

  close() {
    this.closed = true;
    if (this.spareTimer) clearTimeout(this.spareTimer);
    if (this.cursor) this.cursor.engine.close();
    this.cursor = null;
    if (this.spare) this.spare.then((engine) => engine && engine.close());
    this.spare = null;
  }
}

/** Close an engine after the current work: its exit (NetHack's shutdown)
 *  then runs outside the seek that replaced it. */
function retire(engine) {
  setTimeout(() => engine.close(), 0);
}

function diverged(move, entry) {
  const where = entry ? `move ${move} (journal entry ${entry.seq}, ${entry.method})` : `move ${move} (the creation)`;
  return new CheckpointRefused('replayDiverged', `the replay reached a different boundary at ${where} than the journal `
    + 'recorded; the journal or its checkpoint does not reproduce this game, so no frame is shown');
}
