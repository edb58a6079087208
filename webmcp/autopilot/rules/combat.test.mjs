// combat.test.mjs - a hostile on the only way on is gone at, not taken for an explored level (node --test, real frames).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CarefulBeginner } from '../beginner.js';
import { frame } from './fixtures.mjs';

test('noFrontier why creatureInTheWay: the level is not explored, the hostile is fought', () => {
  const policy = new CarefulBeginner();
  const stopped = frame('monk-kobold-lord-in-the-way');
  policy.observe(stopped);
  policy.afterLeg(stopped, 'explore', stopped.basis.levelId, stopped.basis.turn - 5);
  const level = policy.memory.level(stopped.basis.levelId);
  assert.equal(level.explored, false);
  assert.deepEqual(level.blocker.at, { x: 20, y: 6 });
  const move = policy.next(stopped, null);
  assert.deepEqual([move.rule, move.args.action, move.args.target], ['fightAdjacent', 'attack', { direction: 'southwest' }]);
});

test('a blocker out of reach is walked at; a peaceful one leaves the level explored', () => {
  const policy = new CarefulBeginner();
  const stopped = frame('monk-kobold-lord-in-the-way');
  const lord = stopped.scene.entities.find((entity) => entity.x === 20 && entity.y === 6);
  Object.assign(lord, { distance: 2, direction: undefined }); // as if two squares off
  policy.observe(stopped);
  policy.afterLeg(stopped, 'explore', stopped.basis.levelId, stopped.basis.turn - 5);
  const walk = policy.next(stopped, null);
  assert.deepEqual([walk.rule, walk.args.mode, walk.args.to], ['hostileInTheWay', 'to', { x: 20, y: 6 }]);
  lord.attitude = 'peaceful';
  policy.afterLeg(stopped, 'explore', stopped.basis.levelId, stopped.basis.turn - 5);
  assert.notEqual(policy.next(stopped, { doors: [], deadEnds: [], searchSpots: [] }).rule, 'hostileInTheWay');
  assert.equal(policy.memory.level(stopped.basis.levelId).explored, true);
});

test('a leg stopped `attacked` (a miss: no HP lost): the attacker is fought, and the level is not marked explored', () => {
  const policy = new CarefulBeginner();
  const stopped = frame('monk-attacked-by-kobold');
  assert.equal(stopped.result.stopReason, 'attacked');
  policy.observe(stopped);
  policy.afterLeg(stopped, 'explore', stopped.basis.levelId, stopped.basis.turn - 5);
  assert.equal(policy.memory.level(stopped.basis.levelId).explored, false);
  const move = policy.next(stopped, null);
  assert.deepEqual([move.rule, move.args.action, move.args.target], ['fightAdjacent', 'attack', { direction: 'east' }]);
});
