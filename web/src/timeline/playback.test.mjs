// playback.test.mjs - the timeline's pure parts: playback, the frame buffer, markers, keys (node --test).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FrameBuffer } from './buffer.js';
import { keyAction } from './keys.js';
import { markers } from './markers.js';
import { behind, nextDelay, reduce, start } from './playback.js';

/** @param {any} state @param {...any} actions */
const run = (state, ...actions) => actions.reduce(reduce, state);

test('a live game starts at its present and follows it; an ended one starts paused at its end or the asked move', () => {
  const live = start(40, true);
  assert.deepEqual([live.mode, live.position], ['live', 40]);
  assert.equal(run(live, { type: 'append', count: 55 }).position, 55);
  assert.deepEqual([start(40, false).mode, start(40, false).position], ['paused', 40]);
  assert.equal(start(40, false, 12).position, 12);
  assert.equal(start(40, false, 99).position, 40, 'a move past the end is the end');
});

test('playing falls behind an agent that outruns it, never skips a move, and "live" returns to the present', () => {
  let state = run(start(10, true), { type: 'seek', move: 2 }, { type: 'speed', speed: 2 }, { type: 'play' });
  const shown = [state.position];
  for (let tick = 0; tick < 5; tick += 1) {
    state = run(state, { type: 'append', count: state.count + 10 }, { type: 'advance' }); // the agent: 10 per tick
    shown.push(state.position);
  }
  assert.deepEqual(shown, [2, 3, 4, 5, 6, 7], 'one move per advance, in order, while the game grows');
  assert.equal(state.mode, 'playing');
  assert.equal(behind(state), 53);
  state = reduce(state, { type: 'live' });
  assert.deepEqual([state.mode, state.position, behind(state)], ['live', 60, 0]);
});

test('playing into the present turns live; into the end of an ended game pauses; play at the end replays', () => {
  let state = run(start(3, true), { type: 'seek', move: 2 }, { type: 'play' }, { type: 'advance' });
  assert.deepEqual([state.mode, state.position], ['live', 3]);
  state = run(start(3, false), { type: 'seek', move: 2 }, { type: 'play' }, { type: 'advance' });
  assert.deepEqual([state.mode, state.position], ['paused', 3]);
  state = reduce(state, { type: 'play' });
  assert.deepEqual([state.mode, state.position], ['playing', 0]);
  state = run(start(5, true), { type: 'ended' });
  assert.equal(state.mode, 'paused');
  assert.equal(reduce(state, { type: 'live' }).mode, 'paused', 'an ended game has no present to follow');
});

test('stepping, Home and End are clamped and pause; only the offered speeds are taken', () => {
  const state = start(9, false, 4);
  assert.equal(run(state, { type: 'step', delta: -10 }).position, 0);
  assert.equal(run(state, { type: 'step', delta: 1 }).position, 5);
  assert.equal(run(state, { type: 'end' }).position, 9);
  assert.equal(run(state, { type: 'home' }).position, 0);
  assert.equal(run(state, { type: 'speed', speed: 3 }).speed, 1);
  assert.equal(run(state, { type: 'speed', speed: Infinity }).speed, Infinity);
  assert.equal(run(state, { type: 'toggle' }).mode, 'playing');
  assert.equal(run(state, { type: 'toggle' }, { type: 'toggle' }).mode, 'paused');
});

test('the delay before the next move: what is left of 1/speed; none at max', () => {
  assert.equal(nextDelay(10, 1000, 1030), 70);
  assert.equal(nextDelay(2, 0, 800), 0);
  assert.equal(nextDelay(Infinity, 0, 0), 0);
});

test('keys: arrows step, Home/End, space toggles; typing and modifiers are left alone', () => {
  assert.deepEqual(keyAction({ key: 'ArrowLeft', targetTag: 'DIV' }), { type: 'step', delta: -1 });
  assert.deepEqual(keyAction({ key: 'ArrowRight', targetTag: 'INPUT', targetType: 'range' }), { type: 'step', delta: 1 });
  assert.deepEqual(keyAction({ key: 'Home' }), { type: 'home' });
  assert.deepEqual(keyAction({ key: 'End', targetTag: 'BUTTON' }), { type: 'end' });
  assert.deepEqual(keyAction({ key: ' ', targetTag: 'SECTION' }), { type: 'toggle' });
  assert.equal(keyAction({ key: ' ', targetTag: 'BUTTON' }), null, 'a focused button is pressed by space');
  assert.equal(keyAction({ key: 'ArrowLeft', targetTag: 'INPUT', targetType: 'text' }), null);
  assert.equal(keyAction({ key: 'ArrowLeft', targetTag: 'SELECT' }), null);
  assert.equal(keyAction({ key: 'ArrowLeft', altKey: true }), null);
  assert.equal(keyAction({ key: 'x' }), null);
});

/** @param {number} first @param {number} last @param {any} facts */
const call = (first, last, facts) => ({ id: `c${first}`, first, last, label: 'game.move', status: 'accepted',
  messages: [], turn: last, depth: 1, hp: 20, hpMax: 20, events: [], ...facts });

test('markers: a level change, a prayer, a kill, a big HP drop, a near-death and a question, each once', () => {
  const calls = [call(1, 3, {}), call(4, 4, { hp: 16 }), call(5, 9, { depth: 2, hp: 3, events: ['creatureDied'] }),
    call(10, 10, { depth: 2, hp: 2, events: ['prayed'] }), call(11, 11, { depth: 2, hp: 20 })];
  const moves = Array.from({ length: 11 }, (_, i) => ({ move: i + 1, decision: i + 1 === 10 || i + 1 === 11 ? 'yesNo' : null }));
  const found = markers(/** @type {any} */ (calls), /** @type {any} */ (moves)).map((m) => `${m.move}:${m.kind}`);
  assert.deepEqual(found, ['9:level', '9:kill', '9:hpDrop', '9:nearDeath', '10:prayer', '10:decision']);
});

test('the frame buffer fetches ahead in order, keeps exact frames, and fetches an inexact one again', async () => {
  /** @type {number[]} */
  const asked = [];
  const buffer = new FrameBuffer(async (move) => { asked.push(move); return /** @type {any} */ ({ move, exact: move !== 7 }); },
    { ahead: 4, parallel: 2 });
  assert.equal((await buffer.get(5)).move, 5);
  buffer.prefetch(5, 8);
  await new Promise((resolve) => { setTimeout(resolve, 10); });
  assert.deepEqual(asked, [5, 6, 7, 8], 'the moves after 5 up to the last, in order');
  await buffer.get(6);
  await buffer.get(7);
  assert.deepEqual(asked, [5, 6, 7, 8, 7], 'kept frames are not fetched again; the inexact one is');
  const failing = new FrameBuffer(async () => { throw new Error('replayDiverged'); });
  await assert.rejects(failing.get(1), /replayDiverged/);
});
