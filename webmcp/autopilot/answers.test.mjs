// answers.test.mjs - a question is answered only as the autopilot's own intent calls for (node --test).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseAnswer } from './answers.js';

const pray = { kind: 'confirmation', prompt: 'Are you sure you want to pray? [yn] (n)', reply: {}, cancel: null };

test('a prayer is confirmed only when the autopilot meant to pray', () => {
  assert.equal(chooseAnswer(pray, { intent: { kind: 'pray' } })?.value, true);
  assert.equal(chooseAnswer(pray, { intent: null })?.value, false);
});

test('a peaceful creature is never attacked', () => {
  const attack = { kind: 'confirmation', prompt: 'Really attack the watchman? [yn] (n)' };
  assert.equal(chooseAnswer(attack, { intent: { kind: 'fight' } })?.value, false);
});

test('only the chosen, safe corpse is eaten', () => {
  const kobold = { kind: 'confirmation', prompt: 'There is a kobold corpse here; eat it? [ynq] (n)' };
  assert.equal(chooseAnswer(kobold, { intent: { kind: 'eat' }, mayEat: true, race: 'human' })?.value, false);
  const newt = { kind: 'confirmation', prompt: 'There is a newt corpse here; eat it? [ynq] (n)' };
  assert.equal(chooseAnswer(newt, { intent: { kind: 'eat' }, mayEat: true, race: 'human' })?.value, true);
  assert.equal(chooseAnswer(newt, { intent: { kind: 'eat', corpse: 'a jackal corpse' }, mayEat: true, race: 'human' })?.value,
    false, 'another corpse of the pile');
  assert.equal(chooseAnswer(newt, { intent: { kind: 'eat' }, mayEat: false, race: 'human' })?.value, false, 'satiated');
});

test('an unexpected question is cancelled when it can be, else declined', () => {
  const named = { kind: 'text', prompt: 'What do you want to name this?', cancel: { arguments: {} } };
  assert.deepEqual(chooseAnswer(named, { intent: null }), { cancel: true, why: 'nothing to type' });
  const yesNo = { kind: 'confirmation', prompt: 'Do you want to keep the save file?', cancel: null };
  assert.equal(chooseAnswer(yesNo, { intent: null })?.value, false);
  assert.equal(chooseAnswer({ kind: 'unheard-of', prompt: '?' }, { intent: null }), null, 'not cancellable: unanswerable');
});

test('a pickup menu takes only what the intent names, never shop goods', () => {
  const menu = { kind: 'choice', prompt: 'Pick up what?', cancel: { arguments: {} },
    options: [{ id: 'a', label: 'a food ration' }, { id: 'b', label: 'a food ration (unpaid, 45 zorkmids)' },
      { id: 'c', label: 'a dagger' }] };
  assert.deepEqual(chooseAnswer(menu, { intent: { kind: 'pickup', pattern: /food ration/ } })?.value, ['a']);
  assert.equal(chooseAnswer(menu, { intent: null })?.cancel, true);
});

test("quivering the alternate weapon stack (a Rogue's daggers) is confirmed only when it meant to quiver", () => {
  const ready = { kind: 'confirmation', prompt: 'Your alternate weapon is 15 daggers.  Ready 14 of them? [ynq] (q)', reply: {}, cancel: {} };
  assert.equal(chooseAnswer(ready, { intent: { kind: 'quiver', itemId: 'item-2' } })?.value, true);
  assert.equal(chooseAnswer(ready, { intent: null })?.cancel, true);
});
