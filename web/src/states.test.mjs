// states.test.mjs - one badge and one label per state (node --test).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { badgeState, stateLabel } from './states.js';

test('known states keep their badge; a closed game is stored; anything else shows as live', () => {
  for (const state of ['live', 'stored', 'opening', 'ended', 'failed', 'owner', 'observer', 'lost']) {
    assert.equal(badgeState(state), state);
  }
  assert.equal(badgeState('closed'), 'stored');
  assert.equal(badgeState('toString'), 'live', 'an inherited name is no state');
  assert.equal(badgeState('unheard-of'), 'live');
});

test('labels follow the badge', () => {
  assert.equal(stateLabel('closed'), 'stored (not open in any tab)');
  assert.equal(stateLabel('opening'), 'resuming');
  assert.equal(stateLabel('whatever'), 'live');
});
