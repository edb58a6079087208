// missiles.test.mjs - what a beginner throws at a creature it must not touch (node --test).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { missileAt } from './missiles.js';

const base = { sessionId: 's', viewId: 'v' };

test('a quiver is fired', () => {
  const call = missileAt([{ id: 'q', category: 'weapon', label: '5 darts (in quiver)', equipmentSlots: ['quiver'] }], 'east', base);
  assert.deepEqual(call, { tool: 'use', args: { sessionId: 's', viewId: 'v', action: 'fire', direction: 'east' } });
});

test('a throwing weapon before any other spare one; never the wielded or a cursed one', () => {
  const inventory = [
    { id: 'w', category: 'weapon', label: 'a long sword (weapon in hand)', equipmentSlots: ['weapon'] },
    { id: 's', category: 'weapon', label: 'a short sword', equipmentSlots: [] },
    { id: 'd', category: 'weapon', label: 'a dagger', equipmentSlots: [] },
    { id: 'k', category: 'weapon', label: 'a cursed knife', equipmentSlots: [] },
  ];
  assert.equal(missileAt(inventory, 'north', base)?.args.itemId, 'd');
  assert.equal(missileAt(inventory.slice(0, 2), 'north', base)?.args.itemId, 's', 'any spare weapon');
  assert.equal(missileAt(inventory.slice(0, 1), 'north', base), null, 'nothing to spare');
  assert.equal(missileAt(null, 'north', base), null);
});
