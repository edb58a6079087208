// session-resume.js - a stored game's session resumed from its newest page
// checkpoint instead of its whole journal (docs/DURABILITY.md, "Exact resume
// from a checkpoint"). Published as globalThis.nethackSessionCheckpoints for
// py/nethack_webmcp/session/page_checkpoints.py (the registry's restore source):
//
//   await restorePoint(sessionId, lastMove) -> JSON text
//       {move, navigation, handle, refused}: the newest checkpoint record at or
//       before lastMove that holds a navigation memory and verifies - its
//       bytes' sha256, the navigation memory's sha256 (also named in the
//       hashed header), this build and base - restored into a fresh Asyncify
//       instance (`handle`); records that fail are listed in `refused`
//       ({move, code, message}) and the next older one is tried.
//       {move: null, refused} when none holds (then Python replays the whole
//       journal and says so).
//   take(handle) -> the instance as an engine host instance (engine-host.js's
//       request/requestMany/close), for WasmEngine.
//
// What is verified here is the record's integrity; the session layer then
// checks the rest before any input: the record's move is an entry of this
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

export class SessionCheckpoints {
  /** @param {import('./checkpoint-store.js').CheckpointStore} store
   *  @param {() => Promise<{start: () => Promise<any>, base: any}>} engineParts (page-replay.js) */
  constructor(store, engineParts) {
    this.store = store;
    this.engineParts = engineParts;
    this.handles = new Map();
    this.next = 1;
  }

  async restorePoint(sessionId, lastMove) {
    const refused = [];
    const moves = (await this.store.moves(sessionId)).filter((move) => move <= lastMove).sort((a, b) => b - a);
    if (!moves.length) return JSON.stringify({ move: null, refused });
    const { start, base } = await this.engineParts();
    for (const move of moves) {
      const record = await this.store.load(sessionId, move);
      try {
        if (!record || record.navigationSha256 == null) continue; // made without the memory: seeks only
        const navigation = await navigationOf(record);
        const state = await decode(record, base);
        const engine = await start();
        try {
          restoreInto(engine, state, base);
        } catch (error) {
          engine.close();
          throw error;
        }
        const handle = this.next++;
        this.handles.set(handle, engine);
        return JSON.stringify({ move, navigation, handle, refused });
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
