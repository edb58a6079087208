// boulders.test.mjs - nextPush and markAt on hand-made map text (node --test).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextPush } from './boulders.js';
import { markAt } from './maptext.js';

// A corridor closed by a boulder: ruler lines, then "yy " and the marks from x0.
/** @type {import('./frame').MapView & {bounds: import('./frame').Bounds, text: string}} */
const corridor = { bounds: { x0: 10, y0: 5, x1: 13, y1: 6 }, legend: { '`': 'boulder or statue' },
  symbols: { '`': [[11, 6]] }, text: ['   1111', '   0123', ' 5 ----', ' 6 #`'].join('\n') };

test('markAt reads the mark under a square, a blank outside the map', () => {
  const rows = corridor.text.split('\n');
  assert.equal(markAt(rows, corridor.bounds, 10, 6), '#');
  assert.equal(markAt(rows, corridor.bounds, 11, 6), '`');
  assert.equal(markAt(rows, corridor.bounds, 12, 6), ' ');
  assert.equal(markAt(rows, corridor.bounds, 9, 6), ' ', 'left of x0');
  assert.equal(markAt(rows, corridor.bounds, 10, 9), ' ', 'below the last row');
});

test('a boulder closing a corridor is pushed from the corridor side toward the unseen', () => {
  const push = nextPush({ self: { position: { x: 1, y: 1 } }, map: corridor }, new Map());
  assert.deepEqual(push, { approach: { x: 10, y: 6 }, direction: 'east', key: '11,6,east', boulder: { x: 11, y: 6 } });
});

test('a push tried twice is given up; with no other way it is null', () => {
  const tried = new Map([['11,6,east', 2]]);
  assert.equal(nextPush({ self: { position: { x: 1, y: 1 } }, map: corridor }, tried), null);
});

test('no push without a boulder legend or without map text', () => {
  const statue = { ...corridor, legend: { '`': 'statue' } };
  assert.equal(nextPush({ self: { position: { x: 1, y: 1 } }, map: statue }, new Map()), null);
  assert.equal(nextPush({ self: { position: { x: 1, y: 1 } }, map: null }, new Map()), null);
});

test("the hero's own square counts as floor to push from", () => {
  const map = { ...corridor, text: ['   1111', '   0123', ' 5 ----', ' 6 @`'].join('\n') };
  const push = nextPush({ self: { position: { x: 10, y: 6 } }, map }, new Map());
  assert.equal(push && push.direction, 'east');
});
