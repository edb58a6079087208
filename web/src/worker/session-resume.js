// session-resume.js - a stored game's session resumed from its newest page
// checkpoint instead of its whole journal (docs/DURABILITY.md, "Exact resume
// from a checkpoint"). Published as globalThis.nethackSessionCheckpoints for
// py/nethack_webmcp/session/page_checkpoints.py (the registry's restore source):
//
//   prefetch(sessionId): start reading the newest checkpoint now (worker.open_game, before the registry
//       reads the stored game and takes its ownership), for the newest() call that follows.
//   await newest(sessionId) -> JSON text {seq} | {seq: null}: the journal entry
//       of the newest checkpoint that holds a navigation memory (not verified
//       yet): the registry then reads only the journal from there on.
//   await restorePoint(sessionId, lastSeq, firstSeq) -> JSON text
//       {move, seq, navigation, handle, refused}: the newest checkpoint record
//       at journal entries firstSeq..lastSeq (the journal Python read) that holds a navigation memory and
//       verifies - its bytes' sha256, the navigation memory's sha256 (also
//       named in the hashed header), this build and base - restored into a
//       fresh Asyncify instance (`handle`); records that fail are listed in
//       `refused` ({move, code, message}) and the next older one is tried.
//       {move: null, refused} when none holds (then Python replays the whole
//       journal and says so).
//   take(handle) -> the instance as an engine host instance (engine-host.js's
//       request/requestMany/close), for WasmEngine.
//
// What is verified here is the record's integrity; the session layer then
// checks the rest before any input: the record's entry is an entry of this
// journal with the boundary the journal recorded there (restore_point.check),
// the restored engine observes exactly that boundary, every tail input
// reaches its recorded boundary and the final observation the last one
// (session/replay.py replay_from). The journal's digest chain up to the move
// is not recomputed (that reads and hashes the whole journal: the
// timeline's open does it): a resume trusts an intact checkpoint for the
// inputs before its move.
//
// The restored instance becomes the game's live engine: the Asyncify build,
// whatever build new games run (both answer byte for byte alike).
import { CheckpointRefused, decode, navigationOf, restoreInto } from './checkpoints.js';

const PREFETCH_MS = 5000;
/** @type {number[][]} [requests, ms] of the first batches restored instances ran (diagnostics) */
export const engineTimes = [];

/** A record a session can resume from: it holds a navigation memory and names its journal entry. */
const resumable = (record) => Boolean(record && record.navigationSha256 != null && Number.isInteger(record.seq));

export class SessionCheckpoints {
  /** @param {import('./checkpoint-store.js').CheckpointStore} store
   *  @param {() => Promise<{start: () => Promise<any>, fresh?: () => Promise<any>, base: any}>} engineParts
   *  (page-replay.js; `fresh` hands over the instance kept from the base capture first) */
  constructor(store, engineParts) {
    this.store = store;
    this.engineParts = engineParts;
    this.handles = new Map();
    this.next = 1;
    /** @type {{sessionId: string, record: any} | null} what newest() read, for restorePoint */
    this.lastRead = null;
    /** @type {{sessionId: string, reading: Promise<any>, at: number} | null} a read started by prefetch() */
    this.prefetched = null;
  }

  /** Start reading the game's newest checkpoint now (a resume is about to ask: worker.open_game), while
   *  Python reads the stored game and takes its ownership; newest() then answers from this read. */
  prefetch(sessionId) {
    const reading = this.read(sessionId);
    reading.catch(() => {});
    this.prefetched = { sessionId, reading, at: performance.now() };
  }

  async newest(sessionId) {
    const ahead = this.prefetched;
    // a read started for this game just before (a resume that failed earlier never used its read: too old then)
    const prefetched = ahead && ahead.sessionId === sessionId && performance.now() - ahead.at < PREFETCH_MS
      ? ahead.reading : null;
    this.prefetched = null;
    const found = await (prefetched || this.read(sessionId));
    // the restorePoint call that follows (the same resume) uses them: nothing is read twice
    this.lastRead = found.record ? found : null;
    return JSON.stringify({ seq: found.record ? found.record.seq : null });
  }

  /** The game's newest record that a session can resume from (null: none). */
  async read(sessionId) {
    return { sessionId, record: await this.store.newest(sessionId, resumable) };
  }

  async restorePoint(sessionId, lastSeq, firstSeq = 0) {
    const refused = [];
    const clock = performance.now();
    const timings = {}; // ms per step (the bench's profile of a resume)
    const lap = (name) => { timings[name] = Math.round((performance.now() - clock) * 10) / 10; };
    const read = this.lastRead && this.lastRead.sessionId === sessionId ? this.lastRead : null;
    this.lastRead = null;
    // the record newest() read (else read now): with none, no engine is prepared for nothing
    const first = read ? read.record : await this.store.newest(sessionId, resumable);
    if (!first) return JSON.stringify({ move: null, refused });
    const { start, fresh, base } = await this.engineParts();
    lap('parts');
    // a fresh instance is made ready while the record is checked (and kept for the next one if it is refused)
    let instance = null;
    try {
      // the older ones only if it is refused or past the journal
      for await (const record of this.store.newestFirst(sessionId, resumable, first)) {
        if (record.seq > lastSeq) continue; // past this journal
        const move = record.move;
        if (record.seq < firstSeq) break; // before the part of the journal Python read (newest first: all the rest too)
        lap('record');
        instance ??= fresh ? fresh() : start();
        try {
          // both digests checked and both unpacked at once (the hashing and gunzip run off this thread)
          const [navigation, state] = await Promise.all([navigationOf(record), decode(record, base)]);
          lap('checked');
          const engine = await instance;
          instance = null;
          lap('instance');
          try {
            restoreInto(engine, state, base);
          } catch (error) {
            engine.close();
            throw error;
          }
          lap('restored');
          const handle = this.next++;
          this.handles.set(handle, engine);
          return JSON.stringify({ move, seq: record.seq, navigation, handle, refused, timings });
        } catch (error) {
          if (!(error instanceof CheckpointRefused)) throw error;
          refused.push({ move, code: error.code, message: error.message });
        }
      }
    } finally {
      if (instance) instance.then((engine) => engine.close(), () => {});
    }
    return JSON.stringify({ move: null, refused });
  }

  take(handle) {
    const engine = this.handles.get(handle);
    if (!engine) throw new Error(`no restored engine ${handle}`);
    this.handles.delete(handle);
    return new LiveInstance(engine);
  }
}

/** A restored replay instance as engine-host.js's instances are seen by
 *  WasmEngine: one request (text or bytes), many (one per line), close. */
class LiveInstance {
  constructor(engine) {
    this.engine = engine;
  }

  request(json) {
    return this.engine.request(typeof json === 'string' ? json : new TextDecoder().decode(new Uint8Array(json)));
  }

  async requestMany(text) {
    const started = performance.now();
    const lines = text.split('\n');
    const replies = (await this.engine.requestMany(lines)).join('\n');
    // the engine's share of a resume's tail (the bench's profile reads the first ones): requests, ms
    if (engineTimes.length < 64) engineTimes.push([lines.length, Math.round((performance.now() - started) * 10) / 10]);
    return replies;
  }

  close() {
    this.engine.close();
  }
}
