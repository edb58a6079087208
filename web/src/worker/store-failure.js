// store-failure.js - the error codes a store call reports to Python
// (py/nethack_webmcp/store/indexeddb.py turns them into StoreConflict /
// StoreError): conflict, quota, aborted, blocked, newer, closed,
// lostOwnership, failed.

export class StoreFailure extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

export const fail = (code, message) => new StoreFailure(code, message);

/** A DOMException (or anything) from IndexedDB → a StoreFailure. */
export function translate(error, what) {
  if (error instanceof StoreFailure) return error;
  const name = error && error.name;
  const detail = error && error.message ? `${name}: ${error.message}` : String(name || error);
  if (name === 'ConstraintError') return fail('conflict', `${what}: ${detail}`);
  if (name === 'QuotaExceededError') {
    return fail('quota', `${what}: the browser's storage quota for this site is exhausted (${detail}); `
      + 'free disk space or delete old games, then observe the game to retry');
  }
  if (name === 'VersionError') return fail('newer', `${what}: ${detail}`);
  if (name === 'InvalidStateError') return fail('closed', `${what}: the game database connection is closed (${detail})`);
  if (name === 'AbortError') return fail('aborted', `${what}: the IndexedDB transaction was aborted (${detail})`);
  return fail('failed', `${what}: ${detail}`);
}
