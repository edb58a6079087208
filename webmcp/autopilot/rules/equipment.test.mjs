// equipment.test.mjs - worn, wielded and quivered come from the items' equipmentSlots (node --test, a real Ranger).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { armourToWear, inUse, wornSlots } from '../armour.js';
import { missileAt } from '../missiles.js';
import { frame } from './fixtures.mjs';

const base = { sessionId: 's', viewId: 'v' };

test('the Ranger wears a cloak, wields a dagger, readies crossbow bolts: all from equipmentSlots', () => {
  const inventory = frame('ranger-start').scene.inventory;
  assert.deepEqual([...wornSlots(inventory)], ['cloak']);
  assert.deepEqual(inventory.filter(inUse).map((item) => item.letter), ['a', 'b', 'c', 'e']);
  assert.deepEqual(missileAt(inventory, 'east', base)?.args, { ...base, action: 'fire', direction: 'east' });
});

test('labels are not read for state: a piece whose slots are empty is carried, not worn', () => {
  const inventory = frame('ranger-start').scene.inventory;
  const cloak = inventory.find((item) => item.category === 'armor');
  cloak.equipmentSlots = [];
  assert.deepEqual([...wornSlots(inventory)], []);
  assert.equal(armourToWear([{ ...cloak, label: 'a leather cloak (being worn)' }], 'Ranger')?.id, cloak.id);
});

test('with nothing quivered, a spare bolt stack is thrown, never the wielded dagger or the crossbow', () => {
  const inventory = frame('ranger-start').scene.inventory.filter((item) => item.letter !== 'c');
  assert.deepEqual(missileAt(inventory, 'north', base)?.args, { ...base, action: 'throw', itemId: 'item-4', direction: 'north' });
  assert.equal(missileAt(inventory.filter((item) => item.letter !== 'd'), 'north', base), null);
});
