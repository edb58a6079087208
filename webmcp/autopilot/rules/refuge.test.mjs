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

test('a long rest on Elbereth: written afresh 25 turns after it was last written or seen whole, while nothing is adjacent', () => {
  const policy = new CarefulBeginner();
  answered(elberethRefuge(contextAt(4, policy))); // written at turn 389
  const later = (/** @type {number} */ turn, adjacent = false) => {
    const seen = frame('monk-attacked-by-kobold');
    seen.scene.self.vitals.hp = 5;
    seen.basis.turn = turn;
    if (!adjacent) seen.scene.entities[0] = { ...seen.scene.entities[0], x: 52, distance: 3, direction: undefined };
    policy.observe(seen);
    return contextOf(policy, seen, null);
  };
  assert.equal(answered(elberethRefuge(later(400))).args.action, 'search');
  // The kobold adjacent and HP held: it is whole at 405, so the next writing waits 25 turns from then.
  assert.equal(answered(elberethRefuge(later(405, true))).args.action, 'search');
  assert.equal(answered(elberethRefuge(later(414))).args.action, 'search');
  const refresh = answered(elberethRefuge(later(430)));
  assert.deepEqual([refresh.tool, refresh.args.action, refresh.args.text], ['use', 'engrave', 'Elbereth']);
  assert.equal(answered(elberethRefuge(later(436))).args.action, 'search');
});

test('done resting on its Elbereth with the kobold adjacent: step off it before fighting (never a hypocrite)', () => {
  const policy = new CarefulBeginner();
  answered(elberethRefuge(contextAt(4, policy))); // written at 49,4
  const rested = policy.next(contextAt(14, policy).frame, null); // HP back: the refuge rule is done
  assert.deepEqual([rested.rule, rested.tool, rested.args.mode], ['offElbereth', 'travel', 'step']);
  assert.ok(['south', 'west', 'southwest'].includes(rested.args.target.direction)); // a free corridor square
  assert.equal(policy.memory.elbereth, null);
  assert.equal(policy.next(contextAt(14, policy).frame, null).rule, 'fightAdjacent'); // off it (as far as it knows): fight
});
