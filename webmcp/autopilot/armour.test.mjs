// armour.test.mjs - which found armour a beginner puts on (node --test).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { armourPattern, armourToWear, wearableSlot, wornSlots } from './armour.js';

const cloak = { id: 'c', category: 'armor', label: 'a +0 leather cloak (being worn)', equipmentSlots: ['cloak'] };

test('wornSlots reads the equipmentSlots of the pieces worn (the driver lists a slot only while it is filled)', () => {
  assert.deepEqual([...wornSlots([cloak])], ['cloak']);
  assert.deepEqual([...wornSlots([{ ...cloak, equipmentSlots: [] }])], [], 'carried, not worn, whatever the label says');
  assert.deepEqual([...wornSlots(null)], []);
});

test('plain armour for an empty slot is worn; random appearances never', () => {
  const worn = wornSlots([cloak]);
  assert.equal(wearableSlot('a hard hat', 'Valkyrie', worn), 'helmet');
  assert.equal(wearableSlot('a pair of combat boots', 'Valkyrie', worn), null, 'a random appearance');
  assert.equal(wearableSlot('a cursed hard hat', 'Valkyrie', new Set()), null);
  assert.equal(wearableSlot('an orcish helm (for sale, 13 zorkmids)', 'Valkyrie', worn), null, 'shop goods');
  assert.equal(wearableSlot('a hard hat', 'Valkyrie', new Set(['helmet'])), null, 'the slot is taken');
});

test('body armour: never under a worn cloak, never for a Monk', () => {
  assert.equal(wearableSlot('a ring mail', 'Valkyrie', wornSlots([cloak])), null);
  assert.equal(wearableSlot('a ring mail', 'Valkyrie', new Set()), 'bodyArmor');
  assert.equal(wearableSlot('a ring mail', 'Monk', new Set()), null);
});

test('armourToWear picks a carried piece; armourPattern picks it out of a menu', () => {
  assert.equal(armourToWear([{ id: 'a', category: 'armor', label: 'a pair of jackboots', equipmentSlots: [] }], 'Caveman')?.id, 'a');
  assert.equal(armourToWear([cloak], 'Caveman'), null, 'already worn');
  assert.ok(armourPattern('a pair of jackboots')?.test('j - a pair of jackboots'));
  assert.equal(armourPattern('a pair of combat boots'), null);
});
