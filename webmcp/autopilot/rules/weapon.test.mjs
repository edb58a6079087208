// weapon.test.mjs - the weapon last wielded goes back in hand (node --test, seed 16's recorded Ranger: dagger wielded).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CarefulBeginner } from '../beginner.js';
import { frame } from './fixtures.mjs';

/** The Ranger with nothing wielded (its dagger still in the pack), as after slippery fingers. */
function emptyHanded() {
  const start = frame('ranger-start');
  const dagger = start.scene.inventory.find((item) => item.id === 'item-1');
  dagger.equipmentSlots = [];
  dagger.label = 'a +1 dagger';
  return start;
}

test('nothing in hand and the dagger last wielded in the pack: wield it again, once a while', () => {
  const policy = new CarefulBeginner();
  policy.observe(frame('ranger-start')); // remembers the dagger in hand
  const move = policy.next(emptyHanded(), null);
  assert.deepEqual([move.rule, move.tool, move.args.action, move.args.itemId], ['wieldAgain', 'equipment', 'wield', 'item-1']);
  assert.notEqual(policy.next(emptyHanded(), null).rule, 'wieldAgain');
});

test('a Monk is never given a weapon again', () => {
  const policy = new CarefulBeginner();
  const start = frame('ranger-start');
  start.scene.self.role = 'Monk';
  policy.observe(start);
  const bare = emptyHanded();
  bare.scene.self.role = 'Monk';
  assert.notEqual(policy.next(bare, null).rule, 'wieldAgain');
});
