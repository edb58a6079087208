// playback.js - the timeline's position and mode, as a pure reducer (no DOM, no clock).
//
// Modes: 'live' (at the present: each new move is shown as it arrives),
// 'playing' (one move after another at `speed` moves per second, never
// skipping one: when the agent outruns the viewer the position falls
// behind and the moves wait in the source - the buffer - until shown),
// 'paused'. `goLive` returns to the present. Playing into the present of a
// live game turns into 'live'; playing into the end of an ended game pauses.

/** Moves per second; Infinity is "max": the next move as soon as the last is drawn. */
export const SPEEDS = [1, 2, 5, 10, Infinity];

/** @typedef {'live' | 'playing' | 'paused'} Mode */
/** @typedef {{mode: Mode, position: number, count: number, live: boolean, speed: number}} Playback */

/** @param {number} value @param {number} count */
const clamp = (value, count) => Math.max(0, Math.min(count, Math.trunc(value)));

/** The start: a live game at its present, an ended one paused at its end (or at `move`, when asked).
 * @param {number} count @param {boolean} live @param {number | null} [move] @returns {Playback} */
export function start(count, live, move = null) {
  if (move !== null && Number.isFinite(move)) return { mode: 'paused', position: clamp(move, count), count, live, speed: 1 };
  return { mode: live ? 'live' : 'paused', position: count, count, live, speed: 1 };
}

/** How far the position is behind the present. @param {Playback} state */
export const behind = (state) => state.count - state.position;

/**
 * @typedef {{type: 'append', count: number} | {type: 'ended'} | {type: 'play'} | {type: 'pause'}
 *   | {type: 'toggle'} | {type: 'step', delta: number} | {type: 'seek', move: number} | {type: 'home'}
 *   | {type: 'end'} | {type: 'live'} | {type: 'speed', speed: number} | {type: 'advance'}} Action
 */

/** @param {Playback} state @param {Action} action @returns {Playback} */
export function reduce(state, action) {
  switch (action.type) {
    case 'append': {
      const count = Math.max(state.count, action.count);
      return { ...state, count, position: state.mode === 'live' ? count : state.position };
    }
    case 'ended':
      return { ...state, live: false, mode: state.mode === 'live' ? 'paused' : state.mode };
    case 'play':
      if (state.position >= state.count) {
        return state.live ? { ...state, mode: 'live' } : { ...state, mode: 'playing', position: 0 };
      }
      return { ...state, mode: 'playing' };
    case 'pause':
      return { ...state, mode: 'paused' };
    case 'toggle':
      return state.mode === 'paused' ? reduce(state, { type: 'play' }) : { ...state, mode: 'paused' };
    case 'step':
      return { ...state, mode: 'paused', position: clamp(state.position + action.delta, state.count) };
    case 'seek':
      return { ...state, mode: 'paused', position: clamp(action.move, state.count) };
    case 'home':
      return { ...state, mode: 'paused', position: 0 };
    case 'end':
      return state.live ? { ...state, mode: 'live', position: state.count }
        : { ...state, mode: 'paused', position: state.count };
    case 'live':
      return state.live ? { ...state, mode: 'live', position: state.count } : state;
    case 'speed':
      return SPEEDS.includes(action.speed) ? { ...state, speed: action.speed } : state;
    case 'advance': {
      if (state.mode !== 'playing') return state;
      const position = Math.min(state.position + 1, state.count);
      if (position < state.count) return { ...state, position };
      return { ...state, position, mode: state.live ? 'live' : 'paused' };
    }
    default:
      return state;
  }
}

/** Milliseconds to wait before the next move, the last one drawn at `shownAt`.
 * @param {number} speed @param {number} shownAt @param {number} now */
export function nextDelay(speed, shownAt, now) {
  if (!Number.isFinite(speed)) return 0;
  return Math.max(0, 1000 / speed - (now - shownAt));
}
