// healing.test.mjs - a Wizard's force bolt: adjacent, or at a hostile in line before it closes in
// (node --test, on seed 3's recorded Monk frame made a Wizard: hero at 49,4, a kobold to the east).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CarefulBeginner } from '../beginner.js';
import { frame } from './fixtures.mjs';

function wizard(koboldX, energy) {
  const start = frame('monk-attacked-by-kobold');
  start.scene.self.role = 'Wizard';
  start.scene.self.vitals.energy = energy;
  const kobold = start.scene.entities[0];
  Object.assign(kobold, { x: koboldX, distance: koboldX - 49 });
  if (kobold.distance > 1) delete kobold.direction;
  return start;
}

test('force bolt at an adjacent hostile with power for one cast', () => {
  const move = new CarefulBeginner().next(wizard(50, 5), null);
  assert.deepEqual([move.rule, move.args.action, move.args.text, move.args.direction], ['forceBolt', 'cast', 'force bolt', 'east']);
});

test('force bolt at a hostile three squares off in line only with power for two casts, never through a pet', () => {
  const far = new CarefulBeginner().next(wizard(52, 10), null);
  assert.deepEqual([far.rule, far.args.direction, far.intent.direction], ['forceBolt', 'east', 'east']);
  assert.notEqual(new CarefulBeginner().next(wizard(52, 9), null).rule, 'forceBolt');
  const petInTheWay = wizard(52, 10);
  petInTheWay.scene.entities.push({ x: 51, y: 4, kind: 'ally', mark: 'f', appearance: 'kitten', attitude: 'tame', distance: 2 });
  assert.notEqual(new CarefulBeginner().next(petInTheWay, null).rule, 'forceBolt');
  assert.notEqual(new CarefulBeginner().next(wizard(56, 20), null).rule, 'forceBolt'); // 7 squares: beyond FORCE_BOLT_RANGE
});

test('no force bolt at an adjacent hostile with a shopkeeper just beyond it (the bolt flies on if it steps aside)', () => {
  const shop = wizard(50, 20);
  shop.scene.entities.push({ x: 52, y: 4, kind: 'creature', mark: '@', appearance: 'shopkeeper', attitude: 'peaceful', distance: 3 });
  assert.notEqual(new CarefulBeginner().next(shop, null).rule, 'forceBolt');
  assert.equal(new CarefulBeginner().next(wizard(50, 20), null).rule, 'forceBolt');
});

test('no force bolt while a peaceful shopkeeper is in sight, even off the line (a miss flies on into the goods)', () => {
  const shop = wizard(51, 20);
  // Off the line east: seed 11059's shopkeeper stood two squares off, the bolt missed and shattered a potion.
  shop.scene.entities.push({ x: 47, y: 6, kind: 'creature', mark: '@', appearance: 'shopkeeper', attitude: 'peaceful', distance: 2 });
  assert.notEqual(new CarefulBeginner().next(shop, null).rule, 'forceBolt');
  const angry = wizard(51, 20); // an angry one is a target like any hostile: the goods no longer matter
  angry.scene.entities.push({ x: 47, y: 6, kind: 'creature', mark: '@', appearance: 'shopkeeper', attitude: 'hostile', distance: 2 });
  assert.equal(new CarefulBeginner().next(angry, null).rule, 'forceBolt');
});
