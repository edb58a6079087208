// doors.test.mjs - closed doors from the plan: opened, a locked one kicked, never with writing before it
// or on a level where the town watch was seen (node --test).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CarefulBeginner } from '../beginner.js';
import { openDoors } from './doors.js';
import { frame } from './fixtures.mjs';

const lockedDoor = { x: 23, y: 16, state: 'closed', distance: 1, direction: 'south', approach: { x: 23, y: 15 },
                     lock: { state: 'locked' } };

function ctx({ watched = false, writing = false } = {}) {
  const level = { doorTries: new Map(), doorWalks: new Map(), writingAt: new Set(writing ? ['23,15'] : []),
                  watched, explored: true };
  return { level, hero: { x: 23, y: 15 }, plan: { doors: [lockedDoor] }, base: {} };
}

/** The action openDoors chose (it always chooses one for the door in reach). */
function action(context) {
  const move = openDoors(context);
  assert.ok(move);
  return move.args.action;
}

test('a door the game called locked is kicked', () => {
  assert.equal(action(ctx()), 'kick');
});

test('a locked door is only opened where the watch was seen (seed 11049: "Halt, thief!") or writing lies before it', () => {
  assert.equal(action(ctx({ watched: true })), 'open');
  assert.equal(action(ctx({ writing: true })), 'open');
});

test('a level where a watchman is in sight is remembered as watched', () => {
  const policy = new CarefulBeginner();
  const quiet = frame('monk-lichen-killed');
  policy.observe(quiet);
  assert.equal(policy.memory.level(quiet.basis.levelId).watched, false);
  const seen = frame('monk-lichen-killed');
  seen.scene.entities.push({ x: 30, y: 10, kind: 'creature', mark: '@', appearance: 'watchman', attitude: 'peaceful', distance: 8 });
  policy.observe(seen);
  assert.equal(policy.memory.level(seen.basis.levelId).watched, true);
});
