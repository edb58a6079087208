// food.test.mjs - which corpses and pack food a careful beginner eats (node --test).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { corpseName, corpseWelcome, packFood, safeCorpse } from './food.js';

test('corpseName strips the article, a count and "partly eaten"', () => {
  assert.equal(corpseName('a newt corpse'), 'newt');
  assert.equal(corpseName('2 jackal corpses'), 'jackal');
  assert.equal(corpseName('a partly eaten Mordor orc corpse'), 'mordor orc');
});

test('only corpses of kinds safe for every race are eaten', () => {
  assert.equal(safeCorpse('a newt corpse', 'human'), true);
  assert.equal(safeCorpse('a partly eaten jackal corpse', 'human'), true);
  for (const unsafe of ['a kobold corpse', 'an acid blob corpse', 'a little dog corpse', 'a werejackal corpse',
    'a bat corpse']) {
    assert.equal(safeCorpse(unsafe, 'human'), false, unsafe);
  }
});

test('a gnome is safe for a human, cannibalism for a gnome', () => {
  assert.equal(safeCorpse('a gnome corpse', 'human'), true);
  assert.equal(safeCorpse('a gnome corpse', 'gnome'), false);
  assert.equal(safeCorpse('a dwarf corpse', 'dwarf'), false);
});

test('a Monk eats meat only when hunger insists; lichen always', () => {
  assert.equal(corpseWelcome('a newt corpse', 'Monk', 'not_hungry'), false);
  assert.equal(corpseWelcome('a newt corpse', 'Monk', 'hungry'), true);
  assert.equal(corpseWelcome('a lichen corpse', 'Monk', 'not_hungry'), true);
  assert.equal(corpseWelcome('a newt corpse', 'Valkyrie', 'not_hungry'), true);
});

test('pack food: never a corpse, tin or egg; the lightest kind first', () => {
  const item = (id, label) => ({ id, category: 'food', label });
  assert.equal(packFood([item('i1', 'a jackal corpse'), item('i2', 'a clove of garlic')])?.id, 'i2');
  assert.equal(packFood([item('i1', 'an apple'), item('i2', 'a food ration')])?.id, 'i2');
  assert.equal(packFood([item('i1', 'a tin'), item('i2', 'an egg')]), null);
  assert.equal(packFood([{ id: 'w', category: 'weapon', label: 'a food ration' }]), null, 'only the food category');
  assert.equal(packFood(null), null);
});
