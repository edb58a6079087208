// searching.test.mjs - what a walk to a search spot costs the spot: one cut short by a creature hardly
// counts against it, any other walk (no route, blocked, arrived) half a search; an arrival is followed by
// a search there (node --test).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { searchPlanSpots, spotWalked } from './searching.js';

const level = () => ({ searched: new Map(), spotWalk: { key: '47,5', kind: 'wall' } });

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
    walked.spotWalk = { key: '47,5', kind: 'wall' };
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

test('a walk that arrived is followed by a search there, even when the plan now ranks another spot first', () => {
  const walker = { searched: new Map(), spotWalk: null, spotArrived: null, explored: true };
  const plan = { deadEnds: [], searchSpots: [{ x: 5, y: 16, distance: 2 }, { x: 7, y: 15, distance: 0 }] };
  const ctx = (x, y, spots) => ({ plan: { ...plan, searchSpots: spots }, level: walker, hero: { x, y }, base: {} });
  const walk = searchPlanSpots(ctx(7, 15, plan.searchSpots));
  assert.ok(walk);
  assert.equal(walk.tool, 'travel');
  assert.deepEqual(walk.args.to, { x: 5, y: 16 });
  spotWalked(walker, 'arrived');
  // From 5,16 the plan ranks 7,15 first and no longer lists 5,16: the walk's spot is searched all the same.
  const search = searchPlanSpots(ctx(5, 16, [{ x: 7, y: 15, distance: 2 }]));
  assert.ok(search);
  assert.equal(search.tool, 'interact');
  assert.equal(search.args.action, 'search');
  assert.equal(walker.searched.get('5,16'), 1);
  // Once: the next choice is the plan's again.
  const again = searchPlanSpots(ctx(5, 16, [{ x: 7, y: 15, distance: 2 }]));
  assert.ok(again);
  assert.deepEqual(again.args.to, { x: 7, y: 15 });
});

test('a walk cut short is not followed by a search where it stopped', () => {
  const walker = { searched: new Map(), spotWalk: { key: '5,16', kind: 'wall' }, spotArrived: null, explored: true };
  spotWalked(walker, 'newCreature');
  const next = searchPlanSpots({ plan: { deadEnds: [], searchSpots: [{ x: 5, y: 16, distance: 3 }] }, level: walker, hero: { x: 4, y: 13 }, base: {} });
  assert.ok(next);
  assert.equal(next.tool, 'travel');
});
