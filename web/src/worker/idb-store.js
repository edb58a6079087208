// idb-store.js - the durable game store (IndexedDB) of the core worker, for
// py/nethack_webmcp/store/indexeddb.py: the connection and its schema, one
// transaction per call, the Store methods. Game ownership (Web Locks) is
// game-locks.js, test fault injection store-faults.js, the error envelope
// codes store-failure.js; storage.js puts them together.
//
// Published as globalThis.nethackStorage by worker/main.js (storage.js):
//
//   nethackStorage.store                     the store of database DATABASE
//   nethackStorage.openStore(name, extra)    another database (tests; `extra`
//                                            no-op migrations simulate a newer site)
//   await store.call(op, argsJson)           one Store method → JSON text:
//                                            {ok:true, value} | {ok:false, code, message}
//   await nethackStorage.locks.acquire(id, steal) → lease handle | null
//   await nethackStorage.locks.holder(id)   → JSON text of the owner row | "null"
//
// What is here is only what must run inside one IndexedDB transaction (a
// transaction commits by itself once no request is pending, so it cannot
// wait for Python): the ownership fence, "the game exists and seq is last
// + 1", "the entry is
// still reserved", "a receipt is kept once (same payload: a no-op)", "a
// record is written once". The rules a call's arguments alone decide (a
// reservation has no receipt, `complete` needs a final state, which session
// fields may change, an import's journal is dense) are checked once for
// every store by Python's Store (py/nethack_webmcp/store/base.py) before
// the call gets here; the other stores' in-transaction checks are
// store/transaction.py.
//
// Every write is one readwrite transaction opened with {durability:'strict'}
// and reported done only on its `complete` event. Errors never cross as
// exceptions: each call resolves with an envelope whose `code` says what
// happened (conflict, quota, aborted, blocked, newer, closed, lostOwnership,
// failed); Python turns it into StoreConflict / StoreError.
//
// Schema: the IndexedDB database version is MIGRATIONS.length and
// MIGRATIONS[n] takes a database from version n to n+1 (onupgradeneeded).
// A database newer than this code is refused ("newer"); an upgrade that
// another tab's open connection blocks is reported ("blocked") by every call
// until that tab lets go, when the upgrade runs and calls succeed again; a
// connection that a newer tab wants to upgrade is closed at once (its next
// call reports that the page must be reloaded).
//
// Ownership fence: taking a game (game-locks.js) writes an `owners` row
// {sessionId, token, epoch, holder} (epoch: one more than the last owner's,
// as the native stores count); every write about that game checks, in the
// same transaction, that the row still carries this worker's token (a stolen
// game's old owner can never write, even if its write raced the takeover).
// A lease this worker already knows is lost (its lock request was aborted by
// a steal) is refused before any transaction: its token is kept as null.

import { StoreFaults } from './store-faults.js';
import { fail, translate } from './store-failure.js';

export const DATABASE = 'nethack-webmcp-journal';

/** @typedef {(db: IDBDatabase, tx: IDBTransaction | null) => void} Migration */

/** @type {Migration[]} */
export const MIGRATIONS = [
  // 0 -> 1: sessions, journal, tool receipts, game records, owners
  (db) => {
    const sessions = db.createObjectStore('sessions', { keyPath: 'sessionId' });
    sessions.createIndex('started', ['startedAt', 'sessionId']);
    const journal = db.createObjectStore('journal', { keyPath: ['sessionId', 'seq'] });
    journal.createIndex('operation', ['sessionId', 'operationId']);
    db.createObjectStore('receipts', { keyPath: ['sessionId', 'requestId'] });
    const records = db.createObjectStore('records', { keyPath: 'sessionId' });
    records.createIndex('recent', ['endedAt', 'sessionId']);
    db.createObjectStore('owners', { keyPath: 'sessionId' });
  },
  // 1 -> 2: sessions carry seedChoice and records seed/seedChoice; stored
  // objects take new fields as they are, so no store or index changes.
  () => {},
  // 2 -> 3: sessions carry the close mark closedAt (session close, until session
  // resume). No store changes either: the version is raised so that an older
  // page, which knows no close mark, refuses the database instead of reopening
  // a closed game.
  () => {},
];

