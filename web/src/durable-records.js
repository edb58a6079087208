// durable-records.js - the records of completed games as the Python layer
// computed them (session.make_record → GameRecord, stored by the worker's
// durable store in database "nethack-webmcp-journal", object store
// "records"), read-only, in the page's shape. The page derives no record
// fields itself: one source for the home page's table and a game's banner.
//
// The page never creates or upgrades that database (the worker owns its
// schema, worker/idb-store.js): an open that would create it is aborted,
// and every connection is closed right after its read, and at once when
// the worker asks to upgrade.
const DATABASE = 'nethack-webmcp-journal';

function promised(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Run `read(db)` on the durable database, or return `none` when it does not exist yet. */
async function reading(read, none) {
  const request = indexedDB.open(DATABASE);
  request.onupgradeneeded = () => request.transaction?.abort(); // not created here: the worker owns it
  let db;
  try {
    db = await promised(request);
  } catch (error) {
    if (error && error.name === 'AbortError') return none;
    throw error;
  }
  db.onversionchange = () => db.close();
  try {
    if (!db.objectStoreNames.contains('records')) return none;
    return await read(db);
  } finally {
    db.close();
  }
}

/** A GameRecord (seconds) and its game's stored session (for the role) → the page's record shape. */
function pageRecord(record, session) {
  const meta = (session && session.metadata) || {};
  const ms = (seconds) => (typeof seconds === 'number' ? Math.round(seconds * 1000) : null);
  return {
    gameId: record.sessionId, name: record.characterName, role: meta.role || null,
    harness: record.harnessName, model: record.modelName,
    startedAt: ms(record.startedAt), endedAt: ms(record.endedAt), endTimeKind: record.endTimeKind,
    endReason: record.endReason, how: record.how, death: record.death, score: record.score,
    turn: record.turns, depth: record.lastDepth, deepest: record.deepestDepth, lifecycle: 'ended',
    seed: record.seed ?? null, seedChoice: record.seedChoice ?? null, // the game is over: its seed is published
  };
}

async function withSessions(db, records) {
  const sessions = db.transaction('sessions').objectStore('sessions');
  const infos = await Promise.all(records.map((record) => promised(sessions.get(record.sessionId))));
  return records.map((record, n) => pageRecord(record, infos[n]));
}

/** The `limit` most recently completed games: ended time, then game ID, descending
 *  (the order of Store.recent_records). */
export function recentDurableRecords(limit = 10) {
  return reading(async (db) => {
    const index = db.transaction('records').objectStore('records').index('recent');
    const records = [];
    await /** @type {Promise<void>} */ (new Promise((resolve, reject) => {
      const cursor = index.openCursor(null, 'prev');
      cursor.onerror = () => reject(cursor.error);
      cursor.onsuccess = () => {
        const at = cursor.result;
        if (!at || records.length >= limit) return resolve();
        records.push(at.value);
        return at.continue();
      };
    }));
    return withSessions(db, records);
  }, []);
}

/** One game's record, or null while it has none (in play, or never stored here). */
export function durableRecord(gameId) {
  return reading(async (db) => {
    const record = await promised(db.transaction('records').objectStore('records').get(gameId));
    return record ? (await withSessions(db, [record]))[0] : null;
  }, null);
}
