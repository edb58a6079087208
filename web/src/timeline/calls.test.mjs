// calls.test.mjs - the move list's calls from journal inputs and receipts (node --test).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LABEL_LIMIT, callFacts, callLabel, methodLabel, timelineMoves } from './calls.js';

/** A completed journal input of operation `op`. */
const input = (seq, op, method, params = {}) => ({
  seq, operationId: op, method, state: 'completed',
  request: { method, params: { sessionId: 's', requestId: `${op}.${seq}`, expectedRevision: seq - 1, ...params } },
  receipt: { revision: seq, decision: null, ended: false },
});

const frame = (turn, hp, events = []) => ({
  outcome: { status: 'completed' }, basis: { turn },
  scene: { self: { vitals: { hp, hpMax: 16 }, level: { depth: 2 } } }, events,
});

test('a call is labelled as the agent wrote it, binding fields left out, long ones cut', () => {
  assert.equal(callLabel({ tool: 'travel', arguments: { to: 'downstairs', viewId: 'v1', requestId: 'r' } }),
    'travel {"to":"downstairs"}');
  assert.equal(callLabel({ tool: 'interact', arguments: { action: 'search', turns: 10 } }),
    'interact {"action":"search","turns":10}');
  assert.equal(callLabel({ tool: 'observe', arguments: { viewId: 'v' } }), 'observe');
  assert.equal(callLabel(undefined), null, 'an old receipt kept no call');
  assert.equal(callLabel({ arguments: {} }), null);
  const long = callLabel({ tool: 'respond', arguments: { text: 'é'.repeat(400) } }) ?? '';
  assert.equal(Array.from(long).length, LABEL_LIMIT);
  assert.ok(long.endsWith('...'));
});

test('a receipt gives the call\'s outcome, messages, turn, depth, HP and event kinds', () => {
  const facts = callFacts({ frame: frame(12, 9, [
    { type: 'heard', text: 'You hear a door open.' },
    { type: 'passage', lines: ['It is written', 'in the book.'] },
    { type: 'killed', text: '  ' },
    { type: 'heard', text: 'Again.' },
  ]), call: { tool: 'interact', arguments: { action: 'wait' } } });
  assert.deepEqual(facts, {
    label: 'interact {"action":"wait"}', status: 'completed',
    messages: ['You hear a door open.', 'It is written in the book.', 'Again.'],
    turn: 12, depth: 2, hp: 9, hpMax: 16, events: ['heard', 'killed', 'passage'],
  });
  assert.deepEqual(callFacts(null), { label: null, status: null, messages: [], turn: null, depth: null,
    hp: null, hpMax: null, events: [] });
});

test('moves are grouped by their call, whole even when the range cuts it, each call with its receipt', () => {
  const inputs = [
    input(1, 'a', 'game.search', { count: 3 }),
    input(2, 'b', 'game.move', { direction: 'west' }),
    input(3, 'b', 'game.move', { direction: 'west' }),
    input(4, 'b', 'game.move', { direction: 'north' }),
    input(5, 'c', 'game.pray'),
  ];
  const receipts = {
    a: { frame: frame(3, 16), call: { tool: 'interact', arguments: { action: 'search', turns: 3, viewId: 'v' } } },
    b: { frame: frame(6, 15) }, // an old game's receipt: no call
  };
  const moves = timelineMoves(inputs, 3, 5, (id) => receipts[id] ?? null);
  assert.deepEqual(moves.map((move) => move.move), [3, 4, 5]);
  assert.deepEqual(moves[0].params, { direction: 'west' }, 'the binding fields are not the input');
  assert.equal(moves[0].call, moves[1].call, 'one shared call object');
  const [leg, prayer] = [moves[0].call, moves[2].call];
  assert.deepEqual([leg.first, leg.last, prayer.first, prayer.last], [2, 4, 5, 5]);
  assert.equal(leg.label, 'game.move {"direction":"west"}; game.move {"direction":"north"}');
  assert.deepEqual([leg.turn, leg.hp, leg.status], [6, 15, 'completed']);
  assert.equal(prayer.label, 'game.pray', 'no receipt yet: its method');
  assert.deepEqual([prayer.turn, prayer.status, prayer.events], [null, null, ['prayed']]);
  const first = timelineMoves(inputs, 1, 1, (id) => receipts[id] ?? null)[0].call;
  assert.equal(first.label, 'interact {"action":"search","turns":3}');
  assert.deepEqual(timelineMoves(inputs, 6, 9, () => null), []);
});

test('a method label names each kind of input once, at most four kinds', () => {
  assert.equal(methodLabel(['a', 'a', 'b']), 'a; b');
  assert.equal(methodLabel(['a', 'b', 'c', 'd', 'e', 'f']), 'a; b; c; d; ... (2 more kinds)');
});
