// store.js - the small IndexedDB store of this browser's games.
//
// Two object stores in database "nethack-webmcp":
//   games      one record per game (keyPath gameId): identity, labels, times,
//              lifecycle, depths, and the end (reason, score) once completed
//   snapshots  the latest spectator snapshot per game (keyPath gameId)
// The core worker writes; every page reads (home view, spectators in any
// tab). Durability of the games themselves (journal, resume) is not here.

const DATABASE = 'nethack-webmcp';
const VERSION = 1;
let opening = null;

function promised(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

export function openStore() {
  if (!opening) {
    const request = indexedDB.open(DATABASE, VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      const games = db.createObjectStore('games', { keyPath: 'gameId' });
      games.createIndex('endedAt', 'endedAt');
      games.createIndex('startedAt', 'startedAt');
      db.createObjectStore('snapshots', { keyPath: 'gameId' });
    };
    opening = promised(request);
  }
  return opening;
}

async function run(storeName, mode, body) {
  const db = await openStore();
  const transaction = db.transaction(storeName, mode);
  const done = new Promise((resolve, reject) => {
    transaction.oncomplete = resolve;
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
  const result = await body(transaction.objectStore(storeName));
  await done;
  return result;
}

export function putGame(game) {
  return run('games', 'readwrite', (store) => promised(store.put(game)));
}

export function getGame(gameId) {
  return run('games', 'readonly', (store) => promised(store.get(gameId)));
}

/** Every game of this browser, most recently started first. */
export async function listGames() {
  const games = await run('games', 'readonly', (store) => promised(store.getAll()));
  return games.sort((a, b) => (b.startedAt || 0) - (a.startedAt || 0));
}

/** The `limit` most recently completed games (ended time, then game ID, descending). */
export async function recentRecords(limit = 10) {
  const games = await run('games', 'readonly', (store) => promised(store.index('endedAt').getAll()));
  games.sort((a, b) => (b.endedAt - a.endedAt) || (a.gameId < b.gameId ? 1 : -1));
  return games.slice(0, limit);
}

export function putSnapshot(snapshot) {
  return run('snapshots', 'readwrite', (store) => promised(store.put(snapshot)));
}

export function getSnapshot(gameId) {
  return run('snapshots', 'readonly', (store) => promised(store.get(gameId)));
}

/** Tabs learn about writes through this channel: {type:'game', gameId, revision}. */
export const CHANNEL = 'nethack-webmcp';
