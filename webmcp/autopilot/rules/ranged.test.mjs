// ranged.test.mjs - a Ranger takes up its launcher and fires at hostiles in line; others throw what is quivered
// (node --test, on the recorded first frame of seed 16's Ranger: dagger wielded, crossbow the alternate, bolts quivered).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CarefulBeginner } from '../beginner.js';
import { frame } from './fixtures.mjs';
import { rangedKit } from './ranged.js';

/** The Ranger's first frame with a hostile jackal at (x, y) (the hero stands at 7,6). */
function rangerWith(x, y) {
  const start = frame('ranger-start');
  const hero = start.scene.self.position;
  const distance = Math.max(Math.abs(x - hero.x), Math.abs(y - hero.y));
  start.scene.entities.push({ x, y, kind: 'monster', mark: 'd', appearance: 'jackal', attitude: 'hostile', distance,
                              ...(distance === 1 ? { direction: x > hero.x ? 'east' : 'west' } : {}) });
  return start;
}

/** As after the swap: the crossbow in hand, the dagger the alternate weapon. */
function swapped(start) {
  for (const item of start.scene.inventory) {
    if (/crossbow \(/.test(item.label)) item.equipmentSlots = ['weapon'];
    if (/dagger/.test(item.label)) item.equipmentSlots = ['alternateWeapon'];
  }
  return start;
}

test('a Ranger with bolts quivered swaps to its crossbow, once, before a hostile is adjacent', () => {
  const policy = new CarefulBeginner();
  const start = rangerWith(11, 6);
  assert.equal(rangedKit(start.scene.inventory).ready, false); // bolts by hand: not fired
  const move = policy.next(start, null);
  assert.deepEqual([move.rule, move.tool, move.args.action], ['archerWeapon', 'equipment', 'swap']);
  assert.notEqual(policy.next(start, null).rule, 'archerWeapon'); // a swap that did not take is not retried at once
});

test('with the crossbow in hand it fires at a hostile in line, adjacent too, never through its pet', () => {
  const policy = new CarefulBeginner();
  const far = swapped(rangerWith(11, 6));
  const shot = policy.next(far, null);
  assert.deepEqual([shot.rule, shot.args.action, shot.args.direction], ['fireAtHostile', 'fire', 'east']);
  assert.equal(policy.memory.shotKind?.test('3 crossbow bolts'), true);
  const adjacent = swapped(rangerWith(8, 6));
  assert.deepEqual([policy.next(adjacent, null).rule, policy.next(adjacent, null).args.direction], ['fireAtHostile', 'east']);
  const blocked = swapped(rangerWith(11, 6));
  blocked.scene.entities.push({ x: 9, y: 6, kind: 'ally', mark: 'd', appearance: 'little dog', attitude: 'tame', distance: 2 });
  assert.notEqual(new CarefulBeginner().next(blocked, null).rule, 'fireAtHostile');
  const offLine = swapped(rangerWith(10, 4)); // dx 3, dy 2: not in line
  assert.notEqual(new CarefulBeginner().next(offLine, null).rule, 'fireAtHostile');
});

test('a square shot at again and again is given up for a while (the missiles cannot be getting there)', () => {
  const policy = new CarefulBeginner();
  const rules = [];
  for (let shot = 0; shot < 8; shot += 1) {
    const now = swapped(rangerWith(11, 6));
    now.basis.turn += shot; // each shot passes a turn
    rules.push(policy.next(now, null).rule);
  }
  assert.deepEqual(rules.slice(0, 6), Array(6).fill('fireAtHostile'));
  assert.notEqual(rules[6], 'fireAtHostile');
});

test('out of bolts: the next stack is quivered, then the dagger is swapped back in', () => {
  const policy = new CarefulBeginner();
  const start = swapped(rangerWith(11, 6));
  policy.next(start, null); // fires: the memory learns what it shoots
  const emptied = swapped(frame('ranger-start'));
  emptied.scene.inventory = emptied.scene.inventory.filter((item) => !/52 \+2/.test(item.label));
  const requivered = policy.next(emptied, null);
  assert.deepEqual([requivered.rule, requivered.args.action, requivered.args.itemId], ['requiver', 'quiver', 'item-4']);
  emptied.scene.inventory = emptied.scene.inventory.filter((item) => !/bolts/.test(item.label));
  const back = policy.next(emptied, null);
  assert.deepEqual([back.rule, back.args.action], ['archerWeapon', 'swap']);
});

test('a Rogue throws its quivered daggers from two squares, and fights an adjacent hostile hand to hand', () => {
  const rogue = rangerWith(7, 9);
  rogue.scene.self.role = 'Rogue';
  rogue.scene.inventory = [
    { id: 'item-1', letter: 'a', label: 'a +0 short sword (weapon in hand)', quantity: 1, category: 'weapon', equipmentSlots: ['weapon'] },
    { id: 'item-2', letter: 'b', label: '8 +0 daggers (in quiver)', quantity: 8, category: 'weapon', equipmentSlots: ['quiver'] },
  ];
  const thrown = new CarefulBeginner().next(rogue, null);
  assert.deepEqual([thrown.rule, thrown.args.action, thrown.args.direction], ['fireAtHostile', 'fire', 'south']);
  const close = rangerWith(8, 6);
  close.scene.self.role = 'Rogue';
  close.scene.inventory = rogue.scene.inventory;
  assert.equal(new CarefulBeginner().next(close, null).rule, 'fightAdjacent');
});

test('shots of the kind fired underfoot are picked up, once a while per square', () => {
  const policy = new CarefulBeginner();
  policy.next(swapped(rangerWith(11, 6)), null);
  const calm = swapped(frame('ranger-start'));
  calm.scene.here.items = [{ label: '2 +2 crossbow bolts', category: 'weapon' }];
  const pick = policy.next(calm, null);
  assert.deepEqual([pick.rule, pick.args.action, pick.intent.pattern.test('2 +2 crossbow bolts')], ['pickUpShots', 'pickup', true]);
  assert.notEqual(policy.next(calm, null).rule, 'pickUpShots');
});

test('a ) on the line a shot flew is walked to once the fight is over, and only one on such a line', () => {
  const policy = new CarefulBeginner();
  policy.next(swapped(rangerWith(11, 6)), null); // fired east from 7,6
  const after = swapped(frame('ranger-start'));
  after.scene.objects = [{ mark: ')', shows: 'object (weapon)', x: 13, y: 6, distance: 6 },
                         { mark: ')', shows: 'object (weapon)', x: 9, y: 8, distance: 2 }]; // off the line
  const fetch = policy.next(after, null);
  assert.deepEqual([fetch.rule, fetch.args.mode, fetch.args.to], ['collectShots', 'to', { x: 13, y: 6 }]);
  assert.notEqual(policy.next(after, null).rule, 'collectShots');
});

test('a stack of daggers not quivered (a Rogue starts so) is quivered before any shot; a single dagger is not', () => {
  const rogue = frame('ranger-start');
  rogue.scene.self.role = 'Rogue';
  rogue.scene.inventory = [
    { id: 'item-1', letter: 'a', label: 'a +0 short sword (weapon in hand)', quantity: 1, category: 'weapon', equipmentSlots: ['weapon'] },
    { id: 'item-2', letter: 'b', label: '9 +0 daggers', quantity: 9, category: 'weapon', equipmentSlots: [] },
  ];
  const move = new CarefulBeginner().next(rogue, null);
  assert.deepEqual([move.rule, move.args.action, move.args.itemId], ['requiver', 'quiver', 'item-2']);
  rogue.scene.inventory[1] = { ...rogue.scene.inventory[1], label: 'a +0 dagger', quantity: 1 };
  assert.notEqual(new CarefulBeginner().next(rogue, null).rule, 'requiver');
});
