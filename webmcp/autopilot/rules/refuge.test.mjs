// refuge.test.mjs - Elbereth: written when hurt with a hostile near, rested on, given up when HP still falls (node --test, real frames).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CarefulBeginner } from '../beginner.js';
import { contextOf } from './context.js';
import { elberethRefuge } from './refuge.js';
import { frame } from './fixtures.mjs';

/** The rule's move, which must be there. @param {any} move */
function answered(move) {
  assert.ok(move, 'the rule answered');
  return move;
}

function contextAt(hp, policy = new CarefulBeginner()) {
  const seen = frame('monk-attacked-by-kobold'); // a kobold adjacent, HP 14/14, in a corridor
  seen.scene.self.vitals.hp = hp;
  policy.observe(seen);
  return contextOf(policy, seen, null);
}

test('unhurt beside a kobold: no Elbereth', () => {
  assert.equal(elberethRefuge(contextAt(14)), null);
});

test('hurt beside a kobold: Elbereth in the dust, then rest on it while HP holds', () => {
  const policy = new CarefulBeginner();
  const move = answered(elberethRefuge(contextAt(4, policy)));
  assert.deepEqual([move.tool, move.args.action, move.args.text], ['use', 'engrave', 'Elbereth']);
  const rest = answered(elberethRefuge(contextAt(4, policy)));
  assert.deepEqual([rest.tool, rest.args.action], ['interact', 'search']);
  assert.equal(elberethRefuge(contextAt(3, policy)), null); // HP fell on it: it did not keep them off
  assert.equal(policy.memory.elbereth, null);
});
