// game-locks.js - game ownership in the core worker: one Web Lock per game.
//
// The worker that owns a game holds the Web Lock nethack:session:<id> for as
// long as the game is loaded. Acquiring writes the store's `owners` row
// {sessionId, token, holder} (the fence every write about the game checks,
// idb-store.js). A steal makes the old holder's lock request reject with
// AbortError: its lease turns `lost` and onLost(id) is called. Each tab also
// holds nethack:tab:<tabId>; a recorded owner whose tab lock is gone is being
// unloaded, so a resume waits briefly for its game lock instead of refusing.

import { translate } from './store-failure.js';

const SESSION_LOCK = (id) => `nethack:session:${id}`;
const TAB_LOCK = (tabId) => `nethack:tab:${tabId}`;
// How long a resume waits for a game whose owning tab is already gone (a
// reload: the old document's worker may still be letting go of the lock).
const DEPARTED_OWNER_WAIT_MS = 5000;

export class GameLocks {
  constructor(store, tabId, onLost) {
    this.store = store;
    this.tabId = tabId;
    this.onLost = onLost;
    store.onLost = (sessionId) => this.lost(sessionId);
    this.leases = new Map(); // sessionId -> the lease this worker holds
  }

  lost(sessionId) {
    const lease = this.leases.get(sessionId);
    if (lease && !lease.lost) {
      lease.lost = true;
      // its writes are refused at once, even before the new owner's claim is recorded
      if (this.store.tokens.get(sessionId) === lease.token) this.store.tokens.set(sessionId, null);
      this.onLost(sessionId);
    }
  }

  /** Take game `sessionId`: its lease, or undefined when another tab holds it.
   *  steal: take it from a live owner (whose lease turns lost). */
  async acquire(sessionId, steal = false) {
    let lease = await this.request(sessionId, steal ? { steal: true } : { ifAvailable: true });
    if (lease === null && !steal && await this.ownerDeparted(sessionId)) {
      lease = await this.request(sessionId, { signal: AbortSignal.timeout(DEPARTED_OWNER_WAIT_MS) });
    }
    return lease === null ? undefined : lease; // undefined is None in Python
  }

  /** The recorded owner's tab no longer holds its tab lock: it is being unloaded. */
  async ownerDeparted(sessionId) {
    let owner;
    try {
      owner = await this.store.owner(sessionId);
    } catch {
      return false;
    }
    if (!owner || !owner.holder || !owner.holder.tabId) return false;
    const { held = [] } = await navigator.locks.query(); // the snapshot always lists them (Web Locks)
    return !held.some((lock) => lock.name === TAB_LOCK(owner.holder.tabId));
  }

  request(sessionId, options) {
    return new Promise((resolve, reject) => {
      let release;
      const held = new Promise((resolveHeld) => { release = resolveHeld; });
      const lease = {
        sessionId,
        lost: false,
        released: false,
        token: /** @type {string | null} */ (null),
        release: () => {
          if (lease.released) return;
          lease.released = true;
          if (this.leases.get(sessionId) === lease) {
            this.leases.delete(sessionId);
            const token = this.store.tokens.get(sessionId);
            if (token === lease.token || token === null) this.store.tokens.delete(sessionId);
          }
          release();
        },
      };
      navigator.locks.request(SESSION_LOCK(sessionId), options, async (lock) => {
        if (!lock) {
          resolve(null);
          return;
        }
        const token = crypto.randomUUID();
        try {
          await this.store.claim(sessionId, token, { tabId: this.tabId, since: Date.now() / 1000 });
        } catch (error) {
          reject(translate(error, 'claim the game'));
          return; // the lock is released
        }
        lease.token = token;
        this.store.tokens.set(sessionId, token);
        this.leases.set(sessionId, lease);
        resolve(lease);
        await held;
      }).catch((error) => {
        if (lease.token !== null) {
          if (error && error.name === 'AbortError') this.lost(sessionId); // stolen by another tab
          return;
        }
        if (error && (error.name === 'TimeoutError' || error.name === 'AbortError')) resolve(null);
        else reject(translate(error, 'take the game\'s Web Lock'));
      });
    });
  }

  async holder(sessionId) {
    try {
      const owner = await this.store.owner(sessionId);
      return JSON.stringify(owner ? { ...owner.holder, lock: SESSION_LOCK(sessionId) } : null);
    } catch {
      return 'null';
    }
  }
}
