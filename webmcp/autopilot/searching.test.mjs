// searching.test.mjs - where to search once the plan's spots are used up (node --test).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshSearchSpot } from './searching.js';

// A room (walls x 10-18, y 5-8) alone on an otherwise unseen map.
const text = ['   111111111', '   012345678', ' 5 ---------', ' 6 |.......|', ' 7 |.......|', ' 8 ---------'].join('\n');
const scene = (x, y) => ({ self: { position: { x, y } }, map: { text, bounds: { x0: 10, y0: 5, x1: 18, y1: 8 } } });

test('a floor square beside a wall, with unseen squares around it, nearest the hero', () => {
  const spot = freshSearchSpot(scene(12, 6), new Map());
  assert.ok(spot, 'the room is surrounded by the unseen');
  assert.ok(spot.x >= 11 && spot.x <= 17 && spot.y >= 6 && spot.y <= 7, `${spot.x},${spot.y} is in the room`);
});

test('squares next to a searched one are skipped; all searched: null', () => {
  const first = freshSearchSpot(scene(12, 6), new Map());
  assert.ok(first);
  const searched = new Map([[`${first.x},${first.y}`, 1]]);
  const second = freshSearchSpot(scene(12, 6), searched);
  assert.ok(second && Math.max(Math.abs(second.x - first.x), Math.abs(second.y - first.y)) > 1);
  const everywhere = new Map([11, 12, 13, 14, 15, 16, 17].flatMap((x) => [[`${x},6`, 1], [`${x},7`, 1]]));
  assert.equal(freshSearchSpot(scene(12, 6), everywhere), null);
});

test('no map text: null', () => {
  assert.equal(freshSearchSpot({ self: { position: { x: 1, y: 1 } }, map: null }, new Map()), null);
});
