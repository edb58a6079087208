// searching.test.mjs - what a walk to a search spot costs the spot: one cut short by a creature hardly
// counts against it, any other walk (no route, blocked, arrived) half a search (node --test).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spotWalked } from './searching.js';

const level = () => ({ searched: new Map(), spotWalk: '47,5' });

test('a walk that found no route or was blocked counts half a search against the spot', () => {
  for (const stop of ['noRoute', 'blocked']) {
    const walked = level();
    spotWalked(walked, stop);
    assert.equal(walked.searched.get('47,5'), 0.5);
    assert.equal(walked.spotWalk, null);
  }
});

test('a walk cut short by a creature or an attack is tried again (an eighth); an arrival costs half, as a failure', () => {
  const walked = level();
  for (const stop of ['newCreature', 'attacked']) {
    walked.spotWalk = '47,5';
    spotWalked(walked, stop);
  }
  assert.equal(walked.searched.get('47,5'), 0.25);
  const arrived = level();
  spotWalked(arrived, 'arrived'); // the search there floors it away; two spots ranked in turn are not walked between forever
  assert.equal(arrived.searched.get('47,5'), 0.5);
});

test('a leg with no spot walk pending changes nothing', () => {
  const walked = { searched: new Map(), spotWalk: null };
  spotWalked(walked, 'noRoute');
  assert.equal(walked.searched.size, 0);
});
