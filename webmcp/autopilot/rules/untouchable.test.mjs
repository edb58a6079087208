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

test('a brown mold (cold, up to 24 a hit) is fought only above 30 HP; a floating eye not at first sight', () => {
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

test('a floating eye on the only way on, nothing to throw: waited out a while, then fought alone with HP to spare', () => {
  const ctx = moldInTheWay('floating eye', 40);
  for (let call = 1; call < 15; call += 1) assert.equal(untouchableInTheWay(ctx), null, `call ${call}: still waiting`);
  const move = untouchableInTheWay(ctx);
  assert.ok(move);
  assert.deepEqual([move.tool, move.args.action, move.args.target], ['interact', 'attack', { direction: 'east' }]);
});

test('a floating eye is fought at once when Hungry, never with another hostile about or HP under 2/3', () => {
  const hungry = moldInTheWay('floating eye', 40);
  hungry.hungry = true;
  assert.ok(untouchableInTheWay(hungry));
  const hurt = moldInTheWay('floating eye', 26);
  hurt.hungry = true;
  assert.equal(untouchableInTheWay(hurt), null);
  const crowded = moldInTheWay('floating eye', 40);
  crowded.hungry = true;
  crowded.hostiles = [...crowded.hostiles, { appearance: 'jackal', attitude: 'hostile', distance: 4 }];
  assert.equal(untouchableInTheWay(crowded), null);
});
