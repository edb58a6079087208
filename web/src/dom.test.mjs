// dom.test.mjs - the page's time helpers (node --test; h and replace need a DOM: e2e).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ago, when } from './dom.js';

test('ago: seconds, minutes, hours; never negative; a dash for none', () => {
  const now = 1_000_000_000;
  assert.equal(ago(now - 12_000, now), '12 s ago');
  assert.equal(ago(now - 3 * 60_000, now), '3 min ago');
  assert.equal(ago(now - 2 * 3_600_000, now), '2 h ago');
  assert.equal(ago(now + 5_000, now), '0 s ago', 'a clock a little ahead');
  assert.equal(ago(0, now), '—');
});

test('when: a local date-time with seconds; a dash for none', () => {
  assert.match(when(Date.UTC(2026, 4, 1, 12, 3, 7)), /^2026-05-0[12] \d\d:\d\d:07( \S+)?$/);
  assert.equal(when(null), '—');
});
