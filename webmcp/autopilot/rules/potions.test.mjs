// potions.test.mjs - a potion known to heal is drunk when HP is low and no prayer is safe (node --test, a real Monk).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CarefulBeginner } from '../beginner.js';
import { frame } from './fixtures.mjs';

function hurtMonk(hp) {
  const hurt = frame('monk-lichen-killed');
  hurt.scene.self.vitals.hp = hp;
  return hurt;
}

test('HP under a third, the last prayer too recent: drink the potion of healing', () => {
  const policy = new CarefulBeginner();
  const hurt = hurtMonk(4);
  policy.prayed(hurt.basis.turn - 100);
  const move = policy.next(hurt, null);
  const potion = hurt.scene.inventory.find((item) => item.category === 'potion');
  assert.match(potion.label, /potions of healing/);
  assert.deepEqual([move.rule, move.tool, move.args.action, move.args.itemId], ['quaffHealing', 'use', 'drink', potion.id]);
});

test('a safe prayer comes first; with HP at a third or more, nothing is drunk', () => {
  assert.equal(new CarefulBeginner().next(hurtMonk(4), null).rule, 'prayInTrouble');
  const policy = new CarefulBeginner();
  const hurt = hurtMonk(10);
  policy.prayed(hurt.basis.turn - 100);
  assert.notEqual(policy.next(hurt, null).rule, 'quaffHealing');
});
