// untouchable.test.mjs - a mold on the way on, nothing to throw: fought only with HP well above its passive's worst
// (node --test, on seed 3's recorded Monk frame: hero at 49,4 in a corridor, the kobold to the east made a mold).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CarefulBeginner } from '../beginner.js';
import { contextOf } from './context.js';
import { untouchableInTheWay } from './untouchable.js';
import { frame } from './fixtures.mjs';

/** The level explored (nowhere else to go), a `mold` to the east, HP as given out of hpMax. */
function moldInTheWay(mold, hp, hpMax = 40) {
  const seen = frame('monk-attacked-by-kobold');
  Object.assign(seen.scene.entities[0], { mark: 'F', appearance: mold });
  Object.assign(seen.scene.self.vitals, { hp, hpMax });
  const policy = new CarefulBeginner();
  policy.observe(seen);
  policy.memory.level(seen.basis.levelId).explored = true;
  return contextOf(policy, seen, null);
}

test('a yellow mold in the way, the Monk with nothing to throw and HP to spare: attack it', () => {
  const move = untouchableInTheWay(moldInTheWay('yellow mold', 14));
  assert.ok(move);
  assert.deepEqual([move.tool, move.args.action, move.args.target], ['interact', 'attack', { direction: 'east' }]);
});

test('a brown mold (cold, up to 24 a hit) is fought only above 30 HP; a floating eye not while there is food', () => {
  assert.equal(untouchableInTheWay(moldInTheWay('brown mold', 28)), null);
  assert.ok(untouchableInTheWay(moldInTheWay('brown mold', 31)));
  assert.equal(untouchableInTheWay(moldInTheWay('floating eye', 40)), null);
});

test('a mold met while the level is still being explored is left alone', () => {
  const ctx = moldInTheWay('yellow mold', 30);
  ctx.level.explored = false;
  assert.equal(untouchableInTheWay(ctx), null);
});

test('a way down known and not found blocked: the mold is left alone (descending beats the fight)', () => {
  const ctx = moldInTheWay('yellow mold', 30);
  ctx.scene.features.push({ kind: 'stairsDown', x: 60, y: 10, distance: 11 });
  assert.equal(untouchableInTheWay(ctx), null);
  ctx.level.descendBlockedUntil = ctx.level.calls + 20; // the last descend leg found no route
  assert.ok(untouchableInTheWay(ctx));
});

test('a floating eye on the only way on, nothing to throw: fought once Hungry with no food, alone with it, HP to spare', () => {
  const fed = moldInTheWay('floating eye', 40);
  for (let call = 1; call < 30; call += 1) assert.equal(untouchableInTheWay(fed), null, `call ${call}: not hungry, waited out`);
  const hungry = moldInTheWay('floating eye', 40);
  Object.assign(hungry, { hungry: true, packFood: null });
  const move = untouchableInTheWay(hungry);
  assert.ok(move);
  assert.deepEqual([move.tool, move.args.action, move.args.target], ['interact', 'attack', { direction: 'east' }]);
});

test('a floating eye is never fought with food in the pack, another hostile about or HP under 2/3', () => {
  const withFood = moldInTheWay('floating eye', 40);
  Object.assign(withFood, { hungry: true, packFood: { id: 'f', label: 'a food ration' } });
  assert.equal(untouchableInTheWay(withFood), null);
  const hurt = moldInTheWay('floating eye', 26);
  Object.assign(hurt, { hungry: true, packFood: null });
  assert.equal(untouchableInTheWay(hurt), null);
  const crowded = moldInTheWay('floating eye', 40);
  Object.assign(crowded, { hungry: true, packFood: null });
  crowded.hostiles = [...crowded.hostiles, { appearance: 'jackal', attitude: 'hostile', distance: 4 }];
  assert.equal(untouchableInTheWay(crowded), null);
});
