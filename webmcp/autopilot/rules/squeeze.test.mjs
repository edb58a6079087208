// squeeze.test.mjs - a squeeze refused for the load: the pack is lightened by what the beginner never uses
// (node --test, on seed 1023's recorded Caveman frame: an explore leg stopped `blocked`, why squeezeTooHeavy,
// at 11,13 below a doorway at 10,14 past two rock corners; he carries 24 rocks besides his quivered flint).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CarefulBeginner } from '../beginner.js';
import { contextOf } from './context.js';
import { firstMove } from './index.js';
import { ballast, lightenToSqueeze } from './squeeze.js';
import { frame } from './fixtures.mjs';

function refused(change = (/** @type {any} */ _frame) => {}) {
  const seen = frame('caveman-squeeze-too-heavy');
  change(seen);
  const policy = new CarefulBeginner();
  policy.observe(seen);
  return contextOf(policy, seen, null);
}

test('too heavy to squeeze: the rocks go, never the wielded, worn or quivered', () => {
  const ctx = refused();
  const move = lightenToSqueeze(ctx);
  assert.ok(move);
  assert.deepEqual([move.tool, move.args.action, move.args.itemId], ['use', 'drop', 'item-4']);
  assert.match(move.why, /24 uncursed rocks/);
  assert.equal(firstMove(ctx).rule, 'lightenToSqueeze');
});

test('what can go: stone stacks biggest first, then unworn armour; a loadstone never', () => {
  const items = [
    { id: 'a', label: 'a +1 club (weapon in hand)', category: 'weapon', quantity: 1, equipmentSlots: ['weapon'] },
    { id: 'b', label: 'a gray stone', category: 'gem', quantity: 1, equipmentSlots: [] },
    { id: 'c', label: 'a loadstone', category: 'gem', quantity: 1, equipmentSlots: [] },
    { id: 'd', label: 'an orcish helm', category: 'armor', quantity: 1, equipmentSlots: [] },
    { id: 'e', label: '9 rocks', category: 'gem', quantity: 9, equipmentSlots: [] },
    { id: 'f', label: 'a leather armor (being worn)', category: 'armor', quantity: 1, equipmentSlots: ['bodyArmor'] },
  ];
  assert.deepEqual(ballast(items).map((item) => item.id), ['e', 'b', 'd']);
});

test('nothing to spare, another stop, or a hostile near: no drop', () => {
  const bare = refused((seen) => { seen.scene.inventory = seen.scene.inventory.filter((item) => item.equipmentSlots.length); });
  assert.equal(lightenToSqueeze(bare), null);
  assert.equal(lightenToSqueeze(refused((seen) => { seen.result.why = 'uncertainDiagonal'; })), null);
  const threatened = refused((seen) => {
    seen.scene.entities.push({ x: 12, y: 13, kind: 'creature', mark: 'd', appearance: 'jackal', attitude: 'hostile', distance: 1, direction: 'east' });
  });
  assert.equal(lightenToSqueeze(threatened), null);
});
