// beginner.test.mjs - the policy's guard against a call that changes nothing: the same call chosen again at
// the same turn gets the same answer, so after a few it waits instead (node --test).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CarefulBeginner } from './beginner.js';
import { frame } from './rules/fixtures.mjs';

const walk = (viewId) => ({ tool: 'travel', args: { sessionId: 's', viewId, mode: 'to', to: { x: 47, y: 4 }, maxActions: 120 },
                            why: 'the Gnomish Mines are no place for a beginner: back to the stairs up', rule: 'leaveTheMines' });

test('the same call at the same turn a fifth time becomes a short wait (seed 11050: a hobbit on the stairs up)', () => {
  const policy = new CarefulBeginner();
  const now = frame('monk-lichen-killed');
  for (let i = 0; i < 4; i += 1) assert.equal(policy.unlessStuck(walk(`v${i}`), now).rule, 'leaveTheMines');
  const wait = policy.unlessStuck(walk('v9'), now);
  assert.deepEqual([wait.rule, wait.tool, wait.args.action, wait.args.turns], ['sameMoveNoTurn', 'interact', 'search', 3]);
  assert.equal(wait.args.sessionId, now.basis.sessionId);
  assert.equal(policy.unlessStuck(walk('v10'), now).rule, 'leaveTheMines'); // counted afresh after the wait
});

test('a call repeated as turns pass, or another call, is never replaced', () => {
  const policy = new CarefulBeginner();
  const now = frame('monk-lichen-killed');
  for (let i = 0; i < 8; i += 1) {
    const later = { ...now, basis: { ...now.basis, turn: now.basis.turn + i } };
    assert.equal(policy.unlessStuck(walk('v1'), later).rule, 'leaveTheMines');
  }
  const other = { ...walk('v1'), args: { ...walk('v1').args, to: { x: 46, y: 4 } } };
  for (let i = 0; i < 8; i += 1) assert.equal(policy.unlessStuck(i % 2 ? walk('v1') : other, now).rule, 'leaveTheMines');
  assert.deepEqual(policy.unlessStuck({ query: true }, now), { query: true });
});
