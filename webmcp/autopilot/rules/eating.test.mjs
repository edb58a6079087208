// eating.test.mjs - fresh corpses come from the frames' creatureDied events (node --test, real frames).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CarefulBeginner } from '../beginner.js';
import { CORPSE_FRESH_TURNS } from './eating.js';
import { frame } from './fixtures.mjs';

test('a creatureDied event is a kill at its square, whatever the messages say', () => {
  const policy = new CarefulBeginner();
  const killed = frame('monk-lichen-killed');
  killed.events = killed.events.filter((event) => event.type !== 'heard'); // no "You kill" needed
  policy.observe(killed);
  assert.deepEqual(policy.memory.kills.map((kill) => [kill.name, kill.at]), [['lichen', { x: 22, y: 16 }]]);
});

test('a fresh safe kill close by where a % shows is walked onto, then eaten', () => {
  const policy = new CarefulBeginner();
  const killed = frame('monk-lichen-killed');
  policy.observe(killed);
  const walk = policy.next(killed, null);
  assert.equal(walk.rule, 'eatFreshCorpse');
  assert.deepEqual([walk.tool, walk.args.mode, walk.args.to], ['travel', 'to', { x: 22, y: 16 }]);
  const onIt = frame('monk-on-lichen-corpse');
  policy.observe(onIt);
  const meal = policy.next(onIt, null);
  assert.deepEqual([meal.rule, meal.tool, meal.args.action, meal.intent.corpse], ['eatFreshCorpse', 'use', 'eat', 'a lichen corpse']);
  assert.notEqual(policy.next(onIt, null).rule, 'eatFreshCorpse', 'one try per corpse');
});

test('an old corpse of a kind that rots is not eaten: no kill of it was seen there', () => {
  const policy = new CarefulBeginner();
  const onIt = frame('monk-on-lichen-corpse');
  onIt.scene.here.items[0].label = 'a jackal corpse';
  policy.observe(onIt);
  assert.notEqual(policy.next(onIt, null).rule, 'eatFreshCorpse');
});

test('bitten by a were-creature ("You feel feverish."): no corpse but lichen, and a prayer when safe', () => {
  const policy = new CarefulBeginner();
  const killed = frame('monk-lichen-killed');
  killed.events.push({ type: 'heard', text: 'You feel feverish.' });
  policy.observe(killed);
  assert.equal(policy.memory.lycanthrope, true);
  const move = policy.next(killed, null);
  assert.deepEqual([move.rule, move.args.action], ['prayInTrouble', 'pray'], 'turn 603, never prayed: safe');
  policy.prayed(killed.basis.turn);
  const onIt = frame('monk-on-lichen-corpse');
  onIt.scene.here.items[0].label = 'a jackal corpse';
  onIt.scene.self.role = 'Valkyrie'; // (a Monk eats meat only when hungry)
  policy.memory.kills.push({ name: 'jackal', turn: onIt.basis.turn, levelId: onIt.basis.levelId, at: onIt.scene.self.position });
  policy.observe(onIt);
  assert.notEqual(policy.next(onIt, null).rule, 'eatFreshCorpse');
  onIt.events.push({ type: 'heard', text: 'You feel purified.' });
  policy.observe(onIt);
  assert.equal(policy.next(onIt, null).rule, 'eatFreshCorpse');
});

test('a jackal killed here CORPSE_FRESH_TURNS turns ago is eaten (rotted <= 3 below age 40); one turn older is not', () => {
  /** @type {Array<[number, boolean]>} */
  const cases = [[CORPSE_FRESH_TURNS, true], [CORPSE_FRESH_TURNS + 1, false]];
  for (const [age, eaten] of cases) {
    const policy = new CarefulBeginner();
    const onIt = frame('monk-on-lichen-corpse');
    onIt.scene.here.items[0].label = 'a jackal corpse';
    onIt.scene.self.role = 'Valkyrie';
    policy.memory.kills.push({ name: 'jackal', turn: onIt.basis.turn - age, levelId: onIt.basis.levelId, at: onIt.scene.self.position });
    policy.observe(onIt);
    assert.equal(policy.next(onIt, null).rule === 'eatFreshCorpse', eaten, `age ${age}`);
  }
});

test('Hungry (not yet Weak) with food in the pack and nothing near: the pack food is eaten', () => {
  const policy = new CarefulBeginner();
  const hungry = frame('monk-attacked-by-kobold');
  hungry.scene.entities = [];
  hungry.scene.self.vitals.hunger = 'hungry';
  policy.observe(hungry);
  const move = policy.next(hungry, null);
  const food = hungry.scene.inventory.find((item) => item.id === move.args.itemId);
  assert.deepEqual([move.rule, move.args.action, food && food.category], ['eatPackFood', 'eat', 'food']);
});

test('an orc\'s tripe rations (its cram rations, u_init.c) are pack food; any other food is eaten first', () => {
  const hungry = frame('monk-attacked-by-kobold');
  hungry.scene.entities = [];
  hungry.scene.self.vitals.hunger = 'hungry';
  const others = hungry.scene.inventory.filter((item) => item.category !== 'food');
  const tripe = { ...hungry.scene.inventory.find((item) => item.category === 'food'), id: 'item-tripe',
                  label: '4 uncursed tripe rations' };
  hungry.scene.inventory = [...others, tripe];
  let policy = new CarefulBeginner();
  policy.observe(hungry);
  let move = policy.next(hungry, null);
  assert.deepEqual([move.rule, move.args.itemId], ['eatPackFood', 'item-tripe']);

  const apple = { ...tripe, id: 'item-apple', label: 'an uncursed apple' };
  hungry.scene.inventory = [...others, tripe, apple];
  policy = new CarefulBeginner();
  policy.observe(hungry);
  move = policy.next(hungry, null);
  assert.deepEqual([move.rule, move.args.itemId], ['eatPackFood', 'item-apple']);
});
