// store-faults.js - test-only fault injection for the durable store's writes.
//
// Inert until a test sets a plan (the worker's `faults` test hook, available
// only when the page booted with test hooks): then chosen write transactions
// are really aborted after making real requests (reported as aborted, or as
// QuotaExceededError), or frozen before they start or after they committed
// (the test then terminates the worker). IdbStore.run asks `next` before
// every write.

import { fail } from './store-failure.js';

export class StoreFaults {
  constructor() {
    this.writes = 0;        // write transactions attempted since the store opened
    this.plan = null;       // see set()
    /** @type {(op: string) => void} when a write was frozen */
    this.onHang = () => {};
  }

  /** {abortAt: n} aborts the n-th write transaction from now;
   *  {every: true} aborts every write; kind: 'quota' reports it as
   *  QuotaExceededError; {hang: {op, when: 'before'|'after', nth}} freezes
   *  the nth write of `op` (before it starts or after it committed);
   *  null clears everything. */
  set(plan) {
    this.plan = plan ? { ...plan, base: this.writes } : null;
  }

  /** Count one write of `what`; the fault it gets ({abort, kind} | {hang}), or null. */
  next(what) {
    this.writes += 1;
    const plan = this.plan;
    if (!plan) return null;
    if (plan.hang && plan.hang.op === what) {
      plan.hang.nth -= 1;
      if (plan.hang.nth <= 0) {
        const hang = plan.hang.when;
        plan.hang = null;
        return { hang };
      }
    }
    if (plan.every) return { abort: true, kind: plan.kind };
    if (plan.abortAt && this.writes - plan.base === plan.abortAt) {
      return { abort: true, kind: plan.kind };
    }
    return null;
  }

  /** Freeze the write: a promise that never settles. */
  hang(what) {
    this.onHang(what);
    return new Promise(() => {}); // the worker is about to be terminated by the test
  }

  /** The failure an injected abort reports. */
  failure(fault, what) {
    return fault.kind === 'quota'
      ? fail('quota', `${what}: QuotaExceededError (injected by the test hook): the browser's storage `
        + 'quota for this site is exhausted; free disk space or delete old games, then observe the game to retry')
      : fail('aborted', `${what}: the IndexedDB transaction was aborted (injected by the test hook)`);
  }
}
