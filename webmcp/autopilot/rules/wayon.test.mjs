// wayon.test.mjs - a stuck level's way on comes from `plan wayOn` (node --test). The answer below is a real
// one (seed 3 after one explore leg, the server's plan wayOn); the trap door option is its documented shape.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CarefulBeginner } from '../beginner.js';
import { chooseAnswer } from '../answers.js';
import { frame } from './fixtures.mjs';

const SEARCH_SPOTS = [
  { x: 40, y: 7, distance: 1, firstStep: 'north', spot: 'wall', undiscovered: 165, searched: 0, score: 165, turns: 15,
    reason: 'a room wall facing 165 undiscovered squares, not searched yet' },
  { x: 37, y: 7, distance: 3, firstStep: 'west', spot: 'wall', undiscovered: 165, searched: 0, score: 165, turns: 15,
    reason: 'a room wall facing 165 undiscovered squares, not searched yet' }];
const NO_PLAN = { doors: [], deadEnds: [], searchSpots: [] };

function stuckPolicy(scene) {
  const policy = new CarefulBeginner();
  policy.observe(scene);
  Object.assign(policy.memory.level(scene.basis.levelId), { explored: true });
  return policy;
}

function calm() {
  const scene = frame('monk-on-lichen-corpse');
  scene.scene.entities = [];
  scene.scene.here.items = [];
  scene.scene.features = scene.scene.features.filter((feature) => !/Down$/.test(feature.kind)); // no way down seen
  scene.scene.objects = [];
  return scene;
}

test('explored, no door, no way down: the rules ask for plan wayOn, then walk to its best search spot', () => {
  const scene = calm();
  const policy = stuckPolicy(scene);
  assert.deepEqual(policy.next(scene, NO_PLAN, null), { query: 'wayOn', rule: 'needWayOn' });
  const wayOn = { kind: 'wayOn', stuck: true, options: [], searchSpots: SEARCH_SPOTS, pushes: [], trapDoors: [] };
  const move = policy.next(scene, NO_PLAN, wayOn);
  assert.deepEqual([move.rule, move.args.mode, move.args.to], ['searchWalls', 'to', { x: 40, y: 7 }]);
});

test('a known trap door is the way down: its next call is made, with the binding fields', () => {
  const scene = calm();
  const policy = stuckPolicy(scene);
  const trapDoor = { kind: 'trapDoor', x: 12, y: 5, type: 'trap door', distance: 7, firstStep: 'west',
                     approach: { x: 13, y: 5 }, direction: 'west', reason: 'a known trap door: a way down',
                     next: { tool: 'travel', arguments: { mode: 'to', to: { x: 13, y: 5 } } } };
  const move = policy.next(scene, NO_PLAN, { kind: 'wayOn', stuck: true, options: [trapDoor], searchSpots: [] });
  assert.equal(move.rule, 'trapDoorDown');
  assert.deepEqual(move.args, { sessionId: scene.basis.sessionId, viewId: scene.basis.viewId, mode: 'to', to: { x: 13, y: 5 } });
  assert.equal(chooseAnswer({ kind: 'confirmation', prompt: 'Really step onto that trap door?', cancel: null }, { intent: move.intent })?.value, true);
});

test('a server without plan wayOn: the rules fall back on their own reading of the level', () => {
  const scene = calm();
  const policy = stuckPolicy(scene);
  const move = policy.next(scene, NO_PLAN, { unavailable: true });
  assert.notEqual(move.query, 'wayOn');
  assert.ok(move.tool);
});

test("a boulder push that opens a way: walk to its square, then wayOn's next call is the push", () => {
  const scene = calm();
  const policy = stuckPolicy(scene);
  const hero = scene.scene.self.position;
  const push = { kind: 'push', x: hero.x, y: hero.y, boulder: { x: hero.x + 1, y: hero.y }, direction: 'east', distance: 0,
                 opens: 'frontier', reason: `pushing the boulder at ${hero.x + 1},${hero.y} east opens 6 squares to explore`,
                 next: { tool: 'travel', arguments: { mode: 'step', target: { direction: 'east' } } } };
  const wayOn = { kind: 'wayOn', stuck: true, options: [push], searchSpots: [], pushes: [push] };
  const move = policy.next(scene, NO_PLAN, wayOn);
  assert.deepEqual([move.rule, move.args.mode, move.args.target], ['pushBoulders', 'step', { direction: 'east' }]);
  assert.equal(policy.memory.level(scene.basis.levelId).explored, false, 'what lies behind it is new');
  for (let i = 0; i < 2; i += 1) policy.next(scene, NO_PLAN, wayOn);
  assert.notEqual(policy.next(scene, NO_PLAN, wayOn).rule, 'pushBoulders', 'three tries, then given up');
});
