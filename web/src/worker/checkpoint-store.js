// checkpoint-store.js - replay checkpoints in IndexedDB, beside the journal.
//
// A database of its own (CHECKPOINTS), not a store of the journal's database
// (idb-store.js): checkpoints are derived data - every one can be rebuilt
// from the journal by one verified replay - so they never take part in the
// journal's schema versions, ownership fence or durability guarantees, and a
// lost or cleared checkpoint database costs one replay, never a game.
//
// One record per (sessionId, move): checkpoints.js encode()'s record
// {move, digest, summary, build, baseHash, format, sha256, bytes} plus the
// sessionId. Records are checked when read (checkpoints.js decode), never trusted.

export const CHECKPOINTS = 'nethack-webmcp-checkpoints';
const STORE = 'checkpoints';

function promised(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

export class CheckpointStore {
  constructor(name = CHECKPOINTS) {
    this.name = name;
    /** @type {Promise<IDBDatabase> | null} */
    this.opening = null;
  }

  open() {
    if (!this.opening) {
      const request = indexedDB.open(this.name, 1);
      request.onupgradeneeded = () => {
        request.result.createObjectStore(STORE, { keyPath: ['sessionId', 'move'] });
      };
      this.opening = promised(request);
    }
    return this.opening;
  }

  async transaction(mode, body) {
    const db = await this.open();
    const tx = db.transaction(STORE, mode);
    const done = new Promise((resolve, reject) => {
      tx.oncomplete = () => resolve(undefined);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error || new Error('checkpoint write aborted'));
    });
    const result = await body(tx.objectStore(STORE));
    await done;
    return result;
  }

  save(sessionId, record) {
    return this.transaction('readwrite', (store) => promised(store.put({ ...record, sessionId })));
  }

  load(sessionId, move) {
    return this.transaction('readonly', (store) => promised(store.get([sessionId, move])));
  }

  /** The game's newest record that `accept` takes (newest first, by a reverse cursor), or null.
   *  Not moves() then load(): listing a game's keys reads every record's bytes on the way (the
   *  backend keeps each key beside its value), ~22 MB at 50k inputs, 26-60 ms cold, and delays the
   *  journal database's reads queued behind it. A cursor from the end reads the records it passes.
   *  @param {string} sessionId
   *  @param {(record: any) => boolean} [accept] */
  newest(sessionId, accept = (record) => Boolean(record)) {
    const range = IDBKeyRange.bound([sessionId, -Infinity], [sessionId, Infinity]);
    return this.transaction('readonly', (store) => new Promise((resolve, reject) => {
      const request = store.openCursor(range, 'prev');
      request.onerror = () => reject(request.error);
      request.onsuccess = () => {
        const cursor = request.result;
        if (!cursor || accept(cursor.value)) resolve(cursor ? cursor.value : null);
        else cursor.continue();
      };
    }));
  }

  /** The game's records that `accept` takes, newest first: the newest by newest() (or `first`, that
   *  record already read), the older ones listed and loaded only if the caller goes on (it was refused).
   *  @param {string} sessionId @param {(record: any) => boolean} accept @param {any} [first] */
  async* newestFirst(sessionId, accept, first = undefined) {
    const newest = first === undefined ? await this.newest(sessionId, accept) : first;
    if (!newest) return;
    yield newest;
    const older = (await this.moves(sessionId)).filter((move) => move < newest.move).sort((a, b) => b - a);
    for (const move of older) {
      const record = await this.load(sessionId, move);
      if (accept(record)) yield record;
    }
  }

  /** The moves this game has checkpoints at, ascending. */
  async moves(sessionId) {
    const range = IDBKeyRange.bound([sessionId, -Infinity], [sessionId, Infinity]);
    const keys = await this.transaction('readonly', (store) => promised(store.getAllKeys(range)));
    return keys.map((key) => /** @type {any[]} */ (key)[1]);
  }

  /** Bytes held for a game (the size budget is stated per 10k inputs). */
  async bytes(sessionId) {
    const range = IDBKeyRange.bound([sessionId, -Infinity], [sessionId, Infinity]);
    const records = await this.transaction('readonly', (store) => promised(store.getAll(range)));
    return records.reduce((sum, record) => sum + record.bytes.byteLength
      + (record.navigation ? record.navigation.byteLength : 0), 0); // the navigation memory counts too
  }

  /** Whether any game has a checkpoint (the worker warms the replay build at boot then). */
  async any() {
    // the first key only: a count() walks every record (see newest())
    return (await this.transaction('readonly', (store) => promised(store.openKeyCursor()))) !== null;
  }

  clear(sessionId) {
    const range = IDBKeyRange.bound([sessionId, -Infinity], [sessionId, Infinity]);
    return this.transaction('readwrite', (store) => promised(store.delete(range)));
  }
}
