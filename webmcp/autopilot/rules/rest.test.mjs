// rest.test.mjs - hurt with no threat near: Elbereth first, then the rest on it (node --test, on seed 3's recorded
// Monk frame, the kobold taken away: the hero alone in a corridor at 49,4).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CarefulBeginner } from '../beginner.js';
import { frame } from './fixtures.mjs';

function alone(hp, turn = 389) {
  const seen = frame('monk-attacked-by-kobold');
  seen.scene.entities = [];
  for (const cell of seen.scene.nearby) delete cell.occupant;
  seen.events = [];
  seen.scene.self.vitals.hp = hp;
  seen.basis.turn = turn;
  return seen;
}

test('hurt and alone: write Elbereth, then rest on it to 70% (refuge.js), never a second one there', () => {
  const policy = new CarefulBeginner();
  const first = policy.next(alone(6), null);
  assert.deepEqual([first.rule, first.tool, first.args.action, first.args.text], ['restWhenHurt', 'use', 'engrave', 'Elbereth']);
  const rest = policy.next(alone(7, 390), null);
  assert.deepEqual([rest.rule, rest.args.action], ['elberethRefuge', 'search']);
  const above = policy.next(alone(9, 400), null); // past half, under 70%: still on it
  assert.equal(above.rule, 'elberethRefuge');
});

test('unhurt or impaired: no Elbereth before the rest', () => {
  assert.notEqual(new CarefulBeginner().next(alone(14), null).args.action, 'engrave');
  const blind = alone(6);
  blind.scene.self.vitals.condition = ['blind'];
  const wait = new CarefulBeginner().next(blind, null);
  assert.deepEqual([wait.rule, wait.args.action], ['restWhenHurt', 'search']);
});
