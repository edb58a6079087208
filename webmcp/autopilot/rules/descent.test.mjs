// descent.test.mjs - when a known way down wins over exploring, and when it waits for HP (node --test, real frames).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CarefulBeginner } from '../beginner.js';
import { contextOf } from './context.js';
import { LEVEL_CALLS_BEFORE_DESCENT, descendWhenReady } from './descent.js';
import { frame } from './fixtures.mjs';

/** The rule's move, which must be there. @param {any} move */
function answered(move) {
  assert.ok(move, 'the rule answered');
  return move;
}

function contextAt(calls, hp) {
  const policy = new CarefulBeginner();
  const seen = frame('monk-on-lichen-corpse'); // stairs down 13 squares off, HP 20/22
  seen.scene.self.vitals.hp = hp;
  policy.observe(seen);
  const ctx = contextOf(policy, seen, null);
  ctx.level.calls = calls;
  return ctx;
}

test('a known way down waits while the level is young and unexplored', () => {
  assert.equal(descendWhenReady(contextAt(LEVEL_CALLS_BEFORE_DESCENT - 1, 20)), null);
});

test('after LEVEL_CALLS_BEFORE_DESCENT calls on a level the known way down is taken', () => {
  const move = answered(descendWhenReady(contextAt(LEVEL_CALLS_BEFORE_DESCENT, 20)));
  assert.deepEqual([move.tool, move.args.mode, move.leg], ['travel', 'descend', 'descend']);
});

test('below 70% HP it rests before going down', () => {
  const move = answered(descendWhenReady(contextAt(LEVEL_CALLS_BEFORE_DESCENT, 15))); // 15/22 = 68%
  assert.deepEqual([move.tool, move.args.action], ['interact', 'search']);
  assert.match(move.why, /rest before going down/);
});
