// storage.js - the worker's storage, published as globalThis.nethackStorage
// (see idb-store.js for the interface): one durable store and its locks.

import { GameLocks } from './game-locks.js';
import { IdbStore, MIGRATIONS } from './idb-store.js';

/** The worker's storage: one durable store and its locks. */
export function createStorage(tabId, onLost) {
  const store = new IdbStore();
  const locks = new GameLocks(store, tabId, onLost);
  return {
    store,
    locks,
    openStore(name, extraMigrations = 0) {
      const migrations = [...MIGRATIONS];
      for (let i = 0; i < extraMigrations; i += 1) migrations.push(() => {});
      return new IdbStore(name, migrations);
    },
  };
}