// How long a call waits for a blocked upgrade to go through before it reports it again.
const BLOCKED_GRACE_MS = 500;

function promised(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

export class IdbStore {
  constructor(name = DATABASE, migrations = MIGRATIONS) {
    this.name = name;
    this.migrations = migrations;
    this.db = null;
    this.opening = null;
    this.blocked = null;         // {failure, done} while an upgrade waits for another tab
    this.closed = false;
    this.closedReason = null;    // set when another tab's upgrade closed our connection
    this.tokens = new Map();     // sessionId -> this worker's owner token (game-locks.js); null: lost
    /** @type {(sessionId: string) => void} when a fence finds the game taken over */
    this.onLost = () => {};
    this.lastDurability = null;  // what the last readwrite transaction reports (tests)
    this.faults = new StoreFaults(); // test-only fault injection (inert unless a test sets a plan)
  }

  get version() {
    return this.migrations.length;
  }

  // ---- connection -------------------------------------------------------------------

  open() {
    if (this.closed) return Promise.reject(fail('closed', 'the game store is closed'));
    if (this.db) return Promise.resolve(this.db);
    if (this.blocked) return this.stillBlocked();
    if (this.opening) return this.opening;
    this.opening = new Promise((resolve, reject) => {
      let settled = false;
      let request;
      try {
        request = indexedDB.open(this.name, this.version);
      } catch (error) {
        reject(translate(error, 'open the game database'));
        return;
      }
      request.onupgradeneeded = (event) => {
        const db = request.result;
        for (let version = event.oldVersion; version < /** @type {number} an upgrade has one */ (event.newVersion); version += 1) {
          this.migrations[version](db, request.transaction);
        }
      };
      request.onsuccess = () => {
        const db = request.result;
        const blocked = this.blocked;
        this.blocked = null;
        if (this.closed) {
          db.close();
          return;
        }
        db.onversionchange = () => {
          // A newer site in another tab upgrades the database: let it.
          db.close();
          if (this.db === db) this.db = null;
          this.closedReason = 'a newer version of this site in another tab upgraded the game database; '
            + 'reload this page';
        };
        db.onclose = () => { // the browser closed it (storage cleared, disk failure)
          if (this.db === db) this.db = null;
        };
        this.db = db;
        this.closedReason = null;
        if (blocked) blocked.resolve(db); // the upgrade was blocked, and has now run
        if (!settled) {
          settled = true;
          resolve(db);
        }
      };
      request.onerror = () => {
        const blocked = this.blocked;
        this.blocked = null;
        const error = request.error;
        const failure = error && error.name === 'VersionError'
          ? fail('newer', `the game database "${this.name}" has a newer schema than this page `
            + `(version ${this.version})${this.closedReason ? `: ${this.closedReason}` : '; reload the page'}`)
          : translate(error, 'open the game database');
        if (blocked) blocked.reject(failure);
        if (!settled) {
          settled = true;
          reject(failure);
        }
      };
      request.onblocked = (event) => {
        if (settled) return;
        settled = true;
        const failure = fail('blocked', `upgrading the game database from schema ${event.oldVersion} to `
          + `${event.newVersion} is blocked: another tab of this site still has it open; close or reload `
          + 'that tab, then observe the game to retry');
        // The request stays pending until the other tab lets go; until then
        // every call fails fast with the same diagnostic (a second open would
        // only queue behind this one).
        /** @type {{resolve: (value?: unknown) => void, reject: (reason?: unknown) => void}} */
        let settle = { resolve: () => {}, reject: () => {} }; // replaced at once by the promise's own
        const done = new Promise((resolveDone, rejectDone) => { settle = { resolve: resolveDone, reject: rejectDone }; });
        done.catch(() => {});
        this.blocked = { failure, done, ...settle };
        reject(failure);
      };
    }).finally(() => { this.opening = null; });
    return this.opening;
  }

  /** A blocked upgrade is still pending: wait briefly for it, else fail with its diagnostic. */
  stillBlocked() {
    const { failure, done } = /** @type {NonNullable<typeof this.blocked>} (called only while blocked) */ (this.blocked);
    const grace = new Promise((resolve, reject) => { setTimeout(() => reject(failure), BLOCKED_GRACE_MS); });
    return Promise.race([done, grace]);
  }

  close() {
    this.closed = true;
    if (this.db) this.db.close();
    this.db = null;
  }

  // ---- transactions --------------------------------------------------------------------

  /** Run `body(tx)` in one transaction; resolves with its result once the
   *  transaction has completed (readwrite: with strict durability). */
  async run(names, mode, what, body) {
    const db = await this.open();
    const write = mode === 'readwrite';
    const fault = write ? this.faults.next(what) : null;
    if (fault && fault.hang === 'before') return this.faults.hang(what);
    let tx;
    try {
      tx = write ? db.transaction(names, mode, { durability: 'strict' }) : db.transaction(names, mode);
    } catch (error) {
      if (error && error.name === 'InvalidStateError' && this.db === db) this.db = null;
      throw translate(error, what);
    }
    if (write) this.lastDurability = tx.durability;
    const done = /** @type {Promise<void>} */ (new Promise((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onabort = () => reject(tx.error);
    }));
    done.catch(() => {});
    let result;
    try {
      result = await body(tx);
    } catch (error) {
      try { tx.abort(); } catch { /* already finished */ }
      throw translate(error, what);
    }
    if (fault && fault.abort) {
      tx.abort(); // a real abort of a transaction that made real requests
    }
    try {
      await done;
    } catch (error) {
      if (fault && fault.abort) throw this.faults.failure(fault, what);
      throw translate(error || { name: 'AbortError', message: 'the transaction was aborted' }, what);
    }
    if (fault && fault.hang === 'after') return this.faults.hang(what);
    return result;
  }

  /** Fence: inside a write about `sessionId`, refuse unless this worker still owns it. */
  async fence(tx, sessionId) {
    const token = this.tokens.get(sessionId);
    if (token === undefined) return;
    if (token === null) {
      throw fail('lostOwnership', `game ${sessionId} was taken over by another tab: this tab writes nothing more for it`);
    }
    const owner = await promised(tx.objectStore('owners').get(sessionId));
    if (!owner || owner.token !== token) {
      this.onLost(sessionId);
      throw fail('lostOwnership', `game ${sessionId} was taken over by another tab: this tab writes nothing more for it`);
    }
  }

  // ---- the Store methods (JSON in, JSON out) ---------------------------------------

  async call(op, argsJson) {
    try {
      const method = STORE_METHODS[op];
      if (!method) throw fail('failed', `no store operation ${op}`);
      const value = await method.apply(this, JSON.parse(argsJson));
      return JSON.stringify({ ok: true, value: value === undefined ? null : value });
    } catch (error) {
      const failure = translate(error, op);
      return JSON.stringify({ ok: false, code: failure.code, message: failure.message });
    }
  }

  /** Record a new owner of `sessionId` (its token); resolves with the new owner epoch. */
  async claim(sessionId, token, holder) {
    return this.run(['owners'], 'readwrite', 'claim', async (tx) => {
      const owners = tx.objectStore('owners');
      const previous = await promised(owners.get(sessionId));
      const epoch = ((previous && previous.epoch) || 0) + 1;
      await promised(owners.put({ sessionId, token, epoch, holder }));
      return epoch;
    });
  }

  async owner(sessionId) {
    return this.run(['owners'], 'readonly', 'owner', (tx) => promised(tx.objectStore('owners').get(sessionId)));
  }

  async schema() {
    const db = await this.open();
    return { name: db.name, version: db.version, stores: [...db.objectStoreNames], lastDurability: this.lastDurability };
  }
}

async function lastSeq(tx, sessionId) {
  const range = IDBKeyRange.bound([sessionId, -Infinity], [sessionId, Infinity]);
  const cursor = await promised(tx.objectStore('journal').openKeyCursor(range, 'prev'));
  return cursor ? cursor.key[1] : 0;
}

async function insertRecord(tx, record) {
  const records = tx.objectStore('records');
  if (await promised(records.getKey(record.sessionId)) !== undefined) return false;
  await promised(records.add(record));
  return true;
}

// A receipt is recorded once: again with the same payload hash a no-op, with another a conflict
// (which aborts the whole transaction: inside `complete`, the completion is not written either).
async function recordReceipt(tx, receipt) {
  const receipts = tx.objectStore('receipts');
  const existing = await promised(receipts.get([receipt.sessionId, receipt.requestId]));
  if (existing) {
    if (existing.payloadHash !== receipt.payloadHash) {
      throw fail('conflict', `requestId ${receipt.requestId} is recorded with another payload`);
    }
    return;
  }
  await promised(receipts.add(receipt));
}

/** The object stores a completion writes. */
function completionStores(record, toolReceipt) {
  return ['journal', 'sessions', 'owners', ...(record ? ['records'] : []), ...(toolReceipt ? ['receipts'] : [])];
}

/** Close a still-reserved journal entry inside `tx` (the fence already checked), with its
 *  session fields, record and tool receipt; resolves with whether the record was written. */
async function settleEntry(tx, sessionId, seq, state, receipt, completedAt, sessionFields, record, toolReceipt) {
  const journal = tx.objectStore('journal');
  const entry = await promised(journal.get([sessionId, seq]));
  if (!entry || entry.state !== 'reserved') {
    throw fail('conflict', `journal entry ${seq} of ${sessionId} is not reserved`);
  }
  // the writes of the other stores issued together (one transaction: any refusal aborts them all)
  const [, , written] = await Promise.all([
    promised(journal.put({ ...entry, state, receipt, completedAt })),
    sessionFields && Object.keys(sessionFields).length ? updateSession(tx, sessionId, sessionFields) : null,
    record ? insertRecord(tx, record) : false,
    toolReceipt ? recordReceipt(tx, toolReceipt) : null,
  ]);
  return written;
}

async function updateSession(tx, sessionId, fields) {
  const sessions = tx.objectStore('sessions');
  const info = await promised(sessions.get(sessionId));
  if (!info) throw fail('conflict', `no session ${sessionId}`);
  const updated = { ...info, ...fields };
  if (updated.closedAt == null) delete updated.closedAt; // a cleared close mark is absent, as in every store
  await promised(sessions.put(updated));
}

const STORE_METHODS = {
  schema() {
    return this.schema();
  },

  /** Claim a game for this store object without a Web Lock (Store.claim: the
   *  fencing contract checks); the new owner epoch. */
  async claimGame(sessionId, holder) {
    const token = crypto.randomUUID();
    const epoch = await this.claim(sessionId, token, holder);
    this.tokens.set(sessionId, token);
    return epoch;
  },

  async createSession(info) {
    return this.run(['sessions', 'owners'], 'readwrite', 'createSession', async (tx) => {
      await this.fence(tx, info.sessionId);
      await promised(tx.objectStore('sessions').add(info));
    });
  },

  async getSession(sessionId) {
    return this.run(['sessions'], 'readonly', 'getSession',
      async (tx) => (await promised(tx.objectStore('sessions').get(sessionId))) ?? null);
  },

  async listSessions() {
    const all = await this.run(['sessions'], 'readonly', 'listSessions',
      (tx) => promised(tx.objectStore('sessions').index('started').getAll()));
    return all.reverse();
  },

  async updateSession(sessionId, fields) {
    return this.run(['sessions', 'owners'], 'readwrite', 'updateSession', async (tx) => {
      await this.fence(tx, sessionId);
      await updateSession(tx, sessionId, fields);
    });
  },

  // completion (optional): complete's arguments for an earlier entry of the same game, settled
  // first in this transaction (an input's held completion and the next reservation: one commit)
  async reserve(entry, completion) {
    const stores = completion ? completionStores(completion[6], completion[7]) : ['journal', 'sessions', 'owners'];
    return this.run(stores, 'readwrite', 'reserve', async (tx) => {
      // The fence, the game's row and the journal's last seq: three reads issued together
      // (one wait for their results, not three); a refused fence still wins (it rejects).
      const [, known] = await Promise.all([
        this.fence(tx, entry.sessionId),
        promised(tx.objectStore('sessions').getKey(entry.sessionId)),
      ]);
      if (known === undefined) {
        throw fail('conflict', `no session ${entry.sessionId}`);
      }
      if (completion) {
        if (completion[0] !== entry.sessionId || completion[1] >= entry.seq) {
          throw fail('conflict', 'a reservation carries the completion of an earlier entry of its own game only');
        }
        await settleEntry(tx, ...completion);
      }
      const last = await lastSeq(tx, entry.sessionId);
      if (entry.seq !== last + 1) {
        throw fail('conflict', `journal seq ${entry.seq} of ${entry.sessionId} is not ${last + 1}`);
      }
      await promised(tx.objectStore('journal').add(entry));
    });
  },

  // toolReceipt (optional): the operation's tool receipt, recorded in the same
  // transaction as putReceipt would (an acting call's last completion and its receipt: one commit)
  async complete(sessionId, seq, state, receipt, completedAt, sessionFields, record, toolReceipt) {
    return this.run(completionStores(record, toolReceipt), 'readwrite', 'complete', async (tx) => {
      await this.fence(tx, sessionId);
      return settleEntry(tx, sessionId, seq, state, receipt, completedAt, sessionFields, record, toolReceipt);
    });
  },

  // limit: at most this many entries (the page's follower reads a long journal in parts; Python never asks)
  /** @param {string} sessionId @param {number} afterSeq @param {number} [limit] */
  async journal(sessionId, afterSeq, limit) {
    const range = IDBKeyRange.bound([sessionId, afterSeq], [sessionId, Infinity], true, false);
    return this.run(['journal'], 'readonly', 'journal',
      (tx) => promised(tx.objectStore('journal').getAll(range, limit)));
  },

  async operationEntries(sessionId, operationId) {
    const entries = await this.run(['journal'], 'readonly', 'operationEntries',
      (tx) => promised(tx.objectStore('journal').index('operation').getAll([sessionId, operationId])));
    return entries.sort((a, b) => a.seq - b.seq);
  },

  async getReceipt(sessionId, requestId) {
    return this.run(['receipts'], 'readonly', 'getReceipt',
      async (tx) => (await promised(tx.objectStore('receipts').get([sessionId, requestId]))) ?? null);
  },

  async putReceipt(receipt) {
    return this.run(['receipts', 'owners'], 'readwrite', 'putReceipt', async (tx) => {
      await this.fence(tx, receipt.sessionId);
      await recordReceipt(tx, receipt);
    });
  },

  async receipts(sessionId) {
    const range = IDBKeyRange.bound([sessionId, ''], [sessionId, []]);
    const all = await this.run(['receipts'], 'readonly', 'receipts',
      (tx) => promised(tx.objectStore('receipts').getAll(range)));
    return all.sort((a, b) => (a.createdAt - b.createdAt) || cmp(a.requestId, b.requestId));
  },

  async putRecord(record) {
    return this.run(['records', 'owners'], 'readwrite', 'putRecord', async (tx) => {
      await this.fence(tx, record.sessionId);
      return insertRecord(tx, record);
    });
  },

  async getRecord(sessionId) {
    return this.run(['records'], 'readonly', 'getRecord',
      async (tx) => (await promised(tx.objectStore('records').get(sessionId))) ?? null);
  },

  async recentRecords(limit) {
    return this.run(['records'], 'readonly', 'recentRecords', async (tx) => {
      const found = [];
      let cursor = await promised(tx.objectStore('records').index('recent').openCursor(null, 'prev'));
      while (cursor && found.length < limit) {
        found.push(cursor.value);
        cursor.continue();
        cursor = await promised(cursor.request);
      }
      return found;
    });
  },

  async importGame(info, entries, receipts, record) {
    const names = ['sessions', 'journal', 'receipts', 'records'];
    return this.run(names, 'readwrite', 'importGame', async (tx) => {
      await promised(tx.objectStore('sessions').add(info));
      // Python (Store.import_game) has checked the journal is 1, 2, 3, ... of this game
      const journal = tx.objectStore('journal');
      for (const entry of entries) await promised(journal.add(entry));
      const store = tx.objectStore('receipts');
      for (const receipt of receipts) await promised(store.add(receipt));
      if (record) await insertRecord(tx, record);
    });
  },
};
