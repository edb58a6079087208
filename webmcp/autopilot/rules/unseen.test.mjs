// unseen.test.mjs - a blind (or hurt) hero attacks the `I` beside it instead of resting (node --test, on seed 3's
// recorded frame: the Monk at 49,4 in a corridor, the kobold to the east replaced by a remembered unseen creature).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CarefulBeginner } from '../beginner.js';
import { frame } from './fixtures.mjs';

/** The Monk with an `I` to the east (the kobold gone from sight), `condition` and HP as given. */
function unseenBeside(condition, hp) {
  const seen = frame('monk-attacked-by-kobold');
  seen.scene.entities = [];
  const east = seen.scene.nearby.find((/** @type {any} */ cell) => cell.direction === 'east');
  east.occupant = { kind: 'unseen', mark: 'I' };
  seen.scene.self.vitals.condition = condition;
  seen.scene.self.vitals.hp = hp;
  return seen;
}

test('blind with an unseen attacker adjacent: attack it, never wait the blindness out', () => {
  const move = new CarefulBeginner().next(unseenBeside(['blind'], 10), null);
  assert.deepEqual([move.rule, move.tool, move.args.action, move.args.target], ['fightUnseen', 'interact', 'attack', { direction: 'east' }]);
});

test('seeing and hurt beside an `I` (something invisible hits): attack it', () => {
  assert.equal(new CarefulBeginner().next(unseenBeside([], 10), null).rule, 'fightUnseen');
});

test('seeing and unhurt beside an old `I`: no attack on it', () => {
  assert.notEqual(new CarefulBeginner().next(unseenBeside([], 14), null).rule, 'fightUnseen');
});

test('blind with no `I` adjacent: it waits the blindness out as before', () => {
  const seen = unseenBeside(['blind'], 14);
  for (const cell of seen.scene.nearby) delete cell.occupant;
  assert.equal(new CarefulBeginner().next(seen, null).rule, 'restWhenHurt');
});

test('blind and attacked with a creature sensed beside it (no attitude disclosed): attack it; not attacked: no', () => {
  const seen = unseenBeside(['blind'], 10);
  for (const cell of seen.scene.nearby) delete cell.occupant;
  seen.scene.entities = [{ x: 50, y: 4, kind: 'creature', mark: 'f', appearance: 'kitten', distance: 1, direction: 'east' }];
  const move = new CarefulBeginner().next(seen, null);
  assert.deepEqual([move.rule, move.args.target], ['fightUnseen', { direction: 'east' }]);
  seen.events = [];
  assert.notEqual(new CarefulBeginner().next(seen, null).rule, 'fightUnseen');
});
