// session-resume.js - a stored game's session resumed from its newest page
// checkpoint instead of its whole journal (docs/DURABILITY.md, "Exact resume
// from a checkpoint"). Published as globalThis.nethackSessionCheckpoints for
// py/nethack_webmcp/session/page_checkpoints.py (the registry's restore source):
//
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
    /** @type {{sessionId: string, moves: number[], record: any} | null} what newest() read, for restorePoint */
    this.lastRead = null;
  }

  /** The game's checkpoint moves, newest first. */
  async movesOf(sessionId) {
    return (await this.store.moves(sessionId)).sort((a, b) => b - a);
  }

  async newest(sessionId) {
    const moves = await this.movesOf(sessionId);
    for (const move of moves) {
      const record = await this.store.load(sessionId, move);
      if (resumable(record)) {
        // the restorePoint call that follows (the same resume) uses them: nothing is read twice
        this.lastRead = { sessionId, moves, record };
        return JSON.stringify({ seq: record.seq });
      }
    }
    return JSON.stringify({ seq: null });
  }

  async restorePoint(sessionId, lastSeq, firstSeq = 0) {
    const refused = [];
    const read = this.lastRead && this.lastRead.sessionId === sessionId ? this.lastRead : null;
    this.lastRead = null;
    const moves = read ? read.moves : await this.movesOf(sessionId);
    if (!moves.length) return JSON.stringify({ move: null, refused });
    const { start, fresh, base } = await this.engineParts();
    for (const move of moves) {
      const record = read && read.record.move === move ? read.record : await this.store.load(sessionId, move);
      if (!resumable(record) || record.seq > lastSeq) continue; // seeks only, or past this journal
      if (record.seq < firstSeq) break; // before the part of the journal Python read (newest first: all the rest too)
      try {
        const navigation = await navigationOf(record);
        const state = await decode(record, base);
        const engine = await (fresh ? fresh() : start());
        try {
          restoreInto(engine, state, base);
        } catch (error) {
          engine.close();
          throw error;
        }
        const handle = this.next++;
        this.handles.set(handle, engine);
        return JSON.stringify({ move, seq: record.seq, navigation, handle, refused });
      } catch (error) {
        if (!(error instanceof CheckpointRefused)) throw error;
        refused.push({ move, code: error.code, message: error.message });
      }
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
    return (await this.engine.requestMany(text.split('\n'))).join('\n');
  }

  close() {
    this.engine.close();
  }
}
